"""The parser backends behind the registry, and the one-line-one-sentence merge policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.backends import PARSER, available_backends, register_backend, unregister_backend
from auto_challenge_sets.backends.parsers import (
    MERGED_KEY,
    Parser,
    ParserError,
    flat_sentence,
    get_parser,
    merge_sentences,
    stats_from_sentences,
)
from auto_challenge_sets.formats.conllu import format_sentence, parse_conllu

DEMO = Path(__file__).resolve().parent.parent / "auto_challenge_sets" / "demo_data"

TWO = """\
1	Er	er	PRON	_	_	2	nsubj	2:nsubj	_
2	kam	kommen	VERB	_	_	0	root	0:root	_
3	an	an	ADP	_	_	2	compound:prt	_	SpaceAfter=No
4	.	.	PUNCT	_	_	2	punct	_	_

1-2	Zum	_	_	_	_	_	_	_	_
1	Zu	zu	ADP	_	_	3	case	_	_
2	dem	der	DET	_	_	3	det	_	_
3	Glück	Glück	NOUN	_	_	4	obl	_	_
4	ging	gehen	VERB	_	_	0	root	_	_
4.1	ging	gehen	VERB	_	_	_	_	3:conj	_
5	.	.	PUNCT	_	_	4	punct	_	_

"""


def test_builtin_parsers_are_listed_without_importing_them():
    assert {"trankit", "udpipe"} <= set(available_backends(PARSER))


def test_unknown_parser_is_an_error_naming_the_choices():
    with pytest.raises(ParserError, match="unknown parser 'nope'.*trankit.*udpipe"):
        get_parser("nope")


def test_register_and_get_a_parser():
    @register_backend(PARSER, "test-upper")
    class Upper(Parser):
        def __init__(self, lang: str = "en", cache_dir=None):
            self.lang = lang

        def parse(self, lines):
            return [flat_sentence(line.upper().split()) for line in lines]

        def signature(self):
            return {"lang": self.lang}

    try:
        parser = get_parser("test-upper", lang="de")
    finally:
        unregister_backend(PARSER, "test-upper")
    assert parser.name == "test-upper"
    assert parser.cache_key() == {"parser": "test-upper", "lang": "de"}
    (sentence,) = parser.parse(["a b"])
    assert sentence.forms == ["A", "B"]
    assert [w.head for w in sentence.words] == [0, 1]


def test_merge_renumbers_shifts_heads_and_keeps_one_root():
    parts = parse_conllu(TWO)
    merged = merge_sentences(parts)
    assert merged.metadata(MERGED_KEY) == "2"
    assert [w.id for w in merged.words] == list(range(1, 10))
    roots = [w for w in merged.words if w.head == 0]
    assert [r.id for r in roots] == [2]
    # the second sentence's root ("ging", was 4) is now 8, attached to the first root as parataxis
    ging = merged.words[7]
    assert (ging.form, ging.head, ging.deprel) == ("ging", 2, "parataxis")
    assert merged.words[6].head == 8  # Glück -> ging, shifted by 4
    assert merged.words[4].head == 7  # Zu -> Glück
    # multiword token and empty node shifted, enhanced DEPS too
    (mwt,) = merged.multiword_tokens
    assert (mwt.first, mwt.last, mwt.columns[0]) == (5, 6, "5-6")
    (node,) = merged.empty_nodes
    assert node.after == 8 and node.columns[0] == "8.1" and node.columns[8] == "7:conj"
    assert merged.words[1].deps == "0:root" and merged.words[0].deps == "2:nsubj"
    # valid CoNLL-U that reads back the same
    text = format_sentence(merged)
    (again,) = parse_conllu(text)
    assert format_sentence(again) == text


def test_merge_of_one_sentence_is_unmarked():
    (part,) = parse_conllu(TWO.split("\n\n")[0] + "\n\n")
    merged = merge_sentences([part])
    assert merged.metadata(MERGED_KEY) is None
    assert [w.head for w in merged.words] == [w.head for w in part.words]


def test_stats_count_marks():
    a, b = parse_conllu(TWO)
    merged = merge_sentences([a, b])
    stats = stats_from_sentences([a, merged], [10, 12])
    assert stats.merged_lines == [12]
    assert "merged into one tree" in stats.messages()[0]
