"""p-values corrected across the configs of a run (Benjamini–Hochberg, scipy's
``false_discovery_control``), one family per kind of p and metric; a repeat of a config's rows
takes its correction, a small config none. The method: docs/method.md, "Corrected p-values".
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

_Tested = TypeVar("_Tested", HumanCorrelation, SegmentAgreement, VersusFullTest)


def benjamini_hochberg(p_values: Sequence[float | None]) -> list[float | None]:
    """The BH-adjusted p-values of the present ones, in place; None stays None (nothing was tested)."""
    from scipy.stats import false_discovery_control

    present = [p for p in p_values if p is not None]
    adjusted = iter(false_discovery_control(present, method="bh").tolist() if present else [])
    return [None if p is None else next(adjusted) for p in p_values]


def verdict(delta: float | None, p: float | None) -> str | None:
    """A measure against the reference at its p (the corrected one where a family was corrected):
    better or worse where p < ALPHA, by the sign of ``delta``, else no different; None untested."""
    if delta is None or p is None:
        return None
    return "no different" if p >= ALPHA or delta == 0 else "better" if delta > 0 else "worse"


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


def correct_configs(configs: Mapping[str, ConfigResult], metrics: Sequence[str]) -> dict[str, ConfigResult]:
    """Every config's human and segment-level results with their corrected p, exploratory label
    and family size."""
    names, entries = list(configs), list(configs.values())

    def family(results: list) -> list:
        return _corrected(results, entries, names)

    def versus(results: list) -> list:  # the τ differences to full-test BLEU, corrected as a family
        tests = family([None if r is None else r.vs_full_test for r in results])
        return [r if r is None or t is None else replace(r, vs_full_test=replace(
            t, verdict=verdict(t.delta, t.p_corrected))) for r, t in zip(results, tests)]

    fields: dict[str, dict[str, object]] = {name: {} for name in names}
    for key, then in (("human", versus), ("segment", list)):
        for metric in metrics:
            column = then(family([(getattr(c, key) or {}).get(metric) for c in entries]))
            for name, config, value in zip(names, entries, column):
                if getattr(config, key) is not None:
                    fields[name].setdefault(key, dict(getattr(config, key)))[metric] = value  # type: ignore[index]
    segment = family([c.segment_targeted for c in entries])
    differences = family([None if r is None else SegmentAgreement(r.segments, None, r.difference_p_value)
                          for r in segment])
    for name, human, found, difference in zip(names, versus(family([c.human_targeted for c in entries])), segment,
                                              differences):
        fields[name]["human_targeted"] = human
        fields[name]["segment_targeted"] = found if found is None or difference is None else replace(
            found, difference_p_corrected=difference.p_corrected, difference_exploratory=difference.exploratory,
            difference_family_size=difference.family_size)
    return {name: replace(configs[name], **fields[name]) for name in names}  # type: ignore[arg-type]


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
