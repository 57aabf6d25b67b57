"""The scoring kernel (scoring/kernel.py): the draws are numpy's stream [seed, *stream]; a set's scores
are sacrebleu's over its rows and its random corpora's; a metric's NaN is named."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.finite import MetricFailure
from auto_challenge_sets.scoring.length_baseline import sample_length_matched, summarize
from auto_challenge_sets.scoring.metrics import AveragedMetric, create_metric

import toy_dataset
from conftest import shared_path

HYP = ["the cat sat on the mat", "he gave the plan up", "a b c d", "Das Haus ist rot", "x y z", "one two"]
REF = ["the cat is on the mat", "he gave up the plan", "a b c e", "das Haus ist blau", "x z y", "one two"]
LENGTHS = np.array([6, 5, 4, 4, 3, 2])


def _metrics(*names: str) -> dict:
    return {name: create_metric(name) for name in names}


def _statistics(metrics: dict) -> dict:
    return {name: metric.statistics(HYP, [(r,) for r in REF]) for name, metric in metrics.items()}


def _one_system(metrics: dict, hyps: list, references: list, jobs: int) -> dict:
    (rows,) = kernel.systems_statistics(metrics, [("Online-B", hyps, references)], None, jobs)
    return rows


def _parallel_equals_serial(monkeypatch, hyps: list, references: list) -> None:
    metrics = _metrics("bleu", "chrf", "ribes", "ter")
    one = _one_system(metrics, hyps, references, 1)
    monkeypatch.setattr(kernel, "PARALLEL_ROWS", 100)  # 301 rows: three workers, uneven chunks
    many = _one_system(metrics, hyps, references, 3)
    assert list(many) == list(metrics)
    for name in metrics:
        assert np.array_equal(one[name], many[name]), name
    monkeypatch.setattr(kernel, "BLOCK_ROWS", 64)  # one process, five blocks of rows
    for name, rows in _one_system(metrics, hyps, references, 1).items():
        assert np.array_equal(one[name], rows), name


def test_rows_in_parallel_equal_rows_in_one_process(monkeypatch):
    toy = toy_dataset.corpus()  # the toy's 90 lines four times over, a second reference in upper case
    refs = (toy["refs"] * 4)[:301]
    _parallel_equals_serial(monkeypatch, (toy["outputs"]["good"] * 4)[:301], [(r, r.upper()) for r in refs])


class _Blocks(AveragedMetric):
    """Each hypothesis's number, and the blocks it was handed, with their sources."""

    name, label = "blocks", "Blocks"
    seen: list = []

    def sentence_scores(self, hypotheses, references, sources=None):
        type(self).seen.append((len(hypotheses), sources == [f"source {h}" for h in hypotheses]))
        return np.array([float(h) for h in hypotheses])

    def signature(self, nrefs):
        return "blocks"


@pytest.mark.parametrize(("block_rows", "blocks"), [(64, [60, 60, 60, 60, 61]), (200, [150, 151]), (301, [301])])
def test_a_system_of_parallel_rows_is_cut_into_blocks_of_at_most_block_rows(monkeypatch, block_rows, blocks):
    # PARALLEL_ROWS rows exactly (one job: the blocks run in this process, where they can be seen)
    monkeypatch.setattr(kernel, "PARALLEL_ROWS", 301)
    monkeypatch.setattr(kernel, "BLOCK_ROWS", block_rows)
    monkeypatch.setattr(_Blocks, "seen", [])
    hyps = [str(k) for k in range(301)]
    (rows,) = kernel.systems_statistics({"b": _Blocks()}, [("s", hyps, [("r",)] * 301)], [f"source {h}" for h in hyps], 1)
    assert _Blocks.seen == [(n, True) for n in blocks] and rows["b"].tolist() == list(range(301))


@pytest.mark.shared
def test_rows_of_a_wmt21_system_in_parallel_equal_rows_in_one_process(monkeypatch):
    wmt = shared_path("data", "wmt21")
    hyps = (wmt / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en").read_text(encoding="utf-8").splitlines()
    refs_a = (wmt / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8").splitlines()
    refs_b = (wmt / "references" / "newstest2021.de-en.ref.B.en").read_text(encoding="utf-8").splitlines()
    _parallel_equals_serial(monkeypatch, hyps[:301], list(zip(refs_a, refs_b))[:301])


def test_draw_is_the_seeded_stream_and_counts_the_pool():
    exclude = np.array([True, False, False, False, True, False])
    corpora = kernel.draw(np.array([4, 3]), LENGTHS, exclude, 7, 1, 5, (1, 2))
    expected = sample_length_matched([4, 3], LENGTHS, 7, 1, exclude, np.random.default_rng([5, 1, 2]))
    assert np.array_equal(corpora.index, expected.index) and corpora.pool_size == 4
    assert corpora.widened == expected.widened and corpora.max_tolerance == expected.max_tolerance
    assert not np.isin(corpora.index, [0, 4]).any()
    assert np.array_equal(kernel.draw(np.array([4, 3]), LENGTHS, exclude, 7, 1, 5).index,
                          sample_length_matched([4, 3], LENGTHS, 7, 1, exclude, np.random.default_rng([5, 0])).index)


def test_a_sets_scores_are_sacrebleus_on_its_rows_and_its_random_corpora():
    metrics = _metrics("bleu", "ter")
    pool = _statistics(metrics)
    rows = [1, 3]
    exclude = np.isin(np.arange(6), rows)
    corpora = kernel.draw(LENGTHS[rows], LENGTHS, exclude, 9, 1, 2)
    scored = kernel.score_rows(metrics, {n: s[rows] for n, s in pool.items()}, pool, corpora, "A", "config c.d1")
    for name, corpus in (("bleu", sacrebleu.corpus_bleu), ("ter", sacrebleu.corpus_ter)):
        assert scored[name].score == corpus([HYP[i] for i in rows], [[REF[i] for i in rows]]).score
        drawn = [corpus([HYP[i] for i in row], [[REF[i] for i in row]]).score for row in corpora.index]
        assert scored[name].samples.tolist() == pytest.approx(drawn)
        higher = metrics[name].higher_is_better
        assert scored[name].spread(higher) == summarize(scored[name].samples, scored[name].score, higher)
    alone = kernel.score_rows(metrics, {n: s[rows] for n, s in pool.items()}, pool, None, "A", "config c.d1")
    assert alone["bleu"].samples is None and alone["bleu"].spread(True) is None


class _Nan(AveragedMetric):
    name, label = "nanny", "NaN"

    def sentence_scores(self, hypotheses, references, sources=None):
        return [float("nan")] * len(hypotheses)

    def signature(self, nrefs: int) -> str:
        return "nan"


def test_a_non_finite_score_names_the_metric_system_and_set():
    metrics = {"nanny": _Nan()}
    pool = _statistics(metrics)
    with pytest.raises(MetricFailure, match=r"^metric nanny scored system A nan on config c\.d1: "):
        kernel.score_rows(metrics, pool, pool, None, "A", "config c.d1")
