"""How the evaluated sets were made, as a result carries it (``acs_build.json``'s provenance; part
of :mod:`auto_challenge_sets.evaluation.results`, which re-exports these)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FileDigest:
    """A file by its base name and sha256 (eflomal's priors)."""

    file: str
    sha256: str | None


@dataclass(frozen=True)
class ParserProvenance:
    """The parse as the build recorded it: the backend (``conllu``: a pre-parsed ``file``), its
    package and version, its model (a file or a name) and the sha256 of the model or the file."""

    backend: str
    package: str | None
    version: str | None
    model: str | None
    file: str | None
    sha256: str | None
    options: Mapping[str, Any]


@dataclass(frozen=True)
class AlignerProvenance(ParserProvenance):
    """The alignment as the build recorded it (``pharaoh``: a precomputed ``file``), with how its
    directions were combined, the pairs aligned and the priors (``priors_used`` None: the backend
    takes none)."""

    symmetrization: str | None = None
    pairs: int | None = None
    priors: FileDigest | None = None
    priors_used: bool | None = None


@dataclass(frozen=True)
class Provenance:
    """How the evaluated split's sets were made (``acs_build.json``): ``summary`` is the one line
    every report shows; ``recorded`` False for a folder built before the record kept it (then
    only the old labels, ``parser_label`` and ``aligner_label``); ``warning``: the alignment is
    eflomal's on too few pairs without priors."""

    recorded: bool
    summary: str
    parser_label: str | None = None
    aligner_label: str | None = None
    parser: ParserProvenance | None = None
    aligner: AlignerProvenance | None = None  # None: not aligned (or not recorded)
    tokenization: Mapping[str, str] | None = None
    packages: Mapping[str, str] | None = None
    warning: str | None = None
