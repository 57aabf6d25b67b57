"""Agreement with humans pooled over runs (each run its own human scores, systems compared only
within their run): pairwise accuracy and pair-weighted Kendall τ, their bootstrap intervals and
permutation p, and their difference to a reference measure with its PERM-BOTH p (Deutsch et al.
2021). The method: docs/method.md, "Agreement with humans: against full-test BLEU, and pooled over runs".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from auto_challenge_sets.evaluation.stats import SEED, STREAMS
from auto_challenge_sets.evaluation.stats.human import (
    BOOTSTRAP,
    PERMUTATIONS,
    finite,
    interval,
    pair_signs,
    tau_b,
    tau_from_counts,
    three_distinct,
)
from auto_challenge_sets.workers import one_blas_thread


@dataclass(frozen=True)
class RunScores:
    """One run's systems, in one order: a measure's scores (higher is better) and the human scores."""

    measure: np.ndarray
    human: np.ndarray


@dataclass(frozen=True)
class Estimate:
    """A pooled statistic, its 95% bootstrap interval and its p-value (None where undefined)."""

    value: float | None
    ci: tuple[float, float] | None
    p_value: float | None


@dataclass(frozen=True)
class Agreement:
    """A measure's pooled pairwise accuracy and Kendall τ, and their differences to the reference."""

    systems: tuple[int, ...]  # per run
    accuracy: Estimate
    kendall: Estimate
    accuracy_difference: Estimate | None = None  # measure − reference
    kendall_difference: Estimate | None = None


def _pooled(measures: Sequence[np.ndarray], humans: Sequence[np.ndarray],
            valid: Sequence[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pooled pairwise accuracy and pair-weighted τ-b of each row from each run's
    :func:`.human.pair_signs` (rows x pairs; one row on a side stands for every row of the other);
    ``valid``: per run, rows x pairs, the pairs that count for accuracy (all when None)."""
    parts = []
    for k, (sx, sy) in enumerate(zip(measures, humans)):
        same = sx == sy
        counted, total = (same, same.shape[1]) if valid is None else (same & valid[k], valid[k].sum(axis=1))
        parts.append((counted.sum(axis=1), total, tau_b(sx, sy), sx.shape[1]))
    return _pooled_parts(parts)


def _pooled_parts(parts: Sequence[tuple[np.ndarray, np.ndarray | int, np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Pooled accuracy and τ from each run's (agreeing pairs, counted pairs, τ-b, system pairs) per row."""
    agree = total = tau_sum = weight = 0.0
    for run_agree, run_total, tau, run_pairs in parts:
        agree, total = agree + run_agree, total + run_total
        tau_sum = tau_sum + run_pairs * tau  # NaN (a constant side) stays NaN
        weight += run_pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(agree / total, dtype=np.float64), np.asarray(tau_sum / weight, dtype=np.float64)


def pooled(runs: Sequence[RunScores]) -> tuple[float, float]:
    """The pooled pairwise accuracy and τ (NaN when a run's measure or human scores are constant)."""
    accuracy, kendall = _pooled([pair_signs(r.measure) for r in runs], [pair_signs(r.human) for r in runs])
    return float(accuracy[0]), float(kendall[0])


def chance(runs: Sequence[RunScores]) -> float:
    """The exact pairwise accuracy expected when the human scores are permuted within each run: a
    pair the measure ties agrees only where humans tie, any other half as often as humans do not."""
    expected = total = 0.0
    for run in runs:
        sx, sy = pair_signs(run.measure)[0], pair_signs(run.human)[0]
        human_ties = float(np.mean(sy == 0)) if len(sy) else 0.0
        expected += np.sum(np.where(sx == 0, human_ties, (1 - human_ties) / 2))
        total += len(sx)
    return float(expected / total)


@cache
def _resamples(sizes: tuple[int, ...], seed: int, resamples: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per run of ``sizes`` systems, the bootstrap resamples with at least 3 distinct systems in
    every run, and their pairs of two distinct systems (drawn once per sizes and seed)."""
    rng = np.random.default_rng([seed, STREAMS["meta_bootstrap"]])
    picks = [rng.integers(0, n, (resamples, n)) for n in sizes]
    keep = np.logical_and.reduce([three_distinct(pick) for pick in picks])
    picks = [pick[keep] for pick in picks]
    return picks, [pick[:, i] != pick[:, j] for pick in picks for i, j in [np.triu_indices(pick.shape[1], 1)]]


def _resampled(runs: Sequence[RunScores], seed: int, resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """The pooled accuracy and τ of each bootstrap resample with at least 3 distinct systems in every run."""
    picks, valid = _resamples(tuple(len(r.human) for r in runs), seed, resamples)
    return _pooled([pair_signs(r.measure[pick]) for r, pick in zip(runs, picks)],
                   [pair_signs(r.human[pick]) for r, pick in zip(runs, picks)], valid)


def _two_sided(null: np.ndarray, observed: float, centre: float, exact: bool = False) -> float | None:
    null = null[np.isfinite(null)]
    if not np.isfinite(observed) or not len(null):
        return None
    # a resampled statistic equal to the observed one, but for rounding, counts as at least as extreme
    extreme = int(np.count_nonzero(np.abs(null - centre) >= abs(observed - centre) - 1e-12))
    # the permutations drawn at random are a sample: the observed order counts as one of them
    return extreme / len(null) if exact else (1 + extreme) / (len(null) + 1)


def agreement(runs: Sequence[RunScores], reference: Sequence[RunScores] | None = None, seed: int = SEED,
              resamples: int = BOOTSTRAP, permutations: int = PERMUTATIONS) -> Agreement:
    """A measure's pooled pairwise accuracy and τ with intervals and permutation p, and with
    ``reference`` (the same systems in the same order) the differences measure − reference."""
    accuracy, kendall = pooled(runs)
    boot_accuracy, boot_kendall = _resampled(runs, seed, resamples)
    rng = np.random.default_rng([seed, STREAMS["meta_permutations"]])
    shuffled = [pair_signs(rng.permuted(np.broadcast_to(r.human, (permutations, len(r.human))), axis=1)) for r in runs]
    null_accuracy, null_kendall = _pooled([pair_signs(r.measure) for r in runs], shuffled)
    differences = (None, None) if reference is None else difference(runs, reference, seed, resamples, permutations)
    return Agreement(
        tuple(len(r.human) for r in runs),
        Estimate(finite(accuracy), interval(boot_accuracy), _two_sided(null_accuracy, accuracy, chance(runs))),
        Estimate(finite(kendall), interval(boot_kendall), _two_sided(null_kendall, kendall, 0.0)),
        *differences)


def difference(runs: Sequence[RunScores], reference: Sequence[RunScores], seed: int = SEED,
               resamples: int = BOOTSTRAP, permutations: int = PERMUTATIONS) -> tuple[Estimate, Estimate]:
    """Pooled pairwise accuracy and τ of the measure minus the reference's on the same systems and
    human scores, each with its paired bootstrap interval and swap-permutation p."""
    observed = [pooled(side) for side in (runs, reference)]
    mine, theirs = _resampled(runs, seed, resamples), _resampled(reference, seed, resamples)
    null, exact = _swapped(runs, reference, seed, permutations)
    deltas = [observed[0][k] - observed[1][k] for k in (0, 1)]  # accuracy, τ
    accuracy, kendall = (Estimate(finite(delta), interval(mine[k] - theirs[k]), _two_sided(null[k], delta, 0.0, exact))
                         for k, delta in enumerate(deltas))
    return accuracy, kendall


@cache
def swap_masks(total: int, seed: int = SEED, permutations: int = PERMUTATIONS) -> tuple[np.ndarray, bool]:
    """Rows x ``total`` systems, True where a system's two measures swap: every one of the 2^total
    rows when there are at most ``permutations`` + 1 (exact), else ``permutations`` random rows
    (drawn once per number of systems and seed)."""
    if 2 ** total <= permutations + 1:
        return (np.arange(2 ** total)[:, None] >> np.arange(total) & 1).astype(bool), True
    return np.random.default_rng([seed, STREAMS["meta_swaps"]]).random((permutations, total)) < 0.5, False


def _swapped(runs: Sequence[RunScores], reference: Sequence[RunScores], seed: int,
             permutations: int) -> tuple[tuple[np.ndarray, np.ndarray], bool]:
    """The null of (measure − reference) accuracy and τ under rank swaps, and whether it is every swap."""
    from scipy.stats import rankdata

    masks, exact = swap_masks(sum(len(r.human) for r in runs), seed, permutations)
    mine, theirs = [], []
    start = 0
    for run, other in zip(runs, reference):
        n = len(run.human)
        mask = masks[:, start:start + n]
        start += n
        i, j = np.triu_indices(n, 1)
        ranks = np.stack([rankdata(run.measure), rankdata(other.measure)])  # 0: the measure's, 1: the reference's
        # a pair's sign takes one of four values, as each side of the pair swapped or not (row w = 2 u + v:
        # rank u of system i against rank v of system j); the reference's side is both swaps reversed (3 − w)
        table = np.stack([np.sign(ranks[u, i] - ranks[v, j]) for u in (0, 1) for v in (0, 1)]).astype(np.int64)
        human = pair_signs(run.human)[0]
        sides = np.stack([table, table[::-1]], axis=-1)  # 4 x pairs x (measure, reference)
        values = np.concatenate([sides * human[:, None], sides == 0, sides == human[:, None]], axis=-1)
        counts = swap_sums(mask, values)  # rows x (con − dis, ties, agree) x the sides
        human_ties = int(np.count_nonzero(human == 0))
        for side, found in ((0, mine), (1, theirs)):
            tau = tau_from_counts(counts[:, side], counts[:, 2 + side], human_ties, len(i))
            found.append((counts[:, 4 + side], len(i), tau, len(i)))
    accuracy, kendall = _pooled_parts(mine)
    ref_accuracy, ref_kendall = _pooled_parts(theirs)
    return (accuracy - ref_accuracy, kendall - ref_kendall), exact


def swap_sums(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per row of ``mask`` (rows x n systems, True where a system swaps), the sum over the pairs
    i < j (``triu_indices`` order) of ``values[2 mask[i] + mask[j], pair]`` (``values``: 4 x pairs x
    K integers). A pair's value is bilinear in its two swaps, so a row's sum is a quadratic form of
    its mask: products on rows x n, not rows x pairs; exact, integers far below 2^53 in float64."""
    v = np.asarray(values, dtype=np.float64)
    n, k = mask.shape[1], v.shape[2]
    i, j = np.triu_indices(n, 1)
    linear = np.zeros((n, k))
    np.add.at(linear, i, v[2] - v[0])
    np.add.at(linear, j, v[1] - v[0])
    quadratic = np.zeros((n, n, k))
    quadratic[i, j] = v[0] - v[1] - v[2] + v[3]
    m = mask.astype(np.float64)
    with one_blas_thread():
        paired = (m @ quadratic.reshape(n, n * k)).reshape(len(m), n, k)
        linear_sums = m @ linear
    quadratic_sums = (m[:, None, :] @ paired)[:, 0]  # a row's mask times its own products: rows x k
    return np.rint(v[0].sum(axis=0) + linear_sums + quadratic_sums).astype(np.int64)

