"""The layout of a challenge-set folder, the one place that knows it, for writing and reading.

``data/{config}/{split}-{k:05d}-of-{n:05d}.parquet`` per config and split (``n`` files of at most
:data:`auto_challenge_sets.dataset.writer.FILE_ROWS` rows, ``datasets``' own shard names: one,
``-00000-of-00001``, for all but large corpora), ``README.md`` with the YAML
metadata (``configs`` with ``data_files``) above the card, and ``acs_build.json``, the record of
what was built from what (:mod:`auto_challenge_sets.dataset.record`). A reader follows the card's
``configs:`` (any Hub dataset with Parquet files reads), else the ``data/`` folders themselves.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.folder_swap import left_aside
from auto_challenge_sets.formats.text import IN_A_DATASET, require_regular_file

DATA_DIR = "data"
SHARD = re.compile(r"(?P<split>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.parquet")
README = "README.md"
LICENSE_FILE = "LICENSE.md"  # written only when the splits carry different licenses (the card links it)


def config_folder(out_dir: str | os.PathLike[str], config: str) -> Path:
    """The folder of a config's Parquet files."""
    return Path(out_dir) / DATA_DIR / config


def shard_path(out_dir: str | os.PathLike[str], config: str, split: str, index: int = 0, count: int = 1) -> Path:
    """File ``index`` of the ``count`` files of a config's split."""
    return config_folder(out_dir, config) / f"{split}-{index:05d}-of-{count:05d}.parquet"


def _files_by_split(folder: Path) -> dict[str, list[Path]]:
    """``{split: its Parquet files, in order}`` in one config's folder (a hidden name is no shard,
    as glob's ``*`` never matches a leading dot)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.parquet")):
        if match := SHARD.fullmatch(path.name):
            require_regular_file(path, hint=IN_A_DATASET)
            found.setdefault(match["split"], []).append(path)
    return found


def split_files(out_dir: str | os.PathLike[str], config: str, split: str) -> list[Path]:
    """The Parquet files of one config's split, in order (none when it has no file)."""
    return _files_by_split(config_folder(out_dir, config)).get(split, [])


def scan_folder(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, list[Path]]]:
    """``{config: {split: parquet files}}`` for every Parquet file the build wrote in the folder. A
    split whose files are not ``n`` files ``-00000-of-n`` … numbered without a gap is an
    InputError: a file was lost or added by hand, and a split read from it would lose rows."""
    data = Path(out_dir) / DATA_DIR
    found: dict[str, dict[str, list[Path]]] = {}
    if data.is_dir():
        for folder in sorted(data.iterdir()):
            if splits := _files_by_split(folder):
                found[folder.name] = splits
    for splits in found.values():
        for split, files in splits.items():
            count = int(SHARD.fullmatch(files[0].name)["count"])  # type: ignore[index]  # every name matched
            if [path.name for path in files] != [f"{split}-{k:05d}-of-{count:05d}.parquet" for k in range(count)]:
                raise InputError(f"holds {', '.join(path.name for path in files)}: split {split!r} needs its {count} "
                                 f"files -00000-of-{count:05d} to -{count - 1:05d}-of-{count:05d}, no more and no "
                                 "fewer (a file lost or added by hand?); build it again", files[0].parent)
    return found


def folder_sizes(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, int]]:
    """``{config: {split: rows}}`` from the Parquet footers, in config order."""
    found = scan_folder(out_dir)
    return {name: {split: parquet_rows(files) for split, files in found[name].items()}
            for name in sorted(found, key=config_sort_key)}


def parquet_rows(files: list[Path]) -> int:
    """Rows of a split's Parquet files, from their footers; a truncated or corrupt file is an InputError."""
    return parquet_stats(files)[0]


def unreadable_parquet(error: Exception, path: str | os.PathLike[str]) -> InputError:
    """The one-line error for a Parquet file pyarrow cannot read: pyarrow's first line, cut short,
    with the file's path (named once, first) left out of pyarrow's words, where a cut could break it."""
    where = os.fspath(path)
    reason = str(error).splitlines()[0].replace(f"path '{where}'", "it").replace(where, "the file")
    return InputError(f"not a readable Parquet file ({reason[:120]})", path)


def parquet_stats(files: list[Path]) -> tuple[int, int]:
    """``(rows, bytes)`` of a split's Parquet files from their footers: bytes are the uncompressed
    size of their row groups, what the Hub's ``dataset_info`` calls ``num_bytes``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = size = 0
    for path in files:
        try:
            metadata = pq.read_metadata(path)
        except (pa.ArrowException, OSError) as error:
            raise unreadable_parquet(error, path) from None
        rows += metadata.num_rows
        size += sum(metadata.row_group(i).total_byte_size for i in range(metadata.num_row_groups))
    return rows, size


def front_matter(readme: Path) -> dict[str, Any]:
    """The YAML front matter of a dataset card (empty when there is none)."""
    import yaml

    try:
        text = readme.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid UTF-8 (byte {error.start + 1} of the file)", readme) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", readme) from None
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        raise InputError("YAML front matter is not closed by a `---` line", readme, 1)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(text[3:end], Loader=loader)  # noqa: S506 - a safe loader, C or Python
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or type(error).__name__
        raise InputError(f"bad YAML front matter: {problem}", readme, None if mark is None else mark.line + 1) from None
    return data if isinstance(data, dict) else {}


def require_complete(root: Path) -> Path:
    """The card of a folder that holds data; a folder with data and no card is incomplete. Every
    reader of a dataset folder starts here: one that a build killed mid-swap left aside is named."""
    if not root.is_dir():
        left_aside(root)
        raise InputError("no such dataset folder (make one with `acs build`, or `acs demo` for the sample)", root)
    readme = root / README
    require_regular_file(readme, hint=IN_A_DATASET)  # a FIFO or device card is named as what it is
    if not readme.is_file():
        if (root / DATA_DIR).is_dir():
            raise InputError(f"has {DATA_DIR}/ but no {README}: the folder is incomplete (a build that did not "
                             "finish?); build it again", root)
        raise InputError(f"has no {README} with `configs:` (is it a dataset folder?)", root)
    return readme


def _stays_inside(pattern: str) -> bool:
    """Whether a ``data_files`` pattern is relative and holds no ``..``."""
    if ".." not in pattern and not os.path.isabs(pattern):
        return True
    path = Path(pattern)
    return not path.is_absolute() and ".." not in path.parts


class DatasetFolder:
    """Configs and their Parquet files per split, from the card's ``configs:`` (``README.md``).

    Only files inside the folder are ever read: a ``data_files`` pattern that points outside it is
    an error naming the card.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.readme = require_complete(self.root)
        self._real_root = self.root.resolve()
        self.linked: set[Path] = set()  # matched paths that pass through a link
        self.files: dict[str, dict[str, list[Path]]] = {}
        configs = front_matter(self.readme).get("configs")
        if not isinstance(configs, list):
            raise InputError("lists no configs (the YAML front matter needs a `configs:` list)", self.readme)
        for entry in configs:
            name = entry.get("config_name") if isinstance(entry, dict) else None
            if not isinstance(name, str) or not name:
                raise InputError(f"a `configs:` entry has no config_name: {entry!r}"[:200], self.readme)
            self.files[name] = self._resolve(entry.get("data_files"))
        if not self.files:
            raise InputError("lists no configs (README.md `configs:`)", self.root)

    def _patterns(self, data_files: Any) -> list[tuple[str, Any]]:
        """``(split, pattern or list of patterns)`` from any of the forms the Hub accepts."""
        if isinstance(data_files, dict):
            return list(data_files.items())
        if isinstance(data_files, list) and data_files and all(isinstance(item, dict) for item in data_files):
            return [(item.get("split", "train"), item.get("path")) for item in data_files]
        return [("train", data_files)]

    def _inside(self, match: Path) -> bool:
        """Whether a matched path stays in the folder once links are followed: a pattern holds no
        ``..``, so only a link on its way can lead out."""
        parts = match.relative_to(self.root).parts
        if not any(os.path.islink(self.root.joinpath(*parts[:depth])) for depth in range(1, len(parts) + 1)):
            return True
        self.linked.add(match)
        return match.resolve().is_relative_to(self._real_root)

    def relative(self, path: Path) -> str:
        """A matched file's path in the folder, links followed (``data/<config>/<file>``)."""
        if path in self.linked:
            return path.resolve().relative_to(self._real_root).as_posix()
        return path.relative_to(self.root).as_posix()

    def _resolve(self, data_files: Any) -> dict[str, list[Path]]:
        splits: dict[str, list[Path]] = {}
        for split, patterns in self._patterns(data_files):
            if patterns is not None and not isinstance(patterns, str | list):
                raise InputError(f"data_files of a config must be paths, not {patterns!r}"[:200], self.readme)
            for pattern in [patterns] if isinstance(patterns, str) else list(patterns or []):
                if not isinstance(pattern, str) or not pattern or not _stays_inside(pattern):
                    raise InputError(f"data_files pattern {pattern!r} does not stay inside the dataset folder",
                                     self.readme)
                if "*" in pattern or "?" in pattern or "[" in pattern:  # glob's magic
                    matches = sorted(self.root.glob(pattern))
                else:  # a plain path, as the build writes them: a link is a match even where it leads nowhere
                    matches = [self.root / pattern] if os.path.lexists(self.root / pattern) else []
                outside = [m for m in matches if not self._inside(m)]
                if outside:
                    raise InputError(f"data_files pattern {pattern!r} reaches outside the dataset folder "
                                     f"({outside[0]})", self.readme)
                for match in matches:
                    require_regular_file(match, hint=IN_A_DATASET)
                splits.setdefault(str(split), []).extend(matches)
        return splits

    def splits(self, config: str) -> list[str]:
        return sorted(self.files.get(config, {}))

    def read(self, config: str, split: str, columns: list[str]) -> dict[str, list[Any]]:
        """Columns of one config's split, as Python lists."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if config not in self.files:
            raise InputError(f"has no config {config!r}", self.root / "README.md")
        files = self.files[config].get(split)
        if not files:
            raise InputError(
                f"config {config!r} has no split {split!r} (splits: {', '.join(self.splits(config)) or 'none'})",
                self.root / "README.md",
            )
        tables = []
        for file in files:
            try:
                tables.append(pq.read_table(file, columns=columns))
            except (pa.ArrowInvalid, KeyError, OSError) as error:
                raise InputError(f"cannot read columns {columns}: {error}", file) from None
        table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
        return {name: table.column(name).to_pylist() for name in columns}

    def where(self, config: str, split: str) -> Path:
        files = self.files.get(config, {}).get(split) or [self.root / DATA_DIR / config]
        return files[0]
