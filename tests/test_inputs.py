"""The pipeline's pre-computed inputs: a Pharaoh alignment file, a pre-parsed CoNLL-U source."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.errors import AlignmentError, ConlluError
from auto_challenge_sets.pipeline.corpus_inputs import AlignmentFile, PreParsedSource

DEMO = Path(__file__).resolve().parent.parent / "auto_challenge_sets" / "demo_data"


# -- Pharaoh files (AlignmentFile) -----------------------------------------------------------------------------

PAIRS = [(["Das", "Haus", "."], ["The", "house", "."]), (["Ja"], ["Yes", "!"])]


def test_alignment_file_reads_links(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n0-0 0-1\n", encoding="utf-8")
    aligner = AlignmentFile(path)
    assert aligner.align(PAIRS) == [[(0, 0), (1, 1), (2, 2)], [(0, 0), (0, 1)]]


def test_alignment_file_index_out_of_range_names_file_and_line(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n0-0 0-2\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: target index 2 .* has 2 tokens") as caught:
        AlignmentFile(path).align(PAIRS)
    assert caught.value.line == 2 and caught.value.path == str(path)
    path.write_text("0-0 3-1\n0-0\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:1: source index 3"):
        AlignmentFile(path).align(PAIRS)


def test_alignment_file_malformed_link(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0\n0:1\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: malformed link '0:1'"):
        AlignmentFile(path).align(PAIRS)


def test_alignment_file_line_count_must_match(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match="has 1 lines but 2 are expected"):
        AlignmentFile(path).align(PAIRS)


def test_alignment_file_missing_file_fails_when_made(tmp_path):
    with pytest.raises(AlignmentError, match="no such alignment file"):
        AlignmentFile(tmp_path / "none.pharaoh")


def test_alignment_file_with_corpus_line_numbers(tmp_path):
    # the corpus had an empty line 2: the file has 3 lines, the build keeps pairs of lines 1 and 3
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n\n0-1\n", encoding="utf-8")
    aligner = AlignmentFile(path, line_numbers=[1, 3], total_lines=3)
    assert aligner.align(PAIRS) == [[(0, 0), (1, 1), (2, 2)], [(0, 1)]]
    short = AlignmentFile(path, line_numbers=[1, 3], total_lines=4)
    with pytest.raises(AlignmentError, match="has 3 lines but 4 are expected"):
        short.align(PAIRS)


def test_alignment_file_with_line_numbers_and_no_line_count_reads_those_lines(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n\n0-1\n", encoding="utf-8")
    assert AlignmentFile(path, line_numbers=[1, 3]).align(PAIRS) == [[(0, 0), (1, 1), (2, 2)], [(0, 1)]]
    with pytest.raises(AlignmentError, match="has 3 lines: there is no line 4 for its sentence pair"):
        AlignmentFile(path, line_numbers=[1, 4]).align(PAIRS)


def test_alignment_file_describes_itself_by_base_name(tmp_path):
    path = tmp_path / "deep" / "a.pharaoh"
    path.parent.mkdir()
    path.write_text("0-0\n", encoding="utf-8")
    assert AlignmentFile(path).describe() == "pharaoh (path=a.pharaoh)"


# -- a pre-parsed CoNLL-U source (PreParsedSource) ------------------------------------------------------------

def _demo_lines():
    return [line for line in (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() if line.strip()]


def test_pre_parsed_source_serves_one_sentence_per_line():
    parser = PreParsedSource(DEMO / "sample.de.conllu")
    lines = _demo_lines()
    sentences = parser.read(lines)
    assert len(sentences) == len(lines)
    assert parser.provenance()["sha256"]


def test_pre_parsed_source_count_mismatch_names_the_file(tmp_path):
    parser = PreParsedSource(DEMO / "sample.de.conllu")
    with pytest.raises(ConlluError, match=r"sample\.de\.conllu: has \d+ sentences but the input has 2"):
        parser.read(_demo_lines()[:2])


def test_pre_parsed_source_text_mismatch_names_file_line_and_corpus_line(tmp_path):
    text = (DEMO / "sample.de.conllu").read_text(encoding="utf-8")
    blocks = text.strip("\n").split("\n\n")
    path = tmp_path / "swapped.conllu"
    path.write_text("\n\n".join([blocks[0], blocks[2], blocks[1], *blocks[3:]]) + "\n\n", encoding="utf-8")
    start_of_second = text.strip("\n").split("\n\n")[0].count("\n") + 3  # first line of the 2nd block
    lines = _demo_lines()
    with pytest.raises(ConlluError, match="sentence 2 ") as caught:
        PreParsedSource(path).read(lines, line_numbers=list(range(5, 5 + len(lines))))
    message = str(caught.value)
    assert message.startswith(f"{path}:{start_of_second}: sentence 2 ")
    assert "corpus line 6" in message


def test_pre_parsed_source_needs_an_existing_file(tmp_path):
    with pytest.raises(ConlluError, match="no such file"):
        PreParsedSource(tmp_path / "none.conllu").check_ready()


# -- paths that cannot be read -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_an_alignment_path_that_is_no_file_is_an_alignment_error_naming_it(kind, tmp_path):
    path = tmp_path / "a.pharaoh"
    if kind == "folder":
        path.mkdir()
    with pytest.raises(AlignmentError, match="no such alignment file|is a folder, not an alignment file") as caught:
        AlignmentFile(path)
    assert caught.value.path == str(path)
    assert str(caught.value) == f"{path}: " + ("no such alignment file" if kind == "missing"
                                               else "is a folder, not an alignment file")


def test_an_alignment_file_that_goes_away_or_is_not_utf8_is_an_alignment_error(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n0-0\n", encoding="utf-8")
    aligner = AlignmentFile(path)
    path.unlink()
    with pytest.raises(AlignmentError, match=r"a\.pharaoh: cannot read: No such file"):
        aligner.align(PAIRS)
    path.write_bytes(b"0-0\n0-0 \xff\n")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: invalid UTF-8"):
        aligner.align(PAIRS)


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_pre_parsed_path_that_is_no_file_is_a_conllu_error_naming_it(kind, tmp_path):
    path = tmp_path / "parse.conllu"
    if kind == "folder":
        path.mkdir()
    source = PreParsedSource(path)
    for call in (source.check_ready, source.provenance, lambda: source.read(_demo_lines())):
        with pytest.raises(ConlluError, match="no such file|is a folder, not a file") as caught:
            call()
        assert caught.value.path == str(path)
        assert ("no such file" if kind == "missing" else "is a folder, not a file") in str(caught.value)


def test_pre_parsed_forms_must_spell_the_line_too(tmp_path):
    """`# text` matches the line but a FORM was edited: the rows' tokens would not be their source."""
    text = (DEMO / "sample.de.conllu").read_text(encoding="utf-8")
    blocks = text.strip("\n").split("\n\n")
    blocks[4] = blocks[4].replace("\tFernseher\t", "\tFernsehen\t", 1)
    assert "Fernsehen" in blocks[4] and "# text = Er schaltet den alten Fernseher aus ." in blocks[4]
    path = tmp_path / "edited.conllu"
    path.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    start = sum(block.count("\n") + 2 for block in blocks[:4]) + 1
    with pytest.raises(ConlluError, match="does not match corpus line 5") as caught:
        PreParsedSource(path).read(_demo_lines())
    assert caught.value.line == start
    assert str(caught.value).startswith(f"{path}:{start}: sentence 5 (sent_id 5) does not match corpus line 5: ")
    assert "its word forms spell another text than the line: " in str(caught.value)


@pytest.mark.parametrize("char", ["\x00", "\r", "\u2028", "\x85", "\x0b"])
def test_a_control_character_in_an_alignment_line_is_an_error_not_a_space(char, tmp_path):
    """The corpus policy reads these as spaces; "0-0<NUL>1-1" is no pair of links."""
    path = tmp_path / "a.pharaoh"
    path.write_text(f"0-0 1-1 2-2\n0-0{char}0-1\n", encoding="utf-8", newline="")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: a carriage return, line separator or control"):
        AlignmentFile(path).align(PAIRS)
