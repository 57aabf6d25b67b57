"""Block reading (text_io.raw_blocks: a decode and a split per block of about a megabyte) against
the policies read one line at a time: the CoNLL-U and corpus readers give the same lines,
sentences, reports and first errors wherever the blocks are cut (text_io.BLOCK as small as a byte).
Fuzzed with the generators of tests/test_fuzz_readers.py."""

from __future__ import annotations

import io
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_fuzz_readers import _HOSTILE, FUZZ, _conllu_pieces, _conllu_texts, _corpus_bytes, _sentences, _write

from auto_challenge_sets.errors import ConlluError, CorpusError
from auto_challenge_sets.formats import conllu as conllu_io
from auto_challenge_sets.formats import text as text_io
from auto_challenge_sets.formats.conllu import format_sentence
from auto_challenge_sets.formats.corpus import INNER_BREAKS, ReadReport, iter_lines


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("blocks")


# -- CoNLL-U --------------------------------------------------------------------------------------------------

def _read_until_error(sentences) -> tuple[list, tuple[str, int | None] | None]:
    read = []
    try:
        for item in sentences:
            read.append(item)
    except ConlluError as error:
        return read, (str(error), error.line)
    return read, None


def _line_by_line(data: bytes) -> object:
    """The reference reading: each line decoded alone, the sentences read by the same reader."""
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if not lines[-1]:
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise ConlluError(f"invalid UTF-8 (byte {bad.start + 1} of the line)", "f.conllu", number) from None


_column_values = st.sampled_from(["", "0", "01", "1", "2", "3", "1023", "1024", "99999", "1-2", "1.1", "٣", "x",
                                  "_", *_HOSTILE])


@st.composite
def _edited_conllu(draw) -> bytes:
    """Valid sentences with a few lines edited (a column replaced, a line dropped, moved or
    repeated), maybe a BOM, maybe CRLF line ends: the cases where a reader's checks matter."""
    lines = "".join(map(format_sentence, draw(st.lists(_sentences(), min_size=1, max_size=4)))).split("\n")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["column", "column", "drop", "move", "repeat"]))
        words = [k for k, line in enumerate(lines) if line.split("\t", 1)[0].isdigit()]
        if edit == "column" and words:
            at = draw(st.sampled_from(words))
            columns = lines[at].split("\t")
            # an empty column, a word its own head, or any of the values above, in any column
            columns[draw(st.sampled_from([0, 1, 6, 6, 9, *range(10)]))] = draw(
                st.one_of(st.just(""), st.just(columns[0]), _column_values))
            lines[at] = "\t".join(columns)
        elif edit == "drop":
            del lines[at]
        elif edit == "move":
            lines.insert(draw(st.integers(0, len(lines))), lines.pop(at))
        elif edit == "repeat":
            lines.insert(at, lines[at])
    text = ("\r\n" if draw(st.booleans()) else "\n").join(lines)
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


@FUZZ
@given(st.one_of(_edited_conllu(), _edited_conllu(), _edited_conllu(), st.binary(max_size=200),
                 st.lists(st.one_of(_conllu_pieces.map(str.encode), st.binary(max_size=3)), max_size=30).map(b"".join),
                 _conllu_texts().map(str.encode)),
       st.sampled_from([1, 3, 16, 100, 1 << 20]))
def test_blocks_are_read_like_lines(data: bytes, block: int) -> None:
    """The block reader gives the line reader's sentences, their start lines and its first error
    (message and line), wherever the blocks are cut."""
    with mock.patch.object(text_io, "BLOCK", block):
        blocks = _read_until_error(conllu_io.iter_numbered_sentences(io.BytesIO(data), "f.conllu"))
    assert blocks == _read_until_error(conllu_io._numbered(_line_by_line(data), "f.conllu"))


# -- plain-text corpora ---------------------------------------------------------------------------------------

_CORPUS_PIECES = [b"\xef\xbb\xbf", b"Satz eins\n", b"zwei\r\n", b"\n", b"drei", "\u2028".encode(), b"\xc2\x85", b"\x00",
                  "é".encode(), b"\r", b"\xff", b"a\nb\nc\nd\n"]


def _lines_by_the_policy(data: bytes) -> tuple[list[str], tuple[str, int | None] | None, ReadReport]:
    """The corpus module's policy, one line at a time: the reference for the block reader."""
    report, lines = ReadReport(), []
    raws = data.split(b"\n")
    if raws and not raws[-1]:
        raws.pop()
    for number, raw in enumerate(raws, start=1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
            report.bom_files.append("f.txt")
            if not raw and len(raws) == 1 and not data.endswith(b"\n"):
                break
        if raw.endswith(b"\r"):
            raw = raw[:-1]
            report.crlf_lines["f.txt"] = report.crlf_lines.get("f.txt", 0) + 1
        if b"\r" in raw:
            raw = raw.replace(b"\r", b" ")
            report.inner_cr_lines.setdefault("f.txt", []).append(number)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return lines, ("invalid UTF-8", number), report
        if INNER_BREAKS.search(line):
            report.control_lines.setdefault("f.txt", []).append(number)
            line = INNER_BREAKS.sub(" ", line)
        lines.append(line)
    return lines, None, report


@FUZZ
@given(st.one_of(_corpus_bytes, st.lists(st.sampled_from(_CORPUS_PIECES), max_size=20).map(b"".join)),
       st.sampled_from([1, 2, 5, 16, 1 << 20]))
@example(b"\xef\xbb\xbf", 1 << 20)  # a byte-order mark alone: no line
@example(b"\xef\xbb\xbf\n", 1 << 20)  # ... with a line end: one empty line
@example(b"a\nb\nc\nd\n\xff\n", 5)  # invalid UTF-8 after a clean block of several lines
@example(b"a\n\xef\xbb\xbfb\n", 2)  # a byte-order mark at the start of a later block is text
def test_corpus_blocks_are_read_like_lines(folder: Path, data: bytes, block: int) -> None:
    """iter_lines gives the same lines, report and first error as the policy read one line at a
    time, wherever the blocks are cut."""
    path = _write(folder / "f.txt", data)
    report, lines, failure = ReadReport(), [], None
    with mock.patch.object(text_io, "BLOCK", block):
        try:
            for line in iter_lines(path, report):
                lines.append(line)
        except CorpusError as error:
            failure = ("invalid UTF-8" if "invalid UTF-8" in str(error) else str(error), error.line)
    expected, expected_failure, expected_report = _lines_by_the_policy(data)
    assert (lines, failure) == (expected, expected_failure)
    if failure is None:
        renamed = {str(path): "f.txt"}
        assert [renamed[name] for name in report.bom_files] == expected_report.bom_files
        assert {renamed[k]: v for k, v in report.crlf_lines.items()} == expected_report.crlf_lines
        assert {renamed[k]: v for k, v in report.inner_cr_lines.items()} == expected_report.inner_cr_lines
        assert {renamed[k]: v for k, v in report.control_lines.items()} == expected_report.control_lines
