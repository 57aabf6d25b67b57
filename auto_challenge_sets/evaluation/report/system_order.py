"""The order of systems in every table: ranked as WMT's tables are, not alphabetical."""

from __future__ import annotations

from collections.abc import Callable

from auto_challenge_sets.evaluation.results import Evaluation


def ranked_systems(evaluation: Evaluation, score_of: Callable[[str], float | None]) -> list[str]:
    """The systems best first by the first metric (``score_of`` a system's score with it, per its
    direction), ties by name, unscored last: tables ranked as WMT's, not alphabetical."""
    higher = evaluation.higher_is_better[evaluation.metrics[0]]

    def key(system: str) -> tuple[bool, float, str]:
        score = score_of(system)
        return (score is None, 0.0 if score is None else (-score if higher else score), system)

    return sorted(evaluation.systems, key=key)


def by_full_test(evaluation: Evaluation) -> list[str]:
    """The systems best first by the first metric on the full corpus: the one order of the tables
    whose rows are systems but whose columns are no single score (targeted accuracy by distance)."""
    return ranked_systems(evaluation, lambda system: evaluation.full[system][evaluation.metrics[0]])
