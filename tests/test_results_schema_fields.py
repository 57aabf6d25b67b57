"""The result's dataclasses and results.schema.json describe the same document: walking from
``Evaluation`` and the schema's root together, every dataclass field is a property of the schema
object it maps to and the reverse, every field is required (``dataclasses.asdict`` writes them all),
and each field's type and nullability fit the property's. Both sides are read, not listed here,
so fields added to either are checked as they come; a mismatch fails naming the field.

(test_results_schema_coverage.py checks the other way round, from a run: the schema declares
nothing that no run writes.)"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from auto_challenge_sets.evaluation import results
from auto_challenge_sets.evaluation.results import SCHEMA_PATH, Evaluation

# what Evaluation.to_json changes between the dataclasses and the document
DROPPED = {"Evaluation": {"verdicts", "output_links"}}  # the page's alone, never in results.json
ADDED = {"Evaluation": {"schema"}, "ConfigResult": {"flags"}}  # written by to_json, no field

JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}


class Walk:
    """The dataclasses and the schema walked together; ``problems`` collects every mismatch."""

    def __init__(self, schema: dict) -> None:
        self.schema = schema
        self.problems: list[str] = []
        self.seen: set[tuple[type, int]] = set()
        self.classes: set[type] = set()

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            found: Any = self.schema
            for part in node["$ref"].removeprefix("#/").split("/"):
                found = found[part]
            node = {**found, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def alternatives(self, node: Any) -> tuple[bool, list[dict]]:
        """(whether the node admits null, its non-null alternatives), $ref, oneOf and anyOf followed."""
        node = self.resolve(node)
        if node is True or not isinstance(node, dict):
            return True, [{}]
        branches = node.get("oneOf") or node.get("anyOf")
        if branches:
            nullable, found = False, []
            for branch in branches:
                branch_null, branch_alts = self.alternatives(branch)
                nullable |= branch_null
                found += branch_alts
            return nullable, found
        if "const" in node or "enum" in node:
            values = [node["const"]] if "const" in node else node["enum"]
            kinds = {_json_type(value) for value in values}
            return "null" in kinds, [{**node, "type": sorted(kinds - {"null"})}] if kinds - {"null"} else []
        kinds = node.get("type")
        if kinds is None:
            return False, [node]
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        rest = [kind for kind in kinds if kind != "null"]
        return "null" in kinds, [{**node, "type": rest}] if rest else []

    def object_of(self, node: dict) -> tuple[dict[str, Any], set[str]]:
        """An object schema's properties and required names, with those of its allOf parts (a
        property ``true`` defers to the part that declares it)."""
        properties: dict[str, Any] = {}
        required = set(node.get("required", ()))
        for part in node.get("allOf", ()):
            part_properties, part_required = self.object_of(self.resolve(part))
            properties.update(part_properties)
            required |= part_required
        for name, sub in node.get("properties", {}).items():
            if sub is not True or name not in properties:
                properties[name] = sub
        return properties, required

    def dataclass(self, cls: type, node: dict, where: str) -> None:
        if (cls, id(node)) in self.seen:
            return
        self.seen.add((cls, id(node)))
        self.classes.add(cls)
        name = cls.__name__
        properties, required = self.object_of(node)
        hints = typing.get_type_hints(cls)
        fields = [f.name for f in dataclasses.fields(cls) if f.name not in DROPPED.get(name, ())]
        for field in fields:
            if field not in properties:
                self.problems.append(f"{where} ({name}).{field}: a field of {name}, no property of the schema")
            elif field not in required:
                self.problems.append(f"{where} ({name}).{field}: always written, not required by the schema")
        for prop in sorted(set(properties) - set(fields) - ADDED.get(name, set())):
            self.problems.append(f"{where} ({name}).{prop}: a property of the schema, no field of {name}")
        for prop in sorted(required - set(properties)):
            self.problems.append(f"{where} ({name}).{prop}: required by the schema, no property of it")
        for field in fields:
            if field in properties:
                self.check(hints[field], properties[field], f"{where}.{field}")

    def check(self, annotation: Any, node: Any, where: str) -> None:
        """``annotation`` (a field's type, or a part of one) against the schema ``node``."""
        nullable, alternatives = self.alternatives(node)
        members = [m for m in _members(annotation) if m is not type(None)]
        optional = len(members) < len(_members(annotation))
        if optional and not nullable:
            self.problems.append(f"{where}: the dataclass allows None, the schema no null")
        # a float may be written as null (results._plain writes NaN and infinities so)
        if nullable and not optional and members != [float] and members != [Any]:
            self.problems.append(f"{where}: the schema allows null, the dataclass ({_name(annotation)}) no None")
        for member in members:
            found = []
            for alternative in alternatives:
                self.problems, before = [], self.problems
                self.one(member, alternative, where)
                found.append(self.problems)
                self.problems = before
            if found and not any(not problems for problems in found):
                self.problems += min(found, key=len)

    def one(self, annotation: Any, node: dict, where: str) -> None:
        kinds = node.get("type")
        kinds = None if kinds is None else [kinds] if isinstance(kinds, str) else kinds
        origin = typing.get_origin(annotation) or annotation

        def expect(kind: str) -> bool:
            if kinds is not None and kind not in kinds and not (kind == "integer" and "number" in kinds):
                self.problems.append(f"{where}: {_name(annotation)} in the dataclass, {'/'.join(kinds)} in the schema")
                return False
            return True

        if annotation is Any:
            return
        if dataclasses.is_dataclass(annotation):
            if expect("object"):
                self.dataclass(annotation, node, where)
        elif isinstance(origin, type) and issubclass(origin, Mapping):
            if expect("object"):
                value = (typing.get_args(annotation) or (Any, Any))[1]
                properties, _ = self.object_of(node)
                for prop, sub in properties.items():
                    self.check(value, sub, f"{where}[{prop!r}]")
                extra = node.get("additionalProperties")
                if isinstance(extra, dict):
                    self.check(value, extra, f"{where}[*]")
        elif isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str:
            if expect("array"):
                self.array(annotation, origin, node, where)
        elif annotation in JSON_TYPES:
            expect(JSON_TYPES[annotation])
        else:
            self.problems.append(f"{where}: {_name(annotation)} has no JSON form this test knows")

    def array(self, annotation: Any, origin: type, node: dict, where: str) -> None:
        args = typing.get_args(annotation)
        items = node.get("items")
        if origin is tuple and args and args[-1] is not Ellipsis:  # a fixed length, as ci's (low, high)
            if (node.get("minItems"), node.get("maxItems")) != (len(args), len(args)):
                self.problems.append(f"{where}: {len(args)} items in the dataclass, not so bounded in the schema")
            for k, arg in enumerate(args):
                if isinstance(items, dict):
                    self.check(arg, items, f"{where}[{k}]")
        elif args and isinstance(items, dict):
            self.check(args[0], items, f"{where}[*]")


def _members(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return list(typing.get_args(annotation))
    return [annotation]


def _name(annotation: Any) -> str:
    return getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")


def _json_type(value: Any) -> str:
    return "null" if value is None else JSON_TYPES[type(value)]


@pytest.fixture(scope="module")
def walk() -> Walk:
    walk = Walk(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    walk.dataclass(Evaluation, walk.schema, "results.json")
    return walk


def test_the_dataclasses_and_the_schema_name_the_same_fields_with_fitting_types(walk):
    assert walk.problems == [], "the result's dataclasses and results.schema.json differ:\n" + "\n".join(walk.problems)


def test_the_walk_reaches_every_dataclass_of_the_result(walk):
    """Every dataclass results.py holds or re-exports (result_*.py) is met on the way from
    Evaluation (a base class through its subclasses), so none escapes the comparison."""
    defined = {value for value in vars(results).values() if dataclasses.is_dataclass(value) and isinstance(value, type)}
    met = {base for cls in walk.classes for base in cls.__mro__}
    assert sorted(cls.__name__ for cls in defined - met) == []


def _problems(cls: type, schema: dict) -> list[str]:
    walk = Walk(schema)
    walk.dataclass(cls, schema, "x")
    return walk.problems


@dataclasses.dataclass(frozen=True)
class _Row:
    name: str
    score: float
    rank: int | None
    ci: tuple[float, float] | None
    scores: Mapping[str, float]


def _schema(**changes: Any) -> dict:
    properties = {"name": {"type": "string"}, "score": {"type": "number"}, "rank": {"type": ["integer", "null"]},
                  "ci": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"type": "number"},
                                                      "minItems": 2, "maxItems": 2}]},
                  "scores": {"type": "object", "additionalProperties": {"type": "number"}}}
    properties.update(changes)
    properties = {k: v for k, v in properties.items() if v is not None}
    return {"type": "object", "properties": properties, "required": sorted(properties)}


@pytest.mark.parametrize("changes, expected", [
    ({}, []),
    ({"rank": None}, ["x (_Row).rank: a field of _Row, no property of the schema"]),
    ({"extra": {"type": "string"}}, ["x (_Row).extra: a property of the schema, no field of _Row"]),
    ({"rank": {"type": "integer"}}, ["x.rank: the dataclass allows None, the schema no null"]),
    ({"name": {"type": ["string", "null"]}}, ["x.name: the schema allows null, the dataclass (str) no None"]),
    ({"score": {"type": ["number", "null"]}}, []),  # NaN is written as null
    ({"score": {"type": "integer"}}, ["x.score: float in the dataclass, integer in the schema"]),
    ({"scores": {"type": "object", "additionalProperties": {"type": "string"}}},
     ["x.scores[*]: float in the dataclass, string in the schema"]),
    ({"ci": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"type": "number"}}]}},
     ["x.ci: 2 items in the dataclass, not so bounded in the schema"]),
])
def test_each_kind_of_mismatch_is_named(changes, expected):
    assert _problems(_Row, _schema(**changes)) == expected


def test_a_field_the_schema_does_not_require_is_named():
    schema = _schema()
    schema["required"].remove("scores")
    assert _problems(_Row, schema) == ["x (_Row).scores: always written, not required by the schema"]


def test_a_required_name_that_is_no_property_is_named():
    schema = _schema()
    schema["required"].append("scroes")
    assert _problems(_Row, schema) == ["x (_Row).scroes: required by the schema, no property of it"]


def test_a_dataclass_within_a_mapping_within_an_optional_is_compared():
    @dataclasses.dataclass(frozen=True)
    class Outer:
        rows: Mapping[str, _Row | None] | None

    row = _schema(rank={"type": "integer"})
    schema = {"type": "object", "properties": {"rows": {"oneOf": [
        {"type": "null"}, {"type": "object", "additionalProperties": {"oneOf": [{"type": "null"}, row]}}]}},
        "required": ["rows"]}
    assert _problems(Outer, schema) == ["x.rows[*].rank: the dataclass allows None, the schema no null"]
