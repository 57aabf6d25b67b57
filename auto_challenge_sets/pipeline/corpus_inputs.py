"""Pre-computed inputs that stand where a backend would run: a source parse as CoNLL-U
(:class:`PreParsedSource`), an alignment as Pharaoh (:class:`AlignmentFile`). Each is read and
checked against the corpus; the first place they come apart is an error naming file and line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from auto_challenge_sets.backends.aligners import Pair
from auto_challenge_sets.backends.file_provenance import file_entry
from auto_challenge_sets.errors import AlignmentError, ConlluError, InputError
from auto_challenge_sets.formats.conllu import read_conllu_with_lines
from auto_challenge_sets.formats.corpus import ReadReport, read_lines
from auto_challenge_sets.formats.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.formats.text import require_regular_file
from auto_challenge_sets.formats.ud import Sentence
from auto_challenge_sets.selection import text_mismatch


def _check_file(path: Path, error: type[InputError], what: str) -> None:
    """A readable file, or ``error`` naming the path: missing, a folder, or not readable."""
    if not path.exists():
        raise error(f"no such {what}", str(path))
    if path.is_dir():
        raise error(f"is a folder, not {'an' if what[0] in 'aeiou' else 'a'} {what}", str(path))
    if not os.access(path, os.R_OK):
        raise error(f"cannot read this {what}: permission denied", str(path))
    require_regular_file(path, error)  # a FIFO would block the checksum the build record takes of it


class PreParsedSource:
    """A CoNLL-U file that holds one sentence per corpus line, in order: the parse stage serves its
    sentences for the lines they were parsed from instead of running a parser. Each sentence must
    be a parse of its line (:func:`~auto_challenge_sets.selection.text_mismatch`)."""

    name = "conllu"

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)

    def check_ready(self) -> None:
        _check_file(self.path, ConlluError, "file")

    def provenance(self) -> dict[str, Any]:
        """The build record's parser entry of a pre-parsed source: the file by name and sha256."""
        self.check_ready()
        return {"backend": self.name, "package": None, "version": None, "model": None,
                **file_entry(self.path), "options": {}}

    def read(self, lines: Sequence[str], line_numbers: Sequence[int] | None = None) -> list[Sentence]:
        """The file's sentences, checked to be one per line of ``lines`` (all lines of the corpus,
        numbered ``line_numbers`` in it; default 1..n)."""
        self.check_ready()
        starts, sentences = [], []
        for start, sentence in read_conllu_with_lines(self.path):
            starts.append(start)
            sentences.append(sentence)
        if len(sentences) != len(lines):
            raise ConlluError(
                f"has {len(sentences)} sentences but the input has {len(lines)} non-empty lines: a "
                "pre-parsed source needs exactly one sentence per corpus line, in order", self.path)
        for index, (sentence, line) in enumerate(zip(sentences, lines)):
            reason = text_mismatch(sentence, line)
            if reason is not None:
                where = line_numbers[index] if line_numbers is not None else index + 1
                raise ConlluError(f"sentence {index + 1} (sent_id {sentence.sent_id}) does not match corpus "
                                  f"line {where}: {reason}", self.path, starts[index])
        return sentences


class AlignmentFile:
    """Precomputed ``i-j`` links (0-based) from a Pharaoh file, one line per sentence pair (empty: no
    links), each checked against the pair's token counts; a bad link or a control character in a
    line is an :class:`~auto_challenge_sets.errors.AlignmentError` naming file and line. Line k is
    pair k, unless ``line_numbers`` (each pair's corpus line) and ``total_lines`` are given."""

    name = "pharaoh"

    def __init__(self, path: str | os.PathLike[str], line_numbers: Sequence[int] | None = None,
                 total_lines: int | None = None) -> None:
        self.path = Path(path)
        self.line_numbers = None if line_numbers is None else list(line_numbers)
        self.total_lines = total_lines
        _check_file(self.path, AlignmentError, "alignment file")

    def describe(self) -> str:
        # a file is named by its base name: the card must not depend on where the build ran
        return f"{self.name} (path={self.path.name})"

    def provenance(self) -> dict[str, Any]:
        """The build record's aligner entry: the file (which :meth:`align` has read) by name and sha256."""
        return {"backend": self.name, "package": None, "version": None, "model": None,
                **file_entry(self.path), "symmetrization": None, "priors": None, "priors_used": None, "options": {}}

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        """The links of ``pairs``, read from their lines of the file and checked against them."""
        name = str(self.path)
        report = ReadReport()
        lines = read_lines(self.path, report, error=AlignmentError)
        garbage = sorted(report.inner_cr_lines.get(name, []) + report.control_lines.get(name, []))
        if garbage:  # the corpus policy reads these as spaces; in a Pharaoh line they are no separator
            raise AlignmentError("a carriage return, line separator or control character inside the line: a "
                                 "Pharaoh line holds i-j links separated by spaces", name, garbage[0])
        numbers = self.line_numbers if self.line_numbers is not None else list(range(1, len(pairs) + 1))
        expected = self.total_lines if self.total_lines is not None else (
            len(pairs) if self.line_numbers is None else None)
        if expected is not None and len(lines) != expected:
            raise AlignmentError(
                f"has {len(lines)} lines but {expected} are expected: an alignment file needs one line "
                "per sentence pair (an empty line for a pair without links)", name)
        past = next((number for number in numbers if number > len(lines)), None)  # without total_lines
        if past is not None:
            raise AlignmentError(f"has {len(lines)} lines: there is no line {past} for its sentence pair", name)
        return [parse_pharaoh(lines[number - 1], n_source=len(source), n_target=len(target), path=name,
                              line=number) for number, (source, target) in zip(numbers, pairs)]
