"""The card's ``configs:`` block read without a YAML parser, where it has exactly the shape the build
writes, and only then.

Every command opens the card, and a folder of 1,000 ``--rule``s lists 6,000 configs in it: PyYAML
(libyaml's parser, Python's constructor) took over a second of every ``acs stats`` there, the
largest part of it. The build writes the block in one shape (``yaml.safe_dump`` of plain names and
paths), one line per key, so it reads line by line; any other line — a quoted or flow value, a
comment, another key, a value YAML would read as something other than a string — returns None and
the caller parses the block with YAML, so the result is always what YAML gives.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# the lines of the build's block; a value is a plain scalar without YAML's indicators
_VALUE = r"([A-Za-z0-9_][A-Za-z0-9_.+/-]*)"
_CONFIG = re.compile(rf"- config_name: {_VALUE}")
_FILES = "  data_files:"
_SPLIT = re.compile(rf"  - split: {_VALUE}")
_PATH = re.compile(rf"    path: {_VALUE}")
_DEFAULT = "  default: true"


@lru_cache(maxsize=4096)
def _is_string(value: str) -> bool:
    """Whether YAML reads this plain scalar as a string (not ``true``, ``1.5``, ``null``, a date)."""
    import yaml

    return yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"


def read_configs_block(block: str) -> dict[str, list[dict[str, Any]]] | None:
    """``{"configs": [...]}`` from a ``configs:`` block of the build's shape, as ``yaml.safe_load``
    reads it; None for anything else."""
    lines = block.split("\n")
    while lines and not lines[-1]:
        lines.pop()
    if not lines or lines[0] != "configs:":
        return None
    configs: list[dict[str, Any]] = []
    k = 1
    while k < len(lines):
        head = _CONFIG.fullmatch(lines[k])
        if head is None or k + 1 >= len(lines) or lines[k + 1] != _FILES:
            return None
        files: list[dict[str, str]] = []
        k += 2
        while k + 1 < len(lines) and (split := _SPLIT.fullmatch(lines[k])) and (path := _PATH.fullmatch(lines[k + 1])):
            files.append({"split": split[1], "path": path[1]})
            k += 2
        entry: dict[str, Any] = {"config_name": head[1], "data_files": files}
        if k < len(lines) and lines[k] == _DEFAULT:
            entry["default"] = True
            k += 1
        if not files or not all(_is_string(value) for value in (head[1], *(v for f in files for v in f.values()))):
            return None
        configs.append(entry)
    return {"configs": configs}
