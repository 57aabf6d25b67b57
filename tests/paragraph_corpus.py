"""A paragraph-level corpus made from a sentence-level one (issue 35 item 6): WMT's general test
sets since 2023 are paragraphs, so WMT21's lines are joined 3, 4, 5, 6, 3, 4, … at a time, one
space between them, the same spans for the source, the reference and every system output."""

from __future__ import annotations

import itertools
from pathlib import Path

SIZES = (3, 4, 5, 6)


def join_pattern(lines: int) -> list[tuple[int, int]]:
    """[start, end) line spans of 3, 4, 5, 6, 3, … lines (the last one shorter where it must be)."""
    spans: list[tuple[int, int]] = []
    for start, size in zip(itertools.accumulate(itertools.cycle(SIZES), initial=0), itertools.cycle(SIZES)):
        if start >= lines:
            return spans
        spans.append((start, min(start + size, lines)))
    raise AssertionError("unreachable")


def write_joined(files: dict[str, Path], out: Path) -> dict[str, Path]:
    """Each of ``files`` (name → one line per segment, all of one length) joined by
    :func:`join_pattern` into ``out/{name}.txt``."""
    texts = {name: path.read_text(encoding="utf-8").rstrip("\n").split("\n") for name, path in files.items()}
    counts = {len(lines) for lines in texts.values()}
    assert len(counts) == 1, f"files of different lengths: {counts}"
    spans = join_pattern(counts.pop())
    out.mkdir(parents=True, exist_ok=True)
    joined = {}
    for name, lines in texts.items():
        joined[name] = out / f"{name}.txt"
        joined[name].write_text("".join(" ".join(lines[a:b]) + "\n" for a, b in spans), encoding="utf-8")
    return joined
