"""sacrebleu's approximate randomization from cached statistics (scoring/paired.py): the p-values
of ``sacrebleu.significance.PairedTest`` on the same rows, for every built-in metric, and the
recheck that keeps a vectorized score's rounding out of the counts."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from auto_challenge_sets.scoring.metrics import AveragedMetric, create_metric
from auto_challenge_sets.scoring.paired import (
    approximate_randomization,
    coins,
    sacrebleu_seed,
)

from toy_dataset import corpus


def _systems(rows: slice = slice(0, 60)) -> tuple[dict[str, list[str]], list[str]]:
    c = corpus()
    return {name: lines[rows] for name, lines in c["outputs"].items() if name != "ref"}, c["refs"][rows]


def _sacrebleu(systems: dict[str, list[str]], refs: list[list[str]], objects: dict, trials: int) -> dict:
    _, scores = PairedTest(list(systems.items()), objects, refs, test_type="ar", n_samples=trials)()
    return scores


@pytest.mark.parametrize("two_references", [False, True])
def test_p_values_equal_sacrebleus_paired_test(two_references):
    systems, refs = _systems()
    streams = [refs, [s.lower() for s in refs]] if two_references else [refs]
    per_row = list(zip(*streams))
    metrics = {name: create_metric(name) for name in ("bleu", "chrf", "ter")}
    stats = {s: {m: metric.statistics(hyps, per_row) for m, metric in metrics.items()} for s, hyps in systems.items()}
    names = list(systems)
    ours = {b: per for (_, b), per in approximate_randomization(stats, names, metrics, 300, sacrebleu_seed(), 1).items()}
    theirs = _sacrebleu(systems, streams, {"BLEU": sacrebleu.BLEU(), "chrF2": sacrebleu.CHRF(), "TER": sacrebleu.TER()}, 300)
    for index, system in enumerate(names[1:], start=1):
        for metric, key in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
            delta, p_value = ours[system][metric]
            assert p_value == theirs[key][index].p_value, (system, metric)
            assert delta == theirs[key][index].score - theirs[key][0].score


def test_an_averaged_metric_equals_sacrebleu_through_the_adapter():
    systems, refs = _systems(slice(10, 50))
    ribes = create_metric("ribes")
    per_row = [(r,) for r in refs]
    stats = {s: {"ribes": ribes.statistics(hyps, per_row)} for s, hyps in systems.items()}
    names = list(systems)
    ours = {b: per for (_, b), per in approximate_randomization(stats, names, {"ribes": ribes}, 200, 12345, 1).items()}
    theirs = _sacrebleu(systems, [refs], {"RIBES": ribes.sacrebleu_metric()}, 200)
    for index, system in enumerate(names[1:], start=1):
        assert ours[system]["ribes"][1] == theirs["RIBES"][index].p_value


class _Rounded(AveragedMetric):
    """A mean whose vectorized form rounds differently from its scalar one: the recheck must
    count each trial as the scalar code does."""

    name, label = "rounded", "Rounded"

    def __init__(self, unit: float = 1.0):
        self.unit = unit

    def sentence_scores(self, hypotheses, references, sources=None):
        return np.array([float(len(h.split()) % 3) * self.unit for h in hypotheses])

    def scores_of_totals(self, totals):
        return super().scores_of_totals(totals) * (1 + 1e-14)  # rounding: a tie's larger side grows most

    def signature(self, nrefs):
        return "rounded"


@pytest.mark.parametrize("unit", [1.0, 1e6])  # the window near the real difference grows with the scores
def test_trials_near_the_real_difference_are_scored_by_the_scalar_code(unit):
    """Scores of 0, 1, 2 per sentence over 8 rows: many trials tie the real difference exactly,
    and the noisy vectorized scores alone would count half of those ties as greater."""
    metric = _Rounded(unit)
    base = metric.statistics([f"{'w ' * k}" for k in (1, 2, 3, 4, 5, 6, 7, 8)], [("x",)] * 8)
    other = metric.statistics([f"{'w ' * k}" for k in (2, 2, 3, 3, 5, 5, 7, 7)], [("x",)] * 8)
    (delta, p_value), = approximate_randomization({"b": {"r": base}, "s": {"r": other}}, ["b", "s"], {"r": metric}, 500,
                                                  3)["b", "s"].values()
    swap = coins(8, 500, 3)
    a = np.where(swap, base, other).mean(axis=1)
    b = np.where(swap, other, base).mean(axis=1)
    real = abs(base.mean() - other.mean())
    assert delta == other.mean() - base.mean()
    assert p_value == (np.count_nonzero(np.abs(a - b) > real) + 1) / 501


@pytest.mark.parametrize("value,seed", [(None, 12345), ("7", 7), ("0", None), ("None", None)])
def test_the_seed_is_sacrebleus(monkeypatch, value, seed):
    if value is None:
        monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    else:
        monkeypatch.setenv("SACREBLEU_SEED", value)
    assert sacrebleu_seed() == seed


def test_every_pair_is_sacrebleus_own_test_with_the_first_as_baseline():
    """All N(N − 1)/2 pairs at once: each equals sacrebleu's PairedTest of the two systems, the
    first as baseline, for integer statistics (BLEU, chrF) and float ones (RIBES, TER)."""
    systems, refs = _systems(slice(0, 40))
    per_row = [(r,) for r in refs]
    metrics = {name: create_metric(name) for name in ("bleu", "chrf", "ribes", "ter")}
    stats = {s: {m: metric.statistics(hyps, per_row) for m, metric in metrics.items()} for s, hyps in systems.items()}
    names = list(systems)
    found = approximate_randomization(stats, names, metrics, 200, sacrebleu_seed())
    assert list(found) == [(a, b) for k, a in enumerate(names) for b in names[k + 1:]] and len(found) == 6
    objects = {"BLEU": sacrebleu.BLEU(), "chrF2": sacrebleu.CHRF(), "RIBES": metrics["ribes"].sacrebleu_metric(),
               "TER": metrics["ter"].sacrebleu_metric()}
    for (a, b), per_metric in found.items():
        theirs = _sacrebleu({a: systems[a], b: systems[b]}, [refs], dict(objects), 200)
        for metric, key in zip(metrics, objects):
            assert per_metric[metric][1] == theirs[key][1].p_value, (a, b, metric)
            assert per_metric[metric][0] == pytest.approx(theirs[key][1].score - theirs[key][0].score)
    assert approximate_randomization(stats, names[:1], metrics, 200) == {}


def test_integer_statistics_of_several_systems_are_multiplied_together_and_exactly():
    from auto_challenge_sets.scoring.paired import _swapped_sums

    rng = np.random.default_rng(5)
    swap = coins(30, 50, 7)
    counts = [rng.integers(0, 40, (30, 4)) for _ in range(3)]
    for stats in counts[1:]:
        stats[:, 2] = counts[0][:, 2]  # a column every system shares: the same total on both sides, no product

    def expected(stats):
        found = swap.astype(np.int64) @ stats
        found[:, 2] = 0
        return found.tolist()

    sums = _swapped_sums(lambda dtype: swap.T.astype(dtype), counts)
    assert sums.dtype == np.float32 and all(sums[:, k].T.tolist() == expected(c) for k, c in enumerate(counts))
    large = [c * 2**20 + 1 for c in counts]  # totals beyond float32's integers: still exact
    sums = _swapped_sums(lambda dtype: swap.T.astype(dtype), large)
    assert sums.dtype == np.float64 and all(sums[:, k].T.tolist() == expected(c) for k, c in enumerate(large))
    floats = [rng.random((30, 4)), counts[0]]  # a float side: sums as sacrebleu's up to rounding
    sums = _swapped_sums(lambda dtype: swap.T.astype(dtype), floats)
    assert all(np.allclose(sums[:, k].T, swap @ stats, rtol=1e-14) for k, stats in enumerate(floats))


class _Given(AveragedMetric):
    """Each hypothesis is its own score."""

    name, label = "given", "Given"

    def sentence_scores(self, hypotheses, references, sources=None):
        return np.array([float(h) for h in hypotheses])

    def signature(self, nrefs):
        return "given"


def test_a_trial_a_hair_above_the_real_difference_counts():
    # row differences 1 and -1e-12: a trial that swaps one row only lies 1e-12 above the real difference
    metric = _Given()
    base, other = metric.statistics(["0", "0"], [("x",)] * 2), metric.statistics(["1", "-1e-12"], [("x",)] * 2)
    (_, p_value), = approximate_randomization({"b": {"g": base}, "s": {"g": other}}, ["b", "s"], {"g": metric}, 200,
                                              4)["b", "s"].values()
    swap = coins(2, 200, 4)
    assert p_value == (np.count_nonzero(swap[:, 0] != swap[:, 1]) + 1) / 201 > 0.3


class _Counted(AveragedMetric):
    """Integer statistics whose vectorized score notes the dtype it was given."""

    name, label = "counted", "Counted"
    seen: set = set()

    def sentence_scores(self, hypotheses, references, sources=None):
        return np.array([float(len(h.split())) for h in hypotheses])

    def paired_statistics(self, stats):
        return np.column_stack([stats, np.ones(len(stats))]).astype(np.int64)

    def scores_of_totals(self, totals):
        type(self).seen.add(np.asarray(totals).dtype)
        return super().scores_of_totals(totals)

    def signature(self, nrefs):
        return "counted"


def test_the_trials_reach_a_metrics_vectorized_code_in_float64(monkeypatch):
    # integer statistics are summed in float32 (exact below 2**23); the metric's own code expects float64
    monkeypatch.setattr(_Counted, "seen", set())
    metric = _Counted()
    rows = [metric.statistics([" w" * (k % 5 + s) for k in range(20)], [("x",)] * 20) for s in range(3)]
    approximate_randomization({f"s{k}": {"c": r} for k, r in enumerate(rows)}, ["s0", "s1", "s2"], {"c": metric}, 50, 1)
    assert _Counted.seen == {np.dtype(np.float64)}


def test_the_p_values_do_not_depend_on_how_many_systems_are_scored_at_once(monkeypatch):
    from auto_challenge_sets.scoring import paired

    systems, refs = _systems(slice(0, 30))
    systems.update({f"{name} again": [h.upper() for h in hyps] for name, hyps in systems.items()})
    metrics = {"bleu": create_metric("bleu")}
    stats = {s: {"bleu": metrics["bleu"].statistics(hyps, [(r,) for r in refs])} for s, hyps in systems.items()}
    together = approximate_randomization(stats, list(systems), metrics, 100, 3)
    monkeypatch.setattr(paired, "GROUP_ELEMENTS", 1)  # one system at a time
    assert approximate_randomization(stats, list(systems), metrics, 100, 3) == together and len(together) == 28


def test_two_systems_with_the_same_rows_differ_in_no_trial():
    metric = create_metric("bleu")
    systems, refs = _systems(slice(0, 20))
    stats = metric.statistics(next(iter(systems.values())), [(r,) for r in refs])
    found = approximate_randomization({"a": {"bleu": stats}, "b": {"bleu": stats.copy()}}, ["a", "b"], {"bleu": metric},
                                      100, 1)
    assert found == {("a", "b"): {"bleu": (0.0, 1 / 101)}}


def test_column_sums_past_float32s_integers_are_summed_in_float64_however_small_each_row():
    from auto_challenge_sets.scoring.paired import _swapped_sums

    swap = coins(8000, 4, 2)
    counts = [np.full((8000, 2), 6000, dtype=np.int64), np.zeros((8000, 2), dtype=np.int64)]  # 24e6 > 2**24 a trial
    counts[0][::2] += 1
    sums = _swapped_sums(lambda dtype: swap.T.astype(dtype), counts)
    assert sums[:, 0].T.tolist() == (swap.astype(np.int64) @ counts[0]).tolist()


def test_more_baselines_than_systems_is_every_pair():
    systems, refs = _systems(slice(0, 20))
    metrics = {"chrf": create_metric("chrf")}
    stats = {s: {"chrf": metrics["chrf"].statistics(hyps, [(r,) for r in refs])} for s, hyps in systems.items()}
    every = approximate_randomization(stats, list(systems), metrics, 50, 1)
    assert approximate_randomization(stats, list(systems), metrics, 50, 1, baselines=len(systems) + 3) == every
