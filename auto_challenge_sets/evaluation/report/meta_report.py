"""What ``acs meta-evaluate`` prints: a :class:`~.meta_runs.MetaEvaluation` as text, Markdown or
JSON, its method and its power stated beside the numbers."""

from __future__ import annotations

from typing import Any

from auto_challenge_sets.evaluation.report.cells import corrected_cell, num
from auto_challenge_sets.evaluation.report.name_text import markdown_code, report_name, terminal_text
from auto_challenge_sets.evaluation.report.sections.findings_section import verdict_words
from auto_challenge_sets.evaluation.stats.human import BOOTSTRAP, PERMUTATIONS
from auto_challenge_sets.evaluation.stats.meta_evaluation import Estimate
from auto_challenge_sets.evaluation.stats.meta_runs import FULL, MetaEvaluation, MetaRow, exploratory
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.evaluation.stats.power import delta_power, pairs, power_note
from auto_challenge_sets.tables import render_table


def method(found: MetaEvaluation, ref: str) -> str:
    """How the numbers were found; ``ref``: the reference metric's label, as the output writes it."""
    return (
        "Systems are compared only within their run (each run has its own human scores). Pairwise accuracy: the "
        "share of system pairs a measure orders as humans do, agreeing pairs over all pairs of every run (a tie of "
        "the measure counts as a disagreement). Kendall τ: the within-run τ-b averaged with each run's system pairs "
        "as weights (a pair is the unit of evidence, as in pairwise accuracy). 95% intervals: percentile bootstrap "
        f"over systems, each run resampled on its own ({BOOTSTRAP} resamples, seed {found.seed}). p: human scores "
        f"permuted within each run ({PERMUTATIONS} permutations, two-sided). Δ: the measure minus full-test {ref} "
        "on the same systems, interval from the same resamples, p from swapping the two measures' within-run ranks "
        f"per system (exact where there are at most {PERMUTATIONS + 1} swaps). p (BH): Benjamini–Hochberg per "
        "metric across the configs (the full test set keeps its raw p; small and duplicate configs are left out); "
        f"exploratory: a corrected p ≥ {ALPHA}. The measures were chosen on these same runs: every difference here "
        "is in-sample, a lead to confirm on runs not used to choose them.")


def _with_ci(estimate: Estimate | None, sign: bool = False) -> str:
    if estimate is None or estimate.value is None:
        return "-"
    ci = "" if estimate.ci is None else f" [{num(estimate.ci[0], 2, sign)}, {num(estimate.ci[1], 2, sign)}]"
    return num(estimate.value, 3, sign) + ci


def _p(value: float | None) -> str:
    return corrected_cell(value, False)


def _bh(value: float | None, in_family: bool) -> str:
    return "-" if not in_family or value is None else corrected_cell(value, exploratory(value))


def _config(row: MetaRow, markdown: bool) -> str:
    return report_name(row.config + (f" [{'; '.join(row.flags)}]" if row.flags else ""), markdown)


def _label(found: MetaEvaluation, metric: str, markdown: bool) -> str:
    return report_name(found.label(metric), markdown)


def agreement_table(found: MetaEvaluation, metric: str, markdown: bool = False) -> str:
    header = ["config", "systems", "pairwise accuracy [95% CI]", "p", "p (BH)", "Kendall τ [95% CI]", "p", "p (BH)"]
    rows = [[_config(r, markdown), "+".join(map(str, r.found.systems)), _with_ci(r.found.accuracy), _p(r.found.accuracy.p_value),
             _bh(r.corrected[0], r.in_family), _with_ci(r.found.kendall), _p(r.found.kendall.p_value),
             _bh(r.corrected[1], r.in_family)] for r in found.rows if r.metric == metric]
    return render_table(header, rows, markdown=markdown)


def difference_table(found: MetaEvaluation, metric: str, markdown: bool = False) -> str:
    ref = _label(found, found.reference, markdown)
    header = ["config", f"Δ pairwise accuracy vs full {ref} [95% CI]", "p", "p (BH)", f"Δτ vs full {ref} [95% CI]", "p",
              "p (BH)"]
    rows = []
    for r in (r for r in found.rows if r.metric == metric):
        acc, tau = r.found.accuracy_difference, r.found.kendall_difference
        rows.append([_config(r, markdown), "(the reference)", "-", "-", "-", "-", "-"] if acc is None or tau is None else
                    [_config(r, markdown), _with_ci(acc, True), _p(acc.p_value), _bh(r.corrected[2], r.in_family),
                     _with_ci(tau, True), _p(tau.p_value), _bh(r.corrected[3], r.in_family)])
    return render_table(header, rows, markdown=markdown)


def _metrics(found: MetaEvaluation) -> list[str]:
    return list(dict.fromkeys(r.metric for r in found.rows))


def summary_lines(found: MetaEvaluation, markdown: bool = False) -> list[str]:
    """The two-sided verdict against full-test BLEU, per metric: the configs better and worse after BH,
    the count no different, and the full test set's own at its raw p."""
    ref, lines = _label(found, found.reference, markdown), []
    for metric in _metrics(found):
        rows = [r for r in found.rows if r.metric == metric and r.verdict is not None]
        configs = [r for r in rows if r.config != FULL]

        def named(verdict: str, configs: list[MetaRow] = configs) -> str:
            return ", ".join(_config(r, markdown) for r in configs if r.verdict == verdict) or "none"

        lines.append(f"{_label(found, metric, markdown)}: of {len(configs)} configs, better than full-test {ref}: "
                     f"{named('better')}; worse: {named('worse')}; no different: "
                     f"{sum(r.verdict == 'no different' for r in configs)}")
        lines += [f"full-test {_label(found, metric, markdown)}: {verdict_words(r.verdict, ref)} (raw p)"
                  for r in rows if r.config == FULL]
    return lines


def render(found: MetaEvaluation, markdown: bool = False) -> str:
    path = markdown_code if markdown else terminal_text
    runs = [line for k, (run, n) in enumerate(zip(found.runs, found.systems), start=1) for line in (
        f"run {k}: {path(run.path)} ({report_name(run.pair, markdown)} {report_name(run.split, markdown)}): {n} "
        f"systems with human scores, {pairs(n)} pairs",
        f"run {k} provenance: {report_name(run.provenance, markdown)}")]
    ref = _label(found, found.reference, markdown)
    title = f"Meta-evaluation of {len(found.runs)} run(s) against their human scores (pooled within run)"
    lines = [f"# {title}" if markdown else title, ""]
    lines += [f"- {line}" if markdown else f"  {line}" for line in runs]
    if found.differ:
        lines += ["", f"note: the runs differ in {', '.join(found.differ)} (pooled as given)"]
    lines += ["", method(found, ref), ""]
    for metric in _metrics(found):
        heading = f"{_label(found, metric, markdown)}: agreement with humans"
        lines += [f"## {heading}" if markdown else heading, "", agreement_table(found, metric, markdown), ""]
        if metric in found.power:
            lines += [power_note(found.power[metric]), ""]
        heading = f"{_label(found, metric, markdown)}: difference to full-test {ref}"
        lines += [f"## {heading}" if markdown else heading, "", difference_table(found, metric, markdown), ""]
    heading = f"Verdict against full-test {ref}: better, no different or worse after BH (in-sample)"
    lines += [f"## {heading}" if markdown else heading, ""]
    # the Δτ the pool detects and the systems a Δτ of 0.1 needs, from every family row's interval
    intervals = [r.found.kendall_difference.ci for r in found.rows
                 if r.in_family and r.found.kendall_difference is not None and r.found.kendall_difference.ci]
    power = delta_power(intervals, sum(found.systems))
    lines += [f"- {line}" if markdown else f"  {line}" for line in [*summary_lines(found, markdown),
                                                                      *([power.note()] if power else [])]]
    if found.left_out:
        lines += ["", f"left out (a run scores fewer than 3 of its human-scored systems on them): "
                  f"{', '.join(report_name(c, markdown) for c in found.left_out)}"]
    return "\n".join(lines).rstrip("\n")


def _estimate(estimate: Estimate | None, corrected: float | None) -> dict[str, Any] | None:
    if estimate is None:
        return None
    return {"value": estimate.value, "ci": None if estimate.ci is None else list(estimate.ci),
            "p_value": estimate.p_value, "p_corrected": corrected,
            "exploratory": None if corrected is None else exploratory(corrected)}


def to_json(found: MetaEvaluation) -> dict[str, Any]:
    """The machine-readable form (``acs meta-evaluate --json``)."""
    return {
        "runs": [{"path": run.path, "pair": run.pair, "split": run.split, "human_systems": len(run.human),
                  "provenance": run.provenance} for run in found.runs],
        "differ": list(found.differ),
        "reference": found.reference, "seed": found.seed, "method": method(found, found.label(found.reference)),
        "power": {metric: {"systems": list(p.systems), "family": p.family, "tau_p05": p.single,
                           "tau_bh_alone": p.alone, "tau_bh_tenth": p.with_tenth}
                  for metric, p in found.power.items()},
        "rows": [{"config": r.config, "metric": r.metric, "label": found.label(r.metric), "verdict": r.verdict,
                  "flags": list(r.flags), "in_family": r.in_family,
                  "systems": list(r.found.systems),
                  "accuracy": _estimate(r.found.accuracy, r.corrected[0]),
                  "kendall": _estimate(r.found.kendall, r.corrected[1]),
                  "accuracy_difference": _estimate(r.found.accuracy_difference, r.corrected[2]),
                  "kendall_difference": _estimate(r.found.kendall_difference, r.corrected[3])} for r in found.rows],
        "left_out": list(found.left_out),
    }
