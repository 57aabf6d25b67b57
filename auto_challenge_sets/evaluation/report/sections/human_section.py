"""Agreement with the human scores, per metric: each config's correlation over systems and its
difference from the full test set's BLEU, the power of the test, and the scatter figures."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.evaluation.report import cells, plots
from auto_challenge_sets.evaluation.report.cells import config_label, corrected_cell, family_header, num
from auto_challenge_sets.evaluation.report.name_text import isolate, report_name
from auto_challenge_sets.evaluation.report.sections.full_test_section import full_corpus_label
from auto_challenge_sets.evaluation.results import Evaluation, HumanCorrelation
from auto_challenge_sets.evaluation.stats.human import MIN_CI_SYSTEMS
from auto_challenge_sets.evaluation.stats.versus_full import power_line, reference_metric
from auto_challenge_sets.tables import render_table

KIND, FILE = "human", "{pair}.{metric}.human.svg"
FULL = "(full test set)"  # the first row of the tables (the text's names another full corpus: full_corpus_label)

LEGEND = """\
- Human correlation, per metric (scores negated where lower is better: a positive τ agrees with
  humans): Spearman's ρ, Kendall's τ and its p over systems, a 95% bootstrap interval of τ, and
  *random τ pct*: where τ falls among its random corpora's (near 50: no better than random
  sentences of its lengths). *Δτ vs full BLEU*: τ minus full-test BLEU's over the same systems, a
  95% paired bootstrap interval, the p of swapping the two measures' ranks per system, and its BH
  correction. *Power*: the τ needed for p < 0.05 and to survive BH, and the Δτ the run detects.
"""


def _human_cells(row: HumanRow) -> list[str]:
    human, ci = row.correlation, row.correlation.ci
    return [str(human.systems), num(human.spearman, 3), num(human.kendall, 3), num(human.p_value, 3),
            corrected_cell(human.p_corrected, human.exploratory),
            ("n/a: too few systems" if human.systems < MIN_CI_SYSTEMS else "-") if not ci else f"[{ci[0]:.2f}, {ci[1]:.2f}]",
            num(row.random_percentile, 0)]


def versus_cells(human: HumanCorrelation | None) -> list[str]:
    """τ minus full-test BLEU's, its interval, raw and corrected p."""
    test = None if human is None else human.vs_full_test
    if test is None or test.delta is None:
        return ["-", "-", "-"]
    ci = "" if test.ci is None else f" [{test.ci[0]:+.2f}, {test.ci[1]:+.2f}]"
    return [f"{test.delta:+.3f}{ci}", num(test.p_value, 3), corrected_cell(test.p_corrected, test.exploratory)]


def versus_header(evaluation: Evaluation, found: Iterable[HumanCorrelation | None], markdown: bool,
                  what: str = "τ") -> list[str]:
    """The Δτ columns' headers; ``found``: the correlations whose differences the column holds (their family)."""
    reference = report_name(evaluation.label(reference_metric(evaluation.metrics)), markdown)
    return [f"Δ{what} vs full {reference} [95% CI]", "p",
            family_header("p", (None if h is None else h.vs_full_test for h in found))]


def human_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    found = [(c.human or {}).get(metric) for c in evaluation.configs.values()]
    header = ["config", "n", "systems", "Spearman", "Kendall", "p", family_header("p", found), "95% CI",
              "random τ pct", *versus_header(evaluation, found, markdown)]
    rows = [[f"({full_corpus_label(evaluation, markdown)})" if row.config == FULL else config_label(row.config, row.flags),
             str(row.n), *_human_cells(row), *versus_cells(row.correlation)] for row in human_rows(evaluation, metric)]
    return render_table(header, rows, markdown=markdown)


def power(evaluation: Evaluation, metric: str | None) -> list[str]:
    line = power_line(evaluation, metric)
    return [] if line is None else [line, ""]


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    lines = []
    for metric in evaluation.metrics:
        if human_rows(evaluation, metric):
            title = f"orrelation with human scores, {report_name(evaluation.label(metric), markdown)}"
            lines += [f"## C{title}", ""] if markdown else [f"c{title}"]
            # report.md keeps the finding and the power; its table per config is in the metric's appendix file
            table = ["Per config: in this metric's tables file (the appendix)."] if markdown else [
                human_table(evaluation, metric)]
            lines += [*table, "", *power(evaluation, metric)]
    return lines


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
        rows.append(HumanRow(FULL, evaluation.full_corpus_rows, full))  # no random corpora: no percentile
    for name in cells.ordered_configs(evaluation):
        config = evaluation.configs[name]
        found = (config.human or {}).get(metric)
        if found is not None:
            rows.append(HumanRow(name, config.n, found, config.flags(),
                                 None if config.degenerate_baseline else found.random_kendall_percentile))
    return rows


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"human": {m: human_rows(evaluation, m) for m in evaluation.metrics},
            "human_power": {m: power_line(evaluation, m) for m in evaluation.metrics},
            "versus_label": evaluation.label(reference_metric(evaluation.metrics))}


def human_scatter(evaluation: Evaluation, metric: str, human: dict[str, float]) -> plots.SvgPlot | None:
    """The full test set and each phenomenon's lowest-D config in the trends against the human
    scores, one panel each, every point named: by its name beside it where that fits
    (:func:`.plots.place_labels`), else by its number in the legend under the panels."""
    label = isolate(evaluation.label(metric))  # a plug-in's label is a name too: see name_text
    panels = [("full test set", {s: evaluation.full[s][metric] for s in evaluation.systems},
               (evaluation.human_full or {}).get(metric))]
    seen = set()
    for name in cells.ordered_configs(evaluation):
        config = evaluation.configs[name]
        if plots.in_trends(config) and config.phenomenon not in seen:
            seen.add(config.phenomenon)
            panels.append((plots.short(name), {s: r.scores[metric].score for s, r in config.systems.items()},
                           (config.human or {}).get(metric)))
    panel_w, panel_h = 330.0, 270.0
    columns = min(3, len(panels))
    drawn, number, numbered = [], {s: k + 1 for k, s in enumerate(evaluation.systems)}, set()
    for k, (title, scores, correlation) in enumerate(panels):
        names = [s for s in evaluation.systems if s in human and plots.is_finite(scores.get(s))]
        if not names:
            continue
        left, top = (k % columns) * panel_w, (k // columns) * panel_h
        x, x_ticks = plots.nice_scale([human[s] for s in names], left + 56, left + panel_w - 16, bins=4)
        y, y_ticks = plots.nice_scale([scores[s] for s in names], top + panel_h - 40, top + 30, bins=4)
        tau = "" if correlation is None or correlation.kendall is None else (
            f" (Kendall τ {correlation.kendall:+.2f}{', exploratory' if correlation.exploratory else ''})")
        at = [(x(human[s]), y(scores[s])) for s in names]
        frame, taken = (left + 56, top + 30, left + panel_w - 16, top + panel_h - 40), [(a - 3, b - 3, a + 3, b + 3) for a, b in at]
        labels = plots.place_labels(at, [(isolate(plots.plot_name(s)), str(number[s])) for s in names], frame, taken)
        numbered.update(s for s, placed in zip(names, labels) if placed is None or placed["text"] == str(number[s]))
        points = [{"x": a, "y": b, "label": placed, "title": f"{isolate(s)}: human {human[s]:.3f}, {label} {scores[s]:.2f}"}
                  for (a, b), placed, s in zip(at, labels, names)]
        drawn.append({**dict(zip(("left", "top", "right", "bottom"), frame)),
                      "x_ticks": [{"at": x(t), "text": f"{t:g}"} for t in x_ticks],
                      "y_ticks": [{"at": y(t), "text": f"{t:g}"} for t in y_ticks],
                      "title": title + tau, "title_x": left + panel_w / 2, "title_y": top + 16,
                      "points": points, "x_label": "human score",
                      "y_label": label + ("" if evaluation.higher_is_better[metric] else " (lower is better)")})
    if not drawn:
        return None
    rows = -(-len(panels) // columns)
    keys = ["numbered points:", *(f"{number[s]} {isolate(plots.plot_name(s))}" for s in evaluation.systems if s in numbered)]
    key_w = 12 + max(map(plots.text_width, keys))  # the legend in columns of its widest entry
    per_row = max(1, int((columns * panel_w - 8) // key_w))
    legend = [{"x": 8 + (k % per_row) * key_w, "y": rows * panel_h + 4 + (k // per_row) * plots.LEGEND_ROW_PX, "text": t}
              for k, t in enumerate(keys)]
    return plots.SvgPlot(f"human-{metric}", f"{label} against human scores",
                         f"{label} of each system against its human score, on the full test set and each "
                         "phenomenon's lowest-D config, every point named", "human", columns * panel_w,
                         legend[-1]["y"] + 16 if numbered else rows * panel_h,
                         {"panels": drawn, "legend": legend if numbered else []}, FILE.format(pair=evaluation.pair, metric=metric))


def figures(evaluation: Evaluation, metric: str | None, human: dict[str, float] | None) -> list[plots.SvgPlot | None] | None:
    return None if metric is None or not human else [human_scatter(evaluation, metric, human)]
