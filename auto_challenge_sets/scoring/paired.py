"""sacrebleu's paired approximate randomization (``significance._paired_ar_test``: one coin per
row and trial from ``default_rng(SACREBLEU_SEED)``, ``p = (count + 1) / (trials + 1)``), from
statistics already in memory, for all systems at once: the same trials, the same p-values.

The coins are the same for every system: where one is True, pseudo-system a takes the baseline's
row and b the system's, so one product of the coins with every system's rows gives every trial's
sums (:func:`_swapped_sums`). The trials are scored by the metric's vectorized
:meth:`~auto_challenge_sets.scoring.metrics.Metric.scores_of_totals`; one whose difference lies
within a hair of the real one, where rounding could decide it, again by the scalar code from
sacrebleu's own sums. The paired bootstrap goes through sacrebleu
(:mod:`auto_challenge_sets.evaluation.stats.significance`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import cache

import numpy as np

from auto_challenge_sets.scoring.metrics import Metric
from auto_challenge_sets.workers import one_blas_thread

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


def coins(rows: int, trials: int, seed: int | None) -> np.ndarray:
    """The trials' swaps, as sacrebleu draws them for every system (True: the row is the baseline's
    in pseudo-system a)."""
    return np.random.default_rng(seed).integers(2, size=(trials, rows), dtype=bool)


Swaps = Callable[[type], np.ndarray]  # dtype -> the coins in it, rows x trials (the memory of trials x rows)


def _exact(stats: Sequence[np.ndarray]) -> bool:
    return all(s.dtype.kind in "iub" for s in stats)


def _swapped_sums(swaps: Swaps, stats: Sequence[np.ndarray]) -> np.ndarray:
    """Each trial's column sums of each system's rows where the coin is True, as a (columns,
    systems, trials) array, from one product of all systems in floats, where numpy uses BLAS (its
    integer product does not). Integer counts stay exact: in float32 while every column's sum of
    absolute values is below 2**23, else in float64. A column in which every system has the same
    rows holds zeros: it adds the same total to both pseudo-systems in every trial (BLEU's reference
    lengths, chrF's reference n-grams). In float32 the difference of two systems' sums is exact too."""
    wide = np.stack(stats, axis=1)  # rows x systems x columns
    moving = (wide != wide[:, :1]).any(axis=(0, 1))
    wide = wide[:, :, moving].transpose(0, 2, 1).reshape(len(wide), -1)  # rows x (moving column, system)
    small = _exact(stats) and np.abs(wide).sum(axis=0).max(initial=0) < 2**23
    dtype = np.float32 if small else np.float64
    sums = np.zeros((len(moving), len(stats), swaps(dtype).shape[1]), dtype=dtype)
    with one_blas_thread():
        sums[moving] = (wide.T.astype(dtype) @ swaps(dtype)).reshape(-1, len(stats), sums.shape[2])
    return sums


# Elements of the pseudo-systems' sums scored at once (the systems are taken a few at a time): the
# metric's temporaries stay in the cache
GROUP_ELEMENTS = 2**19


def _tests(metric: Metric, swaps: Swaps, stats: Sequence[np.ndarray], baselines: int) -> list[list[tuple[float, float]]]:
    """Per baseline ``i`` of the first ``baselines`` systems of ``stats``, (delta, p) of each later
    system ``j`` against it: sacrebleu's test of j with i as its baseline (delta = j − i). The
    trials are scored by the metric's vectorized code, in float64 as it expects; one within a hair
    of the real difference is scored again by the scalar code, from sacrebleu's own sums."""
    scores = [metric.score_of_totals(s.sum(axis=0)) for s in stats]
    totals = np.stack([s.sum(axis=0) for s in stats], axis=1).astype(np.float64)  # columns x systems
    swapped = _swapped_sums(swaps, stats)
    columns, systems, trials = swapped.shape

    def pseudo(i: int, js: slice) -> tuple[np.ndarray, np.ndarray]:
        """The sums of a and b of systems ``js`` against baseline ``i``, (columns, systems, trials):
        a, the system's totals with the baseline's swapped rows in and its own out; b the other
        way round (integers exactly: the difference of two float32 sums below 2**23 is exact)."""
        moved = np.subtract(swapped[:, i:i + 1], swapped[:, js], dtype=np.float64)
        return moved + totals[:, js, None], np.subtract(totals[:, i:i + 1, None], moved, out=moved)

    @cache
    def scalar_sums(i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        """a's and b's sums (trials x columns) as sacrebleu makes them: ``pseudo`` for integer
        statistics, for float ones bit for bit ``a = pos_sel @ bl_stats + neg_sel @ sys_stats``, on
        BLAS's own threads as sacrebleu's (a product's last bit depends on how many there are)."""
        if _exact((stats[i], stats[j])):
            a, b = pseudo(i, slice(j, j + 1))
            return a[:, 0].T, b[:, 0].T
        true = swaps(np.float64).T
        false = 1.0 - true
        return true @ stats[i] + false @ stats[j], false @ stats[i] + true @ stats[j]

    group, found = max(1, GROUP_ELEMENTS // (columns * trials)), []
    for i in range(baselines):
        difference = np.concatenate([
            np.abs(metric.scores_of_totals(a.reshape(columns, -1).T) - metric.scores_of_totals(b.reshape(columns, -1).T))
            for a, b in (pseudo(i, slice(j, j + group)) for j in range(i + 1, systems, group))]).reshape(-1, trials)
        real = np.abs(scores[i] - np.array(scores[i + 1:]))
        scale = np.fmax(1.0, np.fmax(real, np.fmax.reduce(difference, axis=1, initial=0)))
        for k, trial in np.argwhere(np.abs(difference - real[:, None]) <= RECHECK * scale[:, None]).tolist():
            a, b = scalar_sums(i, i + 1 + k)
            difference[k, trial] = abs(metric.score_of_totals(a[trial].tolist()) - metric.score_of_totals(b[trial].tolist()))
        counts = np.count_nonzero(difference > real[:, None], axis=1).tolist()
        found.append([(scores[j] - scores[i], (count + 1) / (trials + 1)) for j, count in zip(range(i + 1, systems), counts)])
    return found


def approximate_randomization(statistics: Mapping[str, Mapping[str, np.ndarray]], order: Sequence[str],
                              metrics: Mapping[str, Metric], trials: int, seed: int | None = None,
                              baselines: int | None = None) -> dict[tuple[str, str], dict[str, tuple[float, float]]]:
    """``{(a, b): {metric: (delta, p_value)}}`` for every ``a`` among the first ``baselines`` of
    ``order`` (default: every pair) and every ``b`` after it: sacrebleu's test of ``b`` against the
    baseline ``a`` with its trials (``delta`` = b − a). ``statistics``: system -> metric -> the
    rows' statistics (:meth:`Metric.statistics`). Every pair has the same coins, so each system's
    swapped sums are computed once and added pair by pair."""
    baselines = len(order) - 1 if baselines is None else min(baselines, len(order) - 1)
    out: dict[tuple[str, str], dict[str, tuple[float, float]]] = {
        (a, b): {} for k, a in enumerate(order[:baselines]) for b in order[k + 1:]}
    if not out:
        return out
    swap = coins(len(next(iter(statistics[order[0]].values()))), trials, seed)
    swaps = cache(lambda dtype: swap.T.astype(dtype))  # cast once for every product
    for name, metric in metrics.items():
        stats = [np.asarray(metric.paired_statistics(statistics[s][name])) for s in order]
        for k, found in enumerate(_tests(metric, swaps, stats, baselines)):
            for b, result in zip(order[k + 1:], found):
                out[order[k], b][name] = result
    return out
