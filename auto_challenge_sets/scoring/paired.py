"""sacrebleu's paired approximate randomization (``significance._paired_ar_test``: one coin per
row and trial from ``default_rng(SACREBLEU_SEED)``, ``p = (count + 1) / (trials + 1)``), from
statistics already in memory, for all systems at once: the same trials, the same p-values.

The coins are drawn once per config (they are the same for every system), the swapped sums are
matrix products (integer statistics in float64, where every sum is exact), and the trials are
scored by the metric's vectorized :meth:`~auto_challenge_sets.scoring.metrics.Metric.scores_of_totals`;
where that may round differently from the scalar code (BLEU: numpy's exp and log), or the sums of
float statistics from sacrebleu's, every trial whose difference lies within a hair of the real one
is scored again by the scalar code, from sacrebleu's own sums. The paired
bootstrap still goes through sacrebleu (:mod:`auto_challenge_sets.evaluation.stats.significance`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from auto_challenge_sets.scoring.metrics import Metric

# sacrebleu's paired tests and the trials it runs by default (--paired-ar-n, --paired-bs-n)
PAIRED_TESTS = {"ar": 10_000, "bs": 1_000}
# a trial is scored again by the scalar code when its difference is this close to the real one
# (relative to the scale of the scores): far above any rounding of exp and log, far below any
# difference two distinct sets of counts can make
RECHECK = 1e-9


def sacrebleu_seed() -> int | None:
    """The seed sacrebleu's paired tests use: ``SACREBLEU_SEED`` (12345 unless set; ``none``: from
    the system's entropy); sacrebleu passes 0 on as None too."""
    value = os.environ.get("SACREBLEU_SEED", "12345")
    seed = None if value.lower() == "none" else int(value)
    return seed if seed else None


def one_blas_thread():
    """A context in which BLAS runs on one thread: the products here are thin (trials x rows times
    rows x a few statistics), and OpenBLAS's threads over every core wait on each other far
    longer than one thread takes."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def coins(rows: int, trials: int, seed: int | None) -> np.ndarray:
    """The trials' swaps, as sacrebleu draws them for every system (True: the row is the baseline's
    in pseudo-system a)."""
    return np.random.default_rng(seed).integers(2, size=(trials, rows), dtype=bool)


def _cast(swap: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The swaps and their negation as the 0/1 float64 matrices sacrebleu's products cast them to,
    and the swaps in float32 (for counts), cast once for every product."""
    return swap.astype(np.float64), (~swap).astype(np.float64), swap.astype(np.float32)


def _exact(stats: Sequence[np.ndarray]) -> bool:
    return all(s.dtype.kind in "iub" for s in stats)


def _products(swap: tuple[np.ndarray, ...], stats: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each trial's sums of each system's rows where the coin is True (``swapped``) and where it is
    False (``kept``), as (trials, systems, columns) arrays, from one wide product of all systems in
    floats, where numpy uses BLAS (its integer product does not). Integer counts stay exact: in
    float32 while every total is below 2**24, else in float64, the kept sums as the totals minus
    the swapped ones; float statistics (float64) may add in another order than sacrebleu's product
    per system, which :func:`_sacrebleu_sums` settles."""
    keep_true, keep_false, keep_true32 = swap  # cast by _cast
    wide, shape = np.concatenate(stats, axis=1), (len(keep_true), len(stats), -1)
    if not _exact(stats):
        wide = wide.astype(np.float64)
        return (keep_true @ wide).reshape(shape), (keep_false @ wide).reshape(shape)
    small = np.abs(wide).sum(axis=0).max(initial=0) < 2**24
    wide = wide.astype(np.float32 if small else np.float64)
    swapped = (keep_true32 if small else keep_true) @ wide
    return swapped.reshape(shape), (wide.sum(axis=0) - swapped).reshape(shape)


def _sacrebleu_sums(swap: tuple[np.ndarray, ...], baseline: np.ndarray,
                    system: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pseudo-systems' sums of float statistics as sacrebleu's products make them, bit for bit:
    ``a = pos_sel @ bl_stats + neg_sel @ sys_stats`` and ``b`` the other way round."""
    keep_true, keep_false, _ = swap
    return keep_true @ baseline + keep_false @ system, keep_false @ baseline + keep_true @ system


def _count_above(metric: Metric, a: np.ndarray, b: np.ndarray, real: np.ndarray, swap: tuple[np.ndarray, ...],
                 sides: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Per system, how many trials have |score(a) − score(b)| > its real difference, scored as the
    scalar code would (``a``, ``b``: the pseudo-systems' sums, (trials, systems, columns)). A
    trial within a hair of the real difference is scored again, from ``a`` and ``b`` for integer
    statistics, from sacrebleu's sums of the system's ``sides`` (baseline, system) for float ones."""
    trials, systems = a.shape[:2]
    difference = np.abs(metric.scores_of_totals(a.reshape(trials * systems, -1).astype(np.float64, copy=False))
                        - metric.scores_of_totals(b.reshape(trials * systems, -1).astype(np.float64, copy=False))
                        ).reshape(trials, systems)  # float64, as every metric's vectorized code expects
    scale = np.fmax(1.0, np.fmax(np.abs(real), np.fmax.reduce(difference, axis=0, initial=0)))
    close = np.argwhere(np.abs(difference - real) <= RECHECK * scale)
    for system in np.unique(close[:, 1]).tolist():
        sums = (a[:, system], b[:, system]) if _exact(sides[system]) else _sacrebleu_sums(swap, *sides[system])
        for trial in close[close[:, 1] == system, 0].tolist():
            difference[trial, system] = abs(metric.score_of_totals(sums[0][trial].tolist())
                                            - metric.score_of_totals(sums[1][trial].tolist()))
    return np.count_nonzero(difference > real, axis=0)


def approximate_randomization(baseline: Mapping[str, np.ndarray], systems: Mapping[str, Mapping[str, np.ndarray]],
                              metrics: Mapping[str, Metric], trials: int,
                              seed: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """``{system: {metric: (delta, p_value)}}``: each system against the baseline on the same rows,
    with sacrebleu's trials. ``baseline`` and each of ``systems`` map a metric's name to the rows'
    statistics (:meth:`Metric.statistics`); ``delta`` is the system's score minus the baseline's.
    The pseudo-systems of every system are scored at once: a takes the baseline's row where the
    coin is True, b the other one (sacrebleu's expressions)."""
    if not systems:
        return {}
    swap = _cast(coins(len(next(iter(baseline.values()))), trials, seed))
    out: dict[str, dict[str, tuple[float, float]]] = {name: {} for name in systems}
    with one_blas_thread():
        for name, metric in metrics.items():
            stats = [np.asarray(metric.paired_statistics(s[name])) for s in (baseline, *systems.values())]
            scores = np.array([metric.score_of_totals(s.sum(axis=0)) for s in stats])
            swapped, kept = _products(swap, stats)
            counts = _count_above(metric, swapped[:, :1] + kept[:, 1:], kept[:, :1] + swapped[:, 1:],
                                  np.abs(scores[0] - scores[1:]), swap, [(stats[0], s) for s in stats[1:]])
            for system, score, count in zip(systems, scores[1:].tolist(), counts.tolist()):
                out[system][name] = (score - scores[0], (count + 1) / (trials + 1))
    return out


def pairwise_approximate_randomization(statistics: Mapping[str, Mapping[str, np.ndarray]], order: Sequence[str],
                                       metrics: Mapping[str, Metric], trials: int,
                                       seed: int | None = None) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """``{(a, b): {metric: (delta, p_value)}}`` for every ``a`` before ``b`` in ``order``: sacrebleu's
    test of ``b`` against the baseline ``a`` (``delta`` = b − a). Every pair has the same coins, so
    each system's products are computed once and added pair by pair."""
    pairs = [(a, b) for k, a in enumerate(order) for b in order[k + 1:]]
    out: dict[tuple[str, str], dict[str, tuple[float, float]]] = {pair: {} for pair in pairs}
    if not pairs:
        return out
    swap = _cast(coins(len(next(iter(statistics[order[0]].values()))), trials, seed))
    index = {system: k for k, system in enumerate(order)}
    for name, metric in metrics.items():
        stats = [np.asarray(metric.paired_statistics(statistics[s][name])) for s in order]
        scores = [metric.score_of_totals(x.sum(axis=0)) for x in stats]
        with one_blas_thread():
            swapped, kept = _products(swap, stats)
        for a, b in pairs:
            i, j = index[a], index[b]
            count = _count_above(metric, swapped[:, i:i + 1] + kept[:, j:j + 1], kept[:, i:i + 1] + swapped[:, j:j + 1],
                                 np.array([abs(scores[i] - scores[j])]), swap, [(stats[i], stats[j])])
            out[a, b][name] = (scores[j] - scores[i], (int(count[0]) + 1) / (trials + 1))
    return out
