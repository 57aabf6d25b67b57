"""The ``--out`` folder of ``acs evaluate``: whose it is, and writing it whole.

``--out`` must be absent, empty, or hold one earlier report and nothing else (a ``results.json`` of
``acs evaluate`` and only names a report writes, :func:`.report_writer.report_names`); anything else is an
error naming the first such file, before any scoring. Only a regular file is ever opened. The report
is written into a work folder and swapped in under a lock (:mod:`auto_challenge_sets.folder_swap`).
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.report.report_writer import RESULTS, report_names
from auto_challenge_sets.folder_swap import prepare_folder, refuse_link_or_file, swapped_folder
from auto_challenge_sets.formats.text import file_kind, read_json

SCHEMA_PREFIX = "acs-evaluation/"
FOREIGN = ("is not a file acs evaluate writes, and a report replaces its folder whole: move it out of the "
           "folder, or choose a new or empty one")


def report_globs() -> dict[str, list[str]]:
    """``{folder: glob patterns}`` of the names a report writes (``""``: the report folder itself)."""
    globs: dict[str, list[str]] = {}
    for name in report_names():
        folder, _, base = re.sub(r"\{[^{}]*\}", "*", name).rpartition("/")
        globs.setdefault(folder, []).append(base)
    return globs


def check_report_folder(out: Path) -> None:
    """Refuse an ``--out`` that holds anything but one report (see the module docstring)."""
    refuse_link_or_file(out)
    if not out.exists() or not any(out.iterdir()):
        return
    globs = report_globs()
    entries = [(entry, "") for entry in sorted(out.iterdir())]
    while entries:  # the first entry (sorted) that no report writes is the error
        entry, folder = entries.pop(0)
        mode = entry.lstat().st_mode
        if not folder and entry.name in globs:
            if not stat.S_ISDIR(mode):
                raise InputError(f"is {file_kind(mode)} where a report keeps a folder: {FOREIGN}", entry)
            entries[:0] = [(inner, entry.name) for inner in sorted(entry.iterdir())]
        elif not any(fnmatch.fnmatchcase(entry.name, pattern) for pattern in globs[folder]):
            raise InputError(FOREIGN, entry)
        elif not stat.S_ISREG(mode):
            raise InputError(f"is {file_kind(mode)}, not a regular file, though named like a report's file: "
                             "it was never opened; remove it, or choose a new or empty folder", entry)
    try:  # a regular file, if any: a link was refused above
        document = read_json(out / RESULTS) if (out / RESULTS).exists() else None
    except InputError:
        document = None
    schema = document.get("schema") if isinstance(document, dict) else None
    if not (isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX)):
        raise InputError(f"is not empty and has no {RESULTS} of acs evaluate (schema {SCHEMA_PREFIX}*): a "
                         "report would replace its files; choose a new or empty folder", out)


def prepare_report_folder(out: str | os.PathLike[str]) -> None:
    """Check ``out`` and create its lock file, so a bad ``--out`` fails before the scoring."""
    prepare_folder(Path(out).absolute(), check_report_folder)


@contextmanager
def report_folder(out: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold ``out``'s lock and yield an empty work folder; it replaces ``out`` when the block succeeds."""
    with swapped_folder(out, check_report_folder, keep=False) as work:
        yield work
