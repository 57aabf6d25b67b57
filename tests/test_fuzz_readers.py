"""Fuzzing the readers of user files: whatever the input, the only exceptions are the documented
ones (:class:`~auto_challenge_sets.errors.InputError` subclasses naming the file and line,
:class:`~auto_challenge_sets.errors.BadNameError`), and what is accepted round-trips.

Ten tests of ``ACS_FUZZ_EXAMPLES`` examples each (default 100: about 1,000 in all, a few seconds),
derandomized so that CI always runs the same examples. Set ``ACS_FUZZ_EXAMPLES=5000`` for a deeper
run by hand.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auto_challenge_sets.configs import check_split_name, config_name, parse_config_name, parse_pair
from auto_challenge_sets.errors import AlignmentError, BadNameError, ConlluError, CorpusError
from auto_challenge_sets.formats.conllu import (
    format_sentence,
    parse_conllu,
    read_conllu,
    read_conllu_with_lines,
)
from auto_challenge_sets.formats.corpus import INNER_BREAKS, ReadReport, read_lines, read_parallel
from auto_challenge_sets.formats.pharaoh import format_pharaoh, parse_pharaoh
from auto_challenge_sets.formats.ud import EmptyNode, MultiwordToken, Sentence, Token

FUZZ = settings(max_examples=int(os.environ.get("ACS_FUZZ_EXAMPLES", "100")), derandomize=True, deadline=None,
                database=None, suppress_health_check=[HealthCheck.too_slow])

# Hostile characters: Unicode digits that pass str.isdigit(), line separators, controls, a BOM.
_HOSTILE = ["²", "٣", "３", "\u2028", "\u2029", "\x85", "\x00", "\x0b", "\x0c", "\x1c", "\x7f", "\r", "\ufeff", "é"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


# -- CoNLL-U --------------------------------------------------------------------------------------------------

_conllu_lines = st.sampled_from(
    ["\n", "1\tEr\ter\tPRON\t_\t_\t0\troot\t_\t_\n", "2\tx\tx\tX\t_\t_\t1\tdep\t_\t_\n",
     "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n", "1.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n", "0.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n",
     "# sent_id = 1\n", "# text = Er\n"]
)
_conllu_pieces = st.one_of(_conllu_lines, _conllu_lines, st.sampled_from(
    ["\t", "#", " ", "_", "-", ".", "0", "1", "2", "3", "10", "root", "a", *_HOSTILE, "9" * 30, "1" * 5000]))


_field = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=6).filter(
    lambda s: s.strip() == s and s != "")
_comment = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20).map(lambda s: "#" + s)


@st.composite
def _sentences(draw) -> Sentence:
    """A valid sentence: a tree over 1..n, multiword tokens over disjoint ranges, empty nodes."""
    size = draw(st.integers(1, 8))
    words = []
    for index in range(1, size + 1):
        head = draw(st.integers(0, size).filter(lambda h, i=index: h != i))
        words.append(Token(index, draw(_field), draw(_field), draw(_field), draw(_field), draw(_field), head,
                           draw(_field), draw(_field), draw(_field)))
    mwts, first = [], 1
    while first < size:
        last = first + draw(st.integers(0, 2))
        if last > first and last <= size and draw(st.booleans()):
            mwts.append(MultiwordToken(first, last, [f"{first}-{last}", draw(_field)] + ["_"] * 8))
            first = last
        first += 1
    empties = []
    for after in sorted(draw(st.lists(st.integers(0, size), max_size=3))):
        minor = sum(1 for node in empties if node.after == after) + 1
        empties.append(EmptyNode(after, [f"{after}.{minor}", draw(_field)] + ["_"] * 8))
    return Sentence(words=words, comments=draw(st.lists(_comment, max_size=3)), multiword_tokens=mwts,
                    empty_nodes=empties)


@st.composite
def _conllu_texts(draw) -> str:
    """Valid sentences, or lines in any order, with a few hostile pieces inserted anywhere."""
    if draw(st.booleans()):
        text = "".join(map(format_sentence, draw(st.lists(_sentences(), max_size=3))))
    else:
        text = "".join(draw(st.lists(_conllu_lines, max_size=12)))
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(_conllu_pieces) + text[at:]
    return text


def _check_sentences(sentences: list[Sentence]) -> None:
    """What the reader accepted is a sentence of words with a tree, and is written back as read."""
    for sentence in sentences:
        assert sentence.words
        # multiword ranges as UD has them: two words or more, inside the sentence, not overlapping
        spans = [(m.first, m.last) for m in sentence.multiword_tokens]
        assert all(1 <= a < b <= len(sentence.words) for a, b in spans)
        assert all(b < c for (_, b), (c, _) in zip(spans, spans[1:]))
        assert [w.id for w in sentence.words] == list(range(1, len(sentence.words) + 1))
        assert all(0 <= w.head <= len(sentence.words) and w.head != w.id for w in sentence.words)
        assert all(not INNER_BREAKS.search(w.form) and "\r" not in w.form for w in sentence.words)
        again = parse_conllu(format_sentence(sentence))
        assert again == [sentence]
        assert format_sentence(again[0]) == format_sentence(sentence)


@FUZZ
@given(st.one_of(_conllu_texts(), st.lists(_conllu_pieces, max_size=40).map("".join), st.text(max_size=300)))
def test_conllu_text_raises_only_conllu_error(text: str) -> None:
    try:
        sentences = parse_conllu(text, source="fuzz.conllu")
    except ConlluError as error:
        assert error.path == "fuzz.conllu" and (error.line is None or error.line >= 1)
        return
    _check_sentences(sentences)


@FUZZ
@given(st.one_of(st.binary(max_size=300),
                 st.lists(st.one_of(_conllu_pieces.map(str.encode), st.binary(max_size=3)), max_size=30).map(b"".join)))
def test_conllu_bytes_raise_only_conllu_error(folder: Path, data: bytes) -> None:
    path = _write(folder / "fuzz.conllu", data)
    try:
        sentences = list(read_conllu(path))
    except ConlluError as error:
        assert error.path == str(path) and (error.line is None or 1 <= error.line <= data.count(b"\n") + 1)
        assert str(error).startswith(f"{path}:{error.line}: " if error.line else f"{path}: ")
        return
    _check_sentences(sentences)
    assert sum(len(s.words) for s in sentences) <= data.count(b"\t") // 9


@FUZZ
@given(st.lists(_sentences(), min_size=1, max_size=4))
def test_generated_conllu_round_trips(folder: Path, sentences: list[Sentence]) -> None:
    text = "".join(map(format_sentence, sentences))
    assert parse_conllu(text) == sentences
    assert "".join(map(format_sentence, parse_conllu(text))) == text
    path = _write(folder / "generated.conllu", text.encode("utf-8"))
    assert list(read_conllu(path)) == sentences


# -- Pharaoh --------------------------------------------------------------------------------------------------

_pharaoh_pieces = st.one_of(
    st.sampled_from(["0-0 ", "1-2 ", "2-1 ", "12-3 ", "0-19 "]),
    st.sampled_from(["0", "1", "2", "12", "-", "--", " ", "  ", "\t", "?", "p", "1" * 5000, *_HOSTILE]),
)


@FUZZ
@given(st.one_of(st.lists(_pharaoh_pieces, max_size=20).map("".join), st.text(max_size=100)),
       st.one_of(st.none(), st.integers(0, 20)), st.one_of(st.none(), st.integers(0, 20)))
def test_pharaoh_text_raises_only_alignment_error(text: str, n_source: int | None, n_target: int | None) -> None:
    try:
        links = parse_pharaoh(text, n_source=n_source, n_target=n_target, path="fuzz.pharaoh", line=7)
    except AlignmentError as error:
        assert str(error).startswith("fuzz.pharaoh:7: ")
        return
    assert links == sorted(set(links))
    assert all(i >= 0 and j >= 0 for i, j in links)
    assert n_source is None or all(i < n_source for i, _ in links)
    assert n_target is None or all(j < n_target for _, j in links)
    assert parse_pharaoh(format_pharaoh(links)) == links


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 10**18 - 1), st.integers(0, 10**18 - 1)), max_size=30))
def test_generated_pharaoh_round_trips(links: list[tuple[int, int]]) -> None:
    text = format_pharaoh(links)
    assert parse_pharaoh(text) == sorted(set(links))
    assert format_pharaoh(parse_pharaoh(text)) == format_pharaoh(sorted(set(links)))


# -- plain-text corpora ---------------------------------------------------------------------------------------

_corpus_text = st.lists(st.sampled_from(["a", " ", "\n", "\r\n", "Wort ", "\t", *_HOSTILE]), max_size=30).map("".join)
_corpus_bytes = st.one_of(
    _corpus_text.map(str.encode),
    st.lists(st.one_of(_corpus_text.map(str.encode), st.binary(max_size=2)), max_size=4).map(b"".join),
    st.binary(max_size=200),
)


@FUZZ
@given(_corpus_bytes)
def test_read_lines_raises_only_corpus_error_and_leaves_no_line_break_inside(folder: Path, data: bytes) -> None:
    path = _write(folder / "fuzz.txt", data)
    report = ReadReport()
    try:
        lines = read_lines(path, report)
    except CorpusError as error:
        assert error.path == str(path) and error.line is not None and error.line >= 1
        return
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    assert len(lines) == body.count(b"\n") + (0 if not body or body.endswith(b"\n") else 1)
    for line in lines:
        assert "\n" not in line and "\r" not in line and not INNER_BREAKS.search(line)
        assert line.splitlines() in ([line], [])  # what str.splitlines would break, a tokenizer would too
    assert all(isinstance(message, str) for message in report.messages())


@FUZZ
@given(_corpus_bytes, _corpus_bytes)
def test_read_parallel_raises_only_corpus_error(folder: Path, source: bytes, target: bytes) -> None:
    src, tgt = _write(folder / "fuzz.src", source), _write(folder / "fuzz.tgt", target)
    try:
        corpus = read_parallel(src, tgt, "fuzz")
    except CorpusError as error:
        assert error.path in (str(src), str(tgt))
        return
    numbers = [pair.line for pair in corpus.pairs]
    assert numbers == sorted(set(numbers)) and all(1 <= n <= corpus.total_lines for n in numbers)
    assert len(numbers) + len(corpus.report.empty_lines) == corpus.total_lines
    assert all(pair.source.strip() and pair.target.strip() for pair in corpus.pairs)


# -- names ----------------------------------------------------------------------------------------------------

_name_pieces = st.sampled_from(["de", "en", "fr", "zh_Hant", "-", ".", "particle", "reorder", "baseline", "prep_stranding",
                                "d", "0", "3", "10", "_", "x", "\n", " ", "\t", *_HOSTILE])


def _mostly(valid: list[str], invalid: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), st.sampled_from(invalid))


# config names with one part off now and then, so that the accepting paths are fuzzed too
_near_names = st.tuples(
    _mostly(["de-en", "en-de", "zh_Hant-en"], ["de_en", "news2013", "de-", "DE-en"]),
    _mostly([".particle", ".reorder", ".reflexive"], ["", ".baseline", ".x-y", "."]),
    _mostly(["", ".d0", ".d5", ".d10"], [".d", ".d-1", ".d" + "9" * 20]),
    _mostly([""], [*_HOSTILE, "\n", " ", "\t"]),
).map("".join)


def _check_name(name: str) -> None:
    try:
        config = parse_config_name(name)
    except BadNameError:
        pass
    else:
        assert name.isascii() and name.strip() == name and "\n" not in name
        assert parse_config_name(str(config)) == config
        assert str(config) == config_name(config.src, config.tgt, config.phenomenon, config.min_distance)
    try:
        src, tgt = parse_pair(name)
    except BadNameError:
        pass
    else:
        assert f"{src}-{tgt}" == name and name.isascii()
    try:
        assert check_split_name(name) == name
    except BadNameError:
        return
    assert name and all(c.isascii() and (c.isalnum() or c == "_") for c in name)


@FUZZ
@given(st.one_of(st.lists(_name_pieces, max_size=8).map("".join), st.text(max_size=30)), _near_names)
def test_names_raise_only_bad_name_error_and_round_trip(name: str, near_name: str) -> None:
    _check_name(name)
    _check_name(near_name)


# -- the pipeline's pre-computed inputs -----------------------------------------------------------------------

@FUZZ
@given(st.lists(st.one_of(_pharaoh_pieces.map(str.encode), st.just(b"\n"), st.binary(max_size=2)), max_size=20)
       .map(b"".join))
def test_an_alignment_file_raises_only_alignment_error(folder: Path, data: bytes) -> None:
    from auto_challenge_sets.pipeline.corpus_inputs import AlignmentFile

    path = _write(folder / "fuzz.pharaoh", data)
    pairs = [(["a", "b", "c"], ["x", "y"]), (["a"], ["x", "y", "z"])]
    try:
        links = AlignmentFile(path, line_numbers=[1, 3], total_lines=3).align(pairs)
    except AlignmentError as error:
        assert error.path == str(path)
        return
    assert all(i < len(s) and j < len(t) for (s, t), found in zip(pairs, links) for i, j in found)
    for line in data.decode("utf-8").split("\n"):  # garbage is an error, never read as a space
        assert "\r" not in line.removesuffix("\r") and not INNER_BREAKS.search(line)


@FUZZ
@given(st.one_of(st.binary(max_size=200),
                 st.lists(_conllu_pieces.map(str.encode), max_size=30).map(b"".join)))
def test_a_pre_parsed_source_raises_only_conllu_error(folder: Path, data: bytes) -> None:
    from auto_challenge_sets.pipeline.corpus_inputs import PreParsedSource

    path = _write(folder / "pre.conllu", data)
    try:
        numbered = list(read_conllu_with_lines(path))
        sentences, starts = [sentence for _, sentence in numbered], [start for start, _ in numbered]
        PreParsedSource(path).read(["Er"] * len(sentences))
    except ConlluError as error:
        assert error.path == str(path)
        return
    assert len(starts) == len(sentences) and starts == sorted(set(starts))
    _check_sentences(sentences)
