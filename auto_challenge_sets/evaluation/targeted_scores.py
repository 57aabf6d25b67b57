"""Targeted accuracy in the engine: every lexical config × every system
(:func:`auto_challenge_sets.scoring.targeted.targeted_accuracy`), and a summary per phenomenon by
distance. The alignments come from :func:`.targeted.align_outputs`."""

from __future__ import annotations

import bisect
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from auto_challenge_sets.evaluation.results import TargetedByDistance, TargetedRun, TargetedScore
from auto_challenge_sets.evaluation.targeted import TargetedRequest, align_outputs
from auto_challenge_sets.scoring.targeted import CORRECT, WRONG, accuracy, signature, targeted_accuracy

if TYPE_CHECKING:
    from auto_challenge_sets.evaluation.inputs import Corpus, SystemOutput
    from auto_challenge_sets.evaluation.results import ConfigResult


def score(request: TargetedRequest, corpus: Corpus, outputs: list[SystemOutput],
          progress: bool = False) -> tuple[TargetedRun, dict[str, dict[str, TargetedScore]]]:
    """Each system's targeted accuracy on each lexical config (config -> system -> score), and the
    run's description (its ``by_distance`` filled in by :func:`run_summary`)."""
    predictions = {output.name: output.predictions for output in outputs}
    alignments = align_outputs(request, corpus.base, predictions, corpus.total_lines,
                               corpus.folder.where(corpus.base_name, corpus.split))
    per_config: dict[str, dict[str, TargetedScore]] = {}
    for config in corpus.configs:
        if config.instances is None:
            continue
        positions = config.positions.tolist()
        per_config[config.name] = {}
        for output in outputs:
            links = alignments.inputs(output.name, positions)
            found = targeted_accuracy(config.instances, [output.references[p][0] for p in positions],
                                      [output.predictions[p] for p in positions], links["source_alignments"],
                                      links["hypothesis_alignments"], request.chrf_threshold)
            per_config[config.name][output.name] = TargetedScore.from_dict(found)
    run = TargetedRun(alignments.aligner, signature(request.chrf_threshold, alignments.systems is not None), {})
    return run, per_config


def _bucket_label(edges: list[int], k: int) -> str:
    low = edges[k]
    if k + 1 == len(edges):
        return f"{low}+"
    high = edges[k + 1] - 1
    return str(low) if high == low else f"{low}-{high}"


def run_summary(run: TargetedRun, configs: dict[str, ConfigResult], systems: list[str]) -> TargetedRun:
    """Per phenomenon: each system's accuracy by distance, bucketed at the phenomenon's config
    boundaries (D = 1, 2, 3, 5, 10 gives d = 1, 2, 3-4, 5-9, 10+), from the config with the
    smallest D (it holds every instance at d >= that D)."""
    from dataclasses import replace

    by_phenomenon: dict[str, list[tuple[int, str]]] = {}
    for name, config in configs.items():
        scored = any(r.targeted is not None for r in config.systems.values())
        if scored and config.min_distance is not None:
            by_phenomenon.setdefault(config.phenomenon, []).append((config.min_distance, name))
    out = {}
    for phenomenon, found in sorted(by_phenomenon.items()):
        _, smallest = min(found)
        edges = sorted({d for d, _ in found})
        labels = [_bucket_label(edges, k) for k in range(len(edges))]
        table, judged = {}, {}
        for system in systems:
            counts = [Counter() for _ in edges]
            for item in configs[smallest].systems[system].targeted.by_distance:
                k = bisect.bisect_right(edges, item.distance) - 1  # the bucket whose lower edge is at or below d
                if k >= 0:
                    counts[k].update({CORRECT: item.correct, WRONG: item.wrong})
            table[system] = {label: accuracy(c) for label, c in zip(labels, counts)}
            judged[system] = {label: c[CORRECT] + c[WRONG] for label, c in zip(labels, counts)}
        means = {label: _mean([table[s][label] for s in systems]) for label in labels}
        out[phenomenon] = TargetedByDistance(smallest, tuple(labels), table, judged, means)
    return replace(run, by_distance=out)


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None
