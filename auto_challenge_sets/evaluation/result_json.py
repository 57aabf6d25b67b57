"""A result to and from its JSON form (part of :mod:`auto_challenge_sets.evaluation.results`):
:func:`plain` makes the document plain JSON, :func:`decode` builds the typed dataclasses back from
it, led by their type hints, so ``acs report`` renders a saved ``results.json`` as the run did.

Hand-written rather than a library's (dacite, cattrs): neither is a dependency, and the rules are
few: a dataclass from an object, a tuple from an array, a mapping's values each decoded, None
where the type allows it, and the document's extra keys (``flags``, which the pages derive)
skipped. JSON's null stands for NaN and infinities too (:func:`plain`): where the type is a plain
``float`` (never None) a null can only have been one of those, and comes back as NaN (an infinity
too: the document no longer says which); where it is ``float | None`` it comes back as None.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Mapping
from typing import Any


def plain(value: Any) -> Any:
    """JSON-ready: tuples as lists, numpy scalars as Python numbers, non-finite floats as None."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(kind: Any, value: Any) -> Any:
    """``value`` (plain JSON) as the type ``kind`` says: dataclasses, tuples and mappings rebuilt."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if value is None:
        return math.nan if kind is float else None
    if origin in (typing.Union, types.UnionType):
        return decode(next(a for a in args if a is not type(None)), value)
    if dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{f.name: decode(hints[f.name], value[f.name])
                       for f in dataclasses.fields(kind) if f.init and f.name in value})
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in value)
        return tuple(decode(a, v) for a, v in zip(args, value, strict=True))
    if origin in (Mapping, dict):
        return {k: decode(args[1], v) for k, v in value.items()}
    if origin is list:
        return [decode(args[0], v) for v in value]
    return value
