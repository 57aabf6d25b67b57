"""Checking an eflomal priors file before eflomal reads it.

eflomal's own reader (``eflomal.read_priors``) fails on a bad line with a bare ``IndexError``,
``ValueError`` or even ``TypeError`` (its own message formatting is broken) and names no file; it
also runs only once the corpus is parsed. This check reads the same grammar first, so a bad file
is one error naming its line, before any work.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import ascii_float, ascii_int

# kind -> what follows it before alpha ("word" or "int"), as eflomal.read_priors accepts it
_LAYOUT = {
    "LEX": ("word", "word"),
    "FERF": ("word", "int"),
    "FERR": ("word", "int"),
    "HMMF": ("int",),
    "HMMR": ("int",),
}


def _line_error(fields: list[str]) -> str | None:
    kind = fields[0]
    if kind not in _LAYOUT:
        return (f"a priors line starts with one of {', '.join(_LAYOUT)} and a tab, not {kind[:40]!r} "
                "(make the file with `acs align --make-priors`)")
    layout = _LAYOUT[kind]
    if len(fields) != len(layout) + 2:
        return f"a {kind} line has {len(layout) + 2} tab-separated fields, not {len(fields)}"
    for kind_of_field, value in zip(layout, fields[1:-1]):
        if kind_of_field == "int" and ascii_int(value) is None:  # eflomal reads ASCII digits: not '٣'
            return f"a {kind} line needs a whole number in place of {value[:40]!r}"
    alpha = ascii_float(fields[-1])
    if alpha is None:
        return f"the prior (last field) must be a number, not {fields[-1][:40]!r}"
    if not math.isfinite(alpha) or alpha < 0:
        return f"the prior (last field) must be a finite number >= 0, not {fields[-1][:40]!r}"
    return None


def check_priors(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputError` naming ``path`` and the first line eflomal could not read."""
    path = Path(path)
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(f"not UTF-8 (byte {error.start + 1})", path, number) from None
            problem = _line_error(line.rstrip("\n").split("\t"))
            if problem is not None:
                raise InputError(problem, path, number)
