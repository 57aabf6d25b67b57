"""A saved report read back (``acs report``): ``results.json`` and the sentences, checked before anything
is rendered: a hand-edited or truncated file is an error naming the file and the field."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.page_sentences import SAVED, Sentences
from auto_challenge_sets.evaluation.report.report_writer import RESULTS
from auto_challenge_sets.evaluation.result_json import ResultError
from auto_challenge_sets.evaluation.results import SCHEMA, Evaluation
from auto_challenge_sets.folder_swap import left_aside
from auto_challenge_sets.formats.text import file_kind, read_json


def _regular(path: str | os.PathLike[str]) -> None:
    """Refuse, unopened, a missing path or one that is not a regular file (a pipe, a link)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"not found: give the folder `acs evaluate --out` wrote (it holds {RESULTS})", path) from None
    if not stat.S_ISREG(mode):
        raise InputError(f"is {file_kind(mode)}, not a regular file: it was never opened", path)


def read_report(folder: str | os.PathLike[str]) -> tuple[Evaluation, Sentences | None]:
    """A report folder's result (a ``results.json`` of this version: an error names the file of anything
    else), and its sentences where the run saved them."""
    folder = Path(folder)
    if not folder.is_dir():
        left_aside(folder)
        raise InputError("is not a folder: give the folder `acs evaluate --out` wrote", folder)
    path = folder / RESULTS
    _regular(path)
    document = read_json(path)
    schema = document.get("schema") if isinstance(document, dict) else None
    if not isinstance(schema, str) or not schema.startswith("acs-evaluation/"):
        raise InputError(f'is not a {RESULTS} of `acs evaluate` (no "schema": "acs-evaluation/…")', path)
    if schema != SCHEMA:
        raise InputError(f"is {schema}; this version renders {SCHEMA} (docs/method.md, 'Reading results.json', "
                         "says what changed): run `acs evaluate ... --out DIR` again with this version", path)
    try:
        evaluation = Evaluation.from_json(document)
    except ResultError as error:
        raise InputError(f"does not match {SCHEMA} at {error.field or 'the document'}: {error}", path) from None
    if evaluation.baseline_system not in evaluation.systems:
        raise InputError(f"does not match {SCHEMA} at baseline_system: {evaluation.baseline_system!r} is not one of "
                         "its systems", path)
    saved = folder / SAVED
    if not os.path.lexists(saved):
        return evaluation, None
    _regular(saved)
    sentences = Sentences.load(saved)
    if sentences.systems != list(evaluation.systems) or set(sentences.configs) != set(evaluation.configs):
        raise InputError(f"holds the sentences of another run (its systems or configs are not {RESULTS}'s): run "
                         "`acs evaluate` again to save both", saved)
    return evaluation, sentences
