"""chrF from per-sentence statistics: every aggregate equals ``sacrebleu.corpus_chrf`` exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.chrf import CHRF

from auto_challenge_sets.scoring.metrics import create_metric

from conftest import shared_path

PAIR = "de-en"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt21() -> dict:
    """Every WMT21 de-en system output, and references A and B."""
    base = shared_path("data", "wmt21")
    files = sorted((base / "system-outputs").glob(f"newstest2021.{PAIR}.hyp.*.en"))
    systems = {f.name.split(".hyp.")[1].rsplit(".", 1)[0]: _lines(f) for f in files}
    refs = {n: _lines(base / "references" / f"newstest2021.{PAIR}.ref.{n}.en") for n in ("A", "B")}
    return {"systems": systems, "A": refs["A"], "B": refs["B"]}


@pytest.mark.parametrize("ref_names", [("A",), ("A", "B")])
def test_every_wmt21_system_equals_corpus_chrf(wmt21: dict, ref_names: tuple[str, ...]):
    systems = wmt21["systems"]
    assert len(systems) == 19
    if len(ref_names) > 1:  # two references on 5 systems, to keep the suite quick
        systems = dict(list(systems.items())[:5])
    refs = [wmt21[n] for n in ref_names]
    scorer = create_metric("chrf")
    rng = np.random.default_rng(len(refs))
    for k, (name, hyp) in enumerate(systems.items()):
        stats = scorer.statistics(hyp, list(zip(*refs)))  # once per system
        assert stats.shape == (1000, 18) and stats.dtype == np.int64
        assert scorer.corpus_score(stats) == sacrebleu.corpus_chrf(hyp, refs).score, name
        if k < 2:  # the very rows sacrebleu sums (best reference per sentence); slow, so two systems
            assert stats.tolist() == CHRF()._extract_corpus_statistics(hyp, refs), name
        rows = np.sort(rng.choice(len(hyp), size=150, replace=False))  # a sub-corpus from the same rows
        sub = sacrebleu.corpus_chrf([hyp[i] for i in rows], [[r[i] for i in rows] for r in refs]).score
        assert scorer.corpus_score(stats[rows]) == sub, name


def test_several_references_pick_the_best_one_per_sentence(wmt21: dict):
    hyp = wmt21["systems"]["Online-B"]
    scorer = create_metric("chrf")
    both = scorer.statistics(hyp, list(zip(wmt21["A"], wmt21["B"])))
    from_a = (both == scorer.statistics(hyp, [[r] for r in wmt21["A"]])).all(axis=1)
    from_b = (both == scorer.statistics(hyp, [[r] for r in wmt21["B"]])).all(axis=1)
    # every row is one of the two single-reference rows, and both kinds occur
    assert (from_a | from_b).all()
    assert (~from_a).any() and (~from_b).any()


def test_sample_scores_equal_corpus_chrf_per_sample(wmt21: dict):
    hyp, ref = wmt21["systems"]["Online-B"], wmt21["A"]
    scorer = create_metric("chrf")
    stats = scorer.statistics(hyp, [[r] for r in ref])
    index = np.random.default_rng(11).integers(0, len(hyp), size=(50, 60))  # with repeats
    scores = scorer.sample_scores(stats, index)
    assert scores.shape == (50,)
    for k, row in enumerate(index):
        assert scores[k] == sacrebleu.corpus_chrf([hyp[i] for i in row], [[ref[i] for i in row]]).score, k


SMALL_HYP = ["The cat sat on the mat.", "", "A dog, barking!", "Zahlen 1,000.5 und 3 % hier", "x", "(hi)"]
SMALL_REF = ["The cat is on the mat.", "Nothing here", "The dog barks!", "Numbers 1,000.5 and 3 %", "", "hi"]


def test_empty_hypothesis_or_reference():
    scorer = create_metric("chrf")
    stats = scorer.statistics(SMALL_HYP, [[r] for r in SMALL_REF])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_chrf(SMALL_HYP, [SMALL_REF]).score
    assert stats[1, 0::3].sum() == 0  # empty hypothesis: no hypothesis n-grams
    assert stats[4, 1::3].sum() == 0  # empty reference: no reference n-grams
    for rows in ([1], [4], [1, 4], [0, 1], [2, 3, 3, 5]):
        sub = sacrebleu.corpus_chrf([SMALL_HYP[i] for i in rows], [[SMALL_REF[i] for i in rows]]).score
        assert scorer.corpus_score(stats[rows]) == sub, rows
    for hyp, ref in zip(SMALL_HYP, SMALL_REF):  # a sentence-level row is sacrebleu's sentence_chrf
        row = scorer.statistics([hyp], [[ref]])
        assert scorer.corpus_score(row) == sacrebleu.sentence_chrf(hyp, [ref]).score


def test_all_empty_scores_zero():
    scorer = create_metric("chrf")
    stats = scorer.statistics(["", ""], [[""], ["c"]])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_chrf(["", ""], [["", "c"]]).score == 0.0


def test_signature_is_sacrebleus():
    metric = CHRF()
    metric.corpus_score(SMALL_HYP, [SMALL_REF, SMALL_REF])
    assert create_metric("chrf").signature(2) == metric.get_signature().format()
    assert "nrefs:var" in create_metric("chrf").signature(-1)
