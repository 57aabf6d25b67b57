"""What a build asks of a backend: its name and options, created when the stage needs it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.backends.aligners import Aligner, get_aligner
from auto_challenge_sets.backends.parsers import Parser, get_parser, parser_class


@dataclass(frozen=True)
class BackendSpec:
    """A backend name and its options (``None`` values mean the declared default)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """The backend and its given options; a file is named by its base name, so that the dataset
        card does not depend on where the build ran."""
        shown = ", ".join(f"{key}={Path(value).name if isinstance(value, os.PathLike) else value}"
                          for key, value in sorted(self.options.items()) if value is not None)
        return f"{self.name} ({shown})" if shown else self.name


class ParserSpec(BackendSpec):
    """A parser to run on the source side."""

    def create(self, lang: str, cache_dir: str | os.PathLike[str] | None = None) -> Parser:
        return get_parser(self.name, lang=lang, cache_dir=cache_dir, **self.options)

    def describe(self) -> str:
        """How the dataset card names the parser: the backend's own label (backend and model)."""
        return parser_class(self.name).label(self.options)


class AlignerSpec(BackendSpec):
    """An aligner to run on the sentence pairs."""

    def create(self) -> Aligner:
        return get_aligner(self.name, **self.options)
