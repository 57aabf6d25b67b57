"""Older builds of a folder's name in datasets' own cache.

``load_dataset(NAME, CONFIG)`` takes a folder ``NAME`` in the working folder, else the Hub, else,
when the Hub cannot answer, the newest copy in datasets' cache, without a word: from another
folder a user can silently get an old build. :func:`stale_cached_configs` finds the configs whose
cached copy (``dataset_info.json`` under the name, the config, ``0.0.0`` and a hash, read without
importing datasets) has
other split sizes than the folder here.
"""

from __future__ import annotations

import os
from pathlib import Path

from auto_challenge_sets.formats.text import read_json


def datasets_cache() -> Path:
    """datasets' cache folder, as ``datasets.config`` computes it from the environment."""
    if os.environ.get("HF_DATASETS_CACHE"):
        return Path(os.environ["HF_DATASETS_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "huggingface")
    return Path(home).expanduser() / "datasets"


def _cached_sizes(info: Path) -> dict[str, int]:
    try:
        splits = read_json(info).get("splits") or {}  # bounded: a pipe or a link to /dev/zero is no entry
        return {str(name): int(split["num_examples"]) for name, split in splits.items()}
    except (OSError, ValueError, TypeError, KeyError):
        return {}  # a half-written or foreign entry: not ours to judge


def stale_cached_configs(name: str, sizes: dict[str, dict[str, int]],
                         cache: Path | None = None) -> dict[str, list[str]]:
    """``{config: ["split: N rows cached, M here", ...]}`` for each config of ``sizes`` (the folder
    here, ``{config: {split: rows}}``) that datasets' cache holds under ``name`` with other sizes."""
    root = (cache or datasets_cache()) / name
    stale: dict[str, list[str]] = {}
    for config, here in sizes.items():
        for info in sorted((root / config).glob("*/*/dataset_info.json")):
            cached = _cached_sizes(info)
            differ = [f"{split}: {cached[split]} rows cached, {rows} here" for split, rows in sorted(here.items())
                      if split in cached and cached[split] != rows]
            if differ:
                stale.setdefault(config, []).extend(d for d in differ if d not in stale.get(config, []))
    return stale
