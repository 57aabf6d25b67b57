"""Checks of the metric's arguments: every bad argument is a ValueError naming it (the metric's
documented contract, also for wrong types: evaluate and sacrebleu users catch ValueError), hence
the TRY004 exemptions below."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

RefsKey = tuple[str, ...]


def listlike(values: Any) -> bool:
    """A list, tuple, numpy array, pandas Series, ... but not a string or a mapping."""
    if isinstance(values, (str, bytes, Mapping)):
        return False
    return hasattr(values, "__len__") and hasattr(values, "__iter__")


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
        array = np.asarray(values, dtype=np.int64)
        if not len(array) or array.min() >= 0:
            return array
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not an integer: {value!r}")  # noqa: TRY004
        if value < 0:
            raise ValueError(f"{name}[{i}] is negative: {value}")
    return np.asarray(values, dtype=np.int64)


def check_ids(name: str, values: Any, count: int, count_name: str) -> list[Hashable]:
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
