"""Config names: ``{src}-{tgt}.{phenomenon}.d{D}``, ``{src}-{tgt}.reorder.d{D}``, ``{src}-{tgt}.baseline``.

``{src}-{tgt}.{phenomenon}`` without a distance is the kind's default D: 1 for a lexical phenomenon
(the paper's default), the smallest of an alignment phenomenon's scale (5 for ``reorder``). Splits
are corpus names. Every name is matched whole and in ASCII only (``'de-en\\n'``, ``d٣`` and ``nëws``
are a :class:`~auto_challenge_sets.errors.BadNameError`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from auto_challenge_sets.errors import BadNameError
from auto_challenge_sets.phenomena.profiles import iso_639_1
from auto_challenge_sets.phenomena.registry import BASELINE, BUILTIN, LEXICAL, PHENOMENA

LEXICAL_DISTANCES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
REORDER_DISTANCES: tuple[int, ...] = (5, 10, 15, 20)
REORDER = "reorder"

# What a config holds: the whole corpus, pairs selected on the tree, pairs selected on the alignment.
KIND_BASELINE = "baseline"
KIND_LEXICAL = LEXICAL
KIND_REORDER = "reorder"
_KIND_ORDER = {KIND_BASELINE: 0, KIND_LEXICAL: 1, KIND_REORDER: 2}

_LANG = r"[a-z]{2,3}(?:_[A-Za-z]+)?"
_PAIR = re.compile(rf"({_LANG})-({_LANG})", re.ASCII)
_CONFIG = re.compile(rf"({_LANG})-({_LANG})\.([a-z][a-z0-9_]*)(?:\.d(\d{{1,9}}))?", re.ASCII)
_SPLIT = re.compile(r"\w+", re.ASCII)
MAX_SPLIT = 100  # a split names files ({split}-00000-of-00001.parquet): a file name has at most 255 bytes


@dataclass(frozen=True, slots=True)
class ConfigName:
    src: str
    tgt: str
    phenomenon: str
    min_distance: int | None  # None only for the baseline

    @property
    def pair(self) -> str:
        return f"{self.src}-{self.tgt}"

    @property
    def is_baseline(self) -> bool:
        return self.phenomenon == BASELINE

    @property
    def kind(self) -> str:
        """``baseline``, ``lexical`` (selected on the source tree) or ``reorder`` (on the alignment);
        a phenomenon the registry does not know (a folder built with a user's rule) reads as lexical."""
        return _kind_of(self.phenomenon)

    @property
    def default_distance(self) -> int | None:
        return default_distance(self.phenomenon)

    @property
    def distances(self) -> tuple[int, ...]:
        return phenomenon_distances(self.phenomenon)

    def sort_key(self) -> tuple:
        """Pair, then baseline before lexical before reorder configs, then phenomenon, then D as a
        number (d5 before d10)."""
        return (self.pair, _KIND_ORDER[self.kind], self.phenomenon, self.min_distance or 0)

    def __str__(self) -> str:
        return config_name(self.src, self.tgt, self.phenomenon, self.min_distance)


def reserved_name(phenomenon: str) -> str | None:
    """What a config family of this name already is, when a user's rule may not take the name;
    None when the name is free."""
    if phenomenon == BASELINE:
        return "the full corpus's config"
    if phenomenon in BUILTIN:
        return f"a built-in {'phenomenon' if PHENOMENA[phenomenon].kind == LEXICAL else 'alignment measure'}"
    return None


def phenomenon_distances(phenomenon: str) -> tuple[int, ...]:
    """The D a build makes configs for: 0-5 for a lexical phenomenon, an alignment phenomenon's own
    scale, none for the baseline."""
    kind = _kind_of(phenomenon)
    return () if kind == KIND_BASELINE else PHENOMENA[phenomenon].distances if kind == KIND_REORDER else LEXICAL_DISTANCES


def default_distance(phenomenon: str) -> int | None:
    """The D a short config name (no ``.d{D}``) means."""
    kind = _kind_of(phenomenon)
    return None if kind == KIND_BASELINE else 1 if kind == KIND_LEXICAL else phenomenon_distances(phenomenon)[0]


def _kind_of(phenomenon: str) -> str:
    if phenomenon == BASELINE:
        return KIND_BASELINE
    registered = PHENOMENA.get(phenomenon)
    return KIND_LEXICAL if registered is None else registered.kind


def parse_pair(pair: str) -> tuple[str, str]:
    """``(source, target)``; an ISO 639-2/3 code of a language with a two-letter one is refused (config
    names would have two names for one language, and its profile and tokenizer would not apply)."""
    match = _PAIR.fullmatch(pair)
    if not match:
        raise BadNameError(f"language pair must look like 'de-en', got {pair!r}")
    if (written := tuple(map(iso_639_1, match.groups()))) != match.groups():
        raise BadNameError(f"language pair {pair!r}: give {'-'.join(written)!r} (the profiles and config names "
                           "write a language in ISO 639-1)")
    return match.group(1), match.group(2)


def config_name(src: str, tgt: str, phenomenon: str, min_distance: int | None = None) -> str:
    """The canonical (explicit-distance) config name."""
    if phenomenon == BASELINE:
        return f"{src}-{tgt}.{BASELINE}"
    return f"{src}-{tgt}.{phenomenon}.d{default_distance(phenomenon) if min_distance is None else min_distance}"


def parse_config_name(name: str) -> ConfigName:
    """Parse a config name; ``de-en.particle`` reads as D = 1, ``de-en.reorder`` as D = 5."""
    match = _CONFIG.fullmatch(name)
    if not match:
        raise BadNameError(f"not a config name: {name!r} (expected e.g. 'de-en.particle.d3')")
    src, tgt, phenomenon, distance = match.groups()
    if phenomenon == BASELINE:
        if distance is not None:
            raise BadNameError(f"the baseline config has no distance: {name!r}")
        return ConfigName(src, tgt, phenomenon, None)
    return ConfigName(src, tgt, phenomenon, default_distance(phenomenon) if distance is None else int(distance))


def check_split_name(name: str) -> str:
    if not _SPLIT.fullmatch(name):
        raise BadNameError(f"corpus (split) names must match \\w+ (ASCII letters, digits and _), got {name!r}")
    if len(name) > MAX_SPLIT:
        raise BadNameError(f"corpus (split) names have at most {MAX_SPLIT} characters (they name files), got "
                           f"{len(name)}: {name[:20]!r}...")
    return name


def config_sort_key(name: str) -> tuple:
    """Sort key of a config name (see :meth:`ConfigName.sort_key`)."""
    return parse_config_name(name).sort_key()
