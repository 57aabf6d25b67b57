"""Target languages: the tokens a build aligns and the judge matches (characters in Chinese and
Japanese), and which target languages the judge lemmatizes (simplemma's list), written into the
signature. Japanese and Ukrainian have no PUD treebank: they are checked here by their tokens and
lemmatizer alone."""

from __future__ import annotations

import pytest

from auto_challenge_sets.formats.pharaoh import parse_pharaoh
from auto_challenge_sets.formats.target_languages import (
    language_of,
    lemma_language,
    match_label,
    target_tokens,
    tokenization,
    tokens_label,
)
from auto_challenge_sets.scoring.targeted import signature, targeted_accuracy

# every target of the issue: the PUD languages and the two without PUD data (ja, uk)
TARGETS = ("cs", "de", "es", "fr", "hi", "is", "ja", "ru", "uk", "zh")
# two forms of one lemma per lemmatized language whose sentence chrF is below 50 (the judge's
# fallback would not match them): a match of the pair is the lemma step's
SAME_LEMMA = {"cs": ("je", "jsem"), "de": ("ging", "gegangen"), "es": ("era", "fue"), "fr": ("était", "est"),
              "hi": ("गया", "जाता"), "is": ("var", "er"), "ru": ("был", "есть"), "uk": ("був", "є")}


def test_chinese_is_one_token_per_han_character_by_sacrebleus_zh_tokenizer() -> None:
    assert target_tokens("我们在2020年收购了它。", "zh") == ["我", "们", "在", "2020", "年", "收", "购", "了", "它", "。"]
    # sacrebleu's zh tokenizer leaves kana runs whole: Japanese splits them too
    assert target_tokens("これはテストです。", "zh") == ["これはテストです", "。"]
    assert target_tokens("これはテストです、Hello world。", "ja") == [
        "こ", "れ", "は", "テ", "ス", "ト", "で", "す", "、", "Hello", "world", "。"]
    # a line already cut into words comes out the same: white space only separates
    assert target_tokens("我们 在 2020 年", "zh") == target_tokens("我们在2020年", "zh")


@pytest.mark.parametrize("language", [t for t in TARGETS if t not in ("zh", "ja")] + [None])
def test_other_targets_are_white_space_tokens(language: str | None) -> None:
    assert target_tokens("  Das  ist,   gut. ", language) == ["Das", "ist,", "gut."]
    assert tokenization(language) == "space" and tokens_label(language) == "tok:space"


def test_which_targets_the_judge_lemmatizes() -> None:
    lemmatized = {t for t in TARGETS if lemma_language(t)}
    assert lemmatized == set(SAME_LEMMA)  # simplemma lists every target but Chinese and Japanese
    assert [match_label(lemma_language(t)) for t in ("cs", "uk", "zh", "ja")] == [
        "match:lemma-simplemma-cs", "match:lemma-simplemma-uk", "match:exact", "match:exact"]
    assert language_of("en-zh") == "zh" and language_of("cs-uk") == "uk"


def _one_instance(reference: str, output: str, alignment: str, lang: str | None, target: str | None) -> dict:
    return targeted_accuracy(instances=[[{"head": 2, "dependent": 1, "distance": 0}]], references=[reference],
                             predictions=[output], source_alignments=[parse_pharaoh(alignment)], hypothesis_alignments=None,
                             lang=lang, target=target)


@pytest.mark.parametrize("language", sorted(SAME_LEMMA))
def test_the_lemma_step_matches_two_forms_that_chrf_does_not(language: str) -> None:
    """Source "ok was", reference "ok <form>" and output "ok <other form>": correct with the
    language's lemmatizer, wrong without it (the forms share no exact token, chrF < 50)."""
    expected, other = SAME_LEMMA[language]
    lang = lemma_language(language)
    found = _one_instance(f"ok {expected}", f"ok {other}", "0-0 1-1", lang, language)
    assert (found["correct"], found["wrong"]) == (1, 0)
    assert found["signature"] == (f"targeted:present|case:lc|punct:strip|match:lemma-simplemma-{language}|"
                                  "fallback:chrF>=50|tok:space")
    exact = _one_instance(f"ok {expected}", f"ok {other}", "0-0 1-1", None, language)
    assert (exact["correct"], exact["wrong"]) == (0, 1) and "|match:exact|" in exact["signature"]


def test_a_chinese_target_is_judged_on_characters_with_an_exact_match() -> None:
    """Source "we acquired it" (head "acquired", dependent "we"); the reference 我们收购了它 has no
    space: its links count characters (0-0 0-1: 我们, 1-2 1-3: 收购). By hand: an output with 收购
    is correct wherever it puts it; one with 买 for 收购 is wrong."""
    reference, links = "我们收购了它。", "0-0 0-1 1-2 1-3 2-5"
    lang = lemma_language("zh")
    assert lang is None
    right = _one_instance(reference, "它被我们收购了。", links, lang, "zh")
    wrong = _one_instance(reference, "我们买了它。", links, lang, "zh")
    assert (right["correct"], right["wrong"], wrong["correct"], wrong["wrong"]) == (1, 0, 0, 1)
    assert right["signature"] == signature(aligned=False, target="zh") == (
        "targeted:present|case:lc|punct:strip|match:exact|fallback:chrF>=50|tok:sacrebleu-zh")
    # on white-space tokens the reference is one token: link 1-2 points past it, nothing is judged
    spaced = _one_instance(reference, "它被我们收购了。", links, lang, None)
    assert spaced["unaligned"] == 1 and spaced["accuracy"] is None


def test_a_japanese_target_is_judged_on_characters_kana_included() -> None:
    """Source "book read" (head "read", dependent "book"): the reference 本を読んだ (0-0: 本,
    1-2 1-3: 読ん); an output
    with 読んだ keeps the head's characters, one with 見た (saw) does not."""
    reference, links = "本を読んだ。", "0-0 1-2 1-3"
    good = _one_instance(reference, "その本を読んだ。", links, lemma_language("ja"), "ja")
    bad = _one_instance(reference, "本を見た。", links, lemma_language("ja"), "ja")
    assert (good["correct"], bad["wrong"]) == (1, 1)
    assert good["signature"].endswith("|match:exact|fallback:chrF>=50|tok:sacrebleu-zh+kana")
