"""``acs_build.json``: the record of what each (pair, corpus) build was made from."""

from __future__ import annotations

import json
import os
from pathlib import Path

from auto_challenge_sets.text_io import atomic_write_text

BUILD_RECORD = "acs_build.json"


def read_build_record(out_dir: str | os.PathLike[str]) -> dict:
    path = Path(out_dir) / BUILD_RECORD
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"license": None, "builds": []}


def update_build_record(out_dir: str | os.PathLike[str], build: dict, license: str | None) -> dict:
    """Record one (pair, corpus) build, replacing an earlier record of the same pair and corpus."""
    record = read_build_record(out_dir)
    if license is not None:
        record["license"] = license
    builds = [b for b in record["builds"] if (b["pair"], b["corpus"]) != (build["pair"], build["corpus"])]
    builds.append(build)
    record["builds"] = sorted(builds, key=lambda b: (b["pair"], b["corpus"]))
    atomic_write_text(Path(out_dir) / BUILD_RECORD, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return record


def corpus_lines(out_dir: str | os.PathLike[str], pair: str, corpus: str) -> int | None:
    """How many lines the corpus of ``(pair, corpus)`` had, empty ones included (None: not recorded)."""
    for build in read_build_record(out_dir)["builds"]:
        if build["pair"] == pair and build["corpus"] == corpus:
            return build["lines"]
    return None
