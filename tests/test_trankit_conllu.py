"""trankit's tagged tokens → CoNLL-U, column by column, on hand-made tokens (no model).

trankit is the default parser, and the columns it fills drive the rules: FEATS (``Reflex=Yes``)
the reflexive rule, DEPREL the particle rule, HEAD every distance. A model with random weights
only checks structure, so the mapping is checked here against tokens whose every field is known.
"""

from __future__ import annotations

import conllu
import pytest

from auto_challenge_sets.backends.parsers import trankit_models
from auto_challenge_sets.backends.parsers.trankit_conllu import to_sentence
from auto_challenge_sets.formats.conllu import format_sentence, parse_conllu
from auto_challenge_sets.phenomena.registry import Instance, find_instances

# "Er zog sich zum Haus zurück." as trankit's tagger returns it: the trankit.utils.conll names
# (id, text, lemma, upos, xpos, feats, head, deprel, dspan, expanded), every value distinct.
TOKENS = [
    {"id": 1, "text": "Er", "lemma": "er", "upos": "PRON", "xpos": "PPER", "feats": "Case=Nom|Person=3",
     "head": 2, "deprel": "nsubj", "dspan": (0, 2)},
    {"id": 2, "text": "zog", "lemma": "ziehen", "upos": "VERB", "xpos": "VVFIN", "feats": "Mood=Ind|Tense=Past",
     "head": 0, "deprel": "ccomp", "dspan": (3, 6)},
    {"id": 3, "text": "sich", "lemma": "er|sich", "upos": "PRON", "xpos": "PRF", "feats": "Case=Acc|Reflex=Yes",
     "head": 2, "deprel": "obj", "dspan": (7, 11)},
    {"id": (4, 5), "text": "zum", "dspan": (12, 15), "expanded": [
        {"id": 4, "text": "zu", "lemma": "zu", "upos": "ADP", "xpos": "APPR", "feats": None, "head": 6,
         "deprel": "case"},
        {"id": 5, "text": "dem", "lemma": "der", "upos": "DET", "xpos": "ART", "feats": "Case=Dat|Definite=Def",
         "head": 6, "deprel": "det"}]},
    {"id": 6, "text": "Haus", "lemma": "Haus", "upos": "NOUN", "xpos": "NN", "feats": "Gender=Neut",
     "head": 2, "deprel": "obl", "dspan": (16, 20)},
    {"id": 7, "text": "zurück", "lemma": "zurück", "upos": "ADP", "xpos": "PTKVZ", "feats": "_",
     "head": 2, "deprel": "compound:prt", "dspan": (21, 27)},
    {"id": 8, "text": ".", "lemma": ".", "upos": "PUNCT", "xpos": "$.", "head": 2, "deprel": "root",
     "dspan": (27, 28)},
]

EXPECTED = """\
1\tEr\ter\tPRON\tPPER\tCase=Nom|Person=3\t2\tnsubj\t_\t_
2\tzog\tziehen\tVERB\tVVFIN\tMood=Ind|Tense=Past\t0\troot\t_\t_
3\tsich\ter|sich\tPRON\tPRF\tCase=Acc|Reflex=Yes\t2\tobj\t_\t_
4-5\tzum\t_\t_\t_\t_\t_\t_\t_\t_
4\tzu\tzu\tADP\tAPPR\t_\t6\tcase\t_\t_
5\tdem\tder\tDET\tART\tCase=Dat|Definite=Def\t6\tdet\t_\t_
6\tHaus\tHaus\tNOUN\tNN\tGender=Neut\t2\tobl\t_\t_
7\tzurück\tzurück\tADP\tPTKVZ\t_\t2\tcompound:prt\t_\tSpaceAfter=No
8\t.\t.\tPUNCT\t$.\t_\t2\tpunct\t_\t_

"""


@pytest.fixture(scope="module", autouse=True)
def _trankit() -> None:
    trankit_models.import_trankit()  # the mapping reads trankit's own field names


def _copy(tokens: list[dict]) -> list[dict]:
    return [{**t, "expanded": [dict(w) for w in t["expanded"]]} if "expanded" in t else dict(t) for t in tokens]


def test_every_column_lands_where_conllu_has_it() -> None:
    tokens = _copy(TOKENS)
    tokens[-1]["deprel"] = "punct"
    text = format_sentence(to_sentence(tokens))
    assert text == EXPECTED
    # the conllu package reads the columns by name: FEATS and XPOS, LEMMA and FORM are not swapped
    (read,) = conllu.parse(text)
    words = [t for t in read if isinstance(t["id"], int)]
    flat = [w for t in TOKENS for w in t.get("expanded", [t])]
    assert [w["form"] for w in words] == [t["text"] for t in flat]
    assert [w["lemma"] for w in words] == [t["lemma"] for t in flat]
    assert [w["upos"] for w in words] == [t["upos"] for t in flat]
    assert [w["xpos"] for w in words] == [t["xpos"] for t in flat]
    assert words[2]["feats"] == {"Case": "Acc", "Reflex": "Yes"} and words[3]["feats"] is None
    assert [w["head"] for w in words] == [t["head"] for t in flat]
    assert [w["deprel"] for w in words][:7] == [t["deprel"] if t["head"] else "root" for t in flat][:7]


def test_the_rules_see_trankits_feats_and_deprels() -> None:
    sentence = to_sentence(_copy(TOKENS))
    assert find_instances(sentence, "reflexive") == [Instance(3, 2, "sich", "zog", 0, 0)]
    assert find_instances(sentence, "particle") == [Instance(7, 2, "zurück", "zog", 4, 1)]  # Haus is the one content word between
    assert parse_conllu(format_sentence(sentence)) == [sentence]


def test_one_root_whatever_trankit_labels() -> None:
    """HEAD 0 is DEPREL root; a 'root' elsewhere becomes 'dep' (UD allows one root)."""
    sentence = to_sentence(_copy(TOKENS))
    assert [(w.head, w.deprel) for w in sentence.words][1] == (0, "root")  # trankit said ccomp
    assert sentence.words[-1].deprel == "dep"  # trankit said root on a word with a head
    assert [w.deprel for w in sentence.words].count("root") == 1


def test_space_after_comes_from_the_character_spans() -> None:
    sentence = to_sentence(_copy(TOKENS))
    assert [w.misc for w in sentence.words] == ["_"] * 6 + ["SpaceAfter=No", "_"]
    # on a multiword token it is the range line's, never its words'
    tokens = _copy(TOKENS)
    tokens[3]["dspan"] = (12, 16)
    sentence = to_sentence(tokens)
    assert sentence.multiword_tokens[0].columns[9] == "SpaceAfter=No"
    assert [w.misc for w in sentence.words[3:5]] == ["_", "_"]
    # no span on either side (pre-tokenized input): nothing is known, a space is assumed
    assert all(w.misc == "_" for w in to_sentence([{k: v for k, v in t.items() if k != "dspan"}
                                                   for t in _copy(TOKENS)]).words)


def test_a_token_without_a_span_or_a_head() -> None:
    """Pre-tokenized words carry no character span; a word trankit left without a head is the root."""
    tokens = _copy(TOKENS)[:3]
    del tokens[1]["dspan"]
    tokens[2]["dspan"] = (5, 9)
    assert [w.misc for w in to_sentence(tokens).words] == ["_", "_", "_"]
    del tokens[1]["head"]
    assert [(w.head, w.deprel) for w in to_sentence(tokens).words][1] == (0, "root")


def test_missing_and_dirty_values_become_valid_columns() -> None:
    tokens = [{"id": 1, "text": "a\tb", "head": None, "deprel": None},
              {"id": 2, "text": "Wort", "acs_form": "Wort" + "x" * 100, "lemma": " ", "upos": "X\n",
               "xpos": None, "feats": "", "head": "1", "deprel": "dep"}]
    (first, second) = to_sentence(tokens).words
    assert first.columns() == ["1", "a b", "_", "_", "_", "_", "0", "root", "_", "_"]
    assert second.columns() == ["2", "Wort" + "x" * 100, "_", "X", "_", "_", "1", "dep", "_", "_"]
    assert parse_conllu(format_sentence(to_sentence(tokens)))[0].forms == ["a b", "Wort" + "x" * 100]
