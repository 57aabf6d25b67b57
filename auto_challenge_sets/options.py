"""One declared option of a pluggable class (a backend of the build, a metric of the evaluation):
the command-line flags, the help, the checks of a given value and the error for an unknown key are
derived from it. In the core, so that the metrics (core) and the backends (above it) share it."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.formats.text import ascii_float, ascii_int


@dataclass(frozen=True)
class Option:
    """One constructor option, declared once.

    ``flag`` is its command-line flag where the command runs one kind of backend (``acs parse``,
    ``acs align``); ``build_flag`` where parse and align options share one command (``acs build``),
    when the bare flag would be ambiguous there. ``cli=False`` keeps an option off the command line.
    ``minimum`` bounds a number (``comet_batch_size`` >= 1).
    """

    name: str
    type: Callable[[str], Any]
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    metavar: str | None = None
    flag: str | None = None
    build_flag: str | None = None
    cli: bool = True
    minimum: float | None = None

    def cli_flag(self, in_build: bool = False) -> str:
        if in_build and self.build_flag:
            return self.build_flag
        return self.flag or "--" + self.name.replace("_", "-")

    def parse(self, value: Any) -> Any:
        """``value`` as this option's type: a value of the type as it is, text read strictly (a
        boolean is ``true`` or ``false``, a number ASCII digits: ``bool('false')`` is True and
        ``int('１６')`` is 16, which no option means); a ValueError saying what it must be."""
        kind, text = self.type, isinstance(value, str)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if kind is bool:
            parsed = {"true": True, "false": False}.get(value) if text else value if isinstance(value, bool) else None
            if parsed is None:
                raise ValueError(f"must be true or false, got {value!r}")
        elif kind is int:
            parsed = ascii_int(value) if text else value if number and isinstance(value, int) else None
            if parsed is None or (self.minimum is not None and parsed < self.minimum):
                bound = "" if self.minimum is None else f" >= {self.minimum:g}"
                raise ValueError(f"must be an integer{bound} in ASCII digits, got {value!r}")
        elif kind is float:
            parsed = ascii_float(value) if text else float(value) if number else None
            if parsed is None or not math.isfinite(parsed):
                raise ValueError(f"must be a finite number in ASCII, got {value!r}")
        elif text:  # text, a path, or a backend's own parser of its text
            parsed = kind(value)
        elif kind is not str and (not isinstance(kind, type) or isinstance(value, kind)):
            parsed = value  # already of the type
        else:
            raise ValueError(f"must be text, got {value!r}")
        if self.minimum is not None and parsed < self.minimum:
            raise ValueError(f"must be >= {self.minimum:g}, got {parsed}")
        if self.choices is not None and parsed not in self.choices:
            raise ValueError(f"must be one of {', '.join(map(str, self.choices))}, got {parsed!r}")
        return parsed

    def describe(self, owners: str = "") -> str:
        """``name (type, default X[; owners]): help``, for listings."""
        kind = getattr(self.type, "__name__", "text")
        default = str(self.default).lower() if isinstance(self.default, bool) else self.default
        return f"{self.name} ({kind}, default {default}{'; ' + owners if owners else ''}): {self.help}"


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """`` (did you mean X?)`` naming the nearest of ``names``, or nothing."""
    near = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return f" (did you mean {near[0]}?)" if near else ""
