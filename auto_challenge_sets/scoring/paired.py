"""sacrebleu's paired approximate randomization (``significance._paired_ar_test``: one coin per
row and trial from ``default_rng(SACREBLEU_SEED)``, ``p = (count + 1) / (trials + 1)``), from
statistics already in memory, for all systems at once: the same trials, the same p-values.

The coins are drawn once per config (they are the same for every system), the swapped sums are
matrix products (integer statistics in float64, where every sum is exact), and the trials are
scored by the metric's vectorized :meth:`~auto_challenge_sets.scoring.metrics.Metric.scores_of_totals`;
where that may round differently from the scalar code (BLEU: numpy's exp and log), every trial
whose difference lies within a hair of the real one is scored again by the scalar code. The paired
bootstrap still goes through sacrebleu (:mod:`auto_challenge_sets.evaluation.stats.significance`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from auto_challenge_sets.scoring.metrics import Metric

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


def _products(swap: np.ndarray, stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``swap @ stats`` and ``keep @ stats``: each trial's sum of a system's rows where the coin is
    True, and where it is False. Integer counts are multiplied in float64, where numpy uses BLAS
    (its integer product does not) and every sum stays exact (far below 2**53); other statistics
    are float64 already, as sacrebleu multiplies them."""
    stats = stats.astype(np.float64) if stats.dtype.kind in "iub" else stats
    return swap @ stats, ~swap @ stats


def _all_products(swap: np.ndarray, stats: Sequence[np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`_products` of each of several systems' statistics: integer counts of all of them in
    one wide product, the kept sums as the totals minus the swapped ones (exact integers whatever
    the order of the additions); float statistics one system at a time (a wider product may add
    them in another order)."""
    if not stats or any(s.dtype.kind not in "iub" for s in stats):
        return [_products(swap, s) for s in stats]
    wide = np.concatenate(stats, axis=1).astype(np.float64)
    swapped = swap.astype(np.float64) @ wide
    kept = wide.sum(axis=0) - swapped
    ends = np.cumsum([s.shape[1] for s in stats])[:-1]
    return list(zip(np.split(swapped, ends, axis=1), np.split(kept, ends, axis=1)))


def _swapped_sums(baseline: tuple[np.ndarray, np.ndarray],
                  system: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Column sums of the two pseudo-systems of every trial, from the baseline's and the system's
    :func:`_products`: ``a`` takes the baseline's row where the coin is True, ``b`` the other one —
    sacrebleu's expressions."""
    (swapped, kept), (system_swapped, system_kept) = baseline, system
    return swapped + system_kept, kept + system_swapped


def _count_above(metric: Metric, a: np.ndarray, b: np.ndarray, real: float) -> int:
    """How many trials have |score(a) − score(b)| > real, scored as the scalar code would."""
    difference = np.abs(metric.scores_of_totals(a) - metric.scores_of_totals(b))
    close = np.abs(difference - real) <= RECHECK * max(1.0, abs(real), float(np.abs(difference).max(initial=0)))
    for trial in np.flatnonzero(close):
        difference[trial] = abs(metric.score_of_totals(a[trial].tolist()) - metric.score_of_totals(b[trial].tolist()))
    return int(np.count_nonzero(difference > real))


def approximate_randomization(baseline: Mapping[str, np.ndarray], systems: Mapping[str, Mapping[str, np.ndarray]],
                              metrics: Mapping[str, Metric], trials: int,
                              seed: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """``{system: {metric: (delta, p_value)}}``: each system against the baseline on the same rows,
    with sacrebleu's trials. ``baseline`` and each of ``systems`` map a metric's name to the rows'
    statistics (:meth:`Metric.statistics`); ``delta`` is the system's score minus the baseline's."""
    if not systems:
        return {}
    rows = len(next(iter(baseline.values())))
    swap = coins(rows, trials, seed)
    out: dict[str, dict[str, tuple[float, float]]] = {name: {} for name in systems}
    with one_blas_thread():
        for name, metric in metrics.items():
            bl = np.asarray(metric.paired_statistics(baseline[name]))
            bl_score = metric.score_of_totals(bl.sum(axis=0))
            stats = {system: np.asarray(metric.paired_statistics(per_metric[name]))
                     for system, per_metric in systems.items()}
            bl_products, *products = _all_products(swap, [bl, *stats.values()])  # the baseline's once
            for (system, sys), sys_products in zip(stats.items(), products):
                sys_score = metric.score_of_totals(sys.sum(axis=0))
                real = abs(bl_score - sys_score)
                a, b = _swapped_sums(bl_products, sys_products)
                out[system][name] = (sys_score - bl_score, (_count_above(metric, a, b, real) + 1) / (trials + 1))
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
    rows = len(next(iter(statistics[order[0]].values())))
    swap = coins(rows, trials, seed)
    for name, metric in metrics.items():
        stats = {s: np.asarray(metric.paired_statistics(statistics[s][name])) for s in order}
        scores = {s: metric.score_of_totals(x.sum(axis=0)) for s, x in stats.items()}
        with one_blas_thread():
            products = dict(zip(stats, _all_products(swap, list(stats.values()))))
        for a, b in pairs:
            (a_swapped, a_kept), (b_swapped, b_kept) = products[a], products[b]
            count = _count_above(metric, a_swapped + b_kept, a_kept + b_swapped, abs(scores[a] - scores[b]))
            out[a, b][name] = (scores[b] - scores[a], (count + 1) / (trials + 1))
    return out
