"""The full test set as a first-class row: rankings and significance clusters (:mod:`.full_test`;
part of :mod:`auto_challenge_sets.evaluation.results`, which re-exports these)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from auto_challenge_sets.evaluation.result_scores import PairedResult


@dataclass(frozen=True)
class RankedSystem:
    """One system in a metric's ranking of the full test set (:mod:`.full_test`)."""

    system: str
    score: float
    rank: int  # by score, 1 = best; systems with the very same score share the better rank
    cluster: int  # significance cluster, 1 = the top one (see FullTest.cluster_rule)
    vs_baseline: PairedResult | None  # sacrebleu's paired test against the baseline system; None for it


@dataclass(frozen=True)
class PairwiseResult:
    """sacrebleu's paired test of two systems on the full test set, ``better`` ranked above
    ``worse``: ``delta`` = better − worse (the test is symmetric: the same p either way round)."""

    better: str
    worse: str
    delta: float
    p_value: float


@dataclass(frozen=True)
class FullTestRanking:
    """One metric's ranking of the systems on the full test set, with its significance clusters."""

    systems: tuple[RankedSystem, ...]  # in rank order
    pairs: tuple[PairwiseResult, ...]  # every pair of systems, tested once
    clusters: int


@dataclass(frozen=True)
class FullTest:
    """The full test set as a first-class row: every system against the baseline system (paired
    test), and per metric a ranking by score grouped into clusters of systems not significantly
    different (:mod:`.full_test`). It has no random baseline: no sentence lies outside it."""

    rows: int
    baseline_system: str
    paired_test: str  # ar / bs, sacrebleu's
    paired_samples: int
    alpha: float
    correction: str  # of the pairwise p-values behind the clusters ("none", as WMT)
    cluster_rule: str
    random_unavailable: str
    rankings: Mapping[str, FullTestRanking]  # metric -> ranking
