"""The control of targeted accuracy, as the length-matched random corpora are BLEU's: the same
judgement (:func:`.targeted.verdicts`) on random word pairs of the same sentences, each at its
instance's own distance with the dependent on the same side of the head, the place uniform among
those that fit. If a system is no more accurate on the real dependencies than on random pairs,
the measure tracks shared wording, not the dependency.

Pairs are matched on part of speech where the sentence allows (issue 34: every phenomenon's head
is a verb, and an unmatched control would be easier than the instances). Per instance, the draws
come from the first non-empty of these sets of places, the row's own instances left out:
``matched`` (head's and dependent's UPOS), ``head_only`` (head's UPOS), ``unmatched`` (any pair;
also a row without UPOS), ``itself`` (no other pair fits). :data:`LEVELS` counts each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.targeted import verdicts

MATCHED, HEAD_ONLY, UNMATCHED, ITSELF = "matched", "head_only", "unmatched", "itself"
LEVELS = (MATCHED, HEAD_ONLY, UNMATCHED, ITSELF)  # most specific first
NO_UPOS = "_"  # CoNLL-U's empty field: a tag that matches nothing


def draw_pairs(instances: Sequence[Sequence[Mapping[str, Any]]], lengths: Sequence[int], draws: int,
               rng: np.random.Generator, upos: Sequence[Sequence[str] | None] | None = None,
               levels: Counter | None = None) -> list[np.ndarray]:
    """Per row, an int array (draws, instances, 2) of 0-based (head, dependent) source positions.
    ``upos``: per row, the UPOS of each source word (None, or a row whose tags do not number its
    words: unmatched); ``levels``, when given, counts the instances drawn at each of :data:`LEVELS`."""
    rows = []
    for r, (row_instances, length) in enumerate(zip(instances, lengths, strict=True)):
        tags = None if upos is None else upos[r]
        tags = np.asarray(tags, dtype=object) if tags is not None and len(tags) == length else None
        own = {(x["head"] - 1, x["dependent"] - 1) for x in row_instances}
        pairs = np.empty((draws, len(row_instances), 2), dtype=np.int64)
        for k, instance in enumerate(row_instances):
            level, heads, dependents = _places(instance, length, tags, own)
            if levels is not None:
                levels[level] += 1
            pick = rng.integers(0, len(heads), size=draws)  # uniform among the level's places
            pairs[:, k, 0], pairs[:, k, 1] = heads[pick], dependents[pick]
        rows.append(pairs)
    return rows


def _places(instance: Mapping[str, Any], length: int, tags: np.ndarray | None,
            own: set[tuple[int, int]]) -> tuple[str, np.ndarray, np.ndarray]:
    """The instance's level and its places (0-based heads and dependents): every pair of the row
    with ``distance`` words between, the dependent on the instance's side of the head."""
    head, dependent = instance["head"] - 1, instance["dependent"] - 1
    gap = int(instance["distance"]) + 1  # distance counts the words between the two
    side = 1 if dependent > head else -1
    low = np.arange(max(length - gap, 0))  # the pair's left word
    heads = low if side > 0 else low + gap
    dependents = heads + side * gap
    other = np.fromiter(((h, d) not in own for h, d in zip(heads.tolist(), dependents.tolist())), dtype=bool,
                        count=len(heads))
    if tags is not None and 0 <= head < length and 0 <= dependent < length and tags[head] != NO_UPOS:
        same_head = other & (tags[heads] == tags[head])
        both = same_head & (tags[dependents] == tags[dependent]) & (tags[dependent] != NO_UPOS)
        for level, keep in ((MATCHED, both), (HEAD_ONLY, same_head)):
            if keep.any():
                return level, heads[keep], dependents[keep]
    if other.any():
        return UNMATCHED, heads[other], dependents[other]
    return ITSELF, np.array([head]), np.array([dependent])


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
