"""Per run, every human correlation's τ difference to full-test BLEU (the run's first metric
without BLEU): :func:`.meta_evaluation.difference` on one run; :mod:`.multiple_testing` corrects
the configs' p-values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from auto_challenge_sets.evaluation.results import ConfigResult, Evaluation, HumanCorrelation, VersusFullTest
from auto_challenge_sets.evaluation.stats import SEED
from auto_challenge_sets.evaluation.stats.meta_evaluation import RunScores, difference
from auto_challenge_sets.evaluation.stats.multiple_testing import verdict
from auto_challenge_sets.evaluation.stats.power import (
    DeltaPower,
    Power,
    delta_power,
    power,
    power_note,
)

REFERENCE = "bleu"


def reference_metric(metrics: tuple[str, ...] | list[str]) -> str:
    return REFERENCE if REFERENCE in metrics else metrics[0]


def oriented(scores: Mapping[str, float], higher_is_better: bool) -> dict[str, float]:
    """Scores turned so that higher is better (as the correlations read them)."""
    return dict(scores) if higher_is_better else {s: -v for s, v in scores.items()}


def versus(auto: Mapping[str, float | None], reference: Mapping[str, float], human: Mapping[str, float],
           name: str, seed: int = SEED) -> VersusFullTest | None:
    """τ(auto) − τ(reference) over the systems with all three scores; None below 3 systems."""
    systems = [s for s, v in auto.items() if v is not None and s in reference and s in human]
    if len(systems) < 3:
        return None
    truth = np.asarray([human[s] for s in systems], dtype=np.float64)
    run = RunScores(np.asarray([auto[s] for s in systems], dtype=np.float64), truth)
    other = RunScores(np.asarray([reference[s] for s in systems], dtype=np.float64), truth)
    _, kendall = difference([run], [other], seed)
    return VersusFullTest(name, kendall.value, kendall.ci, kendall.p_value)


def add_versus_full_test(configs: Mapping[str, ConfigResult], human_full: Mapping[str, HumanCorrelation | None],
                         full: Mapping[str, Mapping[str, float]], higher_is_better: Mapping[str, bool],
                         human: Mapping[str, float], seed: int = SEED,
                         ) -> tuple[dict[str, HumanCorrelation | None], dict[str, ConfigResult]]:
    """``human_full`` and ``configs`` with every correlation's ``vs_full_test`` filled in."""
    name = reference_metric(list(higher_is_better))
    reference = oriented({s: full[s][name] for s in full}, higher_is_better[name])

    def compared(found: HumanCorrelation | None, scores: Mapping[str, float | None],
                 metric: str | None, full_test: bool = False) -> HumanCorrelation | None:  # None: targeted accuracy
        auto = scores if metric is None else oriented(scores, higher_is_better[metric])  # type: ignore[arg-type]
        test = None if found is None else versus(auto, reference, human, name, seed)
        if full_test and test is not None:  # one pre-specified test: its verdict at its raw p (configs: after BH)
            test = replace(test, verdict=verdict(test.delta, test.p_value))
        return None if found is None else replace(found, vs_full_test=test)

    new_full = {metric: found if metric == name else compared(found, {s: full[s][metric] for s in full}, metric, True)
                for metric, found in human_full.items()}
    new_configs = {key: replace(config, human=None if config.human is None else {
        metric: compared(found, {s: r.scores[metric].score for s, r in config.systems.items()}, metric)
        for metric, found in config.human.items()}, human_targeted=compared(config.human_targeted, {
            s: None if r.targeted is None else r.targeted.accuracy for s, r in config.systems.items()}, None))
        for key, config in configs.items()}
    return new_full, new_configs


def run_power(evaluation: Evaluation, metric: str | None) -> Power | None:
    """The τ one metric's (None: targeted accuracy's) correlations of the run need, for their BH family."""
    found = [c.human_targeted if metric is None else (c.human or {}).get(metric) for c in evaluation.configs.values()]
    found = [f for f in found if f is not None]
    full = None if metric is None else (evaluation.human_full or {}).get(metric)
    systems = [f.systems for f in [full, *found] if f is not None]
    if not systems:
        return None
    return power([max(systems)], next((f.family_size for f in found if f.family_size), 0))


def run_delta_power(evaluation: Evaluation, metrics: Iterable[str | None]) -> DeltaPower | None:
    """The Δτ against full-test BLEU the run detects, from the intervals of these metrics' (None:
    targeted accuracy's) differences on the configs corrected together."""
    found = [c.human_targeted if m is None else (c.human or {}).get(m) for c in evaluation.configs.values()
             for m in metrics]
    tests = [f.vs_full_test for f in found if f is not None and f.vs_full_test is not None]
    intervals = [t.ci for t in tests if t.ci is not None and t.family_size]
    systems = max((f.systems for f in found if f is not None), default=0)
    return delta_power(intervals, systems) if systems else None


def power_line(evaluation: Evaluation, metric: str | None) -> str | None:
    """The sentences a reader sees under a table of τ values (None without human scores)."""
    found, delta = run_power(evaluation, metric), run_delta_power(evaluation, [metric])
    return None if found is None else " ".join([power_note(found), *([delta.note()] if delta else [])])
