"""Word aligners behind one small interface, registered by name.

``get_aligner("eflomal", seed=1).align([(["Das", "Haus"], ["The", "house"])])`` gives
``[[(0, 0), (1, 1)]]``: per pair, sorted unique 0-based ``(source, target)`` links over exactly the
tokens given; a pair with an empty side gets none. A Pharaoh file is an input of the pipeline,
not a backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from auto_challenge_sets.backends import (
    ALIGNER,
    BackendError,
    Option,
    create_backend,
)
from auto_challenge_sets.backends.file_provenance import package_entry
from auto_challenge_sets.formats.pharaoh import Link

Pair = tuple[Sequence[str], Sequence[str]]


class AlignerError(BackendError):
    """An aligner that cannot be made or cannot run: unknown name, bad option, missing model."""


class Aligner:
    """Base class of the backends; a ``corpus_level`` one (eflomal) learns from the whole corpus, so
    the stage hands it every pair at once, not shard by shard."""

    name: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    corpus_level: ClassVar[bool] = False

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        raise NotImplementedError

    def cache_key(self) -> dict[str, Any]:
        """Everything that determines the links given the pairs: backend, model, options, seed."""
        raise NotImplementedError

    def provenance(self) -> dict[str, Any]:
        """What the build record (``acs_build.json``) keeps of this aligner; ``priors_used`` is None
        where the backend takes no priors."""
        return {"backend": self.name, **package_entry(self), "model": None, "file": None,
                "sha256": None, "symmetrization": None, "priors": None, "priors_used": None, "options": {}}


def get_aligner(name: str, **options: Any) -> Aligner:
    """A ready aligner; options that are ``None`` mean "the backend's default"."""
    return create_backend(ALIGNER, name, error=AlignerError, **options)
