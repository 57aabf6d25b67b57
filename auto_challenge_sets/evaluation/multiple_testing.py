"""p-values corrected across the configs of a run (Benjamini–Hochberg, scipy's
``false_discovery_control``): a run tries dozens of configs, and the best of 30 reaches p < 0.05
by chance alone (issue 23: 5 of 30 random-pair controls did on WMT21).

A family is every p-value of one kind and one metric in the run: Kendall's p of the human
correlation over the configs; the targeted τ over the configs; the segment-level τ over the
configs; the trends over every (phenomenon, system). The full test set is one pre-specified test,
not a choice among configs, and keeps its raw p. A result whose corrected p is at or above
:data:`ALPHA` is *exploratory*: a lead to confirm on another test set, not a finding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from auto_challenge_sets.evaluation.results import ConfigResult, HumanCorrelation, SegmentAgreement, Trend

ALPHA = 0.05
METHOD = "Benjamini–Hochberg (scipy.stats.false_discovery_control, method='bh')"

_Tested = TypeVar("_Tested", HumanCorrelation, SegmentAgreement)


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


def _corrected(results: list[_Tested | None]) -> list[_Tested | None]:
    adjusted = benjamini_hochberg([None if r is None else r.p_value for r in results])
    return [r if r is None else replace(r, p_corrected=p, exploratory=None if p is None else p >= ALPHA)
            for r, p in zip(results, adjusted)]


def correct_configs(configs: Mapping[str, ConfigResult], metrics: Sequence[str]) -> dict[str, ConfigResult]:
    """Every config's human and segment-level results with their corrected p and exploratory label."""
    names = list(configs)
    fields: dict[str, dict[str, object]] = {name: {} for name in names}
    for metric in metrics:
        for key in ("human", "segment"):
            column = _corrected([(getattr(configs[n], key) or {}).get(metric) for n in names])
            for name, value in zip(names, column):
                if getattr(configs[name], key) is not None:
                    fields[name].setdefault(key, dict(getattr(configs[name], key)))[metric] = value  # type: ignore[index]
    for key in ("human_targeted", "segment_targeted"):
        for name, value in zip(names, _corrected([getattr(configs[n], key) for n in names])):
            fields[name][key] = value
    return {name: replace(configs[name], **fields[name]) for name in names}  # type: ignore[arg-type]


def correct_trends(trends: Mapping[str, Mapping[str, Trend]]) -> dict[str, dict[str, Trend]]:
    """One metric's trends (phenomenon -> system -> trend) with BH over all of them."""
    cells = [(phenomenon, system) for phenomenon, per_system in trends.items() for system in per_system]
    adjusted = benjamini_hochberg([trends[p][s].p_value for p, s in cells])
    out: dict[str, dict[str, Trend]] = {phenomenon: {} for phenomenon in trends}
    for (phenomenon, system), value in zip(cells, adjusted):
        out[phenomenon][system] = replace(trends[phenomenon][system], p_corrected=value)
    return out
