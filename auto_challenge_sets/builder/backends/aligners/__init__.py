"""Word aligners behind one small interface, registered by name.

An aligner maps sentence pairs, given as token lists, to Pharaoh links::

    aligner = get_aligner("eflomal", seed=1)
    aligner.align([(["Das", "Haus"], ["The", "house"])])   # -> [[(0, 0), (1, 1)]]

Links are 0-based ``(source index, target index)`` pairs, sorted and unique, over exactly the
tokens given (the build passes the words of the source UD parse and the white-space tokens of
the target). A pair with an empty side gets no links. A precomputed Pharaoh file is not a backend
but an input of the pipeline (:mod:`auto_challenge_sets.builder.pipeline.inputs`).

Backends live one per module and import their heavy libraries (torch, simalign, eflomal) only
when they run, so listing or choosing an aligner stays cheap. Built-in backends are imported on
first use; others register themselves with :func:`register_aligner`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from auto_challenge_sets.builder.backends import (
    ALIGNER,
    BackendError,
    Option,
    available_backends,
    backend_class,
    create_backend,
    register_backend,
)
from auto_challenge_sets.builder.backends.provenance import package_entry
from auto_challenge_sets.pharaoh import Link

Pair = tuple[Sequence[str], Sequence[str]]


class AlignerError(BackendError):
    """An aligner that cannot be made or cannot run: unknown name, bad option, missing model."""


class Aligner:
    """Base class of the backends.

    ``corpus_level``: the backend learns from the whole corpus (eflomal), so the stage must hand
    it every pair at once instead of shard by shard.
    """

    name: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    corpus_level: ClassVar[bool] = False
    package: ClassVar[str | None] = None  # the distribution that runs it, whose version the record keeps

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        raise NotImplementedError

    def cache_key(self) -> dict[str, Any]:
        """Everything that determines the links given the pairs: backend, model, options, seed."""
        raise NotImplementedError

    def check(self) -> None:
        """Fail now, with a clear message, if ``align`` cannot run (e.g. no model offline)."""

    def provenance(self) -> dict[str, Any]:
        """What the build record keeps of this aligner (``acs_build.json``, docs/method.md): backend,
        package and version, model and its sha256, how the two directions were combined
        (``symmetrization``), the priors file (``{file, sha256}``) and whether there was one
        (``priors_used``; None where the backend takes none), and the options that change the links.
        The build adds the number of pairs aligned."""
        return {"backend": self.name, **package_entry(self.package), "model": None, "file": None,
                "sha256": None, "symmetrization": None, "priors": None, "priors_used": None, "options": {}}


def register_aligner(name: str) -> Callable[[type[Aligner]], type[Aligner]]:
    """Class decorator: make a backend available to :func:`get_aligner` under ``name``."""
    return register_backend(ALIGNER, name)


def available_aligners() -> list[str]:
    return available_backends(ALIGNER)


def aligner_class(name: str) -> type[Aligner]:
    return backend_class(ALIGNER, name, AlignerError)


def get_aligner(name: str, **options: Any) -> Aligner:
    """A ready aligner; options that are ``None`` mean "the backend's default"."""
    return create_backend(ALIGNER, name, error=AlignerError, **options)
