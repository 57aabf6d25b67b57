"""Reading and writing text files: one decoding policy for every reader, atomic writes.

Every text file is UTF-8: a byte-order mark at the start of a file is dropped, a line ends at LF
(a CR before it is part of the line end) and invalid UTF-8 is an error naming the file, line and byte.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from auto_challenge_sets.errors import InputError

BOM = b"\xef\xbb\xbf"
MAX_DIGITS = 18  # the longest number a reader takes: larger IDs or indices are no real input


TO_A_FILE = "; write it to a file first"
IN_A_DATASET = "; a dataset folder holds only the files a build writes: build it again"


def require_regular_file(path: str | os.PathLike[str], error: type[InputError] = InputError,
                         hint: str = TO_A_FILE) -> None:
    """Refuse a pipe, a socket or a device, naming it: a FIFO blocks its reader, /dev/zero never
    ends, and a pipe can be read only once where readers read a file twice. A folder or a missing
    path is left to ``open``, whose error says so."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    raise error(f"is {file_kind(mode)}, not a regular file{hint}", str(path))


def file_kind(mode: int) -> str:
    """What a path is, in words, from its ``st_mode`` (``lstat``'s, to name a link as one)."""
    return ("a pipe (a FIFO, or a process substitution such as <(...))" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a regular file" if stat.S_ISREG(mode) else "not a regular file")


def ascii_number(text: str) -> int | None:
    """The non-negative integer ``text`` spells in at most :data:`MAX_DIGITS` ASCII digits, else None."""
    return int(text) if len(text) <= MAX_DIGITS and text.isascii() and text.isdigit() else None


# a decimal number in ASCII as a person writes one: float() and int() also take '٣', '１２', '+12',
# '1_2' and '０.５', which the files and flags here never mean as numbers
_FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"-?(?:nan|inf|infinity)", re.IGNORECASE)  # read, so that callers can say "not finite"


def ascii_int(text: str) -> int | None:
    """The integer ``text`` spells: an optional ``-`` and at most :data:`MAX_DIGITS` ASCII digits, else None."""
    digits = text[1:] if text.startswith("-") else text
    value = ascii_number(digits)
    return None if value is None else (-value if digits is not text else value)


def ascii_float(text: str) -> float | None:
    """The number ``text`` spells in ASCII (``-0.5``, ``.5``, ``1e-3``; ``nan`` and ``inf`` too, so
    that a caller can refuse them as not finite), else None."""
    if _FLOAT.fullmatch(text) or _NON_FINITE.fullmatch(text):
        return float(text)
    return None


def open_binary(path: str | os.PathLike[str], error: type[InputError] = InputError) -> IO[bytes]:
    """A regular file opened for reading bytes; what cannot be read is an ``error`` naming it."""
    require_regular_file(path, error)
    try:
        return open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as failure:
        raise error(f"cannot read: {failure.strerror or failure}", str(path)) from None


MAX_JSON_BYTES = 256 << 20  # the most a saved document holds (decompressed): more is no file acs wrote
MAX_JSON_DEPTH = 64  # acs nests a document about ten deep; the decoder's recursion stops near a thousand
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))


def read_json(path: str | os.PathLike[str], gzipped: bool = False) -> Any:
    """The JSON document in the regular file ``path`` (gzip-compressed where ``gzipped``), read whole
    but bounded: opened without blocking (a FIFO has no writer to wait for) and refused unless
    ``fstat`` says a regular file (a link to /dev/zero), at most :data:`MAX_JSON_BYTES`, nested at most
    :data:`MAX_JSON_DEPTH` deep (checked before decoding); anything else is an InputError naming it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as failure:
        raise InputError(f"cannot read: {failure.strerror or failure}", str(path)) from None
    with open(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"is {file_kind(mode)}, not a regular file", str(path))
        try:
            data = (gzip.GzipFile(fileobj=handle) if gzipped else handle).read(MAX_JSON_BYTES + 1)
        except (OSError, EOFError) as failure:  # not gzip, or cut short
            raise InputError(f"cannot read{' as gzip' if gzipped else ''}: {failure}", str(path)) from None
    if len(data) > MAX_JSON_BYTES:
        unpacked = " uncompressed" if gzipped else ""
        raise InputError(f"holds over {MAX_JSON_BYTES >> 20} MiB{unpacked}: no file acs writes", str(path))
    level = 0
    for byte in _JSON_STRING.sub(b"", data).translate(None, _NOT_BRACKET):  # brackets outside strings
        level += 1 if byte in b"[{" else -1
        if level > MAX_JSON_DEPTH:
            raise InputError(f"nests arrays or objects over {MAX_JSON_DEPTH} deep: no file acs writes", str(path))
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", str(path)) from None
    except json.JSONDecodeError as bad:
        raise InputError(f"is not JSON ({bad.msg})", str(path), bad.lineno) from None


def _too_long(max_chars: int) -> str:
    return (f"the line has more than {max_chars:,} characters, the longest a build reads or the metric "
            "scores (a file pasted as one line?)")


BLOCK = 1 << 20  # bytes read at a time: a decode and a split per block, not per line


def raw_blocks(handle: IO[bytes], path: str, error: type[InputError] = InputError, max_chars: int | None = None,
               first: int = 1) -> Iterator[tuple[int, bytes]]:
    """``(number of its first line, block)``: a file opened in binary in blocks of whole lines (the
    last line may lack its LF), numbered from ``first``. With ``max_chars``, a line longer than 4
    bytes a character (UTF-8's most) is an ``error`` naming it, read no further."""
    limit = None if max_chars is None else 4 * max_chars + 2  # and a CRLF
    number, rest = first, b""
    try:
        while chunk := handle.read(BLOCK):
            data = rest + chunk
            cut = data.rfind(b"\n") + 1
            if cut:
                yield number, data[:cut]
                number += data.count(b"\n", 0, cut)
            rest = data[cut:]
            if limit is not None and len(rest) > limit:
                raise error(_too_long(max_chars), path, number)
    except OSError as failure:  # a file that opens but cannot be read (/proc/self/mem)
        raise error(f"cannot read: {failure.strerror or failure}", path) from None
    if rest:
        yield number, rest


def numbered_lines(handle: IO[bytes], path: str, error: type[InputError] = InputError,
                   max_chars: int | None = None, first: int = 1,
                   bom_files: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """``(number, line)`` of a file opened in binary, by the policy: the LF removed (a CR before it
    is left to the reader, which drops or counts it), a BOM at the file's start dropped (``path``
    appended to ``bom_files``); invalid UTF-8, or a line of more than ``max_chars`` characters, is
    an ``error`` naming its line, raised once the lines before it are read."""
    for number, block in raw_blocks(handle, path, error, max_chars, first):
        if number == 1 and block[:3] == BOM:
            block = block[3:]
            if bom_files is not None:
                bom_files.append(path)
        failure = None
        try:
            lines = block.decode("utf-8").split("\n")
        except UnicodeDecodeError as bad:
            start = block.rfind(b"\n", 0, bad.start) + 1
            lines = block[:start].decode("utf-8").split("\n")
            failure = error(f"invalid UTF-8 (byte {bad.start - start + 1} of the line)", path, number + len(lines) - 1)
        if not lines[-1]:  # after the last LF
            lines.pop()
        if max_chars is not None and max(map(len, lines), default=0) > max_chars:
            long = next((i for i, line in enumerate(lines) if len(line.removesuffix("\r")) > max_chars), None)
            if long is not None:
                lines, failure = lines[:long], error(_too_long(max_chars), path, number + long)
        yield from enumerate(lines, start=number)
        if failure is not None:
            raise failure


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
    """Write UTF-8 text with LF line ends through a temporary file (unique per process and thread),
    fsync and rename: a killed run leaves the old file or the new one, a failed write no temporary file."""
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
