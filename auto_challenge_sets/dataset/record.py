"""``acs_build.json``: the record of what each (pair, corpus) build was made from, and the mark
of a folder this tool made.

Each build entry carries its corpus's license; the folder's license is derived from them (one
license, or ``other`` when the splits differ: see :func:`folder_license`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import IN_A_DATASET, atomic_write_text, read_json, require_regular_file

BUILD_RECORD = "acs_build.json"
# each build records its data files (bytes, rows, sha256; dataset/integrity.py) and its provenance
# (pipeline/build_provenance.py); a record of an older format is refused: build the folder again
RECORD_FORMAT = 3
_BUILD_KEYS = ("pair", "corpus", "lines")


def read_build_record(out_dir: str | os.PathLike[str]) -> dict:
    """The folder's record (an empty one when there is none); a broken one is an InputError."""
    path = Path(out_dir) / BUILD_RECORD
    if not path.exists():
        return {"license": None, "builds": []}
    require_regular_file(path, hint=IN_A_DATASET)
    record = read_json(path)
    builds = record.get("builds") if isinstance(record, dict) else None
    if not isinstance(builds, list) or not all(isinstance(b, dict) and all(k in b for k in _BUILD_KEYS)
                                               for b in builds):
        raise InputError("is not a build record of auto_challenge_sets (a 'builds' list of "
                         f"{{{', '.join(_BUILD_KEYS)}, ...}} entries)", path)
    if not isinstance(record.get("format"), int) or record["format"] < RECORD_FORMAT:
        raise InputError(f"was written by an older acs (record format {record.get('format', 1)}, this acs reads "
                         f"{RECORD_FORMAT}): build the folder again", path)
    record.setdefault("license", None)
    return record


def folder_license(builds: list[dict[str, Any]], legacy: str | None = None) -> tuple[str, dict[str, str]]:
    """The folder's license and, when the splits differ, each ``pair/corpus``'s license."""
    per_split = {f"{b['pair']}/{b['corpus']}": b.get("license") or legacy or "other" for b in builds}
    licenses = set(per_split.values())
    if len(licenses) == 1:
        return licenses.pop(), {}
    return "other", per_split


def update_build_record(out_dir: str | os.PathLike[str], build: dict, license: str | None) -> dict:
    """Record one (pair, corpus) build, replacing an earlier record of the same pair and corpus.

    ``license`` labels this build's corpus only; None keeps the license an earlier build of the same
    pair and corpus recorded (else the folder's).
    """
    record = read_build_record(out_dir)
    earlier = {(b["pair"], b["corpus"]): b for b in record["builds"]}
    before = earlier.get((build["pair"], build["corpus"]), {})
    build = {**build, "license": license or before.get("license")}
    builds = [b for key, b in earlier.items() if key != (build["pair"], build["corpus"])]
    builds.append(build)
    record["builds"] = sorted(builds, key=lambda b: (b["pair"], b["corpus"]))
    record["license"] = folder_license(record["builds"], record["license"])[0]
    record["format"] = RECORD_FORMAT
    write_build_record(out_dir, record)
    return record


def write_build_record(out_dir: str | os.PathLike[str], record: dict) -> None:
    """Write a record read by :func:`read_build_record` and changed."""
    atomic_write_text(Path(out_dir) / BUILD_RECORD, json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def empty_selections(record: dict) -> dict[str, dict[str, int]]:
    """``{config: {split: 0}}`` for every config a recorded build selected no pair for: no config
    (``datasets`` cannot load an empty split), but the size tables show it as 0."""
    empty: dict[str, dict[str, int]] = {}
    for build in record["builds"]:
        for name in build.get("empty_configs", ()):
            empty.setdefault(name, {})[build["corpus"]] = 0
    return empty


def build_entry(out_dir: str | os.PathLike[str], pair: str, corpus: str) -> dict | None:
    """The record of the build of ``(pair, corpus)`` (None: the folder records no such build)."""
    for build in read_build_record(out_dir)["builds"]:
        if build["pair"] == pair and build["corpus"] == corpus:
            return build
    return None


def corpus_lines(out_dir: str | os.PathLike[str], pair: str, corpus: str) -> int | None:
    """How many lines the corpus of ``(pair, corpus)`` had, empty ones included (None: not recorded)."""
    build = build_entry(out_dir, pair, corpus)
    return None if build is None else build["lines"]
