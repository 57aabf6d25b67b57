"""Paired significance tests of systems against a baseline system, as sacrebleu computes them:
approximate randomization (``ar``) on the engine's statistics, the paired bootstrap (``bs``)
through sacrebleu's own ``PairedTest`` (an adapter over the statistics for metrics it lacks), so
each p-value equals ``sacrebleu --paired-ar`` / ``--paired-bs`` with the same seed and trials.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import numpy as np

from auto_challenge_sets.evaluation.results import PairedResult
from auto_challenge_sets.scoring.metrics import Metric, PairedTestAdapter
from auto_challenge_sets.scoring.paired import approximate_randomization, sacrebleu_seed


def paired_tests(systems: Sequence[tuple[str, Sequence[str]]], references: Sequence[tuple[str, ...]],
                 metrics: Mapping[str, Metric], test_type: str, n_samples: int,
                 statistics: Mapping[str, Mapping[str, np.ndarray]] | None = None) -> dict[str, dict[str, PairedResult]]:
    """``{system: {metric: PairedResult}}`` for every system but the first (the baseline);
    ``references``: a tuple per row; ``statistics``: system -> metric -> the rows' statistics."""
    from sacrebleu.significance import PairedTest

    if not metrics or len(systems) < 2:
        return {}
    if test_type == "ar" and statistics is not None:
        found = approximate_randomization(statistics, [name for name, _ in systems], metrics, n_samples,
                                          sacrebleu_seed(), baselines=1)
        return {system: {m: PairedResult(*value) for m, value in per.items()} for (_, system), per in found.items()}
    streams = [list(stream) for stream in zip(*references)]
    hypotheses = {name: list(hyps) for name, hyps in systems}
    objects = {}
    for name, metric in metrics.items():
        scorer = metric.sacrebleu_metric()
        if isinstance(scorer, PairedTestAdapter) and statistics is not None:
            scorer.known = {id(hypotheses[s]): metric.paired_statistics(statistics[s][name]) for s in hypotheses}
        objects[name] = scorer
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        _, scores = PairedTest([(name, hypotheses[name]) for name, _ in systems], objects, streams,
                               test_type=test_type, n_samples=n_samples)()
    finally:
        logger.setLevel(level)
    # sacrebleu keys its results by each score's own name (BLEU, chrF2, ...), in the order given
    columns = [key for key in scores if key != "System"]
    if len(columns) != len(metrics):
        raise ValueError(f"two metrics share a name in sacrebleu's paired test: {', '.join(metrics)}")
    out: dict[str, dict[str, PairedResult]] = {}
    for index, (name, _) in enumerate(systems[1:], start=1):
        out[name] = {metric: PairedResult(float(scores[column][index].score - scores[column][0].score),
                                          float(scores[column][index].p_value))
                     for metric, column in zip(metrics, columns)}
    return out
