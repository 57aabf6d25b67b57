"""A measured table kept in the repository (and included in every dataset card, or written into a
marked block of docs/method.md): write it anew, or check that a fresh measurement still gives it.
Shared by the measurement scripts here.

A table measured on eflomal's links is checked within a spread stated beside it: pip builds
eflomal's binary with ``-Ofast -march=native``, so its seeded links differ from one CPU to
another, as they do from one seed to another. Its script measures seeds :data:`SEEDS`, stores
seed 1's figures and the largest range of a figure over the seeds (:func:`spread_sentence`), and
a check on any machine allows :data:`ALLOWED` times that (:func:`within_spread`)."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
METHOD = REPO / "docs" / "method.md"
SEEDS = (1, 2, 3, 4, 5)  # eflomal's: the table is the first's, the others measure the spread
# a check allows this many times the stated spread: another machine's figure is one more draw, and
# two draws differ by up to twice the range of five (on this table, seeds 1-5 against one stored run)
ALLOWED = 2
_SPREAD = re.compile(r"each share by at most (\d+\.\d) points and each mean by at most (\d+\.\d\d)")
_NUMBER = re.compile(r"\d[\d,]*(?:\.(\d+))?")


def store_or_check(table: str, path: Path, write: bool = False, check: bool = False) -> int:
    """Print the table; with ``write`` store it at ``path``; with ``check`` return 1 when the stored
    one differs (the test suite runs the scripts so)."""
    if write:
        path.write_text(table, encoding="utf-8")
    elif check and path.read_text(encoding="utf-8") != table:
        print(f"{path} differs from a fresh measurement: run with --write", file=sys.stderr)
        return 1
    print(table)
    return 0


def markers(name: str, script: str) -> tuple[str, str]:
    """The two lines around the block ``name`` that ``studies/<script> --write`` writes."""
    return f"<!-- table {name}: written by studies/{script} --write -->", f"<!-- end of table {name} -->"


def stored_block(text: str, name: str, script: str) -> str:
    """The text between the block's markers (which must occur exactly once each, begin before end)."""
    begin, end = markers(name, script)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"expected one {begin!r} followed by one {end!r}")
    return text.split(begin, 1)[1].split(end, 1)[0]


def with_block(text: str, name: str, script: str, table: str) -> str:
    """``text`` with the block ``name`` replaced by ``table`` (blank lines around it, so that Markdown
    reads the table and the comments apart)."""
    stored_block(text, name, script)
    begin, end = markers(name, script)
    head, rest = text.split(begin, 1)
    return head + begin + "\n\n" + table.strip("\n") + "\n\n" + end + rest.split(end, 1)[1]


def store_block_or_check(table: str, name: str, script: str, write: bool = False, check: bool = False,
                         path: Path = METHOD) -> int:
    """``store_or_check`` for a marked block of a Markdown file (docs/method.md unless ``path``)."""
    text = path.read_text(encoding="utf-8")
    try:
        fresh = with_block(text, name, script, table)
    except ValueError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    if write:
        path.write_text(fresh, encoding="utf-8")
    elif check and fresh != text:
        print(f"the table {name} of {path} differs from a fresh measurement: run "
              f"studies/{script} --write", file=sys.stderr)
        return 1
    print(table)
    return 0


def block_main(doc: str, render: Callable[[Path], str], name: str, script: str,
               one_seed: Callable[[Path, tuple[float, float]], str] | None = None) -> int:
    """The command line of a script whose table, measured on ../shared by ``render``, is the block
    ``name`` of docs/method.md: ``--shared DIR``, then ``--write`` or ``--check``. A table on
    eflomal's links gives ``one_seed`` (seed 1's table with a given spread stated), which
    ``--check`` compares within the stored block's spread."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    if not (args.check and one_seed):
        return store_block_or_check(render(args.shared), name, script, write=args.write, check=args.check)
    stored = stored_block(METHOD.read_text(encoding="utf-8"), name, script).strip("\n")
    spread = stated_spread(stored)
    fresh = one_seed(args.shared, spread).strip("\n")
    print(fresh)
    if not within_spread(stored, fresh, spread):
        print(f"the table {name} of {METHOD} differs from a fresh measurement by more than the spread it "
              f"states: run studies/{script} --write", file=sys.stderr)
        return 1
    return 0


def measured_spread(runs: Sequence[Sequence[tuple[float, float]]]) -> tuple[float, float]:
    """The largest range over the runs (one per seed, each the same figures in the same order:
    (share in points, mean)) of a share and of a mean, rounded up to the digit the table prints."""
    points = max(max(shares) - min(shares) for shares in zip(*[[s for s, _ in run] for run in runs]))
    means = max(max(found) - min(found) for found in zip(*[[m for _, m in run] for run in runs]))
    return math.ceil(round(points * 10, 6)) / 10, math.ceil(round(means * 100, 6)) / 100


def spread_sentence(spread: tuple[float, float]) -> str:
    return ("eflomal's links differ from one CPU to another (pip builds it with `-Ofast -march=native`), "
            f"as they do from one seed to another: over seeds {SEEDS[0]}–{SEEDS[-1]} on one machine the table's figures "
            "differ, "
            f"each share by at most {spread[0]:.1f} points and each mean by at most {spread[1]:.2f}; "
            f"the tests allow {ALLOWED} times that, another machine's figures being one more draw.")


def stated_spread(text: str) -> tuple[float, float]:
    """The spread :func:`spread_sentence` states in ``text``."""
    found = _SPREAD.search(text.replace("\n", " "))
    if found is None:
        raise ValueError("the stored table states no spread across eflomal seeds")
    return float(found[1]), float(found[2])


def within_spread(stored: str, fresh: str, spread: tuple[float, float]) -> bool:
    """Whether ``fresh`` is ``stored`` but for its numbers with decimals: a share (followed by %)
    within :data:`ALLOWED` times ``spread[0]`` points, any other within as many times ``spread[1]``,
    each allowed one more unit of its last printed digit (both were rounded); every other character
    equal."""
    if _NUMBER.sub("#", stored) != _NUMBER.sub("#", fresh):
        return False
    for old, new in zip(_NUMBER.finditer(stored), _NUMBER.finditer(fresh)):
        digits = old[1]
        if digits is None:
            if old[0] != new[0]:
                return False
            continue
        limit = ALLOWED * (spread[0] if stored[old.end():old.end() + 1] == "%" else spread[1])
        if abs(float(old[0].replace(",", "")) - float(new[0].replace(",", ""))) > limit + 10 ** -len(digits) + 1e-9:
            return False
    return True
