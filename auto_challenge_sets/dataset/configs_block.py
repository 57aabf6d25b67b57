"""The card's ``configs:`` block read without a YAML parser, where it has exactly the shape the build
writes, and only then.

Every command opens the card, and a folder of 1,000 ``--rule``s lists 6,000 configs in it: PyYAML
(libyaml's parser, Python's constructor) took over a second of every ``acs stats`` there, the
largest part of it. The build writes the block in one shape (``yaml.safe_dump`` of plain names and
paths), one line per key, so one regular expression match reads each config entry; any other
line — a quoted or flow value, a comment, another key, a value YAML would read as something other
than a string — returns None and the caller parses the block with YAML, so the result is always
what YAML gives.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# the build's block, one config entry at a time; a value is a plain scalar without YAML's indicators
_VALUE = r"[A-Za-z0-9_][A-Za-z0-9_.+/-]*"
_PAIRS = re.compile(rf"  - split: ({_VALUE})\n    path: ({_VALUE})\n")  # one data_files item: (split, path)
_ENTRY = re.compile(rf"- config_name: ({_VALUE})\n  data_files:\n((?:{_PAIRS.pattern})+)(?P<default>  default: true\n)?")


def _all_strings(values: list[str]) -> bool:
    """Whether YAML reads each of these plain scalars as a string (not ``true``, ``1.5``, ``null``,
    a date)."""
    import yaml

    resolver = yaml.resolver.Resolver
    # PyYAML picks implicit resolvers by a value's first character: where none has one for any
    # first character here (and none is a wildcard or path resolver), every value is a string
    # without asking. Every path of the build starts with "data/"; asking for each of 16,000
    # values took 40 ms of a folder of 1,000 --rules
    if resolver.yaml_path_resolvers or None in resolver.yaml_implicit_resolvers:
        return all(_is_string(value) for value in values)
    firsts = {value[0] for value in values}
    return firsts.isdisjoint(resolver.yaml_implicit_resolvers) or all(
        _is_string(value) for value in values if value[0] in resolver.yaml_implicit_resolvers)


@lru_cache(maxsize=4096)
def _is_string(value: str) -> bool:
    import yaml

    return yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"


def read_configs_block(block: str) -> dict[str, list[dict[str, Any]]] | None:
    """``{"configs": [...]}`` from a ``configs:`` block of the build's shape, as ``yaml.safe_load``
    reads it; None for anything else."""
    block = block.rstrip("\n")
    if block != "configs:" and not block.startswith("configs:\n"):
        return None
    # each line with its newline, the last one's too: a slice, where a split and a join of 27,000 lines took 5 ms
    body = block[len("configs:\n"):] + "\n" if block != "configs:" else ""
    configs: list[dict[str, Any]] = []
    values: list[str] = []
    at = 0
    while at < len(body):  # one match per config: 6,000 of them, line by line in Python, took 80 ms
        entry = _ENTRY.match(body, at)
        if entry is None:
            return None
        pairs = _PAIRS.findall(entry[2])
        configs.append({"config_name": entry[1], "data_files": [{"split": split, "path": path} for split, path in pairs]})
        if entry["default"]:
            configs[-1]["default"] = True
        values.append(entry[1])
        values.extend(value for pair in pairs for value in pair)
        at = entry.end()
    return {"configs": configs} if _all_strings(values) else None
