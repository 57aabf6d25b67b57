"""The recipes file of the published build (``builder/recipes.toml``): reading and checking it.

Used by ``builder/build_published.py``; see the comments in ``recipes.toml`` for its fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomllib

from auto_challenge_sets.configs import check_split_name, parse_pair
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.pipeline.defaults import AUTO_ALIGNER, DEFAULT_PARSER

DEFAULT_RECIPES = Path(__file__).resolve().parent / "recipes.toml"
DEVICES = ("cuda", "cpu")

_DEFAULT_KEYS = {"device", "parser", "aligner"}
_REQUIRED = ("pair", "corpus", "source", "target", "license")
_OPTIONAL = ("source_conllu", "parser", "parser_options", "aligner", "aligner_options")
PATH_FIELDS = ("source", "target", "source_conllu")


@dataclass(frozen=True)
class Recipe:
    """One ``[[build]]`` table, as written (backend defaults filled in from ``[defaults]``)."""

    pair: str
    corpus: str
    source: str
    target: str
    license: str
    source_conllu: str | None = None
    parser: str = DEFAULT_PARSER
    parser_options: dict[str, Any] = field(default_factory=dict)
    aligner: str = AUTO_ALIGNER  # the default-aligner policy of acs build and the Python API
    aligner_options: dict[str, Any] = field(default_factory=dict)
    where: str = "recipe"  # how errors name it: "recipes.toml, recipe 2 (en-de.newstest2013)"

    @property
    def id(self) -> str:
        return f"{self.pair}.{self.corpus}"


@dataclass
class Recipes:
    """What a recipes file holds: its ``[defaults]`` and its ``[[build]]`` tables, in order."""

    path: Path
    defaults: dict[str, str]
    recipes: list[Recipe]


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise AcsError(f"recipes file {path} not found") from None
    except tomllib.TOMLDecodeError as err:
        raise AcsError(f"{path}: not valid TOML: {err}") from None


def _string(table: dict[str, Any], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise AcsError(f"{where}: {key} must be a non-empty string, got {value!r}")
    return value


def _options_table(table: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise AcsError(f"{where}: {key} must be a table, e.g. {key} = {{ name = value }}, got {value!r}")
    return dict(value)


def load_recipes(path: str | Path = DEFAULT_RECIPES) -> Recipes:
    """Read and check a recipes file: known keys, string fields, a valid pair and corpus name, no
    (pair, corpus) twice. Files are not looked at here (they are relative to a data root: see
    :func:`plan`)."""
    path = Path(path)
    data = _load_toml(path)
    unknown = sorted(set(data) - {"defaults", "build"})
    if unknown:
        raise AcsError(f"{path}: unknown top-level key(s) {', '.join(unknown)} (expected [defaults] and [[build]])")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise AcsError(f"{path}: defaults must be a table ([defaults])")
    unknown = sorted(set(defaults) - _DEFAULT_KEYS)
    if unknown:
        raise AcsError(f"{path}: [defaults] has unknown key(s) {', '.join(unknown)} "
                       f"(known: {', '.join(sorted(_DEFAULT_KEYS))})")
    for key in defaults:
        _string(defaults, key, f"{path}: [defaults]")
    if "device" in defaults and defaults["device"] not in DEVICES:
        raise AcsError(f"{path}: [defaults] device must be one of {', '.join(DEVICES)}, got {defaults['device']!r}")
    tables = data.get("build", [])
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise AcsError(f"{path}: no recipes: expected one or more [[build]] tables")

    recipes: list[Recipe] = []
    seen: dict[str, str] = {}
    for number, table in enumerate(tables, start=1):
        where = f"{path}, recipe {number}"
        if isinstance(table.get("pair"), str) and isinstance(table.get("corpus"), str):
            where += f" ({table['pair']}.{table['corpus']})"
        missing = [key for key in _REQUIRED if key not in table]
        if missing:
            raise AcsError(f"{where}: missing {', '.join(missing)}")
        unknown = sorted(set(table) - set(_REQUIRED) - set(_OPTIONAL))
        if unknown:
            raise AcsError(f"{where}: unknown key(s) {', '.join(unknown)} "
                           f"(known: {', '.join(_REQUIRED + _OPTIONAL)})")
        fields = {key: _string(table, key, where) for key in table if not key.endswith("_options")}
        try:
            parse_pair(fields["pair"])
            check_split_name(fields["corpus"])
        except AcsError as err:
            raise AcsError(f"{where}: {err}") from None
        if "source_conllu" in fields and ("parser" in table or "parser_options" in table):
            raise AcsError(f"{where}: source_conllu is a parse already; give it or a parser, not both")
        recipe = Recipe(**{"parser": defaults.get("parser", DEFAULT_PARSER),
                           "aligner": defaults.get("aligner", AUTO_ALIGNER), **fields},
                        parser_options=_options_table(table, "parser_options", where),
                        aligner_options=_options_table(table, "aligner_options", where), where=where)
        if recipe.id in seen:
            raise AcsError(f"{where}: {recipe.id} is built by {seen[recipe.id]} already "
                           "(one recipe per pair and corpus: both would write the same split)")
        seen[recipe.id] = f"recipe {number}"
        recipes.append(recipe)
    return Recipes(path, dict(defaults), recipes)


def parse_assignments(items: Iterable[str], flag: str) -> dict[str, str]:
    """``["layer=8", "method=argmax"]`` → ``{"layer": "8", "method": "argmax"}`` (dashes in a key
    read as underscores)."""
    parsed: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise AcsError(f"{flag} expects KEY=VALUE, got {item!r}")
        parsed[key.strip().replace("-", "_")] = value
    return parsed


def recipe_backend_options(kind: str, name: str, recipe_name: str, recipe_options: dict[str, Any],
                           device: str | None, device_is_default: bool, overrides: dict[str, str],
                           where: str) -> dict[str, Any]:
    """The options a backend gets: the recipe's (when the backend is still the recipe's), the
    device (where the backend declares one), then the command line's ``--{kind}-option``."""
    from auto_challenge_sets.backends import declared_options

    declared = declared_options(kind)
    if name not in declared:
        raise AcsError(f"{where}: unknown {kind} {name!r} (available: {', '.join(sorted(declared))}"
                       f"{', auto, none' if kind == 'aligner' else ''})")
    by_name = {option.name: option for option in declared[name]}

    def check(key: str, value: Any, source: str) -> Any:
        if key not in by_name:
            raise AcsError(f"{where}: {source}: {kind} {name!r} has no option {key!r} "
                           f"(its options: {', '.join(sorted(by_name)) or 'none'})")
        try:  # a recipe's value is TOML-typed, a command line's is text
            return by_name[key].parse(value)
        except (TypeError, ValueError) as err:
            raise AcsError(f"{where}: {source}: option {key}: bad value {value!r} ({err})") from None

    options: dict[str, Any] = {}
    if name == recipe_name:  # a replaced backend's options belong to the one replaced
        for key, value in recipe_options.items():
            options[key] = check(key, value, f"{kind}_options")
    if device is not None and "device" in by_name and not (device_is_default and "device" in options):
        options["device"] = check("device", device, "device")
    for key, value in overrides.items():
        options[key] = check(key, value, f"--{kind}-option")
    return options
