"""The ``--out`` folder of ``acs evaluate``: whose it is, and writing it whole.

``--out`` must be absent, empty, or a folder an earlier ``acs evaluate --out`` made (its
``results.json`` has a ``schema`` of ``acs-evaluation/*``); anything else is an error naming it, so
a report never replaces someone's files. The report is written into a fresh sibling work folder
and swapped in under a lock (:mod:`auto_challenge_sets.folder_swap`): a run that fails or is
killed leaves the previous report whole, and every file of a report comes from one run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.folder_swap import prepare_folder, refuse_link_or_file, swapped_folder

RESULTS = "results.json"
SCHEMA_PREFIX = "acs-evaluation/"


def _schema(results: Path) -> object:
    try:
        document = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document.get("schema") if isinstance(document, dict) else None


def check_report_folder(out: Path) -> None:
    """Refuse an ``--out`` that an ``acs evaluate`` run did not make (see the module docstring)."""
    refuse_link_or_file(out)
    if not out.exists() or not any(out.iterdir()):
        return
    schema = _schema(out / RESULTS)
    if not (isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX)):
        raise InputError(f"is not empty and has no {RESULTS} of acs evaluate (schema {SCHEMA_PREFIX}*): a "
                         "report would replace its files; choose a new or empty folder", out)


def prepare_report_folder(out: str | os.PathLike[str]) -> None:
    """Check ``out`` and create its lock file before the evaluation's work, so a bad ``--out``
    fails at once rather than after the scoring."""
    prepare_folder(Path(out).absolute(), check_report_folder)


@contextmanager
def report_folder(out: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold ``out``'s lock and yield an empty work folder; it replaces ``out`` when the block succeeds."""
    with swapped_folder(out, check_report_folder, keep=False, holder="evaluate") as work:
        yield work
