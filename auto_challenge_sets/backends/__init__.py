"""The backends: parsers and aligners, one module each, in one registry.

A backend is a class registered under a kind (``parser``, ``aligner``) and a name that declares its
options once, as :class:`Option` records; its constructor keywords, the errors for an unknown
option and the command-line flags (``auto_challenge_sets.cli.backend_flags``) all follow from that
declaration. A built-in backend's module is imported only when it is asked for, and imports its
heavy libraries (its ``requires``, the distribution that runs it last) only when it runs. Besides
its options a constructor takes its kind's context (:data:`CONTEXT`).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.options import Option  # in the core: the metrics declare theirs with it too

PARSER = "parser"
ALIGNER = "aligner"

# kind -> the keyword arguments every constructor of that kind takes besides its options
CONTEXT: dict[str, tuple[str, ...]] = {PARSER: ("lang", "cache_dir"), ALIGNER: ()}

_PACKAGE = "auto_challenge_sets.backends"
# kind -> name -> the module that registers it when imported
_BUILTIN: dict[str, dict[str, str]] = {
    PARSER: {"trankit": f"{_PACKAGE}.parsers.trankit", "udpipe": f"{_PACKAGE}.parsers.udpipe"},
    ALIGNER: {"simalign": f"{_PACKAGE}.aligners.simalign", "eflomal": f"{_PACKAGE}.aligners.eflomal"},
}
_REGISTRY: dict[str, dict[str, type]] = {PARSER: {}, ALIGNER: {}}

# What a user types to get every optional backend library (pyproject.toml's `build` extra).
EXTRA_INSTALL = 'pip install "auto-challenge-sets[build]"'


class BackendError(AcsError):
    """A backend that cannot be made: unknown name, unknown or bad option, missing library."""


def _importable(module: str) -> bool:
    parts = module.split(".")
    # None in sys.modules marks a module (or its package) as not importable; a lazy one may lack a __spec__
    if any(sys.modules.get(".".join(parts[:i]), ...) is None for i in range(1, len(parts) + 1)):
        return False
    if module in sys.modules:
        return True
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a missing parent package ("ufal" of "ufal.udpipe")
        return False


def missing_modules(cls: type) -> list[str]:
    """The modules of a backend class's ``requires`` that cannot be imported, found without importing them."""
    return [module for module in getattr(cls, "requires", ()) if not _importable(module)]


def install_hint(cls: type) -> str:
    return getattr(cls, "install", None) or EXTRA_INSTALL


B = TypeVar("B", bound=type)


def register_backend(kind: str, name: str) -> Callable[[B], B]:
    """Class decorator: make a backend available under ``(kind, name)``. Its ``options`` must declare
    exactly its constructor's keywords beyond the kind's context, and the name must be new."""

    def decorate(cls: B) -> B:
        if name in _REGISTRY[kind]:
            raise BackendError(f"a {kind} named {name!r} is already registered ({_REGISTRY[kind][name].__module__})")
        declared = sorted(option.name for option in getattr(cls, "options", ()))
        parameters = {p.name for p in inspect.signature(cls).parameters.values()
                      if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        missing_context = [key for key in CONTEXT[kind] if key not in parameters]
        if missing_context:
            raise BackendError(f"{kind} {name!r}: its constructor must take the context {missing_context}")
        taken = sorted(parameters - set(CONTEXT[kind]))
        if taken != declared:
            raise BackendError(f"{kind} {name!r}: its constructor takes {taken} but its options "
                               f"declare {declared}; declare each option once, in `options`")
        cls.name = name
        _REGISTRY[kind][name] = cls
        return cls

    return decorate


def unregister_backend(kind: str, name: str) -> None:
    """Remove a registered backend (tests register throw-away backends)."""
    _REGISTRY[kind].pop(name, None)


def available_backends(kind: str) -> list[str]:
    return sorted(set(_BUILTIN[kind]) | set(_REGISTRY[kind]))


def backend_class(kind: str, name: str, error: type[BackendError] = BackendError) -> type:
    """The class registered as ``(kind, name)``, importing a built-in backend's module on first use."""
    if name not in _REGISTRY[kind] and name in _BUILTIN[kind]:
        importlib.import_module(_BUILTIN[kind][name])
    try:
        return _REGISTRY[kind][name]
    except KeyError:
        raise error(f"unknown {kind} {name!r}; available: {', '.join(available_backends(kind))}") from None


def declared_options(kind: str) -> dict[str, tuple[Option, ...]]:
    """``{backend name: its options}`` for every backend of a kind."""
    return {name: tuple(backend_class(kind, name).options) for name in available_backends(kind)}


def create_backend(kind: str, name: str, context: Mapping[str, Any] | None = None,
                   error: type[BackendError] = BackendError, **options: Any) -> Any:
    """A ready backend. An option that is ``None`` means "the declared default"; one the backend
    does not declare is an error naming those it does, and each given value is checked here, once,
    by its declaration (type, choices, bounds): the backends do not check them again."""
    cls = backend_class(kind, name, error)
    known = {option.name: option for option in cls.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise error(f"{kind} {name!r} has no option {', '.join(unknown)} "
                    f"(its options: {', '.join(sorted(known)) or 'none'})")
    given = {key: value for key, value in options.items() if value is not None}
    for key, value in given.items():
        try:
            given[key] = known[key].parse(value)
        except ValueError as problem:
            raise error(f"{kind} {name!r}: option {key} {problem}", field=key) from None
    missing = missing_modules(cls)
    if missing:  # one line naming the extra, not a ModuleNotFoundError from deep inside
        raise error(f"the {name} {kind} needs {', '.join(missing)}, which is not installed: {install_hint(cls)}")
    return cls(**(context or {}), **given)
