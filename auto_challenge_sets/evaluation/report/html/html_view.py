"""What the HTML page shows, as plain data the template only lays out: the cells of the big table
(system × config × metric), the summaries, the human correlations and the targeted tables.

Every number is the Evaluation's own float (the template writes it in full in a ``data-value``
attribute and rounded as text), so the page cannot disagree with ``results.json``. Metrics are
whatever the run has: labels, digits and directions come from the metric registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.report.plots import FEW_JUDGED
from auto_challenge_sets.evaluation.report.system_order import by_full_test
from auto_challenge_sets.evaluation.report.targeted_labels import (
    DIAGNOSTIC,
    control_line,
    judge_line,
    matched_share,
)
from auto_challenge_sets.evaluation.results import Evaluation, HumanCorrelation, SegmentAgreement


@dataclass(frozen=True)
class MetricView:
    name: str
    label: str
    digits: int
    higher_is_better: bool


@dataclass(frozen=True)
class Cell:
    """One row of the big table: one system on one config by one metric."""

    config: str
    phenomenon: str
    min_distance: int | None
    n: int
    system: str
    metric: MetricView
    score: float
    random_mean: float | None  # None: no random baseline (random_unavailable says why)
    random_p5: float | None
    random_p95: float | None
    percentile: float | None  # None on a degenerate baseline (a percentile among unusable samples) or without one
    delta_random: float | None
    worse_than_band: bool
    delta_baseline: float | None
    paired_p: float | None
    small: bool
    same_rows_as: str | None
    degenerate_baseline: bool
    flags: tuple[str, ...] = ()  # ConfigResult.flags
    random_unavailable: str | None = None


def metric_views(evaluation: Evaluation) -> list[MetricView]:
    views = []
    for name in evaluation.metrics:
        cls = evaluation.metric_info[name]
        views.append(MetricView(name, cls.label, cls.digits, evaluation.higher_is_better[name]))
    return views


def ordered_configs(evaluation: Evaluation) -> list[str]:
    return sorted(evaluation.configs, key=config_sort_key)


def cells(evaluation: Evaluation) -> list[Cell]:
    """Every (config, system, metric) of the run, configs in D order."""
    out = []
    metrics = metric_views(evaluation)
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        for system, result in config.systems.items():
            for metric in metrics:
                score = result.scores[metric.name]
                random, test = score.random, score.vs_baseline
                worse = config.starred(score, metric.higher_is_better)
                band = (None,) * 5 if random is None else (
                    random.mean, random.p5, random.p95, None if config.degenerate_baseline else random.percentile,
                    score.score - random.mean)
                out.append(Cell(name, config.phenomenon, config.min_distance, config.n, system, metric,
                                score.score, *band, worse, None if test is None else test.delta,
                                None if test is None else test.p_value, config.small, config.same_rows_as,
                                config.degenerate_baseline, config.flags(), config.random_unavailable))
    return out


@dataclass(frozen=True)
class HumanRow:
    config: str
    n: int
    correlation: HumanCorrelation
    flags: tuple[str, ...] = ()  # ConfigResult.flags
    random_percentile: float | None = None  # None on a degenerate baseline (its random corpora mean nothing)


def human_rows(evaluation: Evaluation, metric: str) -> list[HumanRow]:
    """The full test set first, then every config with a correlation for ``metric``."""
    rows = []
    full = (evaluation.human_full or {}).get(metric)
    if full is not None:
        rows.append(HumanRow("(full test set)", evaluation.full_corpus_rows, full))  # no random corpora: no percentile
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        found = (config.human or {}).get(metric)
        if found is not None:
            rows.append(HumanRow(name, config.n, found, config.flags(),
                                 None if config.degenerate_baseline else found.random_kendall_percentile))
    return rows


def targeted_tables(evaluation: Evaluation) -> list[dict[str, Any]]:
    """Per phenomenon: buckets, each system's accuracy (0–1 or None) and instances judged per
    bucket, and the mean over systems."""
    if evaluation.targeted is None:
        return []
    tables = []
    for phenomenon, summary in evaluation.targeted.by_distance.items():
        tables.append({
            "phenomenon": phenomenon, "config": summary.config, "buckets": list(summary.buckets),
            "flags": evaluation.configs[summary.config].flags(), "few": FEW_JUDGED,
            "rows": [{"system": s, "accuracy": [summary.accuracy[s][b] for b in summary.buckets],
                      "judged": [summary.judged[s][b] for b in summary.buckets]} for s in by_full_test(evaluation)],
            "mean": [summary.mean[b] for b in summary.buckets],
            "second_reference": None if summary.second_reference is None
            else [summary.second_reference[b] for b in summary.buckets],
        })
    return tables


def targeted_notes(evaluation: Evaluation) -> list[str]:
    """What the page says beside targeted accuracy: what it measures, its judge's pass rate on a
    second human translation (or unmeasured), and the control's part-of-speech matching."""
    if evaluation.targeted is None:
        return []
    control = control_line(evaluation)
    return [DIAGNOSTIC, judge_line(evaluation.targeted), *([control] if control else [])]


def phenomena(evaluation: Evaluation) -> list[str]:
    return sorted({c.phenomenon for c in evaluation.configs.values()})


@dataclass(frozen=True)
class TargetedConfigRow:
    """One lexical config's targeted accuracy against its random-pair control and the humans."""

    config: str
    n: int
    flags: tuple[str, ...]
    mean_accuracy: float | None  # over systems
    mean_random_pairs: float | None  # the control's mean accuracy, over systems
    above_control: int  # systems whose accuracy is above the control's 95th percentile
    below_control: int  # ... below its 5th
    systems: int
    human: HumanCorrelation | None  # targeted accuracy's correlation with the human scores
    second_reference: float | None = None  # the judge's pass rate on a second human translation
    matched: float | None = None  # share of instances whose control pairs have both UPOS


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def targeted_configs(evaluation: Evaluation) -> list[TargetedConfigRow]:
    """Every config with targeted accuracy, in D order: is the dependency matched more often than
    a random word pair at the same distance in the same sentence, and does the accuracy rank the
    systems as the humans do (its τ, corrected p and place among the random pairs' τ)."""
    rows = []
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        scores = [r.targeted for r in config.systems.values() if r.targeted is not None]
        if not scores:
            continue
        judged = [s for s in scores if s.accuracy is not None]
        controls = [s.random_pairs for s in judged if s.random_pairs is not None and s.random_pairs.mean is not None]
        flags = config.flags()
        rows.append(TargetedConfigRow(
            name, config.n, flags, _mean([s.accuracy for s in judged]), _mean([c.mean for c in controls]),
            sum(s.random_pairs is not None and s.random_pairs.p95 is not None and s.accuracy > s.random_pairs.p95
                for s in judged),
            sum(s.random_pairs is not None and s.random_pairs.p5 is not None and s.accuracy < s.random_pairs.p5
                for s in judged),
            len(judged), config.human_targeted, *_judge_and_control(evaluation, name)))
    return rows


def _judge_and_control(evaluation: Evaluation, config: str) -> tuple[float | None, float | None]:
    """The judge's pass rate on a second human translation and the control's UPOS-matched share
    on ``config`` (None where unmeasured or unmatched)."""
    run = evaluation.targeted
    if run is None:
        return None, None
    found = run.judge.by_config.get(config)  # a run's judge is never None: measured or unmeasured
    return (None if found is None else found.accuracy,
            matched_share(run.control.get(config)) if run.control_upos else None)


@dataclass(frozen=True)
class SegmentRow:
    """One config's sentence-level agreement with the human segment scores (``--human-seg``)."""

    config: str
    flags: tuple[str, ...]
    metric: SegmentAgreement | None
    targeted: SegmentAgreement | None


def segment_rows(evaluation: Evaluation, metric: str) -> list[SegmentRow]:
    """The full test set first, then every config with a segment-level agreement, in D order."""
    rows = []
    full = (evaluation.segment_full or {}).get(metric)
    if full is not None:
        rows.append(SegmentRow("(full test set)", (), full, None))
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        found = (config.segment or {}).get(metric)
        if found is None and config.segment_targeted is None:
            continue
        rows.append(SegmentRow(name, config.flags(), found, config.segment_targeted))
    return rows

