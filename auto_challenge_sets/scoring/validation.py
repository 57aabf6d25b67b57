"""Checks of the metric's arguments: every bad argument is a ValueError naming it (the metric's
documented contract, also for wrong types: evaluate and sacrebleu users catch ValueError), hence
the TRY004 exemptions below."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Set
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.kernel import MAX_SAMPLES

RefsKey = tuple[str, ...]

MAX_INT = 2**31 - 1  # the largest length, distance, min_distance or length_tolerance (token counts)
MAX_SAMPLED = 2**27  # n_samples x challenge rows: the int64 index matrix stays within 1 GiB
MAX_RETURNED = 2**24  # the same with return_samples=True (the indices become Python lists)


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


def check_int(name: str, value: Any, minimum: int, maximum: int = MAX_INT) -> int:
    if not is_int(value) or not minimum <= value <= maximum:
        raise ValueError(f"{name} must be an integer from {minimum} to {maximum:_}, got {value!r}")
    return int(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")  # noqa: TRY004
    return bool(value)


def check_settings(n_samples: Any, length_tolerance: Any, seed: Any, tokenize: Any,
                   flags: Mapping[str, Any]) -> None:
    """The scalar options of the metric (``flags``: the boolean ones, by name)."""
    if not is_int(n_samples) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")
    if n_samples > MAX_SAMPLES:
        raise ValueError(f"n_samples is {n_samples}, above the limit of {MAX_SAMPLES:_} random corpora")
    check_int("length_tolerance", length_tolerance, 0)
    if seed is not None and (not is_int(seed) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    check_tokenize(tokenize)
    for name, value in flags.items():
        check_bool(name, value)


def check_tokenize(tokenize: Any) -> None:
    """A name (BleuStatistics then checks that sacrebleu knows it and that it runs here)."""
    if not isinstance(tokenize, str):
        raise ValueError(f"tokenize must be the name of a sacrebleu tokenizer, got {tokenize!r}")  # noqa: TRY004


def check_sample_size(n_samples: int, rows: int, return_samples: bool) -> None:
    """Bound the memory of the random baseline: one pool index per challenge row and sample."""
    limit, what = (MAX_RETURNED, " with return_samples=True") if return_samples else (MAX_SAMPLED, "")
    if n_samples * rows > limit:
        raise ValueError(
            f"n_samples is too large for {rows} challenge rows: n_samples x rows = {n_samples * rows:_} "
            f"exceeds the limit of {limit:_} sampled rows{what}; use at most {max(1, limit // rows)} samples"
        )


def check_strings(name: str, values: Any, allow_empty_list: bool = False) -> list[str]:
    if values is None:
        raise ValueError(f"{name} is None; expected a list of strings")
    if not listlike(values):
        raise ValueError(f"{name} must be a list of strings, got {type(values).__name__}")
    values = list(values)
    if not values and not allow_empty_list:
        raise ValueError(f"{name} is empty")
    if set(map(type, values)) <= {str}:  # the common case, at C speed (pools are long)
        return values
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not a string: {value!r}")  # noqa: TRY004
    return values


def check_references(name: str, values: Any, count: int, count_name: str) -> list[RefsKey]:
    """``references``: one string, or a non-empty list of strings, per prediction."""
    if values is None:
        raise ValueError(f"{name} is None; expected a list of strings or of lists of strings")
    if not listlike(values):
        raise ValueError(f"{name} must be a list, got {type(values).__name__}")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {str}:  # one reference per row: the common case, fast
        return [(value,) for value in values]
    refs: list[RefsKey] = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            refs.append((value,))
            continue
        if not listlike(value):
            raise ValueError(
                f"{name}[{i}] is {type(value).__name__}; expected a string or a list of strings"
            )
        items = tuple(value)
        if not items:
            raise ValueError(f"{name}[{i}] is an empty list of references")
        for j, item in enumerate(items):
            if not isinstance(item, str):
                raise ValueError(  # noqa: TRY004 (the metric's contract: ValueError naming the argument)
                    f"{name}[{i}][{j}] is {type(item).__name__}, not a string: {item!r}"
                )
        refs.append(items)
    return refs


def check_ints(name: str, values: Any, count: int, count_name: str) -> np.ndarray:
    if values is None:
        raise ValueError(f"{name} is None; expected a list of integers")
    if not listlike(values):
        raise ValueError(f"{name} must be a list of integers, got {type(values).__name__}")
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        values = values.tolist()
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {int}:  # fast path; the loop below finds the culprit otherwise
        try:
            array = np.asarray(values, dtype=np.int64)
        except OverflowError:  # beyond int64: reported below
            array = None
        if array is not None and (not len(array) or (array.min() >= 0 and array.max() <= MAX_INT)):
            return array
    for i, value in enumerate(values):
        if not is_int(value):  # None, floats (NaN, inf, 2.5, 2.0), strings, bools, ...
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not an integer: {value!r}")
        if value < 0:
            raise ValueError(f"{name}[{i}] is negative: {value}")
        if value > MAX_INT:
            raise ValueError(f"{name}[{i}] is {value}, above the limit of {MAX_INT:_}")
    return np.asarray(values, dtype=np.int64)


def check_min_distances(values: Any, distances_given: bool) -> list[int]:
    if not distances_given:
        raise ValueError("min_distances given without distances")
    if not listlike(values):
        raise ValueError(f"min_distances must be a list of integers, got {type(values).__name__}")
    return [check_int(f"min_distances[{i}]", value, 0) for i, value in enumerate(values)]


def check_ids(name: str, values: Any, count: int, count_name: str) -> list[Hashable]:
    if values is None:
        raise ValueError(f"{name} is None; expected a list of ids")
    if not listlike(values):
        raise ValueError(f"{name} must be a list of ids, got {type(values).__name__}")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {str, int}:
        return values
    for i, value in enumerate(values):
        if value is None or not isinstance(value, str | int | np.integer):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}; ids must be strings or integers")
    return values


MAX_SENTENCE_WORDS = 10_000  # without lengths, the longest sentence a word id may point into


def check_targeted_ranges(instances: list[list[dict[str, int]]], source_links: list[list[tuple[int, int]]],
                          hypothesis_links: list[list[tuple[int, int]]] | None, references: list[str],
                          predictions: list[str], lengths: np.ndarray | None) -> None:
    """Every word id and alignment index of the targeted inputs inside its sentence: an instance's
    head and dependent (1-based) within the row's ``lengths`` (without them, a sanity bound of
    :data:`MAX_SENTENCE_WORDS`), a link's source index (0-based) within ``lengths``, and its target
    index within the white-space tokens of the first reference (``source_alignments``) or of the
    prediction (``hypothesis_alignments``). Out of range they would silently count as unaligned."""
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
