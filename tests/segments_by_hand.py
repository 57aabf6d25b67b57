"""The segment-level statistics of :mod:`auto_challenge_sets.evaluation.stats.segments` written out by
hand, one resample or one order at a time, to check the vectorized code against."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

import numpy as np


def cluster_bootstrap_by_hand(instances: Sequence[tuple[int, float, bool]], seed: int,
                              resamples: int = 1000, sentences: int | None = None) -> tuple[tuple[float, float], float]:
    """95% percentile interval of mean z correct − wrong over resamples of whole sentences, and its
    p: twice the smaller count of resamples at or below 0, or at or above 0, plus one, over the
    resamples plus one. ``instances``: (sentence 0 … n − 1, z, judged correct). A resample with no
    correct or no wrong instance has no difference and is left out."""
    by_sentence: dict[int, list[tuple[float, bool]]] = {}
    for sentence, z, good in instances:
        by_sentence.setdefault(sentence, []).append((z, good))
    n = len(by_sentence) if sentences is None else sentences  # given: some may hold no instance
    assert sentences is not None or sorted(by_sentence) == list(range(n))
    differences = []
    for draw in np.random.default_rng([seed, 3]).integers(0, n, (resamples, n)):
        right = [z for k in draw for z, good in by_sentence.get(int(k), []) if good]
        wrong = [z for k in draw for z, good in by_sentence.get(int(k), []) if not good]
        if right and wrong:
            differences.append(sum(right) / len(right) - sum(wrong) / len(wrong))
    low, high = np.quantile(differences, [0.025, 0.975])
    below, above = sum(d <= 0 for d in differences), sum(d >= 0 for d in differences)
    return (float(low), float(high)), min(1.0, 2 * (min(below, above) + 1) / (len(differences) + 1))


def exact_permutation_p(statistic: Callable[[Sequence[int]], float], n: int) -> float:
    """Two-sided p over every order of n sentences: twice the smaller share of orders whose
    statistic is at least, or at most, the observed one (capped at 1)."""
    observed = statistic(tuple(range(n)))
    values = [statistic(order) for order in permutations(range(n))]
    at_least = sum(v >= observed - 1e-12 for v in values)
    at_most = sum(v <= observed + 1e-12 for v in values)
    return min(1.0, 2 * min(at_least, at_most) / len(values))


def sequential_permutation_p(statistic: Callable[[Sequence[int]], float], n: int, seed: int,
                             most: int = 999, stop_after: int = 10) -> float:
    """Two-sided p over seeded random orders, one at a time: twice the smaller tail's count; once
    that count reaches ``stop_after``, 2 · stop_after / orders drawn (Besag & Clifford 1991), else
    2 · (count + 1) / (most + 1)."""
    observed = statistic(tuple(range(n)))
    rng = np.random.default_rng([seed, 4])
    at_least = at_most = 0
    for drawn in range(1, most + 1):
        value = statistic(tuple(int(k) for k in rng.permutation(n)))
        at_least += value >= observed - 1e-12
        at_most += value <= observed + 1e-12
        if min(at_least, at_most) == stop_after:
            return min(1.0, 2 * stop_after / drawn)
    return min(1.0, 2 * (min(at_least, at_most) + 1) / (most + 1))
