"""A result's JSON form, led by its dataclasses' type hints and field metadata: :func:`plain` makes
the document plain JSON, :func:`decode` builds the typed dataclasses back from it and refuses a
value they cannot hold (:class:`ResultError`, naming the field), and :func:`json_schema` writes
the JSON Schema that says the same. One walk of the types serves all three, so the shipped schema,
the reader and the dataclasses cannot drift apart.

A field's bounds are its metadata (:func:`bounded`), in JSON Schema's words. Array and object
keywords (``minItems``, ``uniqueItems``, ``minProperties``) bound a container; the others
(``minimum``, ``pattern``, ``enum``...) bound the numbers or strings inside it, however deep.

Rules: a dataclass from an object (a field with a default may be missing: it reads as its
default; a key no field names is refused, save the keys ``to_json`` derives, the class's
``JSON_EXTRA``), a tuple from an array, a mapping's values each decoded, None where the type
allows it. JSON's null stands for NaN and infinities too (:func:`plain`): where the type is a
plain ``float`` a null comes back as NaN (an infinity too: the document no longer says which).
A non-finite number itself (a NaN token, ``1e999``) is refused.
Fields with ``page_only`` metadata are never in the document.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import math
import re
import types
import typing
from collections.abc import Mapping
from typing import Any

_JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}
_CONTAINER = {"minItems", "maxItems", "uniqueItems", "minProperties"}
PAGE_ONLY = {"page_only": True}
MAX_NUMBER = 2.0**53  # past it a float no longer counts by ones: no score, statistic or count a run makes


class ResultError(ValueError):
    """A value a result's dataclasses refuse; ``field`` is where, as a path (``configs/x.d3/n``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def bounded(default: Any = dataclasses.MISSING, **schema: Any) -> Any:
    """A dataclass field whose values obey the JSON Schema keywords ``schema``."""
    return dataclasses.field(default=default, metadata={"schema": schema})


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
def _fields(cls: type) -> list[tuple[dataclasses.Field, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls) if f.init and not f.metadata.get("page_only")]


def _optional(kind: Any) -> Any | None:
    """X of ``X | None``; None for any other type."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return next(a for a in typing.get_args(kind) if a is not type(None))
    return None


def _json_type(kind: Any) -> str:
    origin = typing.get_origin(kind) or kind
    if dataclasses.is_dataclass(kind) or origin in (Mapping, dict):
        return "object"
    return "array" if origin is tuple else _JSON_TYPES[kind]


def _check(value: Any, bounds: Mapping[str, Any], where: str) -> None:
    def fail(message: str) -> None:
        raise ResultError(where, f"{value!r} {message}")

    for key, bound in bounds.items():
        if key == "enum" and value not in bound:
            fail(f"is not one of {bound!r}")
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if (key == "minimum" and value < bound) or (key == "exclusiveMinimum" and value <= bound):
                fail(f"is less than {'or equal to ' if key.startswith('excl') else ''}the minimum of {bound}")
            if (key == "maximum" and value > bound) or (key == "exclusiveMaximum" and value >= bound):
                fail(f"is greater than {'or equal to ' if key.startswith('excl') else ''}the maximum of {bound}")
        elif isinstance(value, str):
            if key == "minLength" and len(value) < bound:
                fail("is too short")
            if key == "pattern" and not re.search(bound, value):
                fail(f"does not match {bound!r}")
        elif isinstance(value, list):
            if (key == "minItems" and len(value) < bound) or (key == "maxItems" and len(value) > bound):
                fail(f"has {len(value)} items, not {'at least' if key == 'minItems' else 'at most'} {bound}")
            if key == "uniqueItems" and len({json.dumps(v, sort_keys=True) for v in value}) < len(value):
                fail("has non-unique elements")
        elif isinstance(value, dict) and key == "minProperties" and len(value) < bound:
            fail(f"has fewer than {bound} properties")


def decode(kind: Any, value: Any, where: str = "", bounds: Mapping[str, Any] | None = None) -> Any:
    """``value`` (plain JSON) as the type ``kind`` says, checked against it and ``bounds``:
    dataclasses, tuples and mappings rebuilt; a value that does not fit is a :class:`ResultError`."""
    bounds = bounds or {}
    inner = _optional(kind)
    if value is None:
        if inner is not None or kind is Any:
            return None
        if kind is float:
            return math.nan
        raise ResultError(where, f"None is not of type {_json_type(kind)!r}")
    if inner is not None:
        return decode(inner, value, where, bounds)
    if kind is Any:
        return value
    expected = _json_type(kind)
    fits = {"object": dict, "array": list, "string": str, "boolean": bool}.get(expected)
    if expected == "integer":
        fits = type(value) is int
    elif expected == "number":
        fits = isinstance(value, int | float) and not isinstance(value, bool)
    else:
        fits = isinstance(value, fits)
    if not fits:
        raise ResultError(where, f"{value!r} is not of type {expected!r}")
    if isinstance(value, float) and not math.isfinite(value):  # a NaN token, or 1e999: plain writes null
        raise ResultError(where, f"{value!r} is not a finite number (results.json writes none but as null)")
    if expected == "number" and abs(value) > MAX_NUMBER:  # a scale of it would have no two ticks
        raise ResultError(where, f"{value!r} is beyond ±2**53: no number a run makes")
    _check(value, bounds, where)
    at = f"{where}/" if where else ""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if dataclasses.is_dataclass(kind):
        fields = _fields(kind)
        unknown = set(value) - {f.name for f, _ in fields} - set(getattr(kind, "JSON_EXTRA", {}))
        if unknown:
            raise ResultError(f"{at}{min(unknown)}", f"is not a field of {kind.__name__}")
        missing = [f.name for f, _ in fields if f.name not in value and f.default is dataclasses.MISSING
                   and f.default_factory is dataclasses.MISSING]
        if missing:
            raise ResultError(f"{at}{missing[0]}", f"is missing: a required field of {kind.__name__}")
        return kind(**{f.name: decode(hint, value[f.name], at + f.name, f.metadata.get("schema"))
                       for f, hint in fields if f.name in value})
    if origin is tuple:
        if args[-1] is not Ellipsis and len(value) != len(args):
            raise ResultError(where, f"{value!r} has {len(value)} items, not {len(args)}")
        kinds = [args[0]] * len(value) if args[-1] is Ellipsis else args
        return tuple(decode(a, v, f"{at}{k}", bounds) for k, (a, v) in enumerate(zip(kinds, value, strict=True)))
    if origin in (Mapping, dict):
        return {k: decode(args[1], v, at + k, bounds) for k, v in value.items()}
    return value


def _schema(kind: Any, bounds: Mapping[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of ``kind`` with ``bounds`` (the ones :func:`decode` checks), its
    dataclasses added to ``defs``."""
    inner = _optional(kind)
    if inner is not None:
        found = _schema(inner, bounds, defs)
        if isinstance(found.get("type"), list):  # float: null already
            return found
        if "type" in found and "$ref" not in found:
            return {**found, "type": [found["type"], "null"]}
        return {"anyOf": [{"type": "null"}, found]}
    if kind is Any:
        return {}
    if dataclasses.is_dataclass(kind):
        if kind.__name__ not in defs:
            defs[kind.__name__] = _object(kind, defs)
        return {"$ref": f"#/$defs/{kind.__name__}"}
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    found: dict[str, Any] = {"type": "number" if kind is float else _json_type(kind)}
    if kind is float:
        found.update(minimum=-MAX_NUMBER, maximum=MAX_NUMBER)  # a field's own bounds replace them
    if origin is tuple:
        found["items"] = _schema(args[0], bounds, defs)
        if args[-1] is not Ellipsis:
            assert len(set(args)) == 1, f"{kind}: a fixed tuple of one type only"
            found["minItems"] = found["maxItems"] = len(args)
    elif origin in (Mapping, dict):
        found["additionalProperties"] = _schema(args[1], bounds, defs)
    leaf = found["type"] not in ("array", "object")
    found.update({k: v for k, v in bounds.items() if (k in _CONTAINER) != leaf})
    if kind is float:  # NaN and infinities are written as null
        found["type"] = ["number", "null"]
    return found


def _object(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    fields = _fields(cls)
    properties = {f.name: _schema(hint, f.metadata.get("schema") or {}, defs) for f, hint in fields}
    extra = getattr(cls, "JSON_EXTRA", {})
    found: dict[str, Any] = {
        "type": "object", "properties": {**properties, **extra}, "additionalProperties": False,
        "required": [f.name for f, _ in fields if f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING] + list(extra)}
    doc = cls.__doc__ or ""
    if not doc.startswith(f"{cls.__name__}("):  # the signature dataclass writes where none was given
        found["description"] = " ".join(inspect.cleandoc(doc).split())
    return found


def json_schema(root: type, **head: Any) -> str:
    """The JSON Schema (draft 2020-12) of ``root``'s document, with ``head`` ($id, title...) on
    top; one line per definition, sorted, so that a change shows as the line of its class."""
    defs: dict[str, Any] = {}
    top = {"$schema": "https://json-schema.org/draft/2020-12/schema", **head, **_schema(root, {}, defs)}
    lines = [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, ensure_ascii=False)}," for k, v in sorted(top.items())]
    lines += ['"$defs": {', ",\n".join(f" {json.dumps(k)}: {json.dumps(v, sort_keys=True, ensure_ascii=False)}"
                                       for k, v in sorted(defs.items())), "}"]
    return "{\n" + "\n".join(lines) + "\n}\n"
