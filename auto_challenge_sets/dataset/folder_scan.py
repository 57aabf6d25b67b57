"""One listing of a built folder's ``data/``: every config's Parquet files by split, and the files a
reader may take as they are, with no ``lstat`` of its own.

Every command that reads a folder lists ``data/`` once (the integrity check must see a file added by
hand). The card's ``data_files`` name the same files: a folder of 1,000 ``--rule``s has 5,354 of
them, and asking the file system again of each (is it there, is it a regular file, does a link on
the way lead out of the folder) cost a tenth of a second. The listing already says all three, from
the file types ``scandir`` gives, so :attr:`FolderScan.plain` keeps the answer for the reader.
"""

from __future__ import annotations

import operator
import os
import re
from pathlib import Path

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.text_io import IN_A_DATASET, require_regular_file

DATA_DIR = "data"
SHARD = re.compile(r"(?P<split>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.parquet")


class FolderScan(dict[str, dict[str, list[Path]]]):
    """``{config: {split: its Parquet files, in order}}``, and :attr:`plain`: ``{"data/<config>/<file>":
    its path}`` for each of those files that is a regular file reached through no link (``data/``,
    its config folder and the file itself are none), what a card's plain ``data_files`` path names;
    :attr:`checked_rows`: ``{file: rows}`` as the integrity check found them, filled by the check."""

    def __init__(self) -> None:
        super().__init__()
        self.plain: dict[str, Path] = {}
        self.checked_rows: dict[Path, int] = {}


def _listed_as(entry: os.DirEntry) -> tuple[bool, bool]:
    """``(regular file, link)`` of a listed name, from the listing's file type: no stat for a
    regular file. ``(False, True)`` where it cannot tell (the caller's ``require_regular_file`` then
    looks, and the name is taken for a link, never plain)."""
    try:
        return entry.is_file(), entry.is_symlink()
    except OSError:
        return False, True


_BY_NAME = operator.attrgetter("name")


def _files_by_split(folder: str, plain: dict[str, Path] | None = None,
                    counts: dict[str, int] | None = None) -> dict[str, list[Path]]:
    """``{split: its Parquet files, in order}`` in one config's folder; with ``plain``, the files
    that are no link and regular are added to it (the folder itself is none, the caller knows);
    with ``counts``, each split's count of files as its first file's name says."""
    try:  # scandir, not glob: one call per folder, and a folder of 6,000 configs is scanned in each command
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=_BY_NAME)
    except (NotADirectoryError, FileNotFoundError):
        return {}
    found: dict[str, list[Path]] = {}
    prefix = f"{DATA_DIR}/{os.path.basename(folder)}/"
    for entry in entries:
        # glob's `*` never matched a leading dot, and a hidden file is no shard of the build's
        if entry.name.startswith(".") or (match := SHARD.fullmatch(entry.name)) is None:
            continue
        path = Path(entry.path)  # one path parsed, where the folder's and a child's were two
        regular, linked = _listed_as(entry)
        if not regular:
            require_regular_file(path, hint=IN_A_DATASET)
        elif plain is not None and not linked:
            plain[prefix + entry.name] = path
        if (files := found.get(match["split"])) is None:
            files = found[match["split"]] = []
            if counts is not None:
                counts[match["split"]] = int(match["count"])
        files.append(path)
    return found


def split_files(folder: str | os.PathLike[str], split: str) -> list[Path]:
    """The Parquet files of one split in a config's folder, in order (none when it has no file)."""
    return _files_by_split(os.fspath(folder)).get(split, [])


def scan_folder(out_dir: str | os.PathLike[str]) -> FolderScan:
    """Every Parquet file the build wrote in the folder (see :class:`FolderScan`). A split whose
    files are not ``n`` files ``-00000-of-n`` … numbered without a gap is an InputError: a file was
    lost or added by hand, and a split read from it would lose rows."""
    data = Path(out_dir) / DATA_DIR
    found = FolderScan()
    numbered = []
    if data.is_dir():
        data_linked = data.is_symlink()
        with os.scandir(data) as listing:
            configs = sorted(listing, key=_BY_NAME)
        for entry in configs:
            plain = None if data_linked or _listed_as(entry)[1] else found.plain
            counts: dict[str, int] = {}
            if splits := _files_by_split(entry.path, plain, counts):
                found[entry.name] = splits
                numbered += [(files, counts[split], split) for split, files in splits.items()]
    # after the whole listing, as before it was kept: a file that is no regular file is named first.
    # Each name, in order, is the one its place and the first file's count make (SHARD's parts)
    for files, count, split in numbered:
        if [path.name for path in files] != [f"{split}-{k:05d}-of-{count:05d}.parquet" for k in range(count)]:
            raise InputError(f"holds {', '.join(path.name for path in files)}: split {split!r} needs its {count} "
                             f"files -00000-of-{count:05d} to -{count - 1:05d}-of-{count:05d}, no more and no "
                             "fewer (a file lost or added by hand?); build it again", files[0].parent)
    return found
