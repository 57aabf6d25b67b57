"""p-values corrected across the configs of a run (Benjamini–Hochberg, scipy's
``false_discovery_control``): a run tries dozens of configs, and the best of 30 reaches p < 0.05
by chance alone (issue 23: 5 of 30 random-pair controls did on WMT21).

A family is every p-value of one kind and one metric in the run: Kendall's p of the human
correlation over the configs; the targeted τ over the configs; the segment-level τ over the
configs; the trends over every (phenomenon, system). The full test set is one pre-specified test,
not a choice among configs, and keeps its raw p. The τ difference of each config to full-test
BLEU (``vs_full_test``) is a family of its own per metric, and one for targeted accuracy, with the
same members. A result whose corrected p is at or above
:data:`ALPHA` is *exploratory*: a lead to confirm on another test set, not a finding.

One family member per distinct row set: a config with ``same_rows_as`` X repeats X's test (the same
rows give the same scores, so the same p) and takes X's correction instead of counting twice; in a
targeted family, where a repeat's instances may differ from X's, only when its p equals X's. A
``small`` config is left out of every family (its p is noise the correction must not dilute):
no corrected p, and exploratory. Each corrected result carries ``family_size``, the members
counted, which the reports print beside the corrected p. Targeted accuracy's segment-level
correct − wrong difference is a family of its own (``difference_*``): its interval's label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from auto_challenge_sets.evaluation.results import (
    ConfigResult,
    HumanCorrelation,
    Method,
    SegmentAgreement,
    Trend,
    VersusFullTest,
)

ALPHA = Method.alpha
METHOD = "Benjamini–Hochberg (scipy.stats.false_discovery_control, method='bh')"

_Tested = TypeVar("_Tested", HumanCorrelation, SegmentAgreement, VersusFullTest)


def benjamini_hochberg(p_values: Sequence[float | None]) -> list[float | None]:
    """The BH-adjusted p-values of the present ones, in place; None stays None (nothing was tested)."""
    from scipy.stats import false_discovery_control

    present = [k for k, p in enumerate(p_values) if p is not None]
    out: list[float | None] = [None] * len(p_values)
    if present:
        adjusted = false_discovery_control([p_values[k] for k in present], method="bh")
        for k, value in zip(present, adjusted):
            out[k] = float(value)
    return out


def _corrected(results: list[_Tested | None], configs: Sequence[ConfigResult],
               names: Sequence[str]) -> list[_Tested | None]:
    """One family: BH over its members (tested, not small, not a repeat); a repeat takes its
    original's correction, a small config none."""
    index = {name: k for k, name in enumerate(names)}
    tested = [r is not None and r.p_value is not None for r in results]
    original: dict[int, int] = {}  # repeat -> the config it repeats
    for k, config in enumerate(configs):
        first = None if config.same_rows_as is None else index.get(config.same_rows_as)
        if tested[k] and first is not None and tested[first] and results[first].p_value == results[k].p_value:
            original[k] = first
    members = [k for k in range(len(results)) if tested[k] and not configs[k].small and k not in original]
    out = list(results)
    for k, p in zip(members, benjamini_hochberg([results[k].p_value for k in members])):
        out[k] = replace(results[k], p_corrected=p, exploratory=p >= ALPHA, family_size=len(members))
    for k in range(len(results)):
        if tested[k] and configs[k].small:
            out[k] = replace(results[k], p_corrected=None, exploratory=True, family_size=None)
        elif k in original:
            first = out[original[k]]
            out[k] = replace(results[k], p_corrected=first.p_corrected, exploratory=first.exploratory,
                             family_size=first.family_size)
    return out


def _versus_corrected(results: list[HumanCorrelation | None], configs: Sequence[ConfigResult],
                      names: Sequence[str]) -> list[HumanCorrelation | None]:
    """The τ differences to full-test BLEU (``vs_full_test``) corrected as one family, with the
    members :func:`_corrected` counts."""
    tests = _corrected([None if r is None else r.vs_full_test for r in results], configs, names)
    return [r if r is None or t is None else replace(r, vs_full_test=t) for r, t in zip(results, tests)]


def correct_configs(configs: Mapping[str, ConfigResult], metrics: Sequence[str]) -> dict[str, ConfigResult]:
    """Every config's human and segment-level results with their corrected p, exploratory label
    and family size (see the module docstring for who is in a family)."""
    names = list(configs)
    entries = [configs[n] for n in names]
    fields: dict[str, dict[str, object]] = {name: {} for name in names}
    for metric in metrics:
        for key in ("human", "segment"):
            column = _corrected([(getattr(configs[n], key) or {}).get(metric) for n in names], entries, names)
            if key == "human":
                column = _versus_corrected(column, entries, names)  # type: ignore[arg-type]
            for name, value in zip(names, column):
                if getattr(configs[name], key) is not None:
                    fields[name].setdefault(key, dict(getattr(configs[name], key)))[metric] = value  # type: ignore[index]
    for key in ("human_targeted", "segment_targeted"):
        column = _corrected([getattr(configs[n], key) for n in names], entries, names)
        if key == "human_targeted":
            column = _versus_corrected(column, entries, names)  # type: ignore[arg-type]
        for name, value in zip(names, column):
            fields[name][key] = value
    differences = _difference_corrected([fields[n]["segment_targeted"] for n in names], entries, names)  # type: ignore[misc]
    for name, value in zip(names, differences):
        fields[name]["segment_targeted"] = value
    return {name: replace(configs[name], **fields[name]) for name in names}  # type: ignore[arg-type]


def _difference_corrected(results: list[SegmentAgreement | None], configs: Sequence[ConfigResult],
                          names: Sequence[str]) -> list[SegmentAgreement | None]:
    """Targeted accuracy's correct − wrong difference as a family of its own (its interval's
    label, issue 34): :func:`_corrected` on its p, written back to the ``difference_*`` fields."""
    as_tested = [None if r is None else SegmentAgreement(r.segments, None, r.difference_p_value) for r in results]
    corrected = _corrected(as_tested, configs, names)
    return [r if r is None or c is None else replace(
        r, difference_p_corrected=c.p_corrected, difference_exploratory=c.exploratory,
        difference_family_size=c.family_size) for r, c in zip(results, corrected)]


def correct_trends(trends: Mapping[str, Mapping[str, Trend]]) -> dict[str, dict[str, Trend]]:
    """One metric's trends (phenomenon -> system -> trend) with BH over all of them."""
    cells = [(phenomenon, system) for phenomenon, per_system in trends.items() for system in per_system]
    adjusted = benjamini_hochberg([trends[p][s].p_value for p, s in cells])
    size = sum(p is not None for p in adjusted) or None
    out: dict[str, dict[str, Trend]] = {phenomenon: {} for phenomenon in trends}
    for (phenomenon, system), value in zip(cells, adjusted):
        out[phenomenon][system] = replace(trends[phenomenon][system], p_corrected=value,
                                          family_size=None if value is None else size)
    return out
