"""What this installation can parse and align with (``acs doctor``): each backend's libraries and
each model on disk, with the command that gets what is missing. Nothing heavy is imported and the
network is not touched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from auto_challenge_sets.backends import (
    ALIGNER,
    PARSER,
    available_backends,
    backend_class,
    install_hint,
    missing_modules,
)
from auto_challenge_sets.paths import default_cache_dir

# UD 2.5 models for UDPipe 1 (CC BY-NC-SA 4.0), the release the udpipe backend is tested with
UDPIPE_MODELS_URL = ("https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131/"
                     "udpipe-ud-2.5-191206.zip")
UDPIPE_MODELS_PAGE = "https://hdl.handle.net/11234/1-3131"


@dataclass(frozen=True)
class Check:
    """One line of the inventory: what, whether it is here, where or why, and how to get it."""

    name: str
    ok: bool
    detail: str
    get: str = ""  # the command (or step) that gets it when it is missing


def backend_checks() -> list[Check]:
    checks = []
    for kind in (PARSER, ALIGNER):
        for name in available_backends(kind):
            cls = backend_class(kind, name)
            missing = missing_modules(cls)
            detail = f"needs {', '.join(missing)}" if missing else "installed"
            checks.append(Check(f"{kind} {name}", not missing, detail, install_hint(cls) if missing else ""))
    return checks


def trankit_check(lang: str, cache_dir: Path | None = None, embedding: str = "xlm-roberta-base") -> Check:
    from auto_challenge_sets.backends.parsers.trankit_models import (
        default_trankit_cache,
        trankit_language,
        trankit_treebank,
        xlmr_snapshot,
    )

    cache = Path(cache_dir) if cache_dir else default_trankit_cache()
    language = trankit_language(lang)
    if trankit_treebank(language) is None:  # nothing to fetch: say what parses it instead
        return Check(f"trankit {lang} ({embedding})", False, f"trankit has no model for {lang!r}",
                     "--parser udpipe --udpipe-model FILE, or gold trees with --source-conllu FILE")
    package = (cache / embedding / language / f"{language}.downloaded").is_file()
    encoder = xlmr_snapshot(cache, embedding) is not None
    missing = [what for what, here in ((f"the {language} package", package), (embedding, encoder)) if not here]
    detail = f"in {cache}" if not missing else f"missing {' and '.join(missing)} in {cache}"
    get = "" if not missing else (f"acs parse --parser trankit --lang {lang} --input ANY.txt --output ANY.conllu "
                                  f"(fetches them from the Hub repo uonlp/trankit and {embedding} on first use)")
    return Check(f"trankit {lang} ({embedding})", not missing, detail, get)


def simalign_check(model: str | None = None) -> Check:
    from auto_challenge_sets.backends.aligners.simalign import DEFAULT_MODEL

    model = model or DEFAULT_MODEL
    if Path(model).expanduser().is_dir():
        ok = (Path(model).expanduser() / "config.json").is_file()
        return Check(f"simalign {model}", ok, "a local folder" if ok else "a folder without config.json",
                     "" if ok else "save_pretrained() a model and its tokenizer into it")
    from huggingface_hub import try_to_load_from_cache

    cached = try_to_load_from_cache(model, "config.json")
    ok = isinstance(cached, str)
    where = Path(cached).parent if ok else "the Hugging Face cache"
    return Check(f"simalign {model}", ok, f"in {where}" if ok else f"not in {where}",
                 "" if ok else f"huggingface-cli download {model}")


def udpipe_checks(models: list[Path] | None = None) -> list[Check]:
    """The UDPipe 1 models given, else the ``*.udpipe`` files in ``CACHE/udpipe``."""
    folder = default_cache_dir() / "udpipe"
    if models:
        found = [Path(path) for path in models]
    else:
        found = sorted(folder.glob("*.udpipe")) if folder.is_dir() else []
    get = (f"download {UDPIPE_MODELS_URL} (UD 2.5, CC BY-NC-SA 4.0; {UDPIPE_MODELS_PAGE}), unzip, and pass "
           f"a model with --udpipe-model FILE (or keep it in {folder})")
    if not found:
        return [Check("udpipe", False, f"no --udpipe-model given and no *.udpipe in {folder}", get)]
    return [_udpipe_model_check(path, get) for path in found]


def _udpipe_model_check(path: Path, get: str) -> Check:
    name = f"udpipe {path.name}"
    if not path.is_file():
        return Check(name, False, f"no such file: {path}", get)
    try:
        from ufal.udpipe import Model
    except ImportError:  # the backend line already says how to install it; the file is there
        return Check(name, True, f"{path} (not loaded: ufal.udpipe is not installed)")
    if Model.load(str(path)) is None:
        return Check(name, False, f"not a UDPipe 1 model: {path}", get)
    return Check(name, True, str(path))


def eflomal_check() -> Check:
    from auto_challenge_sets.backends.aligners.eflomal import eflomal_binary
    from auto_challenge_sets.errors import AcsError

    try:
        binary = eflomal_binary()
    except AcsError as error:
        return Check("eflomal binary", False, str(error), 'pip install "auto-challenge-sets[build]"')
    ok = binary.is_file() and os.access(binary, os.X_OK)
    return Check("eflomal binary", ok, str(binary) if ok else f"not executable: {binary}",
                 "" if ok else "pip install --force-reinstall eflomal==2.0.0")
