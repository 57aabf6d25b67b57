"""A Parquet file's rows and bytes from its footer: read once per command, and for a built folder
kept between commands, trusted while ``stat`` says a file is unchanged (what git's index does for
``git status``).

Why keep them: pyarrow reads a footer in about 90 µs (open, read, decode the Thrift). The integrity
check reads one per file on every ``acs stats``, ``evaluate`` and ``publish``: for the 4,445 files of
a folder of 1,000 ``--rule``s, 0.4 s, as long as the whole ``acs stats`` of a folder of 10 rules.
Two cheaper reads were tried and dropped (issue 38): decoding the footer's bytes without pyarrow's
file reader aborts the process on a damaged footer, and a thread pool gains nothing on two cores.

A kept file's key is its device, inode, size, mtime and ctime. Writing into a file, copying over it
or renaming another onto it changes its ctime, and no user-level call can set a ctime back. An entry
is stored only when the file's ctime is ``RACY_NS`` older than the moment its footer was read, so a
change within the same timestamp tick cannot hide behind an equal ctime ("racy git"). ``--verify``
reads every byte (sha256) whatever the cache says. A cache file that cannot be read or written is no
cache, never an error. ``ACS_CACHE_DIR`` moves it (``paths.default_cache_dir``).

The same file keeps the key of the folder's last card check that passed (``card``; the integrity
check builds the key and says what it holds: ``integrity._card_key``).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.paths import default_cache_dir

FORMAT = 1
FOLDER = "footers"  # under the cache directory
RACY_NS = 2_000_000_000  # past any file system's timestamp tick (ext4: a jiffy; FAT: 2 s)
_KEPT: list[FooterCache] = []  # the folder whose footers outlive this command, while kept_footers runs


def unreadable_parquet(error: Exception, path: str | os.PathLike[str]) -> InputError:
    """The one-line error for a Parquet file pyarrow cannot read: pyarrow's first line, cut short,
    with the file's own path (named once, first; during a build it is the work copy's, which the
    build maps back to the user's folder) left out of pyarrow's words, where a cut could break it."""
    where = os.fspath(path)
    reason = str(error).splitlines()[0].replace(f"path '{where}'", "it").replace(where, "the file")
    return InputError(f"not a readable Parquet file ({reason[:120]})", path)


# ``(rows, bytes)`` per file read, keyed by the file's identity (path, inode, size, mtime): a command
# reads a footer once, where the integrity check, the sizes and the card each asked for it (a folder
# of 1,000 --rules has 4,000 files). A file changed in between has another key.
_FOOTERS: dict[tuple[str, int, int, int], tuple[int, int]] = {}
_FOOTERS_KEPT = 100_000


def _footer_stats(path: Path, status: os.stat_result | None = None) -> tuple[int, int]:
    try:
        status = os.stat(path) if status is None else status
    except OSError as error:
        raise unreadable_parquet(error, path) from None
    key = (os.fspath(path), status.st_ino, status.st_size, status.st_mtime_ns)
    kept = _KEPT[-1] if _KEPT else None
    stats = None if kept is None else kept.get(path, status)
    if stats is None:
        # read earlier in this command (before the check, or by an earlier check of this process),
        # it is still kept: a cache that saves only what was asked would otherwise lose it
        stats = _FOOTERS.get(key) or _read_stats(path)
        if kept is not None:
            kept.put(path, status, stats)
    if len(_FOOTERS) >= _FOOTERS_KEPT:
        _FOOTERS.clear()
    _FOOTERS[key] = stats
    return stats


def _read_stats(path: Path) -> tuple[int, int]:
    # pyarrow imported here, not above: a folder whose footers are all kept never needs it (60 ms)
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        metadata = _read_footer(pq, path)
    except (pa.ArrowException, OSError) as error:
        raise unreadable_parquet(error, path) from None
    return metadata.num_rows, sum(metadata.row_group(i).total_byte_size for i in range(metadata.num_row_groups))


def _read_footer(pq: Any, path: Path) -> Any:
    """A Parquet file's metadata. pyarrow's reader underneath ``read_metadata``, where this pyarrow
    has it: ``read_metadata`` builds a ``ParquetFile`` (nested column paths, a filesystem lookup)
    around it, two thirds of the cost, paid 4,000 times in a folder of 1,000 --rules. The public
    call where the reader is not there (another pyarrow release)."""
    try:
        from pyarrow._parquet import ParquetReader as reader_class
    except ImportError:
        return pq.read_metadata(path)
    reader = reader_class()
    reader.open(os.fspath(path))
    try:
        return reader.metadata
    finally:
        reader.close()


def file_rows(path: Path, status: os.stat_result) -> int:
    """Rows of one Parquet file from its footer, given the ``os.stat`` of it the caller just took
    (the integrity check stats each of thousands of files once, for all its questions)."""
    return _footer_stats(path, status)[0]


def parquet_stats(files: list[Path]) -> tuple[int, int]:
    """``(rows, bytes)`` of a split's Parquet files from their footers: bytes are the uncompressed
    size of their row groups, what the Hub's ``dataset_info`` calls ``num_bytes``."""
    rows = size = 0
    for path in files:
        file_rows, file_bytes = _footer_stats(path)
        rows += file_rows
        size += file_bytes
    return rows, size


def stat_key(status: os.stat_result) -> list[int]:
    """What a kept entry compares with a file's ``stat``: device, inode, size, mtime, ctime."""
    return [status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns]


def cache_file(root: str | os.PathLike[str]) -> Path:
    """Where the footers of the folder ``root`` are kept: one file per folder, named by the hash
    of its real path (a folder moved or renamed starts afresh)."""
    real = os.path.realpath(root)
    name = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return default_cache_dir() / FOLDER / f"{name}.json"


def settled(status: os.stat_result) -> bool:
    """Whether a file's ctime is ``RACY_NS`` older than now: a change after this stat gets another."""
    return time.time_ns() - status.st_ctime_ns >= RACY_NS


class FooterCache:
    """One folder's footers. :meth:`get` before reading a footer, :meth:`put` after; :meth:`save`
    once the folder checked out. Only the files asked for during this command are saved, so a
    removed file leaves the cache with the next save. It also keeps the key of the last card
    check that passed (:meth:`card_checked`, :meth:`keep_card`; the key is the integrity check's)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self._prefix = os.path.join(os.fspath(root), "")  # a file's path in the folder follows it
        self._path = cache_file(root)
        self._folder = os.path.realpath(root)
        self._known, self._known_card = self._load()
        self._asked: dict[str, list[int]] = {}
        self._card: dict[str, Any] | None = None
        self._changed = False

    def _load(self) -> tuple[dict[str, list[int]], Any]:
        try:
            document = json.loads(self._path.read_bytes())
        except (OSError, ValueError):  # none yet, unreadable, or not JSON: read every footer
            return {}, None
        if not (isinstance(document, dict) and document.get("format") == FORMAT
                and document.get("folder") == self._folder and isinstance(document.get("files"), dict)):
            return {}, None
        return document["files"], document.get("card")

    def holds(self, root: str | os.PathLike[str]) -> bool:
        """Whether this is the cache of the folder ``root`` (as the caller spells it)."""
        return os.path.join(os.fspath(root), "") == self._prefix

    def card_checked(self, key: dict[str, Any]) -> bool:
        """Whether the card check passed last under this key; the key is kept again if so."""
        if self._known_card != key:
            return False
        self._card = key
        return True

    def keep_card(self, key: dict[str, Any]) -> None:
        """Keep the key of a card check that just passed (the caller took it settled, see :func:`settled`)."""
        self._card = key

    def _relative(self, path: str | os.PathLike[str]) -> str | None:
        text = os.fspath(path)
        return text[len(self._prefix):] if text.startswith(self._prefix) else None

    def get(self, path: str | os.PathLike[str], status: os.stat_result) -> tuple[int, int] | None:
        """``(rows, bytes)`` of the file as last read, if ``status`` says it has not changed since."""
        rel = self._relative(path)
        entry = self._known.get(rel)  # type: ignore[arg-type]  # None (outside the folder) is no key
        # the key compared equal to the stat's integers; rows and bytes must be integers themselves
        # (no generator over the seven: 4,445 entries in a folder of 1,000 --rules)
        if not (isinstance(entry, list) and len(entry) == 7 and entry[:5] == stat_key(status)
                and type(entry[5]) is int and type(entry[6]) is int):
            return None
        self._asked[rel] = entry  # type: ignore[index]  # rel is a str wherever an entry was found
        return entry[5], entry[6]

    def put(self, path: str | os.PathLike[str], status: os.stat_result, stats: tuple[int, int]) -> None:
        """Keep a footer just read (``status``: the stat taken before reading it)."""
        rel = self._relative(path)
        if rel is None:
            return
        self._changed = True
        if settled(status):
            self._asked[rel] = [*stat_key(status), *stats]

    def save(self) -> None:
        """Write what this command asked for, where it differs from what was loaded: a whole new
        file, renamed into place, so that a reader never sees half of one."""
        if ((not self._changed and self._asked.keys() == self._known.keys() and self._card == self._known_card)
                or not (self._asked or self._known or self._card or self._known_card)):
            return  # nothing new; or nothing to keep (a folder just written), where no file is needed
        document: dict[str, Any] = {"format": FORMAT, "folder": self._folder, "files": dict(sorted(self._asked.items()))}
        if self._card is not None:
            document["card"] = self._card
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self._path.parent)  # beside it: a rename within one file system
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(json.dumps(document).encode())  # ASCII: json escapes the rest
                os.replace(temporary, self._path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:  # a read-only or full cache directory: the next command reads the footers
            pass


@contextmanager
def kept_footers(root: str | os.PathLike[str]) -> Iterator[FooterCache]:
    """Within it, the footers of the folder ``root`` come from its cache where unchanged and go to
    it once read; the cache is saved on leaving without an error. Within one for the same folder,
    that one is used, and saved when it is left."""
    if _KEPT and _KEPT[-1].holds(root):
        yield _KEPT[-1]
        return
    cache = FooterCache(root)
    _KEPT.append(cache)
    try:
        yield cache
    finally:
        _KEPT.remove(cache)
    cache.save()
