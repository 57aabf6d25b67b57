"""Per-sentence chrF statistics: every aggregate equals ``sacrebleu.corpus_chrf`` exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.chrf import CHRF

from auto_challenge_sets.scoring import chrf_stats
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics

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


@pytest.mark.parametrize("word_order", [0, 2])  # chrF, chrF++
@pytest.mark.parametrize("ref_names", [("A",), ("A", "B")])
def test_every_wmt21_system_equals_corpus_chrf(wmt21: dict, word_order: int, ref_names: tuple[str, ...]):
    systems = wmt21["systems"]
    assert len(systems) == 19
    # every system with ref A (chrF); the other settings on 5 systems, to keep the suite quick (all 19
    # in all four settings were checked once: 0 mismatches)
    if word_order or len(ref_names) > 1:
        systems = dict(list(systems.items())[:5])
    refs = [wmt21[n] for n in ref_names]
    scorer = ChrfStatistics(word_order=word_order)
    rng = np.random.default_rng(word_order + len(refs))
    for k, (name, hyp) in enumerate(systems.items()):
        assert len(hyp) == len(refs[0]) == 1000, name
        stats = scorer.extract(hyp, list(zip(*refs)))  # once per system
        assert stats.shape == (1000, scorer.width) and stats.dtype == np.int64
        expected = sacrebleu.corpus_chrf(hyp, refs, word_order=word_order)
        assert scorer.corpus_score(stats) == expected.score, name
        if k < 2:  # the very rows sacrebleu sums (best reference per sentence); slow, so two systems
            assert stats.tolist() == CHRF(word_order=word_order)._extract_corpus_statistics(hyp, refs), name
        # a sub-corpus from the same rows, too
        rows = np.sort(rng.choice(len(hyp), size=150, replace=False))
        sub = sacrebleu.corpus_chrf([hyp[i] for i in rows], [[r[i] for i in rows] for r in refs],
                                    word_order=word_order).score
        assert scorer.corpus_score(stats[rows]) == sub, name


def test_several_references_pick_the_best_one_per_sentence(wmt21: dict):
    hyp = wmt21["systems"]["Online-B"]
    scorer = ChrfStatistics()
    both = scorer.extract(hyp, list(zip(wmt21["A"], wmt21["B"])))
    only_a = scorer.extract(hyp, [[r] for r in wmt21["A"]])
    only_b = scorer.extract(hyp, [[r] for r in wmt21["B"]])
    # every row is one of the two single-reference rows, and both kinds occur
    from_a = (both == only_a).all(axis=1)
    from_b = (both == only_b).all(axis=1)
    assert (from_a | from_b).all()
    assert (~from_a).any() and (~from_b).any()


@pytest.mark.parametrize("word_order", [0, 2])
def test_sample_scores_equal_corpus_chrf_per_sample(wmt21: dict, monkeypatch, word_order: int):
    hyp, ref = wmt21["systems"]["Online-B"], wmt21["A"]
    scorer = ChrfStatistics(word_order=word_order)
    stats = scorer.extract(hyp, [[r] for r in ref])
    index = np.random.default_rng(11).integers(0, len(hyp), size=(50, 60))  # with repeats
    gathered = []
    real_sum = np.ndarray.sum
    monkeypatch.setattr(chrf_stats, "CHUNK_ELEMENTS", 7 * 60 * scorer.width)  # 7 samples a chunk
    scores = scorer.sample_scores(_CountingArray.wrap(stats, gathered), index)
    assert len(gathered) == 8  # ceil(50 / 7) chunks
    assert real_sum is np.ndarray.sum
    assert scores.shape == (50,)
    for k, row in enumerate(index):
        expected = sacrebleu.corpus_chrf([hyp[i] for i in row], [[ref[i] for i in row]], word_order=word_order)
        assert scores[k] == expected.score, k


class _CountingArray(np.ndarray):
    """An int64 matrix that records each fancy-index gather (one per chunk of samples)."""

    @classmethod
    def wrap(cls, array: np.ndarray, log: list) -> _CountingArray:
        view = array.view(cls)
        view.log = log
        return view

    def __getitem__(self, item):
        if isinstance(item, np.ndarray) and item.ndim == 2:
            self.log.append(item.shape)
            return np.asarray(self)[item]
        return super().__getitem__(item)


SMALL_HYP = ["The cat sat on the mat.", "", "A dog, barking!", "Zahlen 1,000.5 und 3 % hier", "x", "(hi)"]
SMALL_REF = ["The cat is on the mat.", "Nothing here", "The dog barks!", "Numbers 1,000.5 and 3 %", "", "hi"]


@pytest.mark.parametrize("word_order", [0, 2])
def test_empty_hypothesis_or_reference(word_order: int):
    scorer = ChrfStatistics(word_order=word_order)
    stats = scorer.extract(SMALL_HYP, [[r] for r in SMALL_REF])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_chrf(SMALL_HYP, [SMALL_REF], word_order=word_order).score
    assert stats[1, 0::3].sum() == 0  # empty hypothesis: no hypothesis n-grams
    assert stats[4, 1::3].sum() == 0  # empty reference: no reference n-grams
    for rows in ([1], [4], [1, 4], [0, 1], [2, 3, 3, 5]):
        sub = sacrebleu.corpus_chrf([SMALL_HYP[i] for i in rows], [[SMALL_REF[i] for i in rows]],
                                    word_order=word_order).score
        assert scorer.corpus_score(stats[rows]) == sub, rows
    # a sentence-level row is sacrebleu's sentence_chrf
    for hyp, ref in zip(SMALL_HYP, SMALL_REF):
        row = np.asarray([scorer.segment(hyp, [ref])])
        assert scorer.corpus_score(row) == sacrebleu.sentence_chrf(hyp, [ref], word_order=word_order).score


def test_all_empty_scores_zero():
    scorer = ChrfStatistics()
    stats = scorer.extract(["", ""], [[""], ["c"]])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_chrf(["", ""], [["", "c"]]).score == 0.0


@pytest.mark.parametrize("options", [{"lowercase": True}, {"whitespace": True}, {"eps_smoothing": True},
                                     {"char_order": 4, "beta": 3}, {"word_order": 1}])
def test_other_settings_equal_sacrebleu(options: dict):
    scorer = ChrfStatistics(**options)
    metric = CHRF(**options)
    stats = scorer.extract(SMALL_HYP, [[r, r.upper()] for r in SMALL_REF])
    assert scorer.corpus_score(stats) == metric.corpus_score(SMALL_HYP, [SMALL_REF, [r.upper() for r in SMALL_REF]]).score


def test_preprocess_is_lowercasing_only():
    assert ChrfStatistics().preprocess("A b ,C") == "A b ,C"
    assert ChrfStatistics(lowercase=True).preprocess("A b ,C") == "a b ,c"
    scorer = ChrfStatistics(lowercase=True)
    assert scorer.segment("The Cat", ["the cat"]) == scorer.segment_from_preprocessed("the cat", ["the cat"])


def test_signature_and_name_are_sacrebleus():
    metric = CHRF()
    metric.corpus_score(SMALL_HYP, [SMALL_REF, SMALL_REF])
    assert ChrfStatistics().signature(2) == metric.get_signature().format()
    assert "nrefs:var" in ChrfStatistics().signature(-1)
    assert "nw:2" in ChrfStatistics(word_order=2).signature(1)
    assert ChrfStatistics().name == sacrebleu.corpus_chrf(["a"], [["a"]]).name == "chrF2"
    assert ChrfStatistics(word_order=2).name == sacrebleu.corpus_chrf(["a"], [["a"]], word_order=2).name


def test_bad_arguments_are_value_errors():
    for kwargs in ({"char_order": 0}, {"word_order": -1}, {"beta": True}, {"char_order": 2.0}):
        with pytest.raises(ValueError, match=next(iter(kwargs))):
            ChrfStatistics(**kwargs)
    with pytest.raises(ValueError, match="reference"):
        ChrfStatistics().segment("a", [])
    with pytest.raises(ValueError, match="2-d"):
        ChrfStatistics().sample_scores(np.zeros((1, 18), dtype=np.int64), np.array([0, 0]))
