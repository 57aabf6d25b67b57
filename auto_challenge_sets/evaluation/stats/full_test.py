"""The full test set as a first-class row: every system against the baseline system, and per
metric a ranking by score grouped into significance clusters as the WMT findings group systems.
The method: docs/method.md, "The full test set: ranking and significance clusters".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from auto_challenge_sets.evaluation.inputs import SystemOutput
from auto_challenge_sets.evaluation.results import (
    FullTest,
    FullTestRanking,
    PairedResult,
    PairwiseResult,
    RankedSystem,
)
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.evaluation.stats.significance import paired_tests
from auto_challenge_sets.scoring.metrics import Metric
from auto_challenge_sets.scoring.paired import approximate_randomization, sacrebleu_seed

CLUSTER_RULE = ("WMT's: systems ordered by score; a cluster boundary between positions k and k+1 when each of "
                "the first k systems is significantly better (paired test, p < alpha) than each of the others")
CORRECTION = "none"  # as WMT: the pairwise p-values are not corrected for the number of pairs
NO_RANDOM = "no sentence lies outside the full corpus to draw length-matched random corpora from"


def significance_clusters(order: Sequence[str], better: Callable[[str, str], bool]) -> list[int]:
    """The cluster (1 = top) of each system of ``order`` (best first): a boundary after position k
    when ``better(order[i], order[j])`` for every i <= k < j."""
    clusters, current = [], 1
    for k in range(len(order)):
        clusters.append(current)
        if k + 1 < len(order) and all(better(a, b) for a in order[:k + 1] for b in order[k + 1:]):
            current += 1
    return clusters


def _pairwise(systems: list[str], outputs: Mapping[str, SystemOutput], metrics: Mapping[str, Metric],
              test_type: str, samples: int, stats: Mapping[str, Mapping[str, np.ndarray]]
              ) -> dict[tuple[str, str], dict[str, PairedResult]]:
    """(a, b) -> metric -> the paired test of b against a, for every a before b in ``systems``."""
    if test_type == "ar":  # all pairs at once, on the engine's statistics
        found = approximate_randomization(stats, systems, metrics, samples, sacrebleu_seed())
        return {pair: {m: PairedResult(*value) for m, value in per.items()} for pair, per in found.items()}
    pairs: dict[tuple[str, str], dict[str, PairedResult]] = {}
    references = outputs[systems[0]].references
    for k, first in enumerate(systems[:-1]):  # sacrebleu's bootstrap, each system in turn the baseline
        named = [(name, outputs[name].predictions) for name in systems[k:]]
        for other, per_metric in paired_tests(named, references, metrics, test_type, samples, stats).items():
            pairs[first, other] = per_metric
    return pairs


def _oriented(pairwise: Mapping[tuple[str, str], Mapping[str, PairedResult]], metric: str,
              place: Mapping[str, int]) -> dict[tuple[str, str], tuple[float, float]]:
    """(ranked above, ranked below) -> (above − below, p) for ``metric``, in rank order."""
    tested = {}
    for (a, b), per_metric in pairwise.items():
        result = per_metric[metric]  # delta: b − a
        above, below = (a, b) if place[a] < place[b] else (b, a)
        tested[above, below] = (-result.delta if above == a else result.delta, result.p_value)
    return dict(sorted(tested.items(), key=lambda item: (place[item[0][0]], place[item[0][1]])))


def full_test(outputs: Sequence[SystemOutput], metrics: Mapping[str, Metric],
              stats: Mapping[str, Mapping[str, np.ndarray]], full: Mapping[str, Mapping[str, float]],
              baseline: str, test_type: str, samples: int, alpha: float = ALPHA) -> FullTest:
    """The paired test of every system against ``baseline`` on the full corpus and, per metric, the
    ranking with its significance clusters (``stats``: the engine's statistics of every row)."""
    from scipy.stats import rankdata

    by_name = {output.name: output for output in outputs}
    systems = list(by_name)
    pairwise = _pairwise(systems, by_name, metrics, test_type, samples, stats)
    rankings = {}
    for name, metric in metrics.items():
        sign = 1 if metric.higher_is_better else -1
        order = sorted(systems, key=lambda s: -sign * full[s][name])  # stable: ties keep the input order
        place = {s: k for k, s in enumerate(order)}
        tested = _oriented(pairwise, name, place)
        vs_baseline = {b if a == baseline else a: PairedResult(-delta if a == baseline else delta, p)  # s − baseline
                       for (a, b), (delta, p) in tested.items() if baseline in (a, b)}

        def better(a: str, b: str, tested=tested, name=name, sign=sign) -> bool:
            return tested[a, b][1] < alpha and sign * (full[a][name] - full[b][name]) > 0

        clusters = significance_clusters(order, better)
        # equal scores share the better rank (1, 2, 2, 4)
        rank = rankdata([-sign * full[s][name] for s in order], method="min").astype(int).tolist()
        rankings[name] = FullTestRanking(
            systems=tuple(RankedSystem(s, full[s][name], r, c, vs_baseline.get(s))
                          for s, r, c in zip(order, rank, clusters)),
            pairs=tuple(PairwiseResult(a, b, delta, p) for (a, b), (delta, p) in tested.items()),
            clusters=max(clusters, default=0))
    return FullTest(rows=len(outputs[0].predictions), baseline_system=baseline, paired_test=test_type, paired_samples=samples, alpha=alpha,
                    correction=CORRECTION, cluster_rule=CLUSTER_RULE, random_unavailable=NO_RANDOM, rankings=rankings)
