"""Floor 2, the backends: parsers and aligners, one module each, in one registry.

A backend is a class registered under a kind (``parser``, ``aligner``) and a name, declaring its
options once, as :class:`Option` records: name, type, default, help, choices. Everything else is
derived from that declaration: the keyword arguments its constructor takes (checked when the class
is registered), the errors for an unknown option, the command-line flags and their help defaults
(``auto_challenge_sets.cli.backend_flags``). Built-in backends import their heavy libraries (torch,
trankit, simalign, eflomal, UDPipe) inside their methods, and their modules are imported only
when a backend of theirs is asked for, so listing or choosing a backend costs nothing.

Besides its options a constructor takes the *context* its kind defines (:data:`CONTEXT`): a parser
is told the language and the stage cache folder, an aligner nothing.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.options import Option  # in the core: the metrics declare theirs with it too

PARSER = "parser"
ALIGNER = "aligner"

# kind -> the keyword arguments every constructor of that kind takes besides its options
CONTEXT: dict[str, tuple[str, ...]] = {PARSER: ("lang", "cache_dir"), ALIGNER: ()}

# kind -> name -> the module that registers it when imported
_BUILTIN: dict[str, dict[str, str]] = {
    PARSER: {
        "trankit": "auto_challenge_sets.builder.backends.parsers.trankit",
        "udpipe": "auto_challenge_sets.builder.backends.parsers.udpipe",
    },
    ALIGNER: {
        "simalign": "auto_challenge_sets.builder.backends.aligners.simalign",
        "eflomal": "auto_challenge_sets.builder.backends.aligners.eflomal",
    },
}
_REGISTRY: dict[str, dict[str, type]] = {PARSER: {}, ALIGNER: {}}


# What a user types to get every optional backend library (pyproject.toml's `build` extra).
EXTRA_INSTALL = 'pip install "auto-challenge-sets[build]"'


class BackendError(AcsError):
    """A backend that cannot be made: unknown name, unknown or bad option, missing library."""


def missing_modules(cls: type) -> list[str]:
    """The modules a backend class ``requires`` (a class attribute) that cannot be imported here;
    found without importing them, so a check costs nothing."""
    import importlib.util
    import sys

    missing = []
    for module in getattr(cls, "requires", ()):
        parts = module.split(".")
        # None in sys.modules marks a module (or its parent package) as not importable
        if any(sys.modules.get(".".join(parts[:i]), ...) is None for i in range(1, len(parts) + 1)):
            missing.append(module)
            continue
        if module in sys.modules:  # imported already; find_spec would fail on a module without __spec__
            continue
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a missing parent package ("ufal" of "ufal.udpipe")
            found = False
        if not found:
            missing.append(module)
    return missing


def install_hint(cls: type) -> str:
    """The command that installs what a backend class needs."""
    return getattr(cls, "install", None) or EXTRA_INSTALL


B = TypeVar("B", bound=type)


def register_backend(kind: str, name: str) -> Callable[[B], B]:
    """Class decorator: make a backend available under ``(kind, name)``.

    The class's ``options`` must declare exactly the keyword arguments of its constructor beyond
    the kind's context; a second backend of the same kind and name is an error.
    """
    if kind not in _REGISTRY:
        raise ValueError(f"unknown backend kind {kind!r} (kinds: {', '.join(_REGISTRY)})")

    def decorate(cls: B) -> B:
        if name in _REGISTRY[kind]:
            existing = _REGISTRY[kind][name]
            raise BackendError(f"a {kind} named {name!r} is already registered "
                               f"({existing.__module__}.{existing.__qualname__})")
        declared = [option.name for option in getattr(cls, "options", ())]
        if len(set(declared)) != len(declared):
            raise BackendError(f"{kind} {name!r} declares an option twice: {declared}")
        parameters = [p for p in inspect.signature(cls).parameters.values()
                      if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        missing_context = [key for key in CONTEXT[kind] if key not in {p.name for p in parameters}]
        if missing_context:
            raise BackendError(f"{kind} {name!r}: its constructor must take the context {missing_context}")
        taken = [p.name for p in parameters if p.name not in CONTEXT[kind]]
        if sorted(taken) != sorted(declared):
            raise BackendError(f"{kind} {name!r}: its constructor takes {sorted(taken)} but its options "
                               f"declare {sorted(declared)}; declare each option once, in `options`")
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
    """``{backend name: its options}`` for every backend of a kind (imports the built-in modules,
    which is cheap: their heavy libraries load only when they run)."""
    return {name: tuple(backend_class(kind, name).options) for name in available_backends(kind)}


def create_backend(kind: str, name: str, context: Mapping[str, Any] | None = None,
                   error: type[BackendError] = BackendError, **options: Any) -> Any:
    """A ready backend. Options that are ``None`` mean "the declared default"; an option the
    backend does not declare is an error naming the ones it does."""
    cls = backend_class(kind, name, error)
    known = {option.name for option in cls.options}
    unknown = sorted(key for key in options if key not in known)
    if unknown:
        raise error(f"{kind} {name!r} has no option {', '.join(unknown)} "
                    f"(its options: {', '.join(sorted(known)) or 'none'})")
    missing = missing_modules(cls)
    if missing:  # one line naming the extra, not a ModuleNotFoundError from deep inside
        raise error(f"the {name} {kind} needs {', '.join(missing)}, which is not installed: {install_hint(cls)}")
    given = {key: value for key, value in options.items() if value is not None}
    context = dict(context or {})
    extra = sorted(set(context) - set(CONTEXT[kind]))
    if extra:
        raise error(f"a {kind} takes no context {', '.join(extra)}")
    return cls(**context, **given)
