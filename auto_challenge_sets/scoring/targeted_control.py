"""The control of targeted accuracy, as the length-matched random corpora are BLEU's: the same
judgement on random word pairs of the same sentences at each instance's own distance.

Each draw replaces every instance (head h, dependent d, ``distance`` words between them) by a pair
of source words of the same row with ``distance`` words between them too, the dependent on the
same side of the head, the pair's place in the sentence uniform among those that fit. A draw's
accuracy is then judged exactly as the real instances are (:func:`.targeted.verdicts` on the
row's :func:`.targeted.part_table`). If a system's accuracy on the real dependencies is no higher
than on random pairs, the measure tracks how much of the reference's wording the output shares,
not the dependency.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.targeted import verdicts


def draw_pairs(instances: Sequence[Sequence[Mapping[str, Any]]], lengths: Sequence[int], draws: int,
               rng: np.random.Generator) -> list[np.ndarray]:
    """Per row, an int array (draws, instances, 2) of 0-based (head, dependent) source positions."""
    rows = []
    for row_instances, length in zip(instances, lengths, strict=True):
        pairs = np.empty((draws, len(row_instances), 2), dtype=np.int64)
        for k, instance in enumerate(row_instances):
            gap = int(instance["distance"]) + 1  # distance counts the words between the two
            side = 1 if instance["dependent"] > instance["head"] else -1
            places = length - gap
            if places <= 0:  # cannot happen for a row's own instance; kept as the instance itself
                pairs[:, k] = (instance["head"] - 1, instance["dependent"] - 1)
                continue
            low = rng.integers(0, places, size=draws)  # the pair's left word
            heads = low if side > 0 else low + gap
            pairs[:, k, 0], pairs[:, k, 1] = heads, heads + side * gap
        rows.append(pairs)
    return rows


def pair_accuracies(pairs: Sequence[np.ndarray], tables: Sequence[np.ndarray]) -> np.ndarray:
    """Each draw's accuracy, correct / (correct + wrong) over every row (NaN when none is judged)."""
    draws = next((p.shape[0] for p in pairs), 0)
    correct, judged = np.zeros(draws), np.zeros(draws)
    for row_pairs, table in zip(pairs, tables, strict=True):
        if row_pairs.shape[1] == 0:
            continue
        ok, bad, _ = verdicts(table, row_pairs[..., 0], row_pairs[..., 1])
        correct += ok.sum(axis=1)
        judged += ok.sum(axis=1) + bad.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(judged > 0, correct / np.maximum(judged, 1), np.nan)


def percentile(samples: np.ndarray, value: float | None) -> dict[str, float | int | None]:
    """Where ``value`` falls among the draws: ``percentile`` is the share of draws at or below it
    (%), as for the random corpora; the draws' mean, 5th and 95th percentile."""
    finite = samples[np.isfinite(samples)]
    if not len(finite):
        return {"draws": 0, "mean": None, "p5": None, "p95": None, "percentile": None}
    return {"draws": int(len(finite)), "mean": float(finite.mean()), "p5": float(np.percentile(finite, 5)),
            "p95": float(np.percentile(finite, 95)),
            "percentile": None if value is None else 100.0 * float(np.count_nonzero(finite <= value)) / len(finite)}
