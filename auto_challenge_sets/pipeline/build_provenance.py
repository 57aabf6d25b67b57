"""How a build's sets were made, as its record keeps it (``acs_build.json``: ``parser`` and
``aligner`` as each backend's :meth:`provenance` gives them, ``tokenization``, ``packages``) and as
one line says it (the dataset card, ``acs evaluate``'s reports). Also the rule the build warns by
and the evaluation labels by: eflomal aligning a test-set-sized corpus without priors is weak.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping
from typing import Any

from auto_challenge_sets import __version__
from auto_challenge_sets.backends.file_provenance import package_version
from auto_challenge_sets.formats.target_languages import SACREBLEU_ZH, ZH_KANA
from auto_challenge_sets.formats.target_languages import tokenization as target_tokenization

# eflomal learns from the corpus it aligns: a test set is too small (docs/method.md, "Reordering measures")
EFLOMAL_PRIORS_ADVISED_BELOW = 10_000
NOT_RECORDED = ("provenance not recorded (built before acs_build.json recorded the parser's and aligner's "
                "models, checksums and versions; build again to record them)")
TARGET_TOKENS = "white space"  # selection.target_tokens: the documented target tokenization
# where the target language is written without spaces (target_languages.CHARACTER_LANGUAGES)
CHARACTER_TOKENS = {SACREBLEU_ZH: "characters (sacrebleu's zh tokenizer)",
                    ZH_KANA: "characters (sacrebleu's zh tokenizer, kana split too)"}


def build_provenance(parser: Any, aligner: Any | None, pairs: int, target: str | None = None) -> dict[str, Any]:
    """The record of one build: ``parser`` is the parser backend or the pre-parsed source,
    ``aligner`` the aligner backend, the Pharaoh file, or None; ``pairs`` the pairs aligned;
    ``target`` the target language."""
    parsed = parser.provenance()
    aligned = None if aligner is None else {**aligner.provenance(), "pairs": pairs}
    return {"parser": parsed, "aligner": aligned, "tokenization": tokenization(parsed, target),
            "packages": packages(parser, aligner)}


def tokenization(parser: Mapping[str, Any], target: str | None = None) -> dict[str, str]:
    """The tokens the sets are indexed by: the parse's words (the parser's tokenizer, white space
    when the text was pretokenized, or the words of a given CoNLL-U file) and the target's
    tokens (white space; characters for a ``target`` language written without spaces)."""
    if parser.get("file") is not None:
        source = f"the words of {parser['file']}"
    elif (parser.get("options") or {}).get("pretokenized"):
        source = "white space (pretokenized)"
    else:
        source = f"{parser['backend']}'s tokenizer"
    return {"source": source, "target": CHARACTER_TOKENS.get(target_tokenization(target), TARGET_TOKENS)}


def packages(*backends: Any) -> dict[str, str]:
    """This package's, Python's and every installed library's version a backend ran on (its
    ``requires``, e.g. torch, transformers and simalign)."""
    found = {"auto_challenge_sets": __version__, "python": platform.python_version()}
    for backend in backends:
        for module in getattr(backend, "requires", ()):
            version = package_version(module)
            if version is not None:
                found[module] = version
    return found


def weak_alignment(aligner: Mapping[str, Any] | None) -> str | None:
    """The warning an eflomal alignment of fewer than :data:`EFLOMAL_PRIORS_ADVISED_BELOW` pairs
    without priors carries (None for any other alignment)."""
    if not aligner or aligner.get("backend") != "eflomal" or aligner.get("priors_used"):
        return None
    pairs = aligner.get("pairs")
    if not isinstance(pairs, int) or pairs >= EFLOMAL_PRIORS_ADVISED_BELOW:
        return None
    return (f"eflomal aligned {pairs:,} pairs without priors (fewer than {EFLOMAL_PRIORS_ADVISED_BELOW:,}): its "
            "links are noisy at this size")


def _short(sha256: str | None) -> str:
    return f"sha256 {sha256[:12]}" if sha256 else "sha256 not recorded"


def _backend(entry: Mapping[str, Any], details: tuple[str, ...] = ()) -> str:
    """``udpipe 1.4.0.1 (german.udpipe, sha256 0123456789ab, ...details)``."""
    named = entry.get("model") or entry.get("file")
    inside = ([f"{named}, {_short(entry.get('sha256'))}"] if named else []) + list(details)
    head = entry["backend"] + (f" {entry['version']}" if entry.get("version") else "")
    return f"{head} ({', '.join(inside)})" if inside else head


def _aligner(entry: Mapping[str, Any]) -> str:
    details = [entry["symmetrization"]] if entry.get("symmetrization") else []
    if isinstance(entry.get("pairs"), int):
        details.append(f"{entry['pairs']:,} pairs")
    if entry.get("priors_used") is not None:
        priors = entry.get("priors")
        details.append(f"priors {priors['file']}, {_short(priors.get('sha256'))}" if priors else "no priors")
    return _backend(entry, tuple(details))


def summary_line(provenance: Mapping[str, Any] | None, parser_label: str | None = None,
                 aligner_label: str | None = None) -> str:
    """The one line a reader sees: parser, aligner, tokenization, this package's version. Without
    a recorded provenance, the labels an older record has and :data:`NOT_RECORDED`."""
    if not provenance:
        known = [f"parser {parser_label}" if parser_label else None,
                 f"aligner {aligner_label}" if aligner_label else None]
        return "; ".join([k for k in known if k] + [NOT_RECORDED])
    aligner = provenance.get("aligner")
    tokens = provenance.get("tokenization") or {}
    version = (provenance.get("packages") or {}).get("auto_challenge_sets")
    parts = [f"parser {_backend(provenance['parser'])}",
             "not aligned" if aligner is None else f"aligner {_aligner(aligner)}"]
    if tokens:
        parts.append(f"tokens: {tokens.get('source')} (source), {tokens.get('target')} (target)")
    if version:
        parts.append(f"auto_challenge_sets {version}")
    return "; ".join(parts)
