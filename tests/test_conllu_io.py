"""CoNLL-U reading and writing: lossless on the shared PUD files, one error type for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auto_challenge_sets.conllu_io import format_sentence, parse_conllu, read_conllu, write_conllu
from auto_challenge_sets.errors import ConlluError

from conftest import shared_path

GOOD = """# sent_id = s1
# text = Er ruft an.
1\tEr\ter\tPRON\tPPER\tCase=Nom\t2\tnsubj\t_\t_
2\truft\trufen\tVERB\tVVFIN\t_\t0\troot\t_\t_
3\tan\tan\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t$.\t_\t2\tpunct\t_\t_

"""


@pytest.mark.parametrize("name", ["de_pud-ud-test.conllu", "en_pud-ud-test.conllu"])
def test_round_trip_is_lossless_on_pud(name: str, tmp_path: Path) -> None:
    path = shared_path("data", "pud", name)
    sentences = list(read_conllu(path))
    assert len(sentences) == 1000
    out = tmp_path / name
    assert write_conllu(sentences, out) == 1000
    assert out.read_bytes() == path.read_bytes()


def test_multiword_tokens_and_empty_nodes_are_kept_but_are_not_words() -> None:
    german = list(read_conllu(shared_path("data", "pud", "de_pud-ud-test.conllu")))
    english = list(read_conllu(shared_path("data", "pud", "en_pud-ud-test.conllu")))
    assert sum(len(s.multiword_tokens) for s in german) == 331
    assert sum(len(s.empty_nodes) for s in english) == 7
    for sentence in german + english:
        assert [w.id for w in sentence.words] == list(range(1, len(sentence.words) + 1))
    # "Osborne meldete sich bei einer amerikanischen Redneragentur an, nachdem er im Juli gefeuert wurde."
    osborne = next(s for s in german if s.sent_id == "n01013005")
    assert "im" in osborne.surface_forms() and "im" not in osborne.forms
    assert osborne.forms[11:13] == ["in", "dem"]
    empty = next(s for s in english if s.empty_nodes)
    assert all("." not in str(w.id) for w in empty.words)


def test_metadata() -> None:
    (sentence,) = parse_conllu(GOOD)
    assert sentence.sent_id == "s1" and sentence.text == "Er ruft an."
    assert sentence.forms == ["Er", "ruft", "an", "."]
    sentence.set_metadata("sent_id", "7")
    assert sentence.sent_id == "7"
    assert format_sentence(sentence).startswith("# sent_id = 7\n# text = Er ruft an.\n1\tEr")


def _broken(line_number: int, replacement: str) -> str:
    lines = GOOD.split("\n")
    lines[line_number - 1] = replacement
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_broken(4, "2\truft\trufen\tVERB\tVVFIN\t_\t0\troot\t_"), 4, "expected 10 tab-separated columns, found 9"),
        (_broken(4, "2\truft\trufen\tVERB\tVVFIN\t_\tx\troot\t_\t_"), 4, "HEAD must be a non-negative integer"),
        (_broken(4, "2\truft\trufen\tVERB\tVVFIN\t_\t-1\troot\t_\t_"), 4, "HEAD must be a non-negative integer"),
        (_broken(5, "3\tan\tan\tADP\tPTKVZ\t_\t9\tcompound:prt\t_\t_"), 5, "HEAD 9 of word 3 is out of range"),
        (_broken(5, "2\tan\tan\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\t_"), 5, "duplicate word ID 2"),
        (_broken(5, "5\tan\tan\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\t_"), 5, "non-consecutive word ID 5"),
        (_broken(5, "3\tan\tan\tADP\tPTKVZ\t_\t3\tcompound:prt\t_\t_"), 5, "its own head"),
        (_broken(5, "3\tan\t\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\t_"), 5, "column 3 is empty"),
        (_broken(5, "x\tan\tan\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\t_"), 5, "malformed ID"),
        (_broken(5, "3-2\tan\t_\t_\t_\t_\t_\t_\t_\t_"), 5, "multiword token range"),
        (_broken(5, "7.1\tan\t_\t_\t_\t_\t_\t_\t_\t_"), 5, "empty node 7.1 must follow word 7"),
        (_broken(5, "# late comment"), 5, "comment line inside a sentence"),
    ],
)
def test_malformed_input_names_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ConlluError) as caught:
        parse_conllu(text, source="bad.conllu")
    assert caught.value.path == "bad.conllu"
    assert caught.value.line == line
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"bad.conllu:{line}: ")


def test_invalid_utf8_in_a_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.conllu"
    path.write_bytes(GOOD.replace("Er\ter", "Ärger\tärger").encode("latin-1"))
    with pytest.raises(ConlluError) as caught:
        list(read_conllu(path))
    assert caught.value.line == 3 and "invalid UTF-8" in str(caught.value)
    assert str(path) in str(caught.value)


def test_bom_and_crlf_are_read_as_plain_lf(tmp_path: Path) -> None:
    path = tmp_path / "windows.conllu"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode("utf-8"))
    (sentence,) = read_conllu(path)
    assert sentence.sent_id == "s1"
    assert format_sentence(sentence) == GOOD


def test_multiword_token_must_precede_its_first_word() -> None:
    text = "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_\n2\tdem\tder\tDET\t_\t_\t1\tdet\t_\t_\n"
    (sentence,) = parse_conllu(text)
    assert sentence.surface_forms() == ["zum"] and sentence.forms == ["zu", "dem"]
    assert format_sentence(sentence) == text + "\n"
    with pytest.raises(ConlluError, match="past the last word"):
        parse_conllu("1-3\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_\n")


# Fuzzing: whatever the text, the reader raises ConlluError or returns sentences; never another error.
_pieces = st.sampled_from(
    ["\t", "\n", "\n\n", "#", " ", "_", "-", ".", "0", "1", "2", "3", "10", "root", "a", "\r", "\ufeff",
     "1\tEr\ter\tPRON\t_\t_\t0\troot\t_\t_\n", "2\tx\tx\tX\t_\t_\t1\tdep\t_\t_\n", "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n",
     "1.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n", "# sent_id = 1\n"]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_pieces, max_size=40).map("".join))
def test_fuzzed_text_raises_only_conllu_error(text: str) -> None:
    try:
        sentences = parse_conllu(text)
    except ConlluError:
        return
    for sentence in sentences:
        assert sentence.words
        assert all(0 <= w.head <= len(sentence.words) for w in sentence.words)
        # What was accepted is written back and read again to the same sentences.
        assert parse_conllu(format_sentence(sentence))[0] == sentence


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzzed_bytes_raise_only_conllu_error(data: bytes) -> None:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".conllu") as handle:
        handle.write(data)
        handle.flush()
        try:
            list(read_conllu(handle.name))
        except ConlluError:
            pass
