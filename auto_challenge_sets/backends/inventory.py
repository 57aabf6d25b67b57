"""What this installation can parse and align with (``acs doctor``): each backend's libraries, each
model on disk with the command that gets what is missing, and per language the parser and model a
build would use and how the targeted judge treats it as a target. Nothing heavy is imported and
the network is not touched.

trankit has a model for every PUD language but Icelandic (its Chinese is the simplified GSD; PUD's
is traditional). UDPipe 1 is the offline alternative, its models kept in ``CACHE/udpipe``;
``--source-conllu`` takes gold trees in any language.
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
from auto_challenge_sets.backends.parsers.trankit_models import (
    HUB_REPO,
    default_trankit_cache,
    trankit_language,
    trankit_treebank,
    xlmr_weights,
)
from auto_challenge_sets.backends.parsers.udpipe import missing_model_text, udpipe_folder, udpipe_models
from auto_challenge_sets.formats.target_languages import lemma_language, match_label, tokens_label

# the nine PUD languages, then the WMT targets without PUD data
LANGUAGES = ("cs", "de", "en", "es", "fr", "hi", "is", "ru", "zh", "ja", "uk")
EMBEDDING = "xlm-roberta-base"  # trankit's (base) encoder


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


@dataclass(frozen=True)
class LanguageParsers:
    """Per language (``acs doctor --lang``): what a build would parse with, and what is on disk."""

    lang: str
    trankit_language: str | None  # trankit's name for it; None: trankit has no model
    trankit_treebank: str | None
    trankit_cache: Path
    trankit_missing: tuple[str, ...]  # what of trankit's is not in its cache
    udpipe_models: tuple[Path, ...]  # what --parser udpipe finds for it, the one it takes first
    as_target: str  # the targeted judge's match and tokens for it as a target language


def language_parsers(lang: str, trankit_cache: Path | None = None, udpipe_dir: Path | None = None) -> LanguageParsers:
    cache = Path(trankit_cache) if trankit_cache else default_trankit_cache()
    name = trankit_language(lang)
    treebank = trankit_treebank(name)
    package = (cache / EMBEDDING / name / f"{name}.downloaded").is_file()
    missing = [what for what, here in ((f"the {name} package", package),
                                       (EMBEDDING, xlmr_weights(cache, EMBEDDING) is not None)) if not here]
    target = f"{match_label(lemma_language(lang))}, {tokens_label(lang)}"
    return LanguageParsers(lang, name if treebank else None, treebank, cache, tuple(missing),
                           tuple(udpipe_models(lang, udpipe_dir)), target)


def trankit_check(lang: str, cache_dir: Path | None = None) -> Check:
    found = language_parsers(lang, cache_dir)
    name = f"trankit {lang} ({EMBEDDING})"
    if found.trankit_language is None:  # nothing to fetch: say what parses it instead
        return Check(name, False, f"trankit has no model for {lang!r}",
                     "--parser udpipe (see the udpipe line), or gold trees with --source-conllu FILE")
    if not found.trankit_missing:
        return Check(name, True, f"in {found.trankit_cache}")
    return Check(name, False, f"missing {' and '.join(found.trankit_missing)} in {found.trankit_cache}",
                 f"acs parse --parser trankit --lang {lang} --input ANY.txt --output ANY.conllu (fetches them "
                 f"from the Hub repo {HUB_REPO} and {EMBEDDING} on first use)")


def udpipe_checks(langs: list[str], models: list[Path] | None = None) -> list[Check]:
    """The UDPipe 1 models given, else the one ``--parser udpipe`` takes for each language."""
    if models:
        return [_udpipe_model_check(f"udpipe {Path(path).name}", Path(path), "pass an existing UDPipe 1 model "
                                    "file (`acs doctor` without --udpipe-model says where to get one)") for path in models]
    found = {lang: models[0] for lang in langs if (models := udpipe_models(lang))}
    absent = [lang for lang in langs if lang not in found]
    get = f"{missing_model_text(*(absent or langs))}, or pass --udpipe-model FILE"
    checks = [_udpipe_model_check(f"udpipe {lang}", path, get) for lang, path in found.items()]
    return checks + ([Check(f"udpipe {', '.join(absent)}", False, f"no model in {udpipe_folder()}", get)] if absent else [])


def _udpipe_model_check(name: str, path: Path, get: str) -> Check:
    if not path.is_file():
        return Check(name, False, f"no such file: {path}", get)
    try:
        from ufal.udpipe import Model
    except ImportError:  # the backend line already says how to install it; the file is there
        return Check(name, True, f"{path} (not loaded: ufal.udpipe is not installed)")
    if Model.load(str(path)) is None:
        return Check(name, False, f"not a UDPipe 1 model: {path}", get)
    return Check(name, True, str(path))


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
                 "" if ok else f"huggingface-cli download {model}, or pass a save_pretrained() folder of it "
                 "with --align-model DIR")


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
