"""A score and where it stands: the random baseline and the paired test of one system's score
(part of :mod:`auto_challenge_sets.evaluation.results`, which re-exports these)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RandomBaseline:
    """Where a score falls among the scores of length-matched random corpora (one per sample).

    ``percentile``: share of random corpora scoring at or worse than the set (%); ``p_value``: the
    one-sided empirical p-value of "the set scores worse than random", (1 + that count) /
    (samples + 1) (:func:`auto_challenge_sets.scoring.length_baseline.summarize`); worse means lower
    for a metric where higher is better, higher otherwise."""

    mean: float
    std: float
    p5: float
    p95: float
    percentile: float
    p_value: float


@dataclass(frozen=True)
class PairedResult:
    """sacrebleu's paired test of a system against the baseline system on one config."""

    delta: float  # system − baseline
    p_value: float


@dataclass(frozen=True)
class MetricScore:
    score: float
    random: RandomBaseline | None  # None ("n/a"): no row outside the config to draw from (the full corpus)
    vs_baseline: PairedResult | None = None  # None for the baseline system itself

    def worse_than_random_band(self, higher_is_better: bool) -> bool:
        """Below the random corpora's 5th percentile (above their 95th where lower is better):
        what the tables' star and the summary's share count; never without a random baseline."""
        if self.random is None:
            return False
        return self.score < self.random.p5 if higher_is_better else self.score > self.random.p95


@dataclass(frozen=True)
class MetricInfo:
    """What a result says of one of its metrics, so that a saved result renders without the metric
    registry: the tables' label, the decimals shown, and the metric's own signature (sacrebleu's
    for its metrics). Its direction is :attr:`.results.Evaluation.higher_is_better`."""

    label: str
    digits: int
    signature: str
