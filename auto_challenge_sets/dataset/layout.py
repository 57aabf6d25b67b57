"""The layout of a challenge-set folder, the one place that knows it, for writing and reading.

``data/{config}/{split}-00000-of-00001.parquet`` per config and split, ``README.md`` with the YAML
metadata (``configs`` with ``data_files``) above the card, and ``acs_build.json``, the record of
what was built from what (:mod:`auto_challenge_sets.dataset.record`). A reader follows the card's
``configs:`` (any Hub dataset with Parquet files reads), else the ``data/`` folders themselves.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.errors import InputError

DATA_DIR = "data"
SHARD_SUFFIX = "-00000-of-00001.parquet"
README = "README.md"


def parquet_path(out_dir: str | os.PathLike[str], config: str, split: str) -> Path:
    return Path(out_dir) / DATA_DIR / config / f"{split}{SHARD_SUFFIX}"


def scan_folder(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, Path]]:
    """``{config: {split: parquet path}}`` for every Parquet file the build wrote in the folder."""
    found: dict[str, dict[str, Path]] = defaultdict(dict)
    data = Path(out_dir) / DATA_DIR
    if data.is_dir():
        for config_dir in sorted(data.iterdir()):
            for path in sorted(config_dir.glob(f"*{SHARD_SUFFIX}")):
                found[config_dir.name][path.name.removesuffix(SHARD_SUFFIX)] = path
    return dict(found)


def folder_sizes(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, int]]:
    """``{config: {split: rows}}`` from the Parquet footers (no data is read)."""
    return sizes_of(scan_folder(out_dir))


def sizes_of(found: dict[str, dict[str, Path]]) -> dict[str, dict[str, int]]:
    import pyarrow.parquet as pq

    return {name: {split: pq.read_metadata(path).num_rows for split, path in found[name].items()}
            for name in sorted(found, key=config_sort_key)}


def _front_matter(readme: Path) -> dict[str, Any]:
    """The YAML front matter of a dataset card (empty when there is none)."""
    import yaml

    text = readme.read_text(encoding="utf-8")
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        raise InputError("YAML front matter is not closed by a `---` line", readme, 1)
    try:
        data = yaml.safe_load(text[3:end])
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise InputError(f"bad YAML front matter: {error}", readme, None if mark is None else mark.line + 2) from None
    return data if isinstance(data, dict) else {}


class DatasetFolder:
    """Configs and their Parquet files per split, from ``README.md`` (or the default layout)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        if not self.root.is_dir():
            raise InputError("no such dataset folder", self.root)
        self.files: dict[str, dict[str, list[Path]]] = {}
        readme = self.root / "README.md"
        configs = _front_matter(readme).get("configs") if readme.is_file() else None
        if configs:
            for entry in configs:
                name = entry.get("config_name")
                if not name:
                    continue
                self.files[name] = self._resolve(entry.get("data_files"), name)
        else:  # no card: fall back to the layout itself
            for folder in sorted(p for p in (self.root / DATA_DIR).glob("*") if p.is_dir()):
                splits: dict[str, list[Path]] = {}
                for file in sorted(folder.glob("*.parquet")):
                    splits.setdefault(file.name.split("-", 1)[0], []).append(file)
                self.files[folder.name] = splits
        if not self.files:
            raise InputError("lists no configs (README.md `configs:` or data/{config}/*.parquet)", self.root)

    def _resolve(self, data_files: Any, config: str) -> dict[str, list[Path]]:
        if isinstance(data_files, str | list) and not (
            isinstance(data_files, list) and data_files and isinstance(data_files[0], dict)
        ):
            data_files = [{"split": "train", "path": data_files}]
        if isinstance(data_files, dict):
            data_files = [{"split": k, "path": v} for k, v in data_files.items()]
        splits: dict[str, list[Path]] = {}
        for item in data_files or []:
            patterns = item.get("path")
            for pattern in [patterns] if isinstance(patterns, str) else list(patterns or []):
                matches = sorted(self.root.glob(pattern))
                splits.setdefault(item.get("split", "train"), []).extend(matches)
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
