"""The data files of a built folder against its build record: what every reader checks first.

A build records each Parquet file it wrote (a build's ``files``: bytes, rows, sha256): a file
lost, added, truncated or replaced by hand would otherwise read as a smaller config, an empty
selection or rows counted twice. Every ``acs stats``, ``evaluate`` and ``publish`` compares sizes
and footer row counts; ``verify`` adds the sha256. The card's ``data_files`` must name exactly the
recorded files of each config and split.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from auto_challenge_sets.backends.file_provenance import file_checksum
from auto_challenge_sets.configs import KIND_LEXICAL, config_sort_key, parse_config_name
from auto_challenge_sets.dataset.layout import (
    DATA_DIR,
    SHARD,
    DatasetFolder,
    front_matter,
    parquet_rows,
    scan_folder,
)
from auto_challenge_sets.dataset.record import BUILD_RECORD, read_build_record
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import IN_A_DATASET, require_regular_file

FILES = "files"  # a build's key in the record: {path in the folder: {bytes, rows, sha256}}
REBUILD = "build it again (or restore the file)"


def describe_files(root: Path, pair: str, corpus: str) -> dict[str, dict[str, Any]]:
    """The record's ``files`` of one (pair, corpus) build: every Parquet file of its splits."""
    described = {}
    for config, splits in scan_folder(root).items():
        if parse_config_name(config).pair != pair or corpus not in splits:
            continue
        for path in splits[corpus]:
            described[path.relative_to(root).as_posix()] = {
                "bytes": path.stat().st_size, "rows": parquet_rows([path]), "sha256": file_checksum(path)}
    return dict(sorted(described.items()))


def _recorded(root: Path, record: dict) -> dict[str, dict[str, Any]]:
    """The recorded files of every build; a malformed entry is an error."""
    where = root / BUILD_RECORD
    files: dict[str, dict[str, Any]] = {}
    for build in record["builds"]:
        entries = build.get(FILES)
        if not isinstance(entries, dict):
            raise InputError(f"build {build['pair']}/{build['corpus']}: '{FILES}' is not a mapping of paths "
                             "(built by an older acs?): build the folder again", where)
        for rel, entry in entries.items():
            parts = PurePosixPath(rel).parts
            if len(parts) != 3 or parts[0] != DATA_DIR or ".." in parts:
                raise InputError(f"records {rel!r}, not a data file of the folder ({DATA_DIR}/CONFIG/FILE)", where)
            if not (isinstance(entry, dict) and isinstance(entry.get("bytes"), int)
                    and isinstance(entry.get("rows"), int) and isinstance(entry.get("sha256"), str)):
                raise InputError(f"the entry of {rel!r} is not {{bytes, rows, sha256}}", where)
            files[rel] = entry
    return files


def _check_file(path: Path, entry: dict[str, Any], verify: bool) -> None:
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        status = None
    if status is not None and not stat.S_ISREG(status.st_mode):
        require_regular_file(path, hint=IN_A_DATASET)  # a FIFO in a shard's place is no missing file
    if status is None or not stat.S_ISREG(status.st_mode):
        raise InputError(f"is missing: {BUILD_RECORD} records it ({entry['rows']:,} rows); {REBUILD}", path)
    size = status.st_size
    if size != entry["bytes"]:
        raise InputError(f"has {size:,} bytes, {BUILD_RECORD} records {entry['bytes']:,}: changed since the "
                         f"build; {REBUILD}", path)
    rows = parquet_rows([path])
    if rows != entry["rows"]:
        raise InputError(f"has {rows:,} rows, {BUILD_RECORD} records {entry['rows']:,}: changed since the "
                         f"build; {REBUILD}", path)
    if verify and file_checksum(path) != entry["sha256"]:
        raise InputError(f"its sha256 differs from the one {BUILD_RECORD} records (same size and rows): "
                         f"changed since the build; {REBUILD}", path)


def check_files(root: Path, verify: bool, found: dict[str, dict[str, list[Path]]] | None = None
                ) -> tuple[dict[str, dict[str, Any]], bool]:
    """Every recorded file present with its recorded size and rows (and sha256 with ``verify``), and
    no unrecorded data file where a build is recorded (``found``: the folder's :func:`scan_folder`,
    where the caller has it). Returns the recorded files and whether any build is recorded."""
    record = read_build_record(root)
    files = _recorded(root, record)
    for rel, entry in files.items():
        _check_file(root / rel, entry, verify)
    if not record["builds"]:  # no record, or one emptied by hand: check_unrecorded's case
        return files, False
    for splits in (scan_folder(root) if found is None else found).values():
        for path in (path for paths in splits.values() for path in paths):
            if path.relative_to(root).as_posix() not in files:
                raise InputError(f"is not in {BUILD_RECORD}: a file added by hand or left by another "
                                 f"build; remove it or {REBUILD}", path)
    return files, True


def check_card(folder: DatasetFolder, files: dict[str, dict[str, Any]]) -> None:
    """Each config's ``data_files`` in the card are exactly the recorded files of its split (an
    alias such as ``de-en.particle`` names the files of ``de-en.particle.d1``)."""
    # the record grouped once by (config, split): the check stays linear in the files
    recorded: dict[tuple[str, str], list[str]] = {}
    for rel in files:
        _, config, name = PurePosixPath(rel).parts  # 3 parts: _recorded took no other path
        if m := SHARD.fullmatch(name):
            recorded.setdefault((config, m["split"]), []).append(rel)
    for name, splits in folder.files.items():
        try:
            config = parse_config_name(name)
        except ValueError:
            raise InputError(f"config {name!r} is not a config name of auto_challenge_sets "
                             f"(added by hand?): its data_files are not in {BUILD_RECORD}", folder.readme) from None
        for split, paths in splits.items():
            wanted = recorded.get((str(config), split), [])
            found = [folder.relative(p) for p in paths]
            # in the same order where the build wrote both (shard order): sorted only where not
            if found != wanted and (found := sorted(found)) != (wanted := sorted(wanted)):
                extra = sorted(set(found) - set(wanted)) or sorted(set(wanted) - set(found))
                raise InputError(f"config {name!r}, split {split!r}: data_files match {len(found)} file(s), "
                                 f"{BUILD_RECORD} records {len(wanted)} ({extra[0] if extra else 'the same file twice'} "
                                 "differs): the card must list exactly the recorded files; build again or restore "
                                 "README.md", folder.readme)


def card_rows(readme: Path) -> dict[tuple[str, str], int] | None:
    """``{(config, split): num_examples}`` of the card's ``dataset_info`` (a count that is no
    integer left out); None where it is not a mapping or a list of them, each with a list of
    splits (the publication's card check names that with datasets' reason)."""
    infos = front_matter(readme).get("dataset_info") or []
    rows = {}
    for info in [infos] if isinstance(infos, dict) else infos if isinstance(infos, list) else [None]:
        splits = (info.get("splits") or []) if isinstance(info, dict) else None
        if not isinstance(splits, list) or not all(isinstance(split, dict) for split in splits):
            return None
        for split in splits:
            if isinstance(split.get("num_examples"), int):
                # no config_name is the Hub's "default" config, never one of ours
                rows[str(info.get("config_name", "default")), str(split.get("name"))] = split["num_examples"]
    return rows


def _lowest_distance(paths: list[Path]) -> int | None:
    """The smallest ``distance`` in a split's files (None: no row, or no such column)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    # a top-level column: an instance's distance, inside ``instances``, is not among the schema's names
    lows = [pc.min(pq.read_table(path, columns=["distance"]).column(0)).as_py()
            for path in paths if "distance" in pq.read_schema(path).names]
    lows = [low for low in lows if low is not None]
    return min(lows) if lows else None


def check_unrecorded(folder: DatasetFolder) -> None:
    """A folder no build record describes (a record emptied by hand, a Parquet dataset from
    elsewhere): each config's files hold as many rows as the card's ``dataset_info`` says, and no
    row below the config's minimum distance (one config's file copied over another's)."""
    said: dict[tuple[str, str], int] | None = None
    for name, splits in folder.files.items():
        try:
            config = parse_config_name(name)
        except ValueError:
            continue
        for split, paths in splits.items():
            if not paths:
                continue
            if said is None:
                said = card_rows(folder.readme) or {}
            expected = said.get((name, split))
            if expected is not None and (rows := parquet_rows(paths)) != expected:
                raise InputError(f"config {name}, split {split} has {rows:,} rows in its file(s), the card's "
                                 f"dataset_info says {expected:,}; {REBUILD}", paths[0])
            # lexical configs only: a row's distance is its largest instance's, at least D by construction
            low = _lowest_distance(paths) if config.kind == KIND_LEXICAL and config.min_distance is not None else None
            if low is not None and low < config.min_distance:
                raise InputError(f"holds a row of distance {low}, below the D = {config.min_distance} of config "
                                 f"{name}: not this config's file; {REBUILD}", paths[0])


def check_folder(root: str | Path, verify: bool = False, folder: DatasetFolder | None = None) -> None:
    """The files and the card of a built folder against its record (see the module), or, without
    one, the files against the card. ``folder`` where the caller has read the card already."""
    _check(Path(root), verify, folder)


def checked_sizes(root: str | Path, verify: bool = False) -> dict[str, dict[str, int]]:
    """:func:`check_folder`, then ``{config: {split: rows}}`` of the folder's Parquet files, in
    config order, each footer read once: a recorded file's rows are those the check confirmed."""
    root = Path(root)
    found = scan_folder(root)
    files = _check(root, verify, None, found)
    confirmed = {root / rel: entry["rows"] for rel, entry in files.items()}
    return {name: {split: sum(confirmed[p] if p in confirmed else parquet_rows([p]) for p in paths)
                   for split, paths in found[name].items()} for name in sorted(found, key=config_sort_key)}


def _check(root: Path, verify: bool, folder: DatasetFolder | None,
           found: dict[str, dict[str, list[Path]]] | None = None) -> dict[str, dict[str, Any]]:
    files, recorded = check_files(root, verify, found)
    folder = folder if folder is not None else DatasetFolder(root)
    if recorded:
        check_card(folder, files)
    else:
        check_unrecorded(folder)
    return files
