"""trankit's model files: where they live, which are missing, and fetching them from the Hub.

trankit 1.1.2 downloads from a server that is gone; the same zips are in the Hub repository
``uonlp/trankit``. Both they and XLM-R are put into trankit's own cache layout::

    CACHE/xlm-roberta-base/german/{german.tokenizer.mdl, ..., german.downloaded}
    CACHE/xlm-roberta-base/models--xlm-roberta-base/snapshots/REV/{config.json, ...}
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from auto_challenge_sets.backends.parsers import ParserError
from auto_challenge_sets.paths import default_cache_dir

HUB_REPO = "uonlp/trankit"
SAVED_MODEL_VERSION = "v1.0.0"  # trankit.utils.tbinfo.saved_model_version of trankit 1.1.x
EMBEDDINGS = ("xlm-roberta-base", "xlm-roberta-large")
XLMR_FILES = ("config.json", "sentencepiece.bpe.model")
XLMR_WEIGHTS = ("model.safetensors", "pytorch_model.bin")

LANGUAGES = {
    "ar": "arabic", "cs": "czech", "da": "danish", "de": "german", "en": "english", "es": "spanish",
    "et": "estonian", "fi": "finnish", "fr": "french", "hi": "hindi", "hu": "hungarian", "it": "italian",
    "ja": "japanese", "ko": "korean", "lv": "latvian", "nl": "dutch", "pl": "polish", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sv": "swedish", "tr": "turkish", "uk": "ukrainian", "zh": "chinese",
}


def import_trankit():
    """Import trankit 1.1.2 against today's transformers: it imports ``transformers.AdamW`` (since
    removed), and its ``adapters`` needs ``transformers.processing_utils`` loaded first."""
    import torch
    import transformers
    import transformers.processing_utils  # noqa: F401  (must be imported before adapters/trankit)

    if not hasattr(transformers, "AdamW"):
        transformers.AdamW = torch.optim.AdamW
    try:
        import trankit
    except ImportError as error:
        raise ParserError(f"trankit cannot be imported ({error}); install it with "
                          "`pip install --no-deps trankit==1.1.2` plus the [build] extras") from None
    return trankit


def trankit_language(lang: str) -> str:
    return LANGUAGES.get(lang, lang)


def default_trankit_cache() -> Path:
    if os.environ.get("ACS_TRANKIT_CACHE"):
        return Path(os.environ["ACS_TRANKIT_CACHE"])
    return default_cache_dir() / "trankit"


def _tbinfo():
    """trankit's table of treebanks (``trankit.utils.tbinfo``, plain data), read without importing
    trankit, whose package imports torch and transformers: a model check should decide at once."""
    import importlib.util

    spec = importlib.util.find_spec("trankit")
    origin = Path(spec.origin).parent / "utils" / "tbinfo.py" if spec and spec.origin else None
    if origin is None or not origin.is_file():
        return import_trankit().utils.tbinfo  # names what is missing, as the backend does
    module_spec = importlib.util.spec_from_file_location("_acs_trankit_tbinfo", origin)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def trankit_treebank(language: str) -> str | None:
    """The UD treebank trankit's model of ``language`` (trankit's name) was trained on; None: no model."""
    return _tbinfo().lang2treebank.get(language)


def xlmr_weights(cache_dir: Path, embedding: str) -> Path | None:
    """The weights file of a complete Hub snapshot of XLM-R in trankit's cache (the snapshot's
    folder is named by its Hub commit)."""
    snapshots = cache_dir / embedding / f"models--{embedding}" / "snapshots"
    if not snapshots.is_dir():
        return None
    for folder in sorted(snapshots.iterdir()):
        weights = next((folder / name for name in XLMR_WEIGHTS if (folder / name).is_file()), None)
        if weights is not None and all((folder / name).is_file() for name in XLMR_FILES):
            return weights
    return None


def missing_model_files(cache_dir: str | os.PathLike[str], language: str, embedding: str) -> list[Path]:
    tbinfo = _tbinfo()
    if language not in tbinfo.lang2treebank:
        raise ParserError(f"trankit has no model for language {language!r}")
    names = [f"{language}.tokenizer.mdl", f"{language}.tagger.mdl", f"{language}.vocabs.json",
             f"{language}_lemmatizer.pt"]
    if tbinfo.tbname2training_id[tbinfo.lang2treebank[language]] % 2 == 1:  # trankit's mark of an MWT expander
        names.append(f"{language}_mwt_expander.pt")
    if language in tbinfo.langwithner:
        names += [f"{language}.ner.mdl", f"{language}.ner-vocab.json"]
    names.append(f"{language}.downloaded")  # trankit's own "already downloaded" mark
    cache = Path(cache_dir)
    missing = [cache / embedding / language / name for name in names]
    missing = [path for path in missing if not path.is_file()]
    if xlmr_weights(cache, embedding) is None:  # the folder: its subfolder is named by an unknown commit
        missing.append(cache / embedding / f"models--{embedding}" / "snapshots")
    return missing


def fetch_trankit_models(cache_dir: str | os.PathLike[str], language: str, embedding: str) -> None:
    """Download a language package and XLM-R from the Hub into trankit's cache layout."""
    import huggingface_hub

    cache = Path(cache_dir)
    lang_dir = cache / embedding / language
    if not (lang_dir / f"{language}.downloaded").is_file():
        lang_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache) as scratch:
            zip_path = huggingface_hub.hf_hub_download(
                HUB_REPO, f"models/{SAVED_MODEL_VERSION}/{embedding}/{language}.zip", local_dir=scratch)
            with zipfile.ZipFile(zip_path) as archive:
                for member in archive.infolist():
                    if member.is_dir():
                        continue
                    # Some zips hold a {language}/ folder, others the bare files: flatten either way.
                    target = lang_dir / Path(member.filename).name
                    with archive.open(member) as source, open(target, "wb") as sink:
                        shutil.copyfileobj(source, sink)
        (lang_dir / f"{language}.downloaded").write_text("")
    if xlmr_weights(cache, embedding) is None:
        xlmr_cache = cache / embedding  # where trankit tells transformers to look
        for name in XLMR_FILES:
            huggingface_hub.hf_hub_download(embedding, name, cache_dir=xlmr_cache)
        try:
            huggingface_hub.hf_hub_download(embedding, XLMR_WEIGHTS[0], cache_dir=xlmr_cache)
        except huggingface_hub.utils.EntryNotFoundError:
            huggingface_hub.hf_hub_download(embedding, XLMR_WEIGHTS[1], cache_dir=xlmr_cache)


def ensure_trankit_models(cache_dir: str | os.PathLike[str], language: str, embedding: str) -> None:
    """Make sure the model files are there (fetching them unless the Hub is off), else fail naming them."""
    missing = missing_model_files(cache_dir, language, embedding)
    if not missing:
        return
    from auto_challenge_sets.backends.hub import hub_offline_mode, hub_reachable

    if hub_offline_mode():
        reason = "offline mode: HF_HUB_OFFLINE is set"
    elif not hub_reachable():
        reason = "the Hugging Face Hub cannot be reached"
    else:
        try:
            fetch_trankit_models(cache_dir, language, embedding)
        except Exception as error:  # no network, offline mode, Hub errors: all mean "not here"
            reason = f"fetching from the Hub failed: {type(error).__name__}: {str(error).splitlines()[0][:200]}"
        else:
            missing = missing_model_files(cache_dir, language, embedding)
            if not missing:
                return
            reason = "the download did not provide them"
    shown = "\n  ".join(str(path) for path in missing)
    raise ParserError(
        f"trankit model files for {language} ({embedding}) are missing ({reason}):\n  {shown}\n"
        f"Get them on a machine with network (the language zip is "
        f"https://huggingface.co/{HUB_REPO}/resolve/main/models/{SAVED_MODEL_VERSION}/{embedding}/{language}.zip, "
        f"unzipped into {Path(cache_dir) / embedding / language}/ with an empty {language}.downloaded beside it; "
        f"XLM-R ({', '.join(XLMR_FILES)} and {XLMR_WEIGHTS[0]}) comes from the Hub repository {embedding} "
        f"into the Hub cache folder {Path(cache_dir) / embedding}), e.g. by running `acs parse` there once, then copy that folder "
        f"here and pass it with trankit_cache DIR.\nOr parse with UDPipe 1 (offline): {_udpipe_alternative(language)}",
        field=("trankit_cache", "parser", "udpipe_model"))


def _udpipe_alternative(language: str) -> str:
    from auto_challenge_sets.backends.parsers.udpipe import missing_model_text, udpipe_models

    lang = next((code for code, name in LANGUAGES.items() if name == language), language)
    found = udpipe_models(lang)
    return f"parser udpipe takes {found[0]}" if found else f"parser udpipe: {missing_model_text(lang)}, or udpipe_model FILE"


@contextlib.contextmanager
def hub_offline():
    """Hub offline mode while trankit loads the files check_ready() found on disk: else
    transformers asks the Hub for a newer XLM-R, which without network costs minutes of retries.
    The flags are read at import time, so the module constants are switched too."""
    import huggingface_hub.constants
    import transformers.utils.hub

    saved = (os.environ.get("HF_HUB_OFFLINE"), huggingface_hub.constants.HF_HUB_OFFLINE,
             transformers.utils.hub._is_offline_mode)
    os.environ["HF_HUB_OFFLINE"] = "1"
    huggingface_hub.constants.HF_HUB_OFFLINE = True
    transformers.utils.hub._is_offline_mode = True
    try:
        yield
    finally:
        if saved[0] is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = saved[0]
        huggingface_hub.constants.HF_HUB_OFFLINE = saved[1]
        transformers.utils.hub._is_offline_mode = saved[2]
