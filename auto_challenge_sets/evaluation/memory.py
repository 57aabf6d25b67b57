"""An evaluation's input held in memory instead of a dataset folder, as ``compute()`` is given it:
one system's output on a challenge set's rows and, for the random baseline, on the pool. The
request checks it once (:meth:`MemoryRows.checked`); every bad value, a wrong type too, is a
ValueError naming the argument (the metric's contract: evaluate users catch ValueError).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.formats.line_limit import check_line_lengths
from auto_challenge_sets.formats.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.scoring.targeted import CHRF_THRESHOLD

RefsKey = tuple[str, ...]

MAX_INT = 2**31 - 1  # the largest length, distance or min_distance (token counts)
MAX_SAMPLED = 2**27  # n_samples x challenge rows: the int64 index matrix stays within 1 GiB
MAX_RETURNED = 2**24  # the same with return_samples=True (the indices become Python lists)
MAX_SENTENCE_WORDS = 10_000  # without lengths, the longest sentence a word id may point into
_INSTANCE_KEYS = {"head": 1, "dependent": 1, "distance": 0}  # each key's smallest value


def check_sample_size(n_samples: int, rows: int, return_samples: bool) -> None:
    """Bound the memory of a set's random baseline: one pool index per row and sample."""
    limit, what = (MAX_RETURNED, " with return_samples=True") if return_samples else (MAX_SAMPLED, "")
    if n_samples * rows > limit:
        raise ValueError(
            f"n_samples is too large for {rows} challenge rows: n_samples x rows = {n_samples * rows:_} "
            f"exceeds the limit of {limit:_} sampled rows{what}; use at most {max(1, limit // rows)} samples"
        )


def listlike(values: Any) -> bool:
    """A list, tuple, numpy array, pandas Series, ... but not a string (nor bytes: a str or
    bytes where a list is expected would be read as a list of characters), a mapping, a set
    (no order) or a 0-d array."""
    if isinstance(values, str | bytes | bytearray | memoryview | Mapping | Set):
        return False
    if isinstance(values, np.ndarray) and values.ndim == 0:
        return False
    return hasattr(values, "__len__") and hasattr(values, "__iter__")


def is_int(value: Any) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")  # noqa: TRY004
    return bool(value)


def _sequence(name: str, values: Any, what: str, count: int | None = None, count_name: str = "") -> list[Any]:
    """``values`` as a list: refused when None, not list-like, or (with ``count``) of another length."""
    if values is None:
        raise ValueError(f"{name} is None; expected {what}")
    if not listlike(values):
        raise ValueError(f"{name} must be {what}, got {type(values).__name__}")
    values = list(values)
    if count is not None and len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    return values


def check_strings(name: str, values: Any, allow_empty_list: bool = False, count: int | None = None,
                  count_name: str = "") -> list[str]:
    values = _sequence(name, values, "a list of strings", count, count_name)
    if not values and not allow_empty_list:
        raise ValueError(f"{name} is empty")
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not a string: {value!r}")  # noqa: TRY004
    return values


def check_references(name: str, values: Any, count: int, count_name: str) -> list[RefsKey]:
    """``references``: one string, or a non-empty list of strings, per prediction."""
    refs: list[RefsKey] = []
    for i, value in enumerate(_sequence(name, values, "a list of strings or of lists of strings", count, count_name)):
        if isinstance(value, str):
            refs.append((value,))
            continue
        if not listlike(value):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}; expected a string or a list of strings")
        items = tuple(value)
        if not items:
            raise ValueError(f"{name}[{i}] is an empty list of references")
        for j, item in enumerate(items):
            if not isinstance(item, str):
                raise ValueError(f"{name}[{i}][{j}] is {type(item).__name__}, not a string: {item!r}")  # noqa: TRY004
        refs.append(items)
    return refs


def check_ints(name: str, values: Any, count: int | None = None, count_name: str = "") -> np.ndarray:
    """Integers from 0 to :data:`MAX_INT` (token counts)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        values = values.tolist()
    values = _sequence(name, values, "a list of integers", count, count_name)
    for i, value in enumerate(values):
        if not is_int(value):  # None, floats (NaN, inf, 2.5, 2.0), strings, bools, ...
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not an integer: {value!r}")
        if value < 0:
            raise ValueError(f"{name}[{i}] is negative: {value}")
        if value > MAX_INT:
            raise ValueError(f"{name}[{i}] is {value}, above the limit of {MAX_INT:_}")
    return np.asarray(values, dtype=np.int64)


def _check_ids(name: str, values: Any, count: int, count_name: str) -> list[Hashable]:
    values = _sequence(name, values, "a list of ids", count, count_name)
    for i, value in enumerate(values):
        if not isinstance(value, str | int | np.integer):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}; ids must be strings or integers")
    return values


def _check_sources(name: str, values: Any, count: int, count_name: str, needed: list[str]) -> list[str] | None:
    """``sources``/``pool_sources``, checked; None where no metric reads them."""
    if values is None:
        if needed:
            raise ValueError(f"{name} is None; metric {', '.join(needed)} needs the source sentences, one per "
                             f"item of {count_name}")
        return None
    checked = check_strings(name, values, count=count, count_name=count_name)
    return checked if needed else None


def _per_prediction(name: str, values: Any, count: int, what: str) -> None:
    if not listlike(values) or len(values) != count:
        got = len(values) if listlike(values) else type(values).__name__
        raise ValueError(f"{name} must be a list with one {what} per prediction ({count}), got {got}")


def check_instances(values: Any, count: int) -> list[list[dict[str, int]]]:
    """``instances``: per row, a list of {head, dependent, distance} (the dataset's column)."""
    _per_prediction("instances", values, count, "list of instances")
    rows = []
    for i, row in enumerate(values):
        if not listlike(row):
            raise ValueError(f"instances[{i}] must be a list of instances, got {type(row).__name__}")
        checked = []
        for k, item in enumerate(row):
            if not isinstance(item, Mapping) or not all(is_int(item.get(key)) and item[key] >= minimum
                                                        for key, minimum in _INSTANCE_KEYS.items()):
                raise ValueError(f"instances[{i}][{k}] must have integer head and dependent (1-based word ids) "
                                 f"and distance (>= 0), as a lexical config's instances, got {item!r}")
            checked.append({key: int(item[key]) for key in ("head", "dependent", "distance")})
        rows.append(checked)
    return rows


def check_alignments(name: str, values: Any, count: int) -> list[list[Link]]:
    """Per row, a Pharaoh line (``"0-1 2-3"``) or a list of (source, target) index pairs."""
    _per_prediction(name, values, count, "alignment")
    rows = []
    for i, value in enumerate(values):
        if value is None:
            raise ValueError(f"{name}[{i}] is None: the row has no alignment (a dataset built with "
                             "--aligner none has none; rebuild it with an aligner)")
        if isinstance(value, str):
            try:
                rows.append(parse_pharaoh(value))
            except AlignmentError as error:
                raise ValueError(f"{name}[{i}]: {error.reason}") from None
            continue
        if not listlike(value) or not all(listlike(link) and len(link) == 2 and all(is_int(x) and x >= 0 for x in link)
                                          for link in value):
            raise ValueError(f"{name}[{i}] must be a Pharaoh line or a list of (source, target) index pairs, "
                             f"got {value!r}")
        rows.append(sorted({(int(a), int(b)) for a, b in value}))
    return rows


def _check_targeted_ranges(instances: list[list[dict[str, int]]], source_links: list[list[Link]],
                           hypothesis_links: list[list[Link]] | None, references: list[str],
                           predictions: list[str], lengths: np.ndarray | None) -> None:
    """Every word id and alignment index of the targeted inputs inside its sentence (``lengths``,
    else :data:`MAX_SENTENCE_WORDS`; a link's target in the white-space tokens of the first
    reference or the prediction): out of range they would silently count as unaligned."""
    for i, row in enumerate(instances):
        words = MAX_SENTENCE_WORDS if lengths is None else int(lengths[i])
        where = f"the {words} words of lengths[{i}]" if lengths is not None else f"{words} words (the bound without lengths)"
        for k, item in enumerate(row):
            for key in ("head", "dependent"):
                if item[key] > words:
                    raise ValueError(f"instances[{i}][{k}]: {key} {item[key]} is outside the sentence, beyond {where}")
    for name, rows, texts, side in (("source_alignments", source_links, references, "the first reference"),
                                    ("hypothesis_alignments", hypothesis_links, predictions, "the prediction")):
        for i, links in enumerate(rows or ()):
            tokens = len(texts[i].split())
            for source, target in links:
                if target >= tokens:
                    raise ValueError(f"{name}[{i}]: link {source}-{target} points past the {tokens} white-space "
                                     f"tokens of {side} (target indices are 0-based)")
                if lengths is not None and source >= lengths[i]:
                    raise ValueError(f"{name}[{i}]: link {source}-{target} points past the {int(lengths[i])} source "
                                     f"words of lengths[{i}] (source indices are 0-based)")


@dataclass(frozen=True)
class MemoryRows:
    """A challenge set's rows and, optionally, its pool, as ``compute()`` takes them (the metric
    card describes each field); as given until :meth:`checked` returns them checked, in one form:
    lists of strings, references as tuples, integers as int64 arrays."""

    predictions: Any
    references: Any
    lengths: Any = None
    distances: Any = None
    min_distances: Any = None
    ids: Any = None
    sources: Any = None
    pool_predictions: Any = None
    pool_references: Any = None
    pool_lengths: Any = None
    pool_ids: Any = None
    pool_sources: Any = None
    exclude_challenge: Any = True
    return_samples: Any = False
    instances: Any = None
    source_alignments: Any = None
    hypothesis_alignments: Any = None
    targeted_chrf: Any = CHRF_THRESHOLD

    @property
    def has_pool(self) -> bool:
        return any(x is not None for x in (self.pool_predictions, self.pool_references, self.pool_lengths))

    def checked(self, n_samples: int, preprocess: Callable[[str], str], needs_sources: list[str]) -> MemoryRows:
        """These rows checked for a run of ``n_samples`` random corpora, whose lines are counted in
        the tokens of ``preprocess`` and whose metrics ``needs_sources`` read the sources (a
        ValueError names the first bad argument)."""
        preds = check_strings("predictions", self.predictions)
        n = len(preds)
        refs = check_references("references", self.references, n, "predictions")
        flags = {name: check_bool(name, getattr(self, name)) for name in ("exclude_challenge", "return_samples")}
        if self.has_pool:
            check_sample_size(n_samples, n, flags["return_samples"])  # before the pool's statistics
        dist = None if self.distances is None else check_ints("distances", self.distances, n, "predictions")
        if self.min_distances is not None and dist is None:
            raise ValueError("min_distances given without distances")
        ds = None if self.min_distances is None else check_ints("min_distances", self.min_distances).tolist()
        ids = None if self.ids is None else _check_ids("ids", self.ids, n, "predictions")
        lens = None if self.lengths is None else check_ints("lengths", self.lengths, n, "predictions")
        targeted = self._checked_targeted(preds, refs, lens)
        sources = _check_sources("sources", self.sources, n, "predictions", needs_sources)
        check_line_lengths("predictions", preds, preprocess)
        check_line_lengths("references", refs, preprocess)
        return dataclasses.replace(self, predictions=preds, references=refs, lengths=lens, distances=dist,
                                   min_distances=ds, ids=ids, sources=sources, **flags, **targeted,
                                   **self._checked_pool(n, lens, ids, needs_sources, preprocess))

    def _checked_pool(self, n: int, lens: np.ndarray | None, ids: list | None, needs_sources: list[str],
                      preprocess: Any) -> dict[str, Any]:
        if not self.has_pool:
            if self.pool_ids is not None:
                raise ValueError("pool_ids given without pool_predictions")
            return {"pool_sources": None}
        pool_preds = check_strings("pool_predictions", self.pool_predictions)
        count = len(pool_preds)
        pool_refs = check_references("pool_references", self.pool_references, count, "pool_predictions")
        if self.pool_lengths is None:
            raise ValueError("pool_lengths is None; the random baseline needs source lengths of the pool")
        pool_lens = check_ints("pool_lengths", self.pool_lengths, count, "pool_predictions")
        if lens is None:
            raise ValueError("lengths is None; the random baseline needs the challenge rows' source lengths")
        if (ids is None) != (self.pool_ids is None):
            given, missing = ("ids", "pool_ids") if self.pool_ids is None else ("pool_ids", "ids")
            raise ValueError(f"{given} is given but {missing} is None: the challenge rows are left out of the "
                             "pool by id only when both are given")
        pool_ids = None if self.pool_ids is None else _check_ids("pool_ids", self.pool_ids, count, "pool_predictions")
        pool_sources = _check_sources("pool_sources", self.pool_sources, count, "pool_predictions", needs_sources)
        check_line_lengths("pool_predictions", pool_preds, preprocess)
        check_line_lengths("pool_references", pool_refs, preprocess)
        return {"pool_predictions": pool_preds, "pool_references": pool_refs, "pool_lengths": pool_lens,
                "pool_ids": pool_ids, "pool_sources": pool_sources}

    def _checked_targeted(self, preds: list[str], refs: list[RefsKey], lens: np.ndarray | None) -> dict[str, Any]:
        """The targeted-accuracy inputs (instances None: none given); the first reference is the
        one ``source_alignments`` aligns; ``lens`` bound the source word ids."""
        given = {"instances": self.instances, "source_alignments": self.source_alignments}
        if self.hypothesis_alignments is None and all(value is None for value in given.values()):
            return {}
        missing = [name for name, value in given.items() if value is None]
        if missing:
            raise ValueError(f"targeted accuracy needs instances and source_alignments (hypothesis_alignments: "
                             f"optional); {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} None")
        chrf = self.targeted_chrf
        if isinstance(chrf, bool) or not isinstance(chrf, int | float) or not 0 <= chrf <= 100:
            raise ValueError(f"targeted_chrf must be a number from 0 to 100, got {chrf!r}")
        n = len(preds)
        checked = {"instances": check_instances(self.instances, n),
                   "source_alignments": check_alignments("source_alignments", self.source_alignments, n),
                   "hypothesis_alignments": None if self.hypothesis_alignments is None
                   else check_alignments("hypothesis_alignments", self.hypothesis_alignments, n),
                   "targeted_chrf": float(chrf)}
        _check_targeted_ranges(checked["instances"], checked["source_alignments"], checked["hypothesis_alignments"],
                               [r[0] for r in refs], preds, lens)
        return checked
