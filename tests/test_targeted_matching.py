"""Targeted accuracy's matching ladder (lemma step, several references, the signature) and its
random-pair control (scoring/targeted.py, scoring/targeted_control.py), on hand-made sentences and
on inflections taken from WMT21 references, checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.formats.target_languages import language_of, lemma_language
from auto_challenge_sets.scoring.targeted import (
    CORRECT,
    UNALIGNED,
    WRONG,
    _similarity,
    part_table,
    parts_match,
    present_words,
    signature,
    targeted_accuracy,
    verdicts,
)
from auto_challenge_sets.scoring.targeted_control import draw_pairs, pair_accuracies, percentile

from conftest import shared_path

# Argentinien lehnt Gegenangebot der Gläubiger ab (WMT21 de-en line 269), aligned by hand
SOURCE = "Argentinien lehnt Gegenangebot der Gläubiger ab".split()
REF_A = "Argentina declines creditors’ counteroffer."
LINKS_A = [(0, 0), (1, 1), (2, 3), (4, 2), (5, 1)]
REF_B = "Argentina rejects the creditors' counter-offer."  # a second translation, hand-made
LINKS_B = [(0, 0), (1, 1), (2, 4), (3, 2), (4, 3), (5, 1)]
PARTICLE = {"head": 2, "dependent": 6, "distance": 3}  # ab <- lehnt


def test_lemmas_match_where_chrf_does_not() -> None:
    assert _similarity("gave up", "give up") < 50  # the chrF fallback refuses it
    assert not parts_match(["gave", "up"], ["give", "up"])
    assert parts_match(["gave", "up"], ["give", "up"], lang="en")
    assert not parts_match(["rejects"], ["declines"], lang="en")  # another verb stays another verb
    assert present_words(["went"], "They went home".split(), lang="en") == ["went"]
    assert present_words(["go"], "They went home".split()) == []
    assert present_words(["go"], "They went home".split(), lang="en") == ["go"]
    assert present_words(["children"], "every child".split(), lang="en") == ["children"]


@pytest.mark.parametrize(("pair", "ref", "other", "line", "expected", "found", "lang"), [
    # de-en, reference A against reference B: "fell onto the track" / "falls to track bed"
    ("de-en", "A.en", "B.en", 29, "fell", "falls", "en"),
    # "proceeded to flee the crime scene" / "initially fled from the scene"
    ("de-en", "A.en", "B.en", 38, "flee", "fled", "en"),
    # en-de, reference A against reference C: "die Masken abnahmen" / "die Maske abgenommen"
    ("en-de", "A.de", "C.de", 5, "abnahmen", "abgenommen", "de"),
    # "aus Indien gekommen war" / "aus Indien kam"
    ("en-de", "A.de", "C.de", 20, "gekommen", "kam", "de"),
])
def test_inflections_of_wmt21_references_match_by_lemma(pair, ref, other, line, expected, found, lang) -> None:
    folder = shared_path("data", "wmt21", "references")
    reference = (folder / f"newstest2021.{pair}.ref.{ref}").read_text(encoding="utf-8").split("\n")[line - 1]
    output = (folder / f"newstest2021.{pair}.ref.{other}").read_text(encoding="utf-8").split("\n")[line - 1]
    words = {token.strip(",.;:") for token in output.split()}
    assert expected in {token.strip(",.;:") for token in reference.split()} and found in words and expected not in words
    assert present_words([expected], output.split()) == []  # neither the words nor chrF >= 50
    assert present_words([expected], output.split(), lang=lang) == [expected]
    assert parts_match([found], [expected], lang=lang) and not parts_match([found], [expected])
    assert lemma_language(language_of(pair)) == lang


def _accuracy(output: str, extra=(), links=None) -> dict:
    return targeted_accuracy([[PARTICLE]], [REF_A], [output], [LINKS_A], links, lang="en",
                             extra_references=extra)


def test_an_instance_is_correct_when_it_matches_any_reference() -> None:
    paraphrase = "Argentina rejects the offer of its creditors."
    assert _accuracy(paraphrase)["wrong"] == 1
    both = _accuracy(paraphrase, [([REF_B], [LINKS_B])])
    assert both["correct"] == 1 and both["signature"].endswith("|refs:2|tok:space")
    assert _accuracy("Argentina accepts it.", [([REF_B], [LINKS_B])])["wrong"] == 1
    assert _accuracy(REF_A, [([REF_B], [LINKS_B])])["correct"] == 1  # the reference itself stays correct


def test_the_first_reference_decides_which_instances_are_judged() -> None:
    """A head without words in reference A stays unaligned, whatever reference B has for it."""
    no_head = [link for link in LINKS_A if link[0] != 1]
    found = targeted_accuracy([[PARTICLE]], [REF_A], [REF_B], [no_head], None, extra_references=[([REF_B], [LINKS_B])])
    assert (found["unaligned"], found["correct"], found["wrong"]) == (1, 0, 0)


def test_verdicts_read_every_reference_of_the_table() -> None:
    refs = [(REF_A.split(), LINKS_A), (REF_B.split(), LINKS_B)]
    table = part_table(refs, None, "Argentina rejects the offer".split(), len(SOURCE), lang="en")
    assert table[:, 1].tolist() == [[True, False], [True, True]]  # lehnt: A expects declines, B rejects
    correct, wrong, absorbed = verdicts(table, np.array([1, 0]), np.array([5, 4]))
    assert correct.tolist() == [True, False] and wrong.tolist() == [False, True]  # creditors is missing
    assert absorbed.tolist() == [False, False]
    assert [CORRECT, WRONG, UNALIGNED] == ["correct", "wrong", "unaligned"]


def test_the_signature_writes_the_ladder_and_the_references() -> None:
    assert signature(50, False, "en", 2) == ("targeted:present|case:lc|punct:strip|match:lemma-simplemma-en|"
                                             "fallback:chrF>=50|refs:2|tok:space")
    assert signature() == "targeted:aligned|case:lc|punct:strip|match:exact|fallback:chrF>=50|tok:space"
    assert lemma_language(language_of("en-xx")) is None  # no simplemma data: no lemma step


def test_random_pairs_are_drawn_at_the_instance_own_distance_seeded() -> None:
    instances = [[PARTICLE, {"head": 5, "dependent": 4, "distance": 0}], [{"head": 1, "dependent": 3, "distance": 1}]]
    lengths = [len(SOURCE), 4]
    pairs = draw_pairs(instances, lengths, 200, np.random.default_rng([1, 3]))
    for row, length, drawn in zip(instances, lengths, pairs):
        assert drawn.shape == (200, len(row), 2)
        for k, instance in enumerate(row):
            heads, deps = drawn[:, k, 0], drawn[:, k, 1]
            assert np.all(np.abs(deps - heads) - 1 == instance["distance"])
            assert np.all(np.sign(deps - heads) == np.sign(instance["dependent"] - instance["head"]))
            assert heads.min() >= 0 and deps.min() >= 0 and max(heads.max(), deps.max()) < length
    # 6 words, 3 between: only (lehnt, ab) and (Argentinien, Gläubiger) fit; the first is the
    # instance itself, never drawn while another place fits
    assert {tuple(p) for p in pairs[0][:, 0]} == {(0, 4)}
    again = draw_pairs(instances, lengths, 200, np.random.default_rng([1, 3]))
    assert all(np.array_equal(a, b) for a, b in zip(pairs, again))
    other = draw_pairs(instances, lengths, 200, np.random.default_rng([2, 3]))
    assert not all(np.array_equal(a, b) for a, b in zip(pairs, other))


def test_random_pairs_are_judged_as_the_instances_are() -> None:
    """"Argentina declines the offer": (lehnt, ab) -> declines is correct; (Argentinien, Gläubiger)
    is wrong, the creditors are gone. Each draw's accuracy is whether it drew the first pair."""
    table = part_table([(REF_A.split(), LINKS_A)], None, "Argentina declines the offer.".split(), len(SOURCE))
    first = np.random.default_rng(7).integers(0, 2, size=50).astype(bool)  # 50 draws of one pair each
    pairs = [np.where(first[:, None, None], [[1, 5]], [[0, 4]])]
    found = pair_accuracies(pairs, [table])
    assert found.tolist() == (pairs[0][:, 0, 0] == 1).astype(float).tolist()
    spread = percentile(found, 1.0)
    assert spread["percentile"] == 100.0 and spread["draws"] == 50 and 0 < spread["mean"] < 1
    assert percentile(found, 0.0)["percentile"] == pytest.approx(100 * np.mean(found == 0))
    assert percentile(np.array([np.nan]), 0.5)["percentile"] is None


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The packaged sample: hand-checked trees and a hand alignment."""
    out = tmp_path_factory.mktemp("sample") / "sets"
    build_demo(out)
    return out


def test_acs_evaluate_writes_the_control_beside_every_accuracy(sample, tmp_path, capsys) -> None:
    out = tmp_path / "report"
    assert main(["evaluate", "--dataset", str(sample), "--pair", "de-en", "--config", "all", "--hyp",
                 str(demo_file("sample.en")), "--targeted", "--targeted-random-pairs", "7", "--n-samples", "3",
                 "--quiet", "--out", str(out)]) == 0
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))  # conftest checks it against the schema
    assert saved["targeted"]["signature"].startswith("targeted:present|case:lc|punct:strip|match:lemma-simplemma-en|")
    assert saved["targeted"]["signature"].endswith("|control:random-pairs:7|seed:1")
    scored = [s["targeted"] for c in saved["configs"].values() for s in c["systems"].values() if s["targeted"]]
    # draws that judged nothing (every drawn head without a reference word) are not counted
    assert scored and all(1 <= t["random_pairs"]["draws"] <= 7 for t in scored if t["accuracy"] is not None)
    assert max(t["random_pairs"]["draws"] for t in scored) == 7
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "percentile among random word pairs" in report
    capsys.readouterr()
    assert main(["evaluate", "--dataset", str(sample), "--pair", "de-en", "--config", "all", "--hyp",
                 str(demo_file("sample.en")), "--targeted-random-pairs", "5"]) == 2
    assert capsys.readouterr().err.strip().endswith("the targeted-accuracy flags need --targeted")
