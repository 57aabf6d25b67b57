"""Targeted accuracy of many systems: every lexical config x every system, a summary per
phenomenon by distance, and its correlation with human scores (next to BLEU's)."""

from __future__ import annotations

import bisect
from collections import Counter
from typing import Any

import numpy as np

from auto_challenge_sets.evaluation.human import HumanScores, correlate
from auto_challenge_sets.evaluation.targeted import TargetedAlignments
from auto_challenge_sets.scoring.statistics import PoolStatistics
from auto_challenge_sets.scoring.targeted import CORRECT, WRONG, accuracy, targeted_accuracy


def score_config(instances: list[list[dict[str, int]]], positions: list[int], pools: dict[str, PoolStatistics],
                 alignments: TargetedAlignments, chrf_threshold: float) -> dict[str, dict[str, Any]]:
    """Each system's targeted accuracy on one lexical config (rows at ``positions`` of the pool)."""
    result = {}
    for system, pool in pools.items():
        links = alignments.inputs(system, positions)
        result[system] = targeted_accuracy(instances, [pool.references[p][0] for p in positions],
                                           [pool.predictions[p] for p in positions], links["source_alignments"],
                                           links["hypothesis_alignments"], chrf_threshold)
    return result


def _bucket_label(edges: list[int], k: int) -> str:
    low = edges[k]
    if k + 1 == len(edges):
        return f"{low}+"
    high = edges[k + 1] - 1
    return str(low) if high == low else f"{low}-{high}"


def summary(configs: dict[str, Any], systems: list[str]) -> dict[str, Any]:
    """Per phenomenon: each system's accuracy by distance, bucketed at the phenomenon's config
    boundaries (D = 1, 2, 3, 5, 10 gives d = 1, 2, 3-4, 5-9, 10+), from the config with the
    smallest D (it holds every instance at d >= that D)."""
    out: dict[str, Any] = {}
    by_phenomenon: dict[str, list[tuple[int, str]]] = {}
    for name, config in configs.items():
        if config.get("targeted") and config["min_distance"] is not None:
            by_phenomenon.setdefault(config["phenomenon"], []).append((config["min_distance"], name))
    for phenomenon, found in sorted(by_phenomenon.items()):
        _, smallest = min(found)
        edges = sorted({d for d, _ in found})
        labels = [_bucket_label(edges, k) for k in range(len(edges))]
        table: dict[str, dict[str, Any]] = {}
        for system in systems:
            counts = [Counter() for _ in edges]
            for item in configs[smallest]["systems"][system]["targeted"]["by_distance"]:
                k = bisect.bisect_right(edges, item["distance"]) - 1  # the bucket whose lower edge is at or below d
                if k >= 0:
                    counts[k].update({CORRECT: item["correct"], WRONG: item["wrong"]})
            table[system] = {label: accuracy(c) for label, c in zip(labels, counts)}
            table[system]["judged"] = {label: c[CORRECT] + c[WRONG] for label, c in zip(labels, counts)}
        means = {label: _mean([table[s][label] for s in systems]) for label in labels}
        out[phenomenon] = {"config": smallest, "buckets": labels, "systems": table, "mean": means}
    return out


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None


def add_human(configs: dict[str, Any], human: HumanScores, seed: int) -> None:
    """Kendall/Spearman of each lexical config's targeted accuracy with the human scores."""
    for config in configs.values():
        if config.get("targeted"):
            auto = {s: e["targeted"]["accuracy"] for s, e in config["systems"].items()
                    if e["targeted"]["accuracy"] is not None}
            config["human_targeted"] = correlate(auto, human, None, seed=seed)
