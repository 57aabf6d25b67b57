"""The error types users see. Each names the file and line it is about."""

from __future__ import annotations

from pathlib import Path


class AcsError(Exception):
    """Base class of every error the ``acs`` command line reports without a traceback."""


class InputError(AcsError, ValueError):
    """Bad input in a file: the message names the file and, where known, the 1-based line."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        self.reason = message
        where = ""
        if self.path is not None:
            where = self.path if line is None else f"{self.path}:{line}"
        elif line is not None:
            where = f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class ConlluError(InputError):
    """Malformed CoNLL-U."""


class AlignmentError(InputError):
    """Malformed or out-of-range Pharaoh alignment."""


class CorpusError(InputError):
    """A parallel corpus that cannot be read as one sentence pair per line."""


class BadNameError(AcsError, ValueError):
    """A malformed language pair, config or split name."""
