"""Agreement with humans pooled over runs, and whether a measure agrees better than full-test BLEU.

A *run* is one evaluation with its own human system scores (one year of a language pair, or
one half of a year's systems); a *measure* gives every system of a run one score, oriented so
that higher is better (a metric on a config, targeted accuracy, a metric on the full test set).
Systems are compared only within their run: the human scores of two runs are on different
scales, so a pair of systems from two runs is never a pair.

- **Pairwise accuracy** (the WMT metrics task's system-level meta-evaluation, Kocmi et al. 2021):
  the share of system pairs that the measure orders as humans do, ``sign(Δmeasure) ==
  sign(Δhuman)``; a tie of the measure where humans differ counts as a disagreement. Pooled: the
  agreeing pairs of every run over the pairs of every run.
- **Pooled Kendall τ**: the mean of the within-run τ-b weighted by each run's system pairs
  ``n(n−1)/2``. Pair-weighted, not a plain mean, because a pair of systems is the unit of evidence
  (as in pairwise accuracy): a run of 19 systems (171 pairs) tells more than one of 10 (45 pairs).
  Without ties it is Σ(concordant − discordant) / Σ pairs over the runs, and pairwise accuracy is
  then (τ + 1) / 2.
- **95% intervals**: a percentile bootstrap over systems, each run's systems resampled with
  replacement on their own (a run keeps its size), the pooled statistic computed on the union;
  :data:`BOOTSTRAP` resamples. A resample with fewer than 3 distinct systems in a run is dropped (as
  :func:`.human.correlate` does), and a pair made of one system and its own copy is not a pair.
- **p of agreement**: human scores permuted within each run (:data:`PERMUTATIONS` times), two-sided:
  τ against 0, pairwise accuracy against its exact mean under those permutations (:func:`chance`:
  0.5, less where the measure ties systems).
- **Difference to a reference measure** (full-test BLEU): the statistic of the measure minus the
  reference's on the same systems; its interval from the same bootstrap resamples; its p from a
  paired permutation test (the PERM-BOTH test of Deutsch et al. 2021 on within-run ranks: each
  system's ranks under the two measures swapped with probability 1/2; ranks because the two
  measures' scores are on different scales and both statistics read orders only). Every one of the
  2^N swaps where there are at most :data:`PERMUTATIONS` + 1 of them (p exact), else
  :data:`PERMUTATIONS` seeded random ones.
- **Power**: the τ needed for p < 0.05 from the exact null distribution of Kendall's τ (no ties;
  pooled: the runs' distributions convolved), and the τ needed to survive Benjamini–Hochberg over
  a family of m configs: p < 0.05/m when the config passes alone, p < 0.05·k/m when k =
  ⌈m/10⌉ configs (a tenth) pass together. With 10 systems: 0.51, and 0.78 / 0.69 over 30 configs.

Seeds: every resampling draws from ``numpy.random.default_rng([seed, stream])``, seed 1 unless
given (the run's ``--seed``), one stream per kind (:data:`~auto_challenge_sets.evaluation.stats.STREAMS`:
the bootstrap, the human permutations, the swaps). Same inputs and seed, same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from auto_challenge_sets.evaluation.stats import SEED, STREAMS
from auto_challenge_sets.evaluation.stats.human import (
    BOOTSTRAP,
    PERMUTATIONS,
    pair_cells,
    pair_signs,
    resampled_signs,
    tau_b,
    tau_from_counts,
)

_EPS = 1e-12  # a resampled statistic equal to the observed one counts as at least as extreme


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


def _stack(values: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.atleast_2d(np.asarray(v, dtype=np.float64)) for v in values]


def _pooled(measures: Sequence[np.ndarray], humans: Sequence[np.ndarray],
            valid: Sequence[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pooled pairwise accuracy and pair-weighted τ-b of each row (rows x systems per run);
    ``valid``: per run, rows x pairs, the pairs that count for accuracy (all when None)."""
    return _pooled_signs([pair_signs(x) for x in _stack(measures)], [pair_signs(y) for y in _stack(humans)], valid)


def _pooled_signs(measures: Sequence[np.ndarray], humans: Sequence[np.ndarray],
                  valid: Sequence[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_pooled` from each run's :func:`.human.pair_signs` (rows x pairs; one row on a side
    stands for every row of the other)."""
    parts = []
    for k, (sx, sy) in enumerate(zip(measures, humans)):
        same = sx == sy  # one row on a side broadcasts
        if valid is None:
            agree, total = same.sum(axis=1), same.shape[1]
        else:
            agree, total = (same & valid[k]).sum(axis=1), valid[k].sum(axis=1)
        parts.append((agree, total, tau_b(sx, sy), sx.shape[1]))
    return _pooled_parts(parts)


def _pooled_parts(parts: Sequence[tuple[np.ndarray, np.ndarray | int, np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Pooled pairwise accuracy and pair-weighted τ from each run's (agreeing pairs, counted pairs,
    τ-b, system pairs) per row: one arithmetic for every way of counting them."""
    agree = total = tau_sum = weight = 0.0
    for run_agree, run_total, tau, run_pairs in parts:
        agree, total = agree + run_agree, total + run_total
        tau_sum = tau_sum + run_pairs * tau  # NaN (a constant side) stays NaN
        weight += run_pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(agree / total, dtype=np.float64), np.asarray(tau_sum / weight, dtype=np.float64)


def pooled_accuracy(runs: Sequence[RunScores]) -> float:
    """The share of within-run system pairs the measure orders as humans do (see the module)."""
    return float(_pooled([r.measure for r in runs], [r.human for r in runs])[0][0])


def pooled_kendall(runs: Sequence[RunScores]) -> float | None:
    """The within-run Kendall τ-b, averaged with each run's system pairs as weights (None when a
    run's measure or human scores are constant)."""
    return _finite(_pooled([r.measure for r in runs], [r.human for r in runs])[1][0])


def chance(runs: Sequence[RunScores]) -> float:
    """The pairwise accuracy expected when the human scores are permuted within each run: a pair
    the measure ties agrees only when the humans tie it too (probability: the share of tied human
    pairs), any other pair with half the probability of a human pair that is not tied. The exact
    centre of the permutation distribution: one estimated from the permutations themselves would
    shift which of two values symmetric about it counts as extreme."""
    expected = total = 0.0
    for run in runs:
        sx, sy = pair_signs(run.measure)[0], pair_signs(run.human)[0]
        human_ties = float(np.mean(sy == 0)) if len(sy) else 0.0
        expected += np.sum(np.where(sx == 0, human_ties, (1 - human_ties) / 2))
        total += len(sx)
    return float(expected / total)


@lru_cache(maxsize=4)
def _bootstrap_picks(sizes: tuple[int, ...], seed: int, resamples: int) -> tuple[np.ndarray, ...]:
    """Per run, resamples x systems indices; rows where some run has fewer than 3 distinct
    systems are left out of every run. Cached (read-only): every measure of a run draws the same."""
    rng = np.random.default_rng([seed, STREAMS["meta_bootstrap"]])
    picks = [rng.integers(0, n, (resamples, n)) for n in sizes]
    keep = np.ones(resamples, dtype=bool)
    for pick in picks:
        ordered = np.sort(pick, axis=1)
        keep &= (ordered[:, 1:] != ordered[:, :-1]).sum(axis=1) + 1 >= 3
    return tuple(_read_only(pick[keep]) for pick in picks)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _key(values: Sequence[np.ndarray]) -> tuple[bytes, ...]:
    """Arrays as a cache key: their float64 bytes."""
    return tuple(np.ascontiguousarray(v, dtype=np.float64).tobytes() for v in values)


def _unkey(key: tuple[bytes, ...]) -> list[np.ndarray]:
    return [np.frombuffer(k, dtype=np.float64) for k in key]


@lru_cache(maxsize=4)
def _resampled_humans(humans: tuple[bytes, ...], seed: int,
                      resamples: int) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
    """Per run (:func:`_key` of its human scores), the bootstrap resamples' pair cells
    (:func:`.human.pair_cells`), human pair signs and the pairs that count (a system and its own copy
    are no pair): the same for every measure of the runs, so a run's many measures (its configs and
    metrics) compute them once."""
    picks = _bootstrap_picks(tuple(len(h) for h in _unkey(humans)), seed, resamples)
    found = []
    for human, pick in zip(_unkey(humans), picks):
        upper = np.triu_indices(pick.shape[1], 1)
        found.append((_read_only(pair_cells(pick, len(human))), _read_only(pair_signs(human[pick])),
                      _read_only(pick[:, upper[0]] != pick[:, upper[1]])))
    return tuple(found)


def _resampled(runs: Sequence[RunScores], seed: int, resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """The pooled accuracy and τ of each bootstrap resample (:func:`_bootstrap_picks`)."""
    humans = _resampled_humans(_key([r.human for r in runs]), seed, resamples)
    return _pooled_signs([resampled_signs(r.measure, cells) for r, (cells, _, _) in zip(runs, humans)],
                         [signs for _, signs, _ in humans], [valid for _, _, valid in humans])


@lru_cache(maxsize=4)
def _resampled_reference(measures: tuple[bytes, ...], humans: tuple[bytes, ...], seed: int,
                         resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_resampled` of the reference measure (by :func:`_key`): the same for every measure
    compared with it (in one run: every config, metric and targeted accuracy against full-test BLEU)."""
    runs = [RunScores(m, h) for m, h in zip(_unkey(measures), _unkey(humans))]
    return tuple(_read_only(v) for v in _resampled(runs, seed, resamples))  # type: ignore[return-value]


def _interval(samples: np.ndarray) -> tuple[float, float] | None:
    samples = samples[np.isfinite(samples)]
    if not len(samples):
        return None
    return float(np.percentile(samples, 2.5)), float(np.percentile(samples, 97.5))


def _two_sided(null: np.ndarray, observed: float, centre: float, exact: bool = False) -> float | None:
    null = null[np.isfinite(null)]
    if not np.isfinite(observed) or not len(null):
        return None
    extreme = int(np.count_nonzero(np.abs(null - centre) >= abs(observed - centre) - _EPS))
    # the permutations drawn at random are a sample: the observed order counts as one of them
    return extreme / len(null) if exact else (1 + extreme) / (len(null) + 1)


def agreement(runs: Sequence[RunScores], reference: Sequence[RunScores] | None = None, seed: int = SEED,
              resamples: int = BOOTSTRAP, permutations: int = PERMUTATIONS) -> Agreement:
    """A measure's pooled pairwise accuracy and τ with intervals and permutation p (see the
    module), and with ``reference`` (the same systems in the same order, e.g. full-test BLEU) the
    differences measure − reference (:func:`difference`)."""
    accuracy, kendall = (float(v[0]) for v in _pooled([r.measure for r in runs], [r.human for r in runs]))
    boot_accuracy, boot_kendall = _resampled(runs, seed, resamples)
    rng = np.random.default_rng([seed, STREAMS["meta_permutations"]])
    shuffled = [rng.permuted(np.broadcast_to(r.human, (permutations, len(r.human))), axis=1) for r in runs]
    null_accuracy, null_kendall = _pooled([r.measure[None, :] for r in runs], shuffled)
    differences = (None, None) if reference is None else difference(runs, reference, seed, resamples, permutations)
    return Agreement(
        tuple(len(r.human) for r in runs),
        Estimate(_finite(accuracy), _interval(boot_accuracy), _two_sided(null_accuracy, accuracy, chance(runs))),
        Estimate(_finite(kendall), _interval(boot_kendall), _two_sided(null_kendall, kendall, 0.0)),
        *differences)


def difference(runs: Sequence[RunScores], reference: Sequence[RunScores], seed: int = SEED,
               resamples: int = BOOTSTRAP, permutations: int = PERMUTATIONS,
               accuracy: bool = True) -> tuple[Estimate | None, Estimate]:
    """Pooled pairwise accuracy and τ of the measure minus the reference's on the same systems (the
    same order, the same human scores), each with its paired bootstrap interval and swap-permutation
    p (see the module); ``accuracy=False``: τ's alone (None for accuracy), its swaps counted for τ only."""
    for run, other in zip(runs, reference, strict=True):
        if not np.array_equal(run.human, other.human):
            raise ValueError("the measure and the reference must score the same systems with the same human scores")
    observed = [_pooled([r.measure for r in side], [r.human for r in side]) for side in (runs, reference)]
    mine = _resampled(runs, seed, resamples)
    theirs = _resampled_reference(_key([r.measure for r in reference]), _key([r.human for r in reference]), seed,
                                  resamples)
    null, exact = _swapped(runs, reference, seed, permutations, accuracy)
    found: list[Estimate | None] = [None]
    for k in range(0 if accuracy else 1, 2):  # accuracy, τ
        delta = float(observed[0][k][0] - observed[1][k][0])
        found.append(Estimate(_finite(delta), _interval(mine[k] - theirs[k]), _two_sided(null[k], delta, 0.0, exact)))
    return found[-2], found[-1]  # type: ignore[return-value]


@lru_cache(maxsize=4)
def swap_masks(total: int, seed: int = SEED, permutations: int = PERMUTATIONS) -> tuple[np.ndarray, bool]:
    """Rows x ``total`` systems: True where a system's two measures swap. Every one of the 2^total
    rows when there are at most ``permutations`` + 1 (exact), else ``permutations`` random rows.
    Cached (read-only): every measure of a run swaps with the same rows."""
    if 2 ** total <= permutations + 1:
        return _read_only((np.arange(2 ** total)[:, None] >> np.arange(total) & 1).astype(bool)), True
    return _read_only(np.random.default_rng([seed, STREAMS["meta_swaps"]]).random((permutations, total)) < 0.5), False


def _swapped(runs: Sequence[RunScores], reference: Sequence[RunScores], seed: int, permutations: int,
             accuracy: bool = True) -> tuple[tuple[np.ndarray, np.ndarray], bool]:
    """The null distribution of (measure − reference) accuracy and τ under within-run rank swaps,
    and whether it holds every swap; ``accuracy=False``: τ's alone (accuracy's null all NaN)."""
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
        values = [sides * human[:, None], sides == 0, *([sides == human[:, None]] if accuracy else [])]
        counts = swap_sums(mask, np.concatenate(values, axis=-1))  # rows x (con − dis, ties, agree) x the sides
        human_ties = int(np.count_nonzero(human == 0))
        for side, found in ((0, mine), (1, theirs)):
            agree = counts[:, 4 + side] if accuracy else np.full(len(mask), np.nan)
            found.append((agree, len(i), tau_from_counts(counts[:, side], counts[:, 2 + side], human_ties, len(i)),
                          len(i)))
    accuracy, kendall = _pooled_parts(mine)
    ref_accuracy, ref_kendall = _pooled_parts(theirs)
    return (accuracy - ref_accuracy, kendall - ref_kendall), exact


def swap_sums(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per row of ``mask`` (rows x n systems, True where a system swaps), the sum over the system
    pairs i < j (``numpy.triu_indices`` order) of ``values[2 mask[i] + mask[j], pair]``: rows x K
    from ``values`` 4 x pairs x K (integers).

    A pair's value is bilinear in its two swaps, v0 + (v2 − v0) m_i + (v1 − v0) m_j +
    (v0 − v1 − v2 + v3) m_i m_j, so a row's sum is a quadratic form of its mask: two matrix
    products on rows x n instead of arrays of rows x pairs (9,999 x 171 per call, 146 calls in a
    19-system run with human scores). Exact: integer sums far below 2^53 in float64."""
    v = np.asarray(values, dtype=np.float64)
    n, k = mask.shape[1], v.shape[2]
    i, j = np.triu_indices(n, 1)
    linear = np.zeros((n, k))
    np.add.at(linear, i, v[2] - v[0])
    np.add.at(linear, j, v[1] - v[0])
    quadratic = np.zeros((n, n, k))
    quadratic[i, j] = v[0] - v[1] - v[2] + v[3]
    m = mask.astype(np.float64)
    # one BLAS thread: OpenBLAS splits these thin products over every core, and on a busy machine its
    # threads wait on each other far longer than one takes (4x here at load 7 on 2 cores; as
    # scoring.paired.one_blas_thread, which evaluation.report may not import through this module)
    with _blas().limit(limits=1, user_api="blas"):
        paired = (m @ quadratic.reshape(n, n * k)).reshape(len(m), n, k)
        linear_sums = m @ linear
    quadratic_sums = (m[:, None, :] @ paired)[:, 0]  # a row's mask times its own products: rows x k
    return np.rint(v[0].sum(axis=0) + linear_sums + quadratic_sums).astype(np.int64)


@cache
def _blas():
    """threadpoolctl's controller, found once: finding the libraries reads the process's maps,
    which costs more than a call's products."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None
