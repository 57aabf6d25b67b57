"""Per language (``acs doctor --lang``): the parser and model a build would use, what to fetch for
each parser, and how the targeted judge treats it as a target. Nothing is loaded or downloaded.

trankit has a model for every PUD language but Icelandic (its Chinese is the simplified GSD; PUD's
is traditional). UDPipe 1 is the offline alternative, with the UD 2.5 release's model file kept in
``CACHE/udpipe``; ``--source-conllu`` takes gold trees in any language.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from auto_challenge_sets.backends.parsers.trankit_models import (
    HUB_REPO,
    SAVED_MODEL_VERSION,
    default_trankit_cache,
    trankit_language,
    trankit_treebank,
    xlmr_snapshot,
)
from auto_challenge_sets.formats.target_languages import lemma_language, match_label, tokens_label
from auto_challenge_sets.paths import default_cache_dir

# the nine PUD languages, then the WMT targets without PUD data
LANGUAGES = ("cs", "de", "en", "es", "fr", "hi", "is", "ru", "zh", "ja", "uk")
UDPIPE_RELEASE = "ud-2.5-191206"
# the UD 2.5 treebank whose UDPipe 1 model a build of the language would use (the largest one)
UDPIPE_TREEBANKS = {
    "cs": "czech-pdt", "de": "german-hdt", "en": "english-ewt", "es": "spanish-ancora", "fr": "french-gsd",
    "hi": "hindi-hdtb", "is": "icelandic-icepahc", "ru": "russian-syntagrus", "zh": "chinese-gsd",
    "ja": "japanese-gsd", "uk": "ukrainian-iu",
}
EMBEDDING = "xlm-roberta-base"


@dataclass(frozen=True)
class LanguageParsers:
    lang: str
    trankit_language: str | None  # trankit's name for it; None: trankit has no model
    trankit_treebank: str | None
    trankit_ready: bool  # its package and the XLM-R encoder are in the cache
    trankit_fetch: str  # what to fetch for trankit ("" when ready or impossible)
    udpipe_model: Path | None  # the UD 2.5 model file expected; None: no known model
    udpipe_ready: bool
    build_parser: str  # what `acs build` would parse with, by default
    as_target: str  # the targeted judge's match and tokens for it as a target language


def language_parsers(lang: str, trankit_cache: Path | None = None, udpipe_dir: Path | None = None) -> LanguageParsers:
    """What a build from ``lang`` would parse with and what is on disk for it (see the module)."""
    cache = Path(trankit_cache) if trankit_cache else default_trankit_cache()
    folder = Path(udpipe_dir) if udpipe_dir else default_cache_dir() / "udpipe"
    name = trankit_language(lang)
    treebank = trankit_treebank(name)
    udpipe = folder / f"{UDPIPE_TREEBANKS[lang]}-{UDPIPE_RELEASE}.udpipe" if lang in UDPIPE_TREEBANKS else None
    udpipe_ready = udpipe is not None and udpipe.is_file()
    if treebank is None:
        ready, fetch = False, ""
        build = ("none by default (trankit has no model): --parser udpipe --udpipe-model FILE"
                 + (f" ({udpipe.name})" if udpipe else "") + ", or --source-conllu FILE")
    else:
        package = (cache / EMBEDDING / name / f"{name}.downloaded").is_file()
        encoder = xlmr_snapshot(cache, EMBEDDING) is not None
        ready = package and encoder
        missing = [what for what, here in ((f"{HUB_REPO}:models/{SAVED_MODEL_VERSION}/{EMBEDDING}/{name}.zip", package),
                                           (EMBEDDING, encoder)) if not here]
        fetch = "" if ready else (" and ".join(missing) + f" into {cache}: `acs parse --parser trankit --lang {lang}` "
                                  "fetches them from the Hub on first use")
        build = f"trankit {name} ({treebank})"
        if lang == "zh":
            build = f"trankit {name} ({treebank}; PUD's traditional script: traditional-chinese)"
    target = f"{match_label(lemma_language(lang))}, {tokens_label(lang)}"
    return LanguageParsers(lang, name if treebank else None, treebank, ready, fetch, udpipe, udpipe_ready, build,
                           target)
