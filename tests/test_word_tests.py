"""Word tests (auto_challenge_sets/phenomena/word_tests.py): the search over a block's joined column finds
exactly the words the test passes one by one (fuzzed, tabs and values inside values included);
every built-in rule's word test is passed by every word the rule matches, on the gold PUD
treebanks of the nine PUD languages and the demo sample; and the one pass with word tests, a block of
sentences at a time, finds the same instances as every rule called on every dependent."""

from __future__ import annotations

import dataclasses
from itertools import chain
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_fuzz_readers import FUZZ

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.formats.ud import Sentence, Token
from auto_challenge_sets.phenomena.registry import (
    PHENOMENA,
    Phenomenon,
    find_instances_in_block,
    get_phenomenon,
    iter_instances,
    lexical_phenomena,
    register_phenomenon,
)
from auto_challenge_sets.phenomena.rule_query import parse_rule_query
from auto_challenge_sets.phenomena.word_tests import JoinedColumns, WordTest

from conftest import REPO, shared_path

SAMPLE = REPO / "auto_challenge_sets" / "demo_data" / "sample.de.conllu"


def _treebanks() -> list[Path]:
    return [shared_path("data", "pud", f"{lang}_pud-ud-test.conllu") for lang in ("cs", "de", "en", "es", "fr", "hi", "is", "ru", "zh")]


@pytest.fixture(scope="module")
def pud() -> list[Sentence]:
    return list(chain.from_iterable(read_conllu(path) for path in _treebanks()))


def _without_tests(phenomena: list[Phenomenon]) -> list[Phenomenon]:
    return [dataclasses.replace(phenomenon, word_test=None) for phenomenon in phenomena]


# -- the search on the joined column against the test on each word ----------------------------------------------

_pieces = st.sampled_from(["obl", "obl:tmod", "aux", "aux:pass", "nsubj", "compound:prt", "prt", "Reflex=",
                           "Reflex=Yes", "Case=Acc|Reflex=Yes", "_", "", "\t", "a\tb", "oblobl", "é", "SCONJ"])
_values = st.lists(_pieces, min_size=1, max_size=3).map("".join)


@FUZZ
@given(values=st.lists(_values, max_size=30), operation=st.sampled_from(["equals", "startswith", "contains"]),
       wanted=st.lists(_values.filter(lambda value: value and "\t" not in value), min_size=1, max_size=3))
@example(values=["oblobl", "obl"], operation="contains", wanted=["obl"])  # a value twice in one word
@example(values=["a\tb", "b"], operation="equals", wanted=["b"])  # a tab inside a value: no shifted word
@example(values=["aux:pass", "aux"], operation="startswith", wanted=["aux", "aux:pass"])  # overlapping values
@example(values=["éobl", "obl:tmod"], operation="startswith", wanted=["obl"])  # a value inside, not at the start
def test_indices_are_the_words_that_pass(values: list[str], operation: str, wanted: list[str]) -> None:
    words = [Token(k + 1, "w", deprel=value) for k, value in enumerate(values)]
    test = WordTest("deprel", operation, tuple(wanted))
    assert test.indices(words, JoinedColumns(words)) == [k for k, word in enumerate(words) if test.passes(word)]


def test_passes_by_operation() -> None:
    word = Token(1, "sich", feats="Case=Acc|Reflex=Yes", deprel="obj")
    assert WordTest("deprel", "equals", "obj").passes(word)
    assert not WordTest("deprel", "equals", "ob").passes(word)
    assert WordTest("deprel", "startswith", ("nsubj", "ob")).passes(word)
    assert not WordTest("deprel", "startswith", "bj").passes(word)  # inside, not at the start
    assert WordTest("deprel", "contains", "bj").passes(word)
    assert WordTest("feats", "contains", "Reflex=").passes(word)
    assert not WordTest("feats", "contains", ("Mood=", "Tense=")).passes(word)


@pytest.mark.parametrize(("arguments", "message"), [
    (("head", "equals", "1"), "reads one of form, lemma"),
    (("deprel", "matches", "obl"), "equals, startswith or contains"),
    (("deprel", "equals", ()), "one or more non-empty string values"),
    (("deprel", "equals", (1,)), "one or more non-empty string values"),
    (("deprel", "startswith", ""), "one or more non-empty string values"),  # every word would pass
    (("deprel", "equals", "a\tb"), "no tab or line break"),
    (("deprel", "contains", "a\nb"), "no tab or line break"),
])
def test_a_bad_word_test_is_refused(arguments: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WordTest(*arguments)


# -- the built-in rules' word tests on real sentences ---------------------------------------------------------

@pytest.mark.parametrize("name", lexical_phenomena())
def test_every_word_a_builtin_rule_matches_passes_its_test(name: str, pud: list[Sentence]) -> None:
    phenomenon = get_phenomenon(name)
    assert phenomenon.word_test is not None, "each built-in rule declares its word test"
    matched = passed = 0
    for sentence in [*pud, *read_conllu(SAMPLE)]:
        for word in sentence.words:
            if not word.head:
                continue
            head = sentence.words[word.head - 1]
            passes = phenomenon.word_test.passes(word)
            passed += passes
            if phenomenon.rule(word, head) if phenomenon.takes_head else phenomenon.rule(word):
                matched += 1
                assert passes, f"{name} matches {word} but its word test {phenomenon.word_test} fails it"
    assert matched, f"{name} matches no word of the treebanks: the check above checked nothing"
    words = sum(len(sentence.words) for sentence in pud)
    assert passed < words / 4, f"{name}'s word test passes {passed} of {words} words: it narrows little"


@pytest.mark.parametrize("block", [1, 3, 16, 1000])
def test_blocks_with_word_tests_find_what_every_rule_on_every_word_finds(block: int, pud: list[Sentence]) -> None:
    phenomena = [get_phenomenon(name) for name in lexical_phenomena()]
    plain = _without_tests(phenomena)
    found = [instances for _, instances in iter_instances(pud, phenomena, block)]
    assert found == [find_instances_in_block([sentence], plain)[0] for sentence in pud]
    assert sum(len(f["particle"]) for f in found) > 100  # real instances compared, not empty lists


def test_a_word_with_a_tab_falls_back_to_the_word_by_word_test() -> None:
    # a parser's token could hold a tab; the block's joined deprel column then no longer tells the
    # words apart, and the words are tested one by one
    words = [Token(1, "ab", deprel="nsubj:x\ty", head=2), Token(2, "ging", upos="VERB"),
             Token(3, "weg", deprel="compound:prt", head=2)]
    sentence = Sentence(words=words)
    assert JoinedColumns(words).joined("deprel") is None
    found = find_instances_in_block([sentence], ["particle", "subj_verb"])[0]
    assert [(i.dependent, i.head) for i in found["particle"]] == [(3, 2)]
    assert [(i.dependent, i.head) for i in found["subj_verb"]] == [(1, 2)]


def test_rules_with_and_without_word_tests_in_one_block(pud: list[Sentence]) -> None:
    register_phenomenon("test_any_adp", "every ADP, no word test")(lambda word: word.upos == "ADP")
    try:
        names = ["test_any_adp", "particle", "subj_verb"]
        blocks = find_instances_in_block(pud[:200], names)
        assert list(blocks[0]) == names  # the order asked for
        plain = _without_tests([get_phenomenon(name) for name in names])
        assert blocks == [find_instances_in_block([sentence], plain)[0] for sentence in pud[:200]]
    finally:
        PHENOMENA.pop("test_any_adp", None)


# -- a --rule query's word test ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "expected"), [
    ("name=q deprel=compound:lvc head.upos=VERB", WordTest("deprel", "equals", "compound:lvc")),
    ("name=q head.upos=VERB deprel~obl", WordTest("deprel", "startswith", "obl")),
    ("name=q feats=Reflex=Yes", WordTest("feats", "contains", "Reflex=")),
    ("name=q feats=_", WordTest("feats", "equals", "_")),
    ("name=q head.upos=VERB", None),
])
def test_a_querys_word_test_is_its_first_condition_on_the_word(query: str, expected: WordTest | None) -> None:
    assert parse_rule_query(query).word_test() == expected


@pytest.mark.parametrize("query", ["name=q_lvc deprel~compound head.upos=VERB", "name=q_sein lemma=sein feats=Mood=Ind",
                                   "name=q_refl feats=Reflex=Yes upos=PRON", "name=q_case feats~Case=Acc"])
def test_a_query_finds_the_same_with_its_word_test(query: str, pud: list[Sentence]) -> None:
    parsed = parse_rule_query(query)
    register_phenomenon(parsed.name, parsed.description(), parsed.word_test())(parsed.rule())
    try:
        tested = get_phenomenon(parsed.name)
        found = [instances for _, instances in iter_instances(pud, [tested])]
        assert found == [find_instances_in_block([sentence], _without_tests([tested]))[0] for sentence in pud]
        assert any(f[parsed.name] for f in found)
    finally:
        PHENOMENA.pop(parsed.name, None)
    assert parsed.name not in PHENOMENA
