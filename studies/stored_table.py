"""A measured table kept in the repository (and included in every dataset card, or written into a
marked block of docs/method.md): write it anew, or check that a fresh measurement still gives it.
Shared by the measurement scripts here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
METHOD = REPO / "docs" / "method.md"


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


def block_main(doc: str, render: Callable[[Path], str], name: str, script: str) -> int:
    """The command line of a script whose table, measured on ../shared by ``render``, is the block
    ``name`` of docs/method.md: ``--shared DIR``, then ``--write`` or ``--check``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    return store_block_or_check(render(args.shared), name, script, write=args.write, check=args.check)
