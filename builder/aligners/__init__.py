"""Word aligners behind one small interface, registered by name.

An aligner maps sentence pairs, given as token lists, to Pharaoh links::

    aligner = get_aligner("eflomal", seed=1)
    aligner.align([(["Das", "Haus"], ["The", "house"])])   # -> [[(0, 0), (1, 1)]]

Links are 0-based ``(source index, target index)`` pairs, sorted and unique, over exactly the
tokens given (the build passes the words of the source UD parse and the white-space tokens of
the target). A pair with an empty side gets no links.

Backends live one per module and import their heavy libraries (torch, simalign, eflomal) only
when they run, so listing or choosing an aligner stays cheap. Built-in backends are imported on
first use; others register themselves with :func:`register_aligner`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from auto_challenge_sets.errors import AcsError

Link = tuple[int, int]
Pair = tuple[Sequence[str], Sequence[str]]

# name -> module that registers it when imported (kept lazy: importing a backend is cheap, but
# there is no reason to import three of them to use one)
_BUILTIN = {
    "simalign": "auto_challenge_sets.builder.aligners.simalign_backend",
    "eflomal": "auto_challenge_sets.builder.aligners.eflomal_backend",
    "pharaoh": "auto_challenge_sets.builder.aligners.pharaoh_backend",
}
_REGISTRY: dict[str, Callable[..., Aligner]] = {}


class AlignerError(AcsError):
    """An aligner that cannot be made or cannot run: unknown name, bad option, missing model."""


class Aligner:
    """Base class of the backends.

    ``corpus_level``: the backend learns from the whole corpus (eflomal), so the stage must hand
    it every pair at once instead of shard by shard. ``cacheable``: whether the stage should keep
    its output in the resumable cache (reading a Pharaoh file is cheaper than the cache).
    """

    name: ClassVar[str] = ""
    corpus_level: ClassVar[bool] = False
    cacheable: ClassVar[bool] = True

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        raise NotImplementedError

    def cache_key(self) -> dict[str, Any]:
        """Everything that determines the links given the pairs: backend, model, options, seed."""
        raise NotImplementedError

    def check(self) -> None:
        """Fail now, with a clear message, if ``align`` cannot run (e.g. no model offline)."""


def register_aligner(name: str) -> Callable[[Callable[..., Aligner]], Callable[..., Aligner]]:
    """Class decorator: make a backend available to :func:`get_aligner` under ``name``."""

    def decorate(factory: Callable[..., Aligner]) -> Callable[..., Aligner]:
        _REGISTRY[name] = factory
        return factory

    return decorate


def available_aligners() -> list[str]:
    return sorted(set(_BUILTIN) | set(_REGISTRY))


def aligner_class(name: str) -> Callable[..., Aligner]:
    if name not in _REGISTRY and name in _BUILTIN:
        importlib.import_module(_BUILTIN[name])
    try:
        return _REGISTRY[name]
    except KeyError:
        raise AlignerError(
            f"unknown aligner {name!r}; available: {', '.join(available_aligners())}") from None


def get_aligner(name: str, **options: Any) -> Aligner:
    """A ready aligner; options that are ``None`` mean "the backend's default"."""
    factory = aligner_class(name)
    options = {key: value for key, value in options.items() if value is not None}
    try:
        inspect.signature(factory).bind(**options)
    except TypeError as error:  # an option this backend does not take
        raise AlignerError(f"aligner {name!r}: {error}") from None
    return factory(**options)


def sorted_links(links: Sequence[Link]) -> list[Link]:
    return sorted({(int(i), int(j)) for i, j in links})
