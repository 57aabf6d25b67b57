"""Reading and writing text files: one decoding policy for every reader, atomic writes.

Every text file is UTF-8. A byte-order mark at the start of a file is dropped; a line ends at LF,
and a CR just before it is part of the line end (CRLF files read like LF files). A line that is not
valid UTF-8 is an error naming the file, the line and the byte. Readers that keep more of a line's
bytes (a CR inside a line, see :mod:`auto_challenge_sets.corpus`) say so where they do.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from auto_challenge_sets.errors import InputError

BOM = b"\xef\xbb\xbf"
MAX_DIGITS = 18  # the longest number a reader takes: larger IDs or indices are no real input


TO_A_FILE = "; write it to a file first"
IN_A_DATASET = "; a dataset folder holds only the files a build writes: build it again"


def require_regular_file(path: str | os.PathLike[str], error: type[InputError] = InputError,
                         hint: str = TO_A_FILE) -> None:
    """Refuse a path that names a pipe, a socket or a device, naming it: a FIFO blocks its reader
    until some process writes to it, a device such as /dev/zero never ends, and a pipe (also a
    shell's process substitution, ``<(...)``) can be read only once, where readers read a file
    twice (once to check and count, once to use). A folder or a missing path is left to ``open``,
    whose error already says so."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    raise error(f"is {file_kind(mode)}, not a regular file{hint}", str(path))


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words, from its ``st_mode`` (``lstat``'s, to
    name a link as one)."""
    return ("a pipe (a FIFO, or a process substitution such as <(...))" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a regular file" if stat.S_ISREG(mode) else "not a regular file")


def is_ascii_digits(text: str) -> bool:
    """``0``-``9`` only: ``str.isdigit`` also takes '²', '٣' and '３', which are no numbers here."""
    return text.isascii() and text.isdigit()


def ascii_number(text: str) -> int | None:
    """The non-negative integer that ``text`` spells in at most :data:`MAX_DIGITS` ASCII digits,
    else None (readers turn None into their error naming the file and line)."""
    if len(text) <= MAX_DIGITS and is_ascii_digits(text):
        return int(text)
    return None


# a decimal number in ASCII as a person writes one: float() and int() also take '٣', '１２', '+12',
# '1_2' and '０.５', which the files and flags here never mean as numbers
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"-?(?:nan|inf|infinity)", re.IGNORECASE)  # read, so that callers can say "not finite"
_TRUE, _FALSE = ("true", "1", "yes"), ("false", "0", "no")


def ascii_int(text: str) -> int | None:
    """The integer ``text`` spells: an optional ``-`` and at most :data:`MAX_DIGITS` ASCII digits,
    else None (the one parser of integers in files and flags; callers name the file and line)."""
    digits = text[1:] if text.startswith("-") else text
    value = ascii_number(digits)
    return None if value is None else (-value if digits is not text else value)


def ascii_float(text: str) -> float | None:
    """The number ``text`` spells in ASCII (``-0.5``, ``.5``, ``1e-3``; ``nan`` and ``inf`` too, so
    that a caller can refuse them as not finite), else None."""
    if _FLOAT.fullmatch(text) or _NON_FINITE.fullmatch(text):
        return float(text)
    return None


def strict_bool(value: object) -> bool | None:
    """A boolean given as one (``True``) or as text: true/false, 1/0, yes/no (any case); anything
    else None. ``bool('false')`` is True, which no option value means."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    text = value.strip().lower() if isinstance(value, str) else None
    return True if text in _TRUE else False if text in _FALSE else None


def decode_line(raw: bytes, path: str, number: int, error: type[InputError] = InputError) -> str:
    """One line's bytes as text; invalid UTF-8 raises ``error`` naming the file, line and byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as failure:
        raise error(f"invalid UTF-8 (byte {failure.start + 1} of the line)", path, number) from None


def numbered_lines(raw_lines: Iterable[bytes], path: str,
                   error: type[InputError] = InputError) -> Iterator[tuple[int, str]]:
    """``(1-based line number, line without its LF or CRLF end)`` of a file read as bytes: the
    policy one line at a time. The readers read blocks (:func:`raw_blocks`) for speed, and the tests
    hold them to this."""
    for number, raw in enumerate(raw_lines, start=1):
        if number == 1 and raw.startswith(BOM):
            raw = raw[len(BOM):]
        yield number, decode_line(raw, path, number, error).rstrip("\n").removesuffix("\r")


# Large files are read in blocks of about BLOCK bytes cut at line ends: one decode, one split and one
# check for control characters per block instead of per line (a build reads millions of lines). A
# block that fails a check is read line by line, and the reader's line checks name the line.
BLOCK = 1 << 20
# The characters no reader takes inside a line (C0 controls but TAB, CR among them, DEL, C1
# controls, U+2028 and U+2029), looked for in a block's UTF-8 bytes: the ASCII ones deleted by
# bytes.translate (one C loop; a regex character class over the bytes is 4x slower), C1 controls
# (C2 80 to C2 9F) and the separators (E2 80 A8/A9) found by regexes with a literal prefix.
_ASCII_CONTROLS_BUT_TAB_LF = bytes(range(0x00, 0x09)) + bytes(range(0x0B, 0x20)) + b"\x7f"
_C1_CONTROL = re.compile(rb"\xc2[\x80-\x9f]")
_LINE_SEPARATOR = re.compile(rb"\xe2\x80[\xa8\xa9]")


class LineTooLong(Exception):  # noqa: N818 - a signal to the readers, which name the file and line
    """Raised by :func:`raw_blocks` when a line grows past its ``max_line_bytes``."""


def raw_blocks(handle: IO[bytes], max_line_bytes: int | None = None) -> Iterator[bytes]:
    """A file's bytes in blocks of about :data:`BLOCK` bytes, each ending with a line end (the last
    one may not). With ``max_line_bytes``, a line longer than that raises :class:`LineTooLong` once
    that many bytes of it are read, before the rest is: a 100 MB one-line file is not read whole."""
    rest = b""
    while True:
        chunk = handle.read(BLOCK)
        if not chunk:
            if rest:
                if max_line_bytes is not None and len(rest) > max_line_bytes:
                    raise LineTooLong
                yield rest
            return
        data = rest + chunk if rest else chunk
        cut = data.rfind(b"\n") + 1
        if cut == 0:  # a line longer than a block: read on
            if max_line_bytes is not None and len(data) > max_line_bytes:
                raise LineTooLong
            rest = data
            continue
        rest = data[cut:]
        yield data[:cut]


def has_control(block: bytes) -> bool:
    """Whether UTF-8 bytes hold a control character other than TAB and LF (CR, NUL, DEL, NEL, the
    other C1 controls, ...) or a Unicode line or paragraph separator."""
    return (len(block.translate(None, _ASCII_CONTROLS_BUT_TAB_LF)) != len(block)
            or _C1_CONTROL.search(block) is not None or _LINE_SEPARATOR.search(block) is not None)


def split_block(block: bytes | str) -> list:
    """The lines of a block without their line ends (a block that ends with one has no empty last line)."""
    lines = block.split(b"\n" if isinstance(block, bytes) else "\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def make_folder(folder: str | os.PathLike[str]) -> None:
    """``mkdir -p``; a file standing where the folder or one above it should be is an InputError
    naming that file (mkdir's own error names the folder it tried, "File exists")."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next((p for p in [*reversed(folder.parents), folder] if p.exists() and not p.is_dir()), folder)
        needed = "" if blocking == folder else f" (the folder {folder} is needed)"
        raise InputError(f"is a file, not a folder{needed}", blocking) from None


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text with LF line ends through a temporary file, fsync and rename: a killed
    run leaves the old file or the new one, never half of one, and a failed write (a full disk)
    removes its temporary file. The temporary name is unique per process and thread."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.partial")
    renamed: OSError | None = None
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        named = (error.filename, error.filename2)
        if not any(isinstance(f, str | bytes) and Path(os.fsdecode(f)).name == partial.name for f in named):
            raise
        # the temporary name means nothing to the user, and is gone: name the file they gave
        renamed = type(error)(error.errno, error.strerror, str(path))
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if renamed is not None:  # raised out here, it carries no other error as its context
        raise renamed
