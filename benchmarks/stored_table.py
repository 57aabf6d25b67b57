"""A measured table kept in the repository (and included in every dataset card): write it anew, or
check that a fresh measurement still gives it. Shared by the measurement scripts here."""

from __future__ import annotations

import sys
from pathlib import Path


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
