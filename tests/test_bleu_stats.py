"""BLEU from per-sentence statistics: every aggregate equals ``sacrebleu.corpus_bleu`` exactly."""

from __future__ import annotations

import urllib.error
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU

from auto_challenge_sets.scoring.metrics import create_metric
from auto_challenge_sets.scoring.metrics.bleu import BleuStatistics, count_references

from conftest import shared_path

REFS = {"de-en": ("A", "B"), "en-de": ("A", "C", "D")}


@pytest.fixture(scope="module")
def wmt21() -> Path:
    return shared_path("data", "wmt21")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _systems(wmt21: Path, pair: str) -> dict[str, list[str]]:
    tgt = pair.split("-")[1]
    files = sorted((wmt21 / "system-outputs").glob(f"newstest2021.{pair}.hyp.*.{tgt}"))
    return {f.name.split(".hyp.")[1].rsplit(".", 1)[0]: _lines(f) for f in files}


def _refs(wmt21: Path, pair: str, names: tuple[str, ...]) -> list[list[str]]:
    tgt = pair.split("-")[1]
    return [_lines(wmt21 / "references" / f"newstest2021.{pair}.ref.{n}.{tgt}") for n in names]


@pytest.mark.parametrize("pair,n_systems", [("de-en", 19), ("en-de", 20)])
def test_every_wmt21_system_equals_corpus_bleu(wmt21: Path, pair: str, n_systems: int):
    systems = _systems(wmt21, pair)
    assert len(systems) == n_systems
    (ref_a,) = _refs(wmt21, pair, ("A",))
    scorer = create_metric("bleu")
    rng = np.random.default_rng(0)
    for name, hyp in systems.items():
        assert len(hyp) == len(ref_a), name
        stats = scorer.statistics(hyp, [[r] for r in ref_a])  # once per system
        expected = sacrebleu.corpus_bleu(hyp, [ref_a])
        assert scorer.corpus_score(stats) == expected.score, name
        assert stats.sum(axis=0).tolist() == [expected.sys_len, expected.ref_len, *expected.counts,
                                              *expected.totals]
        # A sub-corpus from the same rows, too.
        rows = np.sort(rng.choice(len(hyp), size=150, replace=False))
        sub = sacrebleu.corpus_bleu([hyp[i] for i in rows], [[ref_a[i] for i in rows]]).score
        assert scorer.corpus_score(stats[rows]) == sub, name


@pytest.mark.parametrize("pair", ["de-en", "en-de"])
def test_several_references_equal_corpus_bleu(wmt21: Path, pair: str):
    refs = _refs(wmt21, pair, REFS[pair])
    scorer = create_metric("bleu")
    for name, hyp in list(_systems(wmt21, pair).items())[:3]:
        stats = scorer.statistics(hyp, list(zip(*refs)))
        assert scorer.corpus_score(stats) == sacrebleu.corpus_bleu(hyp, refs).score, name
        # the first two references only (A+B for de-en)
        stats2 = scorer.statistics(hyp, list(zip(*refs[:2])))
        assert scorer.corpus_score(stats2) == sacrebleu.corpus_bleu(hyp, refs[:2]).score, name


def test_sample_scores_equal_corpus_bleu_per_sample(wmt21: Path):
    (ref_a,) = _refs(wmt21, "de-en", ("A",))
    hyp = _systems(wmt21, "de-en")["Online-B"]
    scorer = create_metric("bleu")
    stats = scorer.statistics(hyp, [[r] for r in ref_a])
    index = np.random.default_rng(7).integers(0, len(hyp), size=(40, 60))  # with repeats
    scores = scorer.sample_scores(stats, index)
    for k, row in enumerate(index):
        assert scores[k] == sacrebleu.corpus_bleu([hyp[i] for i in row], [[ref_a[i] for i in row]]).score


SMALL_HYP = ["The cat sat on the mat.", "", "A dog, barking!", "Numbers 1,000.5 and 3 % here", "x"]
SMALL_REF = ["The cat is on the mat.", "Nothing here", "The dog barks!", "Numbers 1,000.5 and 3 %", ""]


@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char"])
def test_tokenizers_equal_corpus_bleu(tokenize: str):
    scorer = create_metric("bleu", tokenize=tokenize)
    stats = scorer.statistics(SMALL_HYP, [[r] for r in SMALL_REF])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_bleu(SMALL_HYP, [SMALL_REF], tokenize=tokenize).score


def test_all_empty_hypotheses_score_zero():
    scorer = create_metric("bleu")
    stats = scorer.statistics(["", ""], [["a b"], ["c"]])
    assert scorer.corpus_score(stats) == sacrebleu.corpus_bleu(["", ""], [["a b", "c"]]).score == 0.0


def test_signature_is_sacrebleus():
    metric = BLEU(tokenize="13a")
    metric.corpus_score(SMALL_HYP, [SMALL_REF, SMALL_REF])
    assert BleuStatistics().signature(2) == metric.get_signature().format()
    assert "nrefs:var" in BleuStatistics().signature(-1)
    assert "tok:intl" in BleuStatistics(tokenize="intl").signature(1)
    assert count_references([["a"], ["b"]]) == 1
    assert count_references([["a"], ["b", "c"]]) == -1


def test_unknown_tokenizer_is_a_value_error():
    with pytest.raises(ValueError, match="tokenize"):
        BleuStatistics(tokenize="no-such")


def test_sample_scores_of_long_corpora_equal_sacrebleu_row_by_row():
    """5 corpora of 133,334 sentences each, every one checked against sacrebleu alone: its
    per-sentence statistics (corpus_bleu of one line), counted by np.bincount and scored by
    BLEU.compute_bleu."""
    scorer = create_metric("bleu")
    stats = scorer.statistics(SMALL_HYP, [[r] for r in SMALL_REF])
    per_line = [sacrebleu.corpus_bleu([h], [[r]]) for h, r in zip(SMALL_HYP, SMALL_REF)]
    sentence_stats = np.array([[b.sys_len, b.ref_len, *b.counts, *b.totals] for b in per_line], dtype=np.int64)
    rng = np.random.default_rng(11)
    index = rng.integers(0, len(SMALL_HYP), size=(5, 133_334))
    index[3] = 0  # one sample of a single sentence repeated: a score unlike its neighbours'
    scores = scorer.sample_scores(stats, index)
    assert scores.shape == (5,)
    for k, row in enumerate(index):
        totals = np.bincount(row, minlength=len(SMALL_HYP)) @ sentence_stats
        expected = BLEU.compute_bleu(correct=totals[2:6].tolist(), total=totals[6:].tolist(),
                                     sys_len=int(totals[0]), ref_len=int(totals[1]), smooth_method="exp")
        assert scores[k] == expected.score, k
    assert len(set(scores.tolist())) == 5
    # and shorter ones, the same numbers
    assert scorer.sample_scores(stats, index[:, :1000]).tolist() == [
        scorer.corpus_score(stats[row]) for row in index[:, :1000]]


def test_tokenizer_that_is_not_a_string_is_a_value_error():
    with pytest.raises(ValueError, match="tokenize"):
        BleuStatistics(tokenize=["13a"])  # unhashable: was a TypeError


@pytest.mark.parametrize("error", [RuntimeError("needs sacrebleu[ja]"), ImportError("no MeCab"),
                                   urllib.error.URLError("offline")])
def test_tokenizer_that_cannot_run_here_is_a_value_error(monkeypatch, error):
    """ja-mecab/ko-mecab raise RuntimeError without their packages; flores* download a model."""

    def unavailable(name):
        def build():
            raise error

        return build

    monkeypatch.setattr(sacrebleu.metrics.bleu, "_get_tokenizer", unavailable)
    with pytest.raises(ValueError, match="tokenize: sacrebleu tokenizer 'flores200' is not available") as caught:
        BleuStatistics(tokenize="flores200")
    assert caught.value.__cause__ is error


def test_extract_is_an_integer_matrix_and_needs_one_reference_list_per_line():
    scorer = create_metric("bleu")
    empty = scorer.statistics([], [])
    assert empty.shape == (0, 10) and empty.dtype == np.int64
    assert scorer.statistics(["a b"], [["a b"]]).dtype == np.int64
    with pytest.raises(ValueError, match=r"^zip\(\) argument 2 is shorter than argument 1$"):
        scorer.statistics(["a", "b"], [["a"]])  # not a silently shorter corpus


def test_more_samples_than_sentences():
    """2,000 samples of 1,000 sentences, each the score of its corpus."""
    scorer = create_metric("bleu")
    stats = scorer.statistics(SMALL_HYP, [[r] for r in SMALL_REF])
    for seed in (3, 4):  # twice: a row left unwritten would show the first call's numbers, or garbage
        index = np.random.default_rng(seed).integers(0, len(SMALL_HYP), size=(2000, 1000))
        scores = scorer.sample_scores(stats, index)
        assert scores.dtype == np.float64 and scores.shape == (2000,)
        assert scores.tolist() == [scorer.corpus_score(stats[row]) for row in index]


@pytest.mark.parametrize(("pool", "width", "chunk_elements"), [(5, 1000, 35), (1000, 3, 210)])
def test_sample_totals_in_chunks_are_each_corpus_sums(pool, width, chunk_elements) -> None:
    """Counted (a pool of 5 rows, corpora of 1,000) or gathered (a pool of 1,000, corpora of 3), 7
    corpora a chunk, the last one short: each corpus's column sums."""
    from auto_challenge_sets.scoring.metrics.base import sample_totals

    rng = np.random.default_rng(pool)
    stats, index = rng.integers(0, 50, (pool, 10)), rng.integers(0, pool, (100, width))
    assert sample_totals(stats, index, chunk_elements).tolist() == stats[index].sum(axis=1).tolist()


def test_sample_totals_keep_the_rows_integer_dtype() -> None:
    """Corpus sums of integer rows stay integers of the rows' dtype (exact past 2**53, where
    float64 sums would round)."""
    from auto_challenge_sets.scoring.metrics.base import sample_totals

    stats = np.array([[2**53, 1], [1, 2]], dtype=np.int64)
    totals = sample_totals(stats, np.array([[0, 1], [1, 1]]))
    assert totals.dtype == np.int64
    assert totals.tolist() == [[2**53 + 1, 3], [2, 4]]
