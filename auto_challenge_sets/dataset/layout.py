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
import stat
from pathlib import Path
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.dataset.configs_block import read_configs_block
from auto_challenge_sets.dataset.folder_scan import (  # noqa: F401  (the readers import them from here)
    DATA_DIR,
    SHARD,
    FolderScan,
    scan_folder,
)
from auto_challenge_sets.dataset.folder_scan import split_files as folder_split_files
from auto_challenge_sets.dataset.footers import (  # noqa: F401  (the readers import them from here)
    file_rows,
    parquet_stats,
    unreadable_parquet,
)
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.folder_swap import left_aside
from auto_challenge_sets.text_io import IN_A_DATASET, require_regular_file

README = "README.md"
LICENSE_FILE = "LICENSE.md"  # written only when the splits carry different licenses (the card links it)


def config_folder(out_dir: str | os.PathLike[str], config: str) -> Path:
    """The folder of a config's Parquet files."""
    return Path(out_dir) / DATA_DIR / config


def shard_path(out_dir: str | os.PathLike[str], config: str, split: str, index: int = 0, count: int = 1) -> Path:
    """File ``index`` of the ``count`` files of a config's split."""
    return config_folder(out_dir, config) / f"{split}-{index:05d}-of-{count:05d}.parquet"


def split_files(out_dir: str | os.PathLike[str], config: str, split: str) -> list[Path]:
    """The Parquet files of one config's split, in order (none when it has no file)."""
    return folder_split_files(config_folder(out_dir, config), split)


def folder_sizes(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, int]]:
    """``{config: {split: rows}}`` from the Parquet footers (no data is read)."""
    return sizes_of(scan_folder(out_dir))


def sizes_of(found: dict[str, dict[str, list[Path]]]) -> dict[str, dict[str, int]]:
    """``{config: {split: rows}}`` of a :func:`scan_folder`, in config order: the rows the integrity
    check confirmed where it checked the scan's files, else the footers'."""
    checked = found.checked_rows if isinstance(found, FolderScan) else {}

    def rows(files: list[Path]) -> int:
        known = [checked.get(path) for path in files]
        return parquet_rows(files) if None in known else sum(known)  # type: ignore[arg-type]  # no None in it
    return {name: {split: rows(files) for split, files in found[name].items()}
            for name in sorted(found, key=config_sort_key)}


def parquet_rows(files: list[Path]) -> int:
    """Rows of a split's Parquet files, from their footers; a truncated or corrupt file is an InputError."""
    return parquet_stats(files)[0]


_TOP_KEY = re.compile(r"([A-Za-z_][\w-]*):(?: |$)")
# a line at column 0 that is not blank, a comment or a `- ` item: a key line, or text that is none
_COLUMN_0 = re.compile(r"\n((?:[^ #\n-]|-(?! )).*)")  # after its newline: re finds a literal at C speed
# `&name` / `*name` after a space, `[`, `{`, `,` or at the start; a glob's `data/*.parquet` is neither.
# It starts with `[&*]` and looks behind: re then skips to each `&` or `*` at once, where a leading
# alternative was tried at every one of a card's 5 million characters (0.1 s)
_ANCHOR_OR_ALIAS = re.compile(r"[&*](?<![^\s\[{,][&*])\S")


def _top_level_block(front: str, key: str) -> str | None:
    """The text of ``key``'s entry of a front matter written as a block mapping, or None where the
    text is not plainly one (then the whole front matter is parsed). A card's ``dataset_info`` is
    about nine tenths of it: parsing only ``configs:`` makes a folder of 6,000 configs open in a
    second instead of ten. Every line at column 0 must be a ``key:`` line, a ``- `` item, a comment
    or blank, so block boundaries are exactly the key lines; anything else (a flow collection or a
    quoted scalar running onto column 0, an anchor or alias in the block) takes the full parse."""
    starts = []
    # the lines at column 0 by one regular expression: a card of 6,000 configs has 270,000 lines,
    # nearly all indented, and looking at each in Python took a fifth of a second (and `^` under
    # re.M, tried at each of 5 million characters, 26 ms: each line is found by its newline)
    for line in _COLUMN_0.finditer("\n" + front):
        match = _TOP_KEY.match(line[1])
        if match is None:
            return None
        starts.append((line.start(1) - 1, match[1]))
    at = [i for i, (_, name) in enumerate(starts) if name == key]
    if len(at) != 1:
        return None
    first = starts[at[0]][0]
    block = front[first:starts[at[0] + 1][0] - 1] if at[0] + 1 < len(starts) else front[first:]
    # an alias in the block may name an anchor outside it; one outside the block cannot change
    # the block's value (searching the whole card, nine tenths dataset_info, took 25 ms of 1,000 --rules)
    return None if _ANCHOR_OR_ALIAS.search(block) else block


def front_matter(readme: Path, only: str | None = None) -> dict[str, Any]:
    """The YAML front matter of a dataset card (empty when there is none); with ``only``, a mapping
    that holds that key alone when its block can be cut out plainly (see ``_top_level_block``)."""
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
    # libyaml's loader where PyYAML was built with it: the card of a folder of many configs is
    # thousands of lines, and the pure-Python loader took a third of a second of every evaluation
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if only is not None and (block := _top_level_block(text[3:end], only)) is not None:
        if only == "configs" and (plain := read_configs_block(block)) is not None:
            return plain
        try:
            data = yaml.load(block, Loader=loader)  # noqa: S506 - a safe loader, C or Python
        except yaml.YAMLError:
            data = None  # the full parse below names the line
        if isinstance(data, dict) and set(data) == {only}:
            return data
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
    if not readme.is_file():
        if (root / DATA_DIR).is_dir():
            raise InputError(f"has {DATA_DIR}/ but no {README}: the folder is incomplete (a build that did not "
                             "finish?); build it again", root)
        raise InputError(f"has no {README} with `configs:` (is it a dataset folder?)", root)
    return readme


def _stays_inside(pattern: str) -> bool:
    """Whether a ``data_files`` pattern is relative and holds no ``..``: by the string where it is
    plainly so (a card of 6,000 configs has 5,000 patterns), else by its ``Path``."""
    if ".." not in pattern and not os.path.isabs(pattern):
        return True
    path = Path(pattern)
    return not path.is_absolute() and ".." not in path.parts


class DatasetFolder:
    """Configs and their Parquet files per split, from the card's ``configs:`` (``README.md``).

    Only files inside the folder are ever read: a ``data_files`` pattern that points outside it is
    an error naming the card. ``scan``: the folder's :func:`scan_folder`, where the caller took it,
    answers for the plain paths it lists (each an ``lstat`` otherwise).
    """

    def __init__(self, root: str | Path, scan: FolderScan | None = None) -> None:
        self.root = Path(root)
        self._scanned = {} if scan is None else scan.plain
        self.listed_only = scan is not None  # every data_files pattern answered by the scan
        self.readme = require_complete(self.root)
        self._real_root = self.root.resolve()
        self._depth = len(self.root.parts)  # a matched path's parts past the folder's
        self._prefix = str(self.root / "_")[:-1]  # a matched path's text before its path in the folder
        self._links: dict[tuple[str, ...], bool] = {}
        self._listed: set[tuple[str, ...]] = set()  # folders whose entries _links holds, each listed once
        self.linked: set[Path] = set()  # matched paths that pass through a link
        self.files: dict[str, dict[str, list[Path]]] = {}
        configs = front_matter(self.readme, only="configs").get("configs")
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

    def _inside(self, match: Path, mode: int | None = None) -> bool:
        """Whether a matched path stays in the folder once links are followed. A pattern holds no
        ``..``, so only a link can lead out; ``resolve`` (a stat per component of the whole path)
        is kept for the paths that pass through one, since it cost seconds on 6,000 configs.
        ``mode``: the match's own ``lstat`` mode, where the caller took it."""
        parts = match.parts[self._depth:]  # relative_to's parts, without its checks: 5,000 patterns
        for depth in range(1, len(parts) + 1):
            prefix = parts[:depth]
            linked = self._links.get(prefix)
            if linked is None and depth < len(parts):
                linked = self._listed_links(prefix)
            if linked is None:
                linked = self._links[prefix] = (stat.S_ISLNK(mode) if depth == len(parts) and mode is not None
                                                else os.path.islink(self.root.joinpath(*prefix)))
            if linked:
                self.linked.add(match)
                return match.resolve().is_relative_to(self._real_root)
        return True

    def _listed_links(self, prefix: tuple[str, ...]) -> bool | None:
        """Whether a folder on the way is a link, from one listing of its parent for all its
        siblings (the file type scandir gives): one lstat per config folder cost 40 ms of 1,000
        --rules. None where the listing does not show it."""
        parent = prefix[:-1]
        if parent not in self._listed:
            self._listed.add(parent)
            try:
                with os.scandir(self.root.joinpath(*parent)) as entries:
                    for entry in entries:
                        self._links.setdefault((*parent, entry.name), entry.is_symlink())
            except OSError:
                pass
        return self._links.get(prefix)

    def relative(self, path: Path) -> str:
        """A matched file's path in the folder, links followed (``data/<config>/<file>``)."""
        if self.linked and path in self.linked:  # none in a folder the build wrote: no hash per path
            return path.resolve().relative_to(self._real_root).as_posix()
        return str(path)[len(self._prefix):]  # every match is the root's path joined with the pattern's

    def _resolve(self, data_files: Any) -> dict[str, list[Path]]:
        splits: dict[str, list[Path]] = {}
        for split, patterns in self._patterns(data_files):
            if patterns is not None and not isinstance(patterns, str | list):
                raise InputError(f"data_files of a config must be paths, not {patterns!r}"[:200], self.readme)
            for pattern in [patterns] if isinstance(patterns, str) else list(patterns or []):
                if not isinstance(pattern, str) or not pattern or not _stays_inside(pattern):
                    raise InputError(f"data_files pattern {pattern!r} does not stay inside the dataset folder",
                                     self.readme)
                if "*" in pattern or "?" in pattern or "[" in pattern:  # glob's magic (5,354 plain paths)
                    matches, regular = sorted(self.root.glob(pattern)), False
                    self.listed_only = False
                    outside = [m for m in matches if not self._inside(m)]
                else:  # a plain path, as the build writes them: glob would list its folder to find it
                    matches, outside, regular = self._plain(pattern)
                if outside:
                    raise InputError(f"data_files pattern {pattern!r} reaches outside the dataset folder "
                                     f"({outside[0]})", self.readme)
                for match in [] if regular else matches:
                    require_regular_file(match, hint=IN_A_DATASET)
                splits.setdefault(str(split), []).extend(matches)
        return splits

    def _plain(self, pattern: str) -> tuple[list[Path], list[Path], bool]:
        """``(matches, those outside the folder, whether the match is a regular file)`` of a pattern
        without glob characters: one ``lstat`` answers all three, or the folder's listing."""
        if (path := self._scanned.get(pattern)) is not None:
            return [path], [], True
        self.listed_only = False
        path = self.root / pattern
        try:
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):
            return [], [], True
        return [path], [] if self._inside(path, mode) else [path], stat.S_ISREG(mode)

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
