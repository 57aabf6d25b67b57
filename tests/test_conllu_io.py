"""CoNLL-U reading and writing: lossless on the shared PUD files, one error type for bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import conllu
import pytest

from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.formats.conllu import format_sentence, parse_conllu, read_conllu
from auto_challenge_sets.pipeline.parse_stage import write_parse

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
    write_parse(sentences, out)
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
    with pytest.raises(ConlluError, match=re.escape(message)) as caught:
        parse_conllu(text, source="bad.conllu")
    assert caught.value.path == "bad.conllu"
    assert caught.value.line == line
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"bad.conllu:{line}: ")


def test_invalid_utf8_in_a_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.conllu"
    path.write_bytes(GOOD.replace("Er\ter", "Ärger\tärger").encode("latin-1"))
    with pytest.raises(ConlluError, match="invalid UTF-8") as caught:
        list(read_conllu(path))
    assert caught.value.line == 3 and "invalid UTF-8" in str(caught.value)
    assert str(path) in str(caught.value)


def test_bom_and_crlf_are_read_as_plain_lf(tmp_path: Path) -> None:
    path = tmp_path / "windows.conllu"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode("utf-8"))
    (sentence,) = read_conllu(path)
    assert sentence.sent_id == "s1"
    assert format_sentence(sentence) == GOOD


def test_a_string_is_read_like_a_file() -> None:
    """parse_conllu takes the text of a file: BOM dropped, CRLF read as LF, errors name '<string>'."""
    assert parse_conllu("\ufeff" + GOOD) == parse_conllu(GOOD) == parse_conllu(GOOD.replace("\n", "\r\n"))
    with pytest.raises(ConlluError, match="^<string>:3: expected 10 tab-separated columns, found 1$"):
        parse_conllu("# a\n# b\nx\n")
    with pytest.raises(ConlluError, match="^<string>:1: sentence has no words$"):
        parse_conllu("# only a comment\n\n")


def test_multiword_token_must_precede_its_first_word() -> None:
    text = "1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_\n2\tdem\tder\tDET\t_\t_\t1\tdet\t_\t_\n"
    (sentence,) = parse_conllu(text)
    assert sentence.surface_forms() == ["zum"] and sentence.forms == ["zu", "dem"]
    assert format_sentence(sentence) == text + "\n"
    with pytest.raises(ConlluError, match="past the last word"):
        parse_conllu("1-3\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_\n")


@pytest.mark.parametrize(
    ("line", "replacement", "message"),
    [
        (3, "\uff11\tEr\ter\tPRON\tPPER\tCase=Nom\t2\tnsubj\t_\t_", "malformed ID '１'"),  # fullwidth 1
        (4, "2\truft\trufen\tVERB\tVVFIN\t_\t\u0660\troot\t_\t_", "HEAD must be a non-negative integer in ASCII"),
        (5, "3\tan\tan\tADP\tPTKVZ\t_\t\u00b2\tcompound:prt\t_\t_", "found '²'"),  # superscript two
        (5, "3-\u0664\tan\t_\t_\t_\t_\t_\t_\t_\t_", "malformed multiword token ID '3-٤'"),
        (5, "2.\u0661\tan\t_\t_\t_\t_\t_\t_\t_\t_", "malformed empty node ID '2.١'"),
        (5, "3\tan\tan\tADP\tPTKVZ\t_\t" + "2" * 30 + "\tcompound:prt\t_\t_", "at most 18"),
        (3, "0\tEr\ter\tPRON\tPPER\tCase=Nom\t2\tnsubj\t_\t_", "word IDs start at 1"),
    ],
)
def test_numbers_are_ascii_digits_only(line: int, replacement: str, message: str) -> None:
    """'²' and '٣' pass str.isdigit(); int('٣') is 3 and int('²') fails: neither is a CoNLL-U number."""
    with pytest.raises(ConlluError, match=re.escape(message)) as caught:
        parse_conllu(_broken(line, replacement), source="bad.conllu")
    assert str(caught.value).startswith(f"bad.conllu:{line}: ") and message in str(caught.value)


@pytest.mark.parametrize("char", ["\x00", "\x0b", "\x0c", "\r", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"])
def test_a_control_character_in_a_column_names_file_and_line(char: str, tmp_path: Path) -> None:
    """Tokenizers read these as line breaks or garbage: a FORM holding one is never a word."""
    text = shared_path("data", "pud", "de_pud-ud-test.conllu").read_text(encoding="utf-8")
    first = text[: text.index("\n\n") + 2]
    lines = first.split("\n")
    third = next(k for k, line in enumerate(lines) if line.startswith("3\t"))
    columns = lines[third].split("\t")
    columns[1] = columns[1][:2] + char + columns[1][2:]
    lines[third] = "\t".join(columns)
    path = tmp_path / "control.conllu"
    path.write_bytes("\n".join(lines).encode("utf-8"))
    with pytest.raises(ConlluError, match="contains the control character") as caught:
        list(read_conllu(path))
    assert caught.value.path == str(path) and caught.value.line == third + 1
    assert f"column 2 contains the control character U+{ord(char):04X}" in str(caught.value)
    assert len(parse_conllu(first)) == 1  # the sentence itself is fine


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_path_that_cannot_be_read_is_a_conllu_error(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "parse.conllu"
    if kind == "folder":
        path.mkdir()
    with pytest.raises(ConlluError, match="cannot read: ") as caught:
        list(read_conllu(path))
    assert caught.value.path == str(path) and str(caught.value).startswith(f"{path}: cannot read: ")
    assert ("No such file" if kind == "missing" else "Is a directory") in str(caught.value)


# -- multiword-token ranges: the UD rules, cross-checked with the conllu package -------------------------

_ZU = "1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_\n"
_DEM = "2\tdem\tder\tDET\t_\t_\t1\tdet\t_\t_\n"
_HAUS = "3\tHaus\tHaus\tNOUN\t_\t_\t1\tnmod\t_\t_\n"


def _range(ids: str, form: str = "zum") -> str:
    return f"{ids}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_\n"


def _ud_range_problem(text: str) -> str | None:
    """What the UD rules say of the conllu package's reading of ``text`` (it reads all of these
    without complaint): a range must span two words or more and come right before its first word."""
    (tokens,) = conllu.parse(text)
    ids = [token["id"] for token in tokens]
    for place, token_id in enumerate(ids):
        if isinstance(token_id, tuple):
            first, _, last = token_id
            if last <= first:
                return "fewer than two words"
            if place + 1 >= len(ids) or ids[place + 1] != first:
                return "not right before its first word"
    return None


@pytest.mark.parametrize(
    ("text", "line", "message", "ud"),
    [
        (_range("1-1", "zu") + _ZU + _DEM, 1, "multiword token range 1-1 spans fewer than two words",
         "fewer than two words"),
        (_ZU + _DEM + _range("1-2"), 3, "multiword token range 1-2 must come right before word 1, found where "
         "word 3 comes next", "not right before its first word"),
        (_ZU + _range("2-3") + _DEM + _range("2-3") + _HAUS, 4, "multiword token range 2-3 must come right before "
         "word 2, found where word 3 comes next", "not right before its first word"),
        (_range("1-2") + _range("1-2") + _ZU + _DEM, 2, "multiword token 1-2 must be followed by word 1",
         "not right before its first word"),
        (_range("1-2") + "0.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n" + _ZU + _DEM, 2, "multiword token 1-2 must be followed "
         "by word 1", "not right before its first word"),
        (_range("1-3") + _ZU + _range("2-3") + _DEM + _HAUS, 3, "multiword token range 2-3 overlaps 1-3", None),
        (_ZU + _range("2-4") + _DEM + _HAUS, 2, "multiword token 2-4 goes past the last word (3)", None),
    ],
)
def test_malformed_multiword_ranges_are_errors_naming_the_line(text: str, line: int, message: str,
                                                              ud: str | None) -> None:
    assert _ud_range_problem(text) == ud
    with pytest.raises(ConlluError, match=re.escape(f"bad.conllu:{line}: {message}")):
        parse_conllu(text, source="bad.conllu")


def test_a_well_placed_range_reads_like_the_conllu_package_and_round_trips() -> None:
    text = (_ZU + _range("2-3") + "2\tzu\tzu\tADP\t_\t_\t4\tcase\t_\t_\n3\tdem\tder\tDET\t_\t_\t4\tdet\t_\t_\n"
            "4\tHaus\tHaus\tNOUN\t_\t_\t1\tnmod\t_\t_\n")
    (expected,) = conllu.parse(text)
    assert [t["id"] for t in expected] == [1, (2, "-", 3), 2, 3, 4] and _ud_range_problem(text) is None
    (sentence,) = parse_conllu(text)
    assert [(m.first, m.last, m.form) for m in sentence.multiword_tokens] == [(2, 3, "zum")]
    assert sentence.forms == [t["form"] for t in expected if isinstance(t["id"], int)]
    assert [w.head for w in sentence.words] == [t["head"] for t in expected if isinstance(t["id"], int)]
    assert sentence.surface_forms() == ["zu", "zum", "Haus"]
    assert format_sentence(sentence) == text + "\n"


_WORD = "1\tzu\tzu\tADP\t_\t_\t0\troot\t_\t_"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("1\tEr\ter\tPRON\t_\t_\t0\troot\t_\t_\n# late\n", "2: comment line inside a sentence (is a blank line missing "
         "before it?)"),
        ("1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n# late\n", "2: comment line inside a sentence (is a blank line missing "
         "before it?)"),
        ("1" * 19 + "\tx\tx\tX\t_\t_\t0\troot\t_\t_\n", "1: a word ID must be a non-negative integer in ASCII digits "
         "(at most 18), found '" + "1" * 19 + "'"),
        ("0\tx\tx\tX\t_\t_\t0\troot\t_\t_\n", "1: word IDs start at 1, found 0"),
        ("1\tx\u0085\tx\tX\t_\t_\t0\troot\t_\t_\n", "1: column 2 contains the control character U+0085 (tokenizers read "
         "it as a line break or garbage)"),
        (_WORD + "\n\n1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n\n", "3: sentence has no words"),
        ("1-2\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n" + _WORD + "\n2-3\tzur\t_\t_\t_\t_\t_\t_\t_\t_\n",
         "3: multiword token range 2-3 overlaps 1-2"),
        ("1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n1.1.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n", "2: malformed empty node ID '1.1.1'"),
        ("1-2-3\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n", "1: malformed multiword token ID '1-2-3'"),
    ],
)
def test_each_error_is_one_whole_message(text: str, error: str) -> None:
    with pytest.raises(ConlluError, match=f"^{re.escape('x.conllu:' + error)}$"):
        parse_conllu(text, source="x.conllu")


def test_the_last_sentence_needs_no_blank_line_after_it() -> None:
    assert [s.forms for s in parse_conllu(GOOD + _WORD)] == [["Er", "ruft", "an", "."], ["zu"]]
    assert parse_conllu(_WORD)[0].forms == ["zu"]


def test_a_missing_file_names_the_reason_only(tmp_path: Path) -> None:
    path = tmp_path / "missing.conllu"
    with pytest.raises(ConlluError, match=f"^{re.escape(str(path))}: cannot read: No such file or directory$"):
        list(read_conllu(path))


def test_a_line_past_the_build_limit_is_an_error_naming_it(tmp_path) -> None:
    """Issue 38 item 7: a 100 MB ``# text`` line is refused a block or two into the file (a shorter
    one costs at most a block of memory; its sentence is checked by the build's text reader)."""
    from auto_challenge_sets.errors import ConlluError
    from auto_challenge_sets.formats.conllu import read_conllu
    from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS
    from auto_challenge_sets.formats.text import BLOCK

    path = tmp_path / "long.conllu"
    word = "1\tHaus\tHaus\tNOUN\t_\t_\t0\troot\t_\t_\n"
    path.write_text("# sent_id = 1\n" + word + "\n# sent_id = 2\n# text = " + "x" * (2 * BLOCK) + "\n" + word,
                    encoding="utf-8")
    with pytest.raises(ConlluError, match=rf"^{path}:5: the line has more than {MAX_CHARACTERS:,} characters"):
        list(read_conllu(path))


def _cut_at_every_sentence(path) -> list[tuple[int, bytes]]:
    """The file cut into pieces of one sentence each where ``sentence_ends`` says they end."""
    from auto_challenge_sets.formats.conllu import sentence_ends

    pieces, held, first = [], b"", 1
    for number, block, ends in sentence_ends(path):
        done = 0
        for end in ends:
            pieces.append((first, held + block[done:end]))
            held, done, first = b"", end, number + block.count(b"\n", 0, end)
        held += block[done:]
    return pieces + [(first, held)]


@pytest.mark.parametrize("variant", ["as is", "crlf", "bom", "bom and blank lines", "three blank lines",
                                     "no blank line at the end", "no line end at the end", "blank lines first",
                                     "crlf from the middle", "blank lines of a cr"])
def test_sentence_ends_cut_a_file_into_sentences_that_parse_alone_as_in_the_whole_file(tmp_path, variant):
    from auto_challenge_sets.demo_data import demo_file
    from auto_challenge_sets.formats.conllu import iter_numbered_sentences, read_conllu_with_lines

    data = demo_file("sample.de.conllu").read_bytes()
    data = {"as is": data, "crlf": data.replace(b"\n", b"\r\n"), "bom": b"\xef\xbb\xbf" + data,
            "bom and blank lines": b"\xef\xbb\xbf\n\n" + data, "three blank lines": data.replace(b"\n\n", b"\n\n\n\n"),
            "no blank line at the end": data.rstrip(b"\n") + b"\n", "no line end at the end": data.rstrip(b"\n"),
            "blank lines first": b"\n\n" + data, "crlf from the middle": data[:3000] + data[3000:].replace(b"\n", b"\r\n"),
            "blank lines of a cr": data.replace(b"\n\n", b"\n\r\n")}[variant]
    path = tmp_path / "f.conllu"
    path.write_bytes(data)
    whole = [(start, format_sentence(s)) for start, s in read_conllu_with_lines(path)]
    pieces = _cut_at_every_sentence(path)
    assert len(pieces) == len(whole) + 1 == 30  # the last piece: what follows the last sentence's end
    alone = [(start, format_sentence(s)) for first, piece in pieces
             for start, s in iter_numbered_sentences(io.BytesIO(piece), str(path), first)]
    assert alone == whole
