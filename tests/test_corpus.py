"""Parallel corpus reading: the documented policy for counts, empty lines, CRLF, BOM and UTF-8."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.errors import CorpusError
from auto_challenge_sets.formats.corpus import ReadReport, format_line_numbers, read_lines, read_parallel

from conftest import shared_path


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_reads_newstest2013_line_by_line() -> None:
    corpus = read_parallel(shared_path("data", "newstest2013", "newstest2013.de"),
                           shared_path("data", "newstest2013", "newstest2013.en"), "newstest2013")
    assert corpus.total_lines == len(corpus.pairs) == 3000
    assert corpus.pairs[0].line == 1
    assert corpus.pairs[0].source == "Eine republikanische Strategie , um der Wiederwahl von Obama entgegenzutreten"
    assert corpus.report.messages() == []


def test_line_count_mismatch_names_both_counts(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", b"eins\nzwei\ndrei\n")
    tgt = _write(tmp_path / "a.en", b"one\ntwo\n")
    with pytest.raises(CorpusError, match="the source has 3 lines but the target") as caught:
        read_parallel(src, tgt)
    message = str(caught.value)
    assert "3 lines" in message and "has 2" in message and str(tgt) in message and str(src) in message


def test_empty_lines_are_skipped_counted_and_keep_line_numbers(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", b"eins\n\ndrei\nvier\n  \n")
    tgt = _write(tmp_path / "a.en", b"one\ntwo\nthree\n\nfive\n")
    corpus = read_parallel(src, tgt)
    assert [(p.line, p.source, p.target) for p in corpus.pairs] == [(1, "eins", "one"), (3, "drei", "three")]
    assert corpus.report.empty_lines == [2, 4, 5]
    assert corpus.report.messages() == ["skipped 3 pair(s) with an empty side: line 2, 4, 5"]


def test_crlf_and_bom_are_read_and_reported(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", b"\xef\xbb\xbfeins\r\nzwei\r\n")
    tgt = _write(tmp_path / "a.en", b"one\ntwo")
    corpus = read_parallel(src, tgt)
    assert [(p.source, p.target) for p in corpus.pairs] == [("eins", "one"), ("zwei", "two")]
    assert corpus.report.bom_files == [str(src)]
    assert corpus.report.crlf_lines == {str(src): 2}
    assert len(corpus.report.messages()) == 2


def test_invalid_utf8_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.de", "eins\nzwei\nÄrger\n".encode("latin-1"))
    with pytest.raises(CorpusError, match="invalid UTF-8") as caught:
        read_lines(path)
    assert str(caught.value).startswith(f"{path}:3: invalid UTF-8")


def test_missing_file_is_a_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="cannot read"):
        read_lines(tmp_path / "missing.de")


def test_a_carriage_return_inside_a_line_is_read_as_a_space_and_reported(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", b"Das ist gut.\nEr kommt\ran.\n")
    tgt = _write(tmp_path / "a.en", b"That is good.\nHe arrives.\n")
    corpus = read_parallel(src, tgt)
    assert corpus.pairs[1].source == "Er kommt an."
    assert corpus.report.inner_cr_lines == {str(src): [2]}
    assert f"{src}: read carriage returns inside 1 line(s) as spaces: line 2" in corpus.report.messages()
    assert corpus.source_lines == [1, 2]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x00", "\x0b", "\x0c", "\x1b", "\x7f", "\x9b"])
def test_line_separators_and_control_characters_are_read_as_spaces_and_reported(char: str, tmp_path: Path) -> None:
    """Tokenizers and parsers take these for line breaks or garbage: never passed on silently."""
    folder = shared_path("data", "newstest2013")
    de = (folder / "newstest2013.de").read_text(encoding="utf-8").splitlines()[:5]
    en = (folder / "newstest2013.en").read_text(encoding="utf-8").splitlines()[:5]
    de[1] = de[1].replace(" , ", f" ,{char}", 1)  # "... der Notwendigkeit ,<char>den Wahlbetrug ..."
    de[3] = char + de[3]
    src = _write(tmp_path / "a.de", "".join(x + "\n" for x in de).encode("utf-8"))
    tgt = _write(tmp_path / "a.en", "".join(x + "\n" for x in en).encode("utf-8"))
    corpus = read_parallel(src, tgt)
    assert [p.line for p in corpus.pairs] == [1, 2, 3, 4, 5]
    assert corpus.pairs[1].source == de[1].replace(char, " ") and "Notwendigkeit , den" in corpus.pairs[1].source
    assert corpus.pairs[3].source.split() == de[3].replace(char, "").split()
    assert corpus.report.control_lines == {str(src): [2, 4]}
    code = f"U+{ord(char):04X}"
    assert corpus.report.messages() == [
        f"{src}: read line separators or control characters ({code}) inside 2 line(s) as spaces: line 2, 4"]


def test_several_control_characters_and_carriage_returns_are_reported_per_file(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", "eins\u2028zwei\nd\x00rei\rvier\n".encode())
    tgt = _write(tmp_path / "a.en", "one\x85two\nthree four\n".encode())
    corpus = read_parallel(src, tgt)
    assert [(p.source, p.target) for p in corpus.pairs] == [("eins zwei", "one two"), ("d rei vier", "three four")]
    assert corpus.report.messages() == [
        f"{src}: read carriage returns inside 1 line(s) as spaces: line 2",
        f"{src}: read line separators or control characters (U+0000, U+2028) inside 2 line(s) as spaces: line 1, 2",
        f"{tgt}: read line separators or control characters (U+0085) inside 1 line(s) as spaces: line 1",
    ]


def test_a_tab_stays_text(tmp_path: Path) -> None:
    src = _write(tmp_path / "a.de", b"eins\tzwei\n")
    report = ReadReport()
    assert read_lines(src, report) == ["eins\tzwei"] and report.messages() == []


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_path_that_cannot_be_read_is_a_corpus_error_naming_it(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "corpus.de"
    if kind == "folder":
        path.mkdir()
    with pytest.raises(CorpusError, match="cannot read: ") as caught:
        read_parallel(path, tmp_path / "other.en")
    assert caught.value.path == str(path) and str(caught.value).startswith(f"{path}: cannot read: ")


def test_line_numbers_are_listed_up_to_ten_then_counted() -> None:
    assert format_line_numbers([]) == ""
    assert format_line_numbers([3, 8, 9]) == "3, 8, 9"
    assert format_line_numbers(list(range(1, 11))) == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
    assert format_line_numbers(list(range(1, 12))) == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (11 in all)"
    assert format_line_numbers([4, 5, 6], shown=2) == "4, 5, … (3 in all)"


def test_the_corpus_keeps_its_name_and_paths(tmp_path: Path) -> None:
    (tmp_path / "s.de").write_text("a\n", encoding="utf-8")
    (tmp_path / "t.en").write_text("b\n", encoding="utf-8")
    corpus = read_parallel(tmp_path / "s.de", tmp_path / "t.en")
    assert corpus.name == "corpus"
    assert (corpus.source_path, corpus.target_path) == (str(tmp_path / "s.de"), str(tmp_path / "t.en"))
    assert read_parallel(tmp_path / "s.de", tmp_path / "t.en", "newstest").name == "newstest"


STREAM_CASES = {
    "plain": (b"a\nb\nc\n", b"x\ny\nz\n"),
    "no final newline": (b"a\nb", b"x\ny"),
    "bom, crlf, inner cr": (b"\xef\xbb\xbfa\r\nb\rc\r\n", b"x\r\ny\r\n"),
    "controls and separators": ("a\u2028b\nc\x0bd\n".encode(), "x\ny\u0085z\n".encode()),
    "empty sides": (b"a\n\n  \nd\ne\n", b"x\ny\nz\n\nw\n"),
    "bom only": (b"\xef\xbb\xbf", b""),
    "bom and a newline": (b"\xef\xbb\xbf\n", b"x\n"),
    "bom, one line, no newline": (b"\xef\xbb\xbfa", b"x"),
    "a lone newline": (b"\n", b"x\n"),
    "empty files": (b"", b""),
}


@pytest.mark.parametrize("case", sorted(STREAM_CASES))
def test_the_stream_reads_what_read_parallel_reads(tmp_path: Path, case: str) -> None:
    from auto_challenge_sets.formats.corpus import stream_parallel

    source, target = STREAM_CASES[case]
    (tmp_path / "s").write_bytes(source)
    (tmp_path / "t").write_bytes(target)
    whole = read_parallel(tmp_path / "s", tmp_path / "t", "c")
    stream = stream_parallel(tmp_path / "s", tmp_path / "t", "c")
    assert list(stream.pairs) == whole.pairs and list(stream.pairs) == whole.pairs  # re-iterable
    assert len(stream.pairs) == len(whole.pairs) and bool(stream.pairs) == bool(whole.pairs)
    assert (stream.total_lines, list(stream.source_lines), stream.report) == (
        whole.total_lines, whole.source_lines, whole.report)
    assert (stream.name, stream.source_path, stream.target_path) == ("c", str(tmp_path / "s"), str(tmp_path / "t"))
    assert stream_parallel(tmp_path / "s", tmp_path / "t").name == read_parallel(tmp_path / "s", tmp_path / "t").name == "corpus"


@pytest.mark.parametrize(("source", "target", "message"), [
    (b"a\nb\nc\n", b"x\n", "the source has 3 lines but the target .* has 1"),
    (b"a\n", b"x\ny\nz\n", "the source has 1 lines but the target .* has 3"),
    (b"", b"x\n", "the source has 0 lines but the target .* has 1"),
    (b"a\n\xff\n", b"x\ny\n", r":2: invalid UTF-8 \(byte 1 of the line\)"),
])
def test_the_stream_refuses_what_read_parallel_refuses(tmp_path: Path, source: bytes, target: bytes,
                                                       message: str) -> None:
    from auto_challenge_sets.formats.corpus import stream_parallel

    (tmp_path / "s").write_bytes(source)
    (tmp_path / "t").write_bytes(target)
    for reader in (read_parallel, stream_parallel):
        with pytest.raises(CorpusError, match=message) as caught:
            reader(tmp_path / "s", tmp_path / "t")
        assert caught.value.path in (str(tmp_path / "s"), str(tmp_path / "t"))
    with pytest.raises(CorpusError, match="cannot read"):
        stream_parallel(tmp_path, tmp_path / "t")


def test_a_read_that_fails_midway_names_the_file() -> None:
    """/proc/self/mem opens but cannot be read (EIO): the error of a failed read, not of a failed open."""
    with pytest.raises(CorpusError) as caught:
        read_lines("/proc/self/mem")
    assert caught.value.path == "/proc/self/mem" and caught.value.reason.startswith("cannot read: ")
    assert "Input/output error" in caught.value.reason


def test_the_streamed_line_numbers_are_signed_64_bit(tmp_path: Path) -> None:
    """The compact array of non-empty source lines holds signed integers: numpy reads it as int64,
    so arithmetic on the line numbers stays what it is on ints (unsigned, 1 - 2 would wrap)."""
    import numpy as np

    from auto_challenge_sets.formats.corpus import stream_parallel

    (tmp_path / "s").write_text("a\n\nb\n", encoding="utf-8")
    (tmp_path / "t").write_text("x\ny\nz\n", encoding="utf-8")
    lines = stream_parallel(tmp_path / "s", tmp_path / "t").source_lines
    assert list(lines) == [1, 3] and lines.typecode == "q"
    assert (np.asarray(lines) - 2).tolist() == [-1, 1]


def _pair(tmp_path: Path, source: list[str], target: list[str]) -> tuple[Path, Path]:
    src, tgt = tmp_path / "c.de", tmp_path / "c.en"
    src.write_text("".join(line + "\n" for line in source), encoding="utf-8")
    tgt.write_text("".join(line + "\n" for line in target), encoding="utf-8")
    return src, tgt


@pytest.mark.parametrize("side", ["source", "target"])
def test_a_line_longer_than_the_metric_scores_is_an_error_naming_its_file_and_line(tmp_path: Path,
                                                                                   side: str) -> None:
    """Issue 38 item 7: the build's line limit is the metric's (scoring.line_limit), so no set is
    built that acs evaluate then refuses."""
    from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS

    long = "x" * (MAX_CHARACTERS + 1)
    lines, other = ["ein Satz", long, "noch einer"], ["a sentence", "fine", "another"]
    src, tgt = _pair(tmp_path, *((lines, other) if side == "source" else (other, lines)))
    with pytest.raises(CorpusError) as raised:
        read_parallel(src, tgt)
    where = src if side == "source" else tgt
    assert str(raised.value) == (f"{where}:2: the line has more than {MAX_CHARACTERS:,} characters, the longest a "
                                 "build reads or the metric scores (a file pasted as one line?)")
    # exactly at the limit is read
    src, tgt = _pair(tmp_path, ["a " + "x" * (MAX_CHARACTERS - 2)], ["b"])
    assert len(read_parallel(src, tgt).pairs) == 1


def test_a_line_of_too_many_tokens_is_an_error_naming_it(tmp_path: Path) -> None:
    from auto_challenge_sets.formats.line_limit import MAX_TOKENS

    src, tgt = _pair(tmp_path, ["ein Satz", "w " * (MAX_TOKENS + 1)], ["a sentence", "b"])
    with pytest.raises(CorpusError, match=rf"^{src}:2: the line has {MAX_TOKENS + 1:,} tokens, above the limit"):
        read_parallel(src, tgt)
    src, tgt = _pair(tmp_path, ["w " * MAX_TOKENS], ["b"])
    assert len(read_parallel(src, tgt).pairs) == 1


def test_a_huge_one_line_file_is_refused_without_being_read_whole(tmp_path: Path) -> None:
    """A 100 MB line made the build hold it, and UDPipe parse it, for minutes: the reader stops
    once a line is past the limit (4 bytes a character), a block or two into the file."""
    import io

    from auto_challenge_sets.formats.corpus import _handle_lines
    from auto_challenge_sets.formats.text import BLOCK

    class CountingReader(io.BytesIO):
        read_bytes = 0

        def read(self, size: int = -1) -> bytes:
            chunk = super().read(size)
            CountingReader.read_bytes += len(chunk)
            return chunk

    handle = CountingReader(b"first line\n" + b"y" * (20 * BLOCK))
    with pytest.raises(CorpusError, match=r"^big:2: the line has more than 1,000 characters"):
        list(_handle_lines(handle, "big", None, CorpusError, max_chars=1000))
    assert CountingReader.read_bytes <= 2 * BLOCK
