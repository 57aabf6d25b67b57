"""Targeted accuracy's judgement (scoring/targeted.py) on a real WMT21 de-en sentence pair, with
its alignment written out by hand, and through ``compute``."""

from __future__ import annotations

import pytest

from auto_challenge_sets.evaluation.memory import check_alignments, check_instances
from auto_challenge_sets.metrics.compute import compute
from auto_challenge_sets.scoring.targeted import (
    CORRECT,
    UNALIGNED,
    WRONG,
    aligned_words,
    parts_match,
    signature,
    targeted_accuracy,
)

from conftest import shared_path

LINE = 269  # "Argentinien lehnt Gegenangebot der Gläubiger ab": the particle verb "lehnt ... ab"
PARTICLE = {"dependent": 6, "head": 2, "distance": 3}  # ab <- lehnt, 1-based word ids
# Argentinien-Argentina lehnt-declines Gegenangebot-counteroffer. Gläubiger-creditors' ab-declines
GOLD = [(0, 0), (1, 1), (2, 3), (4, 2), (5, 1)]


@pytest.fixture(scope="module")
def pair() -> tuple[str, str]:
    wmt21 = shared_path("data", "wmt21")
    source = (wmt21 / "sources" / "newstest2021.de-en.src.de").read_text(encoding="utf-8").split("\n")[LINE - 1]
    reference = (wmt21 / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8").split("\n")[LINE - 1]
    assert source.split()[1] == "lehnt" and source.split()[5] == "ab"
    assert reference == "Argentina declines creditors’ counteroffer."
    return source, reference


def _judge(reference: str, output: str, output_links, reference_links=GOLD, threshold: float = 50.0):
    """The instance's verdict, and whether its dependent was judged with its head."""
    verdicts: list[list[str]] = []
    found = targeted_accuracy([[PARTICLE]], [reference], [output], [reference_links],
                              None if output_links is None else [output_links], threshold, verdict_rows=verdicts)
    return verdicts[0][0], found["absorbed"] == 1


def test_the_reference_as_output_is_correct(pair) -> None:
    _, reference = pair
    assert _judge(reference, reference, GOLD) == (CORRECT, False)


def test_a_swapped_particle_verb_is_wrong(pair) -> None:
    _, reference = pair
    output = "Argentina accepts creditors’ counteroffer."  # "nimmt ... an", not "lehnt ... ab"
    assert _judge(reference, output, GOLD) == (WRONG, False)


def test_an_inflected_verb_matches_through_chrf_and_a_stricter_threshold_refuses_it(pair) -> None:
    _, reference = pair
    output = "Argentina declined creditors’ counteroffer."
    assert _judge(reference, output, GOLD) == (CORRECT, False)
    assert _judge(reference, output, GOLD, threshold=90.0) == (WRONG, False)


def test_a_dropped_head_is_wrong(pair) -> None:
    _, reference = pair
    output = "Argentina creditors’ counteroffer."
    assert _judge(reference, output, [(0, 0), (2, 2), (4, 1)]) == (WRONG, False)


def test_a_head_without_reference_word_is_counted_apart(pair) -> None:
    _, reference = pair
    no_head = [link for link in GOLD if link[0] != 1]
    assert _judge(reference, reference, GOLD, reference_links=no_head) == (UNALIGNED, False)


def test_a_dependent_without_reference_word_is_judged_with_its_head(pair) -> None:
    _, reference = pair
    no_particle = [link for link in GOLD if link[0] != 5]
    assert _judge(reference, reference, no_particle, reference_links=no_particle) == (CORRECT, True)
    # the head alone still decides: a wrong verb is wrong
    assert _judge(reference, "Argentina accepts creditors’ counteroffer.", no_particle,
                  reference_links=no_particle) == (WRONG, True)


def test_words_are_compared_lower_cased_without_end_punctuation() -> None:
    assert aligned_words([(0, 1), (0, 0), (1, 2)], 0, ["«Declines,", "counteroffer.", "x"]) == ["declines", "counteroffer"]
    assert aligned_words([(0, 0)], 0, ["—"]) == []  # a punctuation token is no word
    assert parts_match(["declines"], ["Declines".lower()])
    assert not parts_match([], ["declines"])


def test_accuracy_counts_each_instance_by_exact_distance(pair) -> None:
    _, reference = pair
    far = {"dependent": 6, "head": 1, "distance": 4}  # a second instance, wrong: "Argentina" dropped
    output = "It declines creditors’ counteroffer."
    result = targeted_accuracy([[PARTICLE, far]], [reference], [output], [GOLD], [[(1, 1), (2, 3), (4, 2), (5, 1)]])
    assert (result["instances"], result["correct"], result["wrong"], result["unaligned"]) == (2, 1, 1, 0)
    assert result["accuracy"] == 0.5
    assert [(d["distance"], d["correct"], d["wrong"]) for d in result["by_distance"]] == [(3, 1, 0), (4, 0, 1)]


def test_the_present_match_needs_every_expected_word_in_the_output(pair) -> None:
    _, reference = pair
    assert _judge(reference, "Argentina declines creditors’ counteroffer.", None) == (CORRECT, False)
    assert _judge(reference, "declines, said Argentina", None) == (CORRECT, False)  # anywhere
    assert _judge(reference, "Argentina declined the offer", None) == (CORRECT, False)  # chrF fallback
    assert _judge(reference, "Argentina rejects creditors’ counteroffer.", None) == (WRONG, False)
    result = targeted_accuracy([[PARTICLE]], [reference], ["Argentina rejects it"], [GOLD], None)
    assert result["wrong"] == 1 and result["signature"].startswith("targeted:present|")


def test_compute_adds_targeted_accuracy_from_pharaoh_lines(pair) -> None:
    _, reference = pair
    gold = " ".join(f"{i}-{j}" for i, j in GOLD)
    result = compute([reference, "Argentina accepts creditors’ counteroffer."], [reference, reference],
                     instances=[[PARTICLE], [PARTICLE]], source_alignments=[gold, gold],
                     hypothesis_alignments=[gold, GOLD])
    assert result["targeted"]["accuracy"] == 0.5 and result["targeted"]["instances"] == 2
    assert compute([reference], [reference])["targeted"] is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"instances": [[PARTICLE]]}, r"needs instances and source_alignments \(hypothesis_alignments: optional\); "
     "source_alignments is None"),
    ({"hypothesis_alignments": ["0-0"]}, "instances, source_alignments are None"),
    ({"instances": [[{"head": 0, "dependent": 1, "distance": 0}]], "source_alignments": ["0-0"],
      "hypothesis_alignments": ["0-0"]}, r"instances\[0\]\[0\] must have integer head"),
    ({"instances": [[PARTICLE]], "source_alignments": ["0-x"], "hypothesis_alignments": ["0-0"]},
     r"source_alignments\[0\]: malformed link"),
    ({"instances": [[PARTICLE]], "source_alignments": [None], "hypothesis_alignments": ["0-0"]},
     "built with --aligner none"),
    ({"instances": [[PARTICLE]], "source_alignments": ["0-0"], "hypothesis_alignments": ["0-0", "1-1"]},
     r"hypothesis_alignments must be a list with one alignment per prediction \(1\), got 2"),
    ({"instances": [[PARTICLE]], "source_alignments": ["0-0"], "hypothesis_alignments": ["0-0"],
      "targeted_chrf": 101}, "targeted_chrf must be a number from 0 to 100"),
])
def test_bad_targeted_arguments_are_value_errors_naming_them(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        compute(["a b"], ["a b"], **kwargs)


def test_checks_return_plain_values() -> None:
    assert check_instances([[{"head": 2, "dependent": 1, "distance": 0, "head_form": "x"}]], 1) == [
        [{"head": 2, "dependent": 1, "distance": 0}]]
    assert check_alignments("a", ["1-0 0-1", [(2, 2), [1, 1]]], 2) == [[(0, 1), (1, 0)], [(1, 1), (2, 2)]]


def test_the_aligned_match_reads_the_output_links_and_the_present_match_does_not(pair) -> None:
    """"declines" is in the output but aligned to another source word: wrong by alignment, right by presence."""
    _, reference = pair
    elsewhere = [(0, 0), (1, 3), (2, 1), (4, 2), (5, 3)]  # lehnt/ab -> "counteroffer."
    aligned = targeted_accuracy([[PARTICLE]], [reference], [reference], [GOLD], [elsewhere])
    present = targeted_accuracy([[PARTICLE]], [reference], [reference], [GOLD], None)
    assert (aligned["wrong"], present["correct"]) == (1, 1)
    assert aligned["signature"] == "targeted:aligned|case:lc|punct:strip|match:exact|fallback:chrF>=50|tok:space"
    assert present["signature"] == signature(aligned=False) == "targeted:present|case:lc|punct:strip|match:exact|fallback:chrF>=50|tok:space"
    assert signature(90) == "targeted:aligned|case:lc|punct:strip|match:exact|fallback:chrF>=90|tok:space"


def test_every_count_adds_up(pair) -> None:
    _, reference = pair
    absorbed_links = [link for link in GOLD if link[0] != 5]  # "ab" has no reference word
    lone = {"dependent": 3, "head": 4, "distance": 0}  # "der" has no reference word: unaligned
    rows = [[PARTICLE, PARTICLE, lone], [PARTICLE]]
    result = targeted_accuracy(rows, [reference] * 2, [reference] * 2, [absorbed_links] * 2, None)
    assert {k: result[k] for k in ("instances", "correct", "wrong", "unaligned", "absorbed")} == {
        "instances": 4, "correct": 3, "wrong": 0, "unaligned": 1, "absorbed": 3}
    assert result["by_distance"] == [
        {"distance": 0, "instances": 1, "correct": 0, "wrong": 0, "unaligned": 1, "absorbed": 0, "accuracy": None},
        {"distance": 3, "instances": 3, "correct": 3, "wrong": 0, "unaligned": 0, "absorbed": 3, "accuracy": 1.0}]
    nothing = targeted_accuracy([[lone]], [reference], [reference], [GOLD], None)
    assert nothing["accuracy"] is None and nothing["unaligned"] == 1


def test_the_threshold_is_inclusive_and_passed_through(pair) -> None:
    from sacrebleu.metrics import CHRF

    _, reference = pair
    score = CHRF().sentence_score("declined", ["declines"]).score
    assert parts_match(["declined"], ["declines"], score) and not parts_match(["declined"], ["declines"], score + 1e-9)
    output = "Argentina declined creditors’ counteroffer."
    for links in (GOLD, None):
        assert targeted_accuracy([[PARTICLE]], [reference], [output], [GOLD], [links] if links else None,
                                 chrf_threshold=score)["correct"] == 1
        assert targeted_accuracy([[PARTICLE]], [reference], [output], [GOLD], [links] if links else None,
                                 chrf_threshold=score + 1e-9)["wrong"] == 1
    # several words of a part are joined by a space, as chrF reads text
    joined = CHRF().sentence_score("has read", ["had read"]).score
    assert parts_match(["has", "read"], ["had", "read"], joined)


def test_normalisation_and_links_past_the_tokens() -> None:
    assert aligned_words([(0, 0)], 0, ['"«Declines,»']) == ["declines"]
    assert aligned_words([(0, 0), (0, 5)], 0, ["stops"]) == ["stops"]  # a link past the last token is ignored


def test_rows_and_alignments_must_be_as_many_as_the_predictions(pair) -> None:
    _, reference = pair
    with pytest.raises(ValueError):
        targeted_accuracy([[PARTICLE]], [reference, reference], [reference], [GOLD], None)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: check_instances("x", 1), r"^instances must be a list with one list of instances per prediction \(1\), got str$"),
    (lambda: check_instances([[]], 2), r"^instances must be a list with one list of instances per prediction \(2\), got 1$"),
    (lambda: check_instances(["ab"], 1), r"^instances\[0\] must be a list of instances, got str$"),
    (lambda: check_alignments("a", 5, 1), r"^a must be a list with one alignment per prediction \(1\), got int$"),
    (lambda: check_alignments("a", [[(1,)]], 1), r"^a\[0\] must be a Pharaoh line or a list of \(source, target\) index pairs, got \[\(1,\)\]$"),
    (lambda: check_alignments("a", [[(-1, 0)]], 1), r"^a\[0\] must be a Pharaoh line"),
    (lambda: check_alignments("a", [[("1", 0)]], 1), r"^a\[0\] must be a Pharaoh line"),
    (lambda: check_alignments("a", [7], 1), r"^a\[0\] must be a Pharaoh line"),
])
def test_check_messages(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_an_empty_or_punctuation_target_token_is_dropped() -> None:
    assert aligned_words([(0, 0), (0, 1), (0, 2)], 0, ["", "...", "Haus,"]) == ["haus"]
