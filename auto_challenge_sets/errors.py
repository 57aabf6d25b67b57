"""The error types users see. Each names the file and line it is about."""

from __future__ import annotations

from pathlib import Path


class AcsError(Exception):
    """Base class of every error the ``acs`` command line reports without a traceback.

    ``field``: the option, spec or request field (or a tuple of them) the message names, as the
    Python API spells it (``shard_size``), as a word of its own; the command line shows each such
    word as its flag (``--shard-size``, ``auto_challenge_sets.cli.fields``).
    """

    field: str | tuple[str, ...] | None = None

    def __init__(self, *args: object, field: str | tuple[str, ...] | None = None) -> None:
        super().__init__(*args)
        if field is not None:  # a subclass may have set it already
            self.field = field


class InputError(AcsError, ValueError):
    """Bad input in a file: the message names the file and, where known, the 1-based line."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None, *,
                 field: str | tuple[str, ...] | None = None):
        self.path = None if path is None else str(path)
        self.line = line
        self.reason = message
        where = "" if line is None else f"line {line}"
        if self.path is not None:
            where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}" if where else message, field=field)


class ConlluError(InputError):
    """Malformed CoNLL-U."""


class AlignmentError(InputError):
    """Malformed or out-of-range Pharaoh alignment."""


class CorpusError(InputError):
    """A parallel corpus that cannot be read as one sentence pair per line."""


class BadNameError(AcsError, ValueError):
    """A malformed language pair, config or split name."""


class RequestError(InputError):
    """A field of a request (an evaluation's, a build's) with a value that cannot be used; ``field``
    names it as the Python API spells it (``n_samples``, ``targeted.aligner``)."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        self.detail = message
        super().__init__(f"{field}: {message}", field=field)
