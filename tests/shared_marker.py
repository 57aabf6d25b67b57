"""The ``shared`` marker, added where it belongs and enforced (see tests/conftest.py).

At collection, :func:`mark_items` marks every test that reaches ../shared by name: it uses the
``shared_data`` or ``shared_models`` fixture, or its code, one of its fixtures, or a function of
the same module that they call (followed to any depth; not ``shared_when_present``) names
``shared_path`` or ``SHARED``.

At run time, :func:`install` adds an audit hook (:func:`sys.addaudithook`) that sees every file
opened and folder listed by the running test (setup, call and teardown; a module fixture is set up
within its first test): one under ``SHARED`` read by a test without the marker fails that test
at once, naming the path. So a test that reaches shared data some other way is caught the first
time it runs with ../shared present, and the collection-time marking is checked on every run.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

NAMES = frozenset({"shared_path", "SHARED", "shared_data", "shared_models"})
FIXTURES = frozenset({"shared_data", "shared_models"})
NOT_FOLLOWED = frozenset({"shared_when_present"})  # prefers shared data, needs none: marks nothing
_EVENTS = frozenset({"open", "os.listdir", "os.scandir"})


class _State:
    installed = False
    item: pytest.Item | None = None
    allowed = 0
    roots: tuple[str, ...] = ()


# -- collection ------------------------------------------------------------------------------------------


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _names_shared(function: object, seen: set[object]) -> bool:
    """Whether ``function``, or a function of its module that it calls, names shared data."""
    function = inspect.unwrap(function) if callable(function) else function
    function = getattr(getattr(function, "hypothesis", None), "inner_test", function)
    code = getattr(function, "__code__", None)
    if code is None or function in seen:
        return False
    seen.add(function)
    names = _code_names(code)
    if names & NAMES:
        return True
    module, scope = getattr(function, "__module__", None), getattr(function, "__globals__", {})
    return any(isinstance(helper := scope.get(name), types.FunctionType) and helper.__module__ == module
               and _names_shared(helper, seen) for name in names - NOT_FOLLOWED)


def reads_shared(item: pytest.Item) -> bool:
    """Whether the test reaches ../shared by name (see the module's docstring)."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & FIXTURES:
        return True
    seen: set[object] = set()
    if _names_shared(getattr(item, "function", None), seen):
        return True
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    return any(_names_shared(definition.func, seen)
               for name in fixtures for definition in definitions.get(name, ()))


def mark_items(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("shared") is None and reads_shared(item):
            item.add_marker(pytest.mark.shared)


# -- run time --------------------------------------------------------------------------------------------


def _audit(event: str, args: tuple) -> None:
    if event not in _EVENTS or _State.item is None or _State.allowed:
        return
    path = args[0] if args else None
    if path is None or isinstance(path, int):
        return
    try:
        full = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return
    if not any(full == root or full.startswith(root + os.sep) for root in _State.roots):
        return
    item, _State.item = _State.item, None  # once per test
    if item.get_closest_marker("shared") is None:
        pytest.fail(f"{item.nodeid} reads {full} but is not marked shared: read shared data through "
                    "conftest.shared_path() or the shared_data/shared_models fixtures, or add "
                    "@pytest.mark.shared", pytrace=False)


def install(shared: Path) -> None:
    """Watch reads under ``shared`` (once per process; a later call only moves the watched folder)."""
    _State.roots = tuple(sorted({os.path.abspath(shared), os.path.realpath(shared)}))
    if not _State.installed:
        sys.addaudithook(_audit)
        _State.installed = True


@contextlib.contextmanager
def running(item: pytest.Item) -> Iterator[None]:
    _State.item = item
    try:
        yield
    finally:
        _State.item = None


@contextlib.contextmanager
def allowed() -> Iterator[None]:
    """Reads that mark no test (a fixture that only prefers shared data)."""
    _State.allowed += 1
    try:
        yield
    finally:
        _State.allowed -= 1
