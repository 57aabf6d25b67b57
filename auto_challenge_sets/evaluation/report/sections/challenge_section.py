"""The challenge sets' scores, config by config: per config every system by every metric beside its
random baseline and its paired test against the baseline system; the page's table of every (config,
system, metric) cell, each number the Evaluation's own float; the heat map per metric."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from auto_challenge_sets.evaluation.report import cells as marks
from auto_challenge_sets.evaluation.report import plots
from auto_challenge_sets.evaluation.report.cells import num, ordered_configs, ranked_systems
from auto_challenge_sets.evaluation.report.name_text import isolate, markdown_text, report_name
from auto_challenge_sets.evaluation.report.sections import full_test_section as full_test
from auto_challenge_sets.evaluation.report.sections import human_section as human
from auto_challenge_sets.evaluation.results import SAME_ROWS, SMALL, Evaluation
from auto_challenge_sets.tables import render_table

KIND, FILE = "heatmap", "{pair}.{metric}.heatmap.svg"
TABLES = "tables.{metric}.md"  # report.md's appendix per metric: its figures, full-test ranking and per-config tables
PAGE_ROWS = 100  # rows of the all-scores table a page shows at a time
DEGENERATE_GREY = "#d9d9d9"  # a heat map's degenerate-baseline column: no colour, no mark, hatched
# a heat map's column marks, named in its title: the flags in words would take more room than the map
MARKS = {SMALL: ("°", "small"), SAME_ROWS: ("=", "same rows as an earlier config")}

TABLE_LEGEND = f"""\
- *score*: the metric on the config's rows (BLEU, chrF and TER are sacrebleu's, 0–100; RIBES is
  NTT's, 0–1; TER is an error rate: lower is better). {marks.BELOW_BAND} after a score: worse than the
  random band, the 5th percentile of the random corpora (above the 95th where lower is better).
- *random* / *p5*: mean and 5th percentile of the metric over length-matched random corpora drawn
  from the full corpus (every challenge sentence replaced by a sentence whose source length
  differs by at most the tolerance).
- *Δ (p)*: the system's score minus the baseline system's on the same rows, and the p-value of
  sacrebleu's paired test (approximate randomization with 10,000 trials by default); `{marks.SIGNIFICANT}`
  after it: p < 0.05, as sacrebleu and the WMT findings mark it (not corrected).
"""


def config_table(evaluation: Evaluation, config: str, markdown: bool = False, metrics: list[str] | None = None) -> str:
    """One row per system: each metric (all by default), its random mean and p5, and the paired test
    against the baseline."""
    entry, metrics = evaluation.configs[config], metrics or evaluation.metrics
    header = ["system"]
    for metric in metrics:
        header += [report_name(evaluation.label(metric), markdown), "random", "p5"]
    header += [f"Δ{report_name(evaluation.label(m), markdown)} (p)" for m in metrics]
    rows = []
    first = metrics[0]
    for system in ranked_systems(evaluation, lambda s: entry.systems[s].scores[first].score if s in entry.systems else None):
        if system not in entry.systems:
            continue
        result = entry.systems[system]
        row = [report_name(system, markdown) + (" (baseline)" if system == evaluation.baseline_system else "")]
        for metric in metrics:
            score, digits = result.scores[metric], evaluation.digits(metric)
            worse = entry.below_band(score, evaluation.higher_is_better[metric])
            random = score.random
            row += [num(score.score, digits) + (marks.BELOW_BAND if worse else ""),
                    *(["n/a", "n/a"] if random is None else ["-", "-"] if entry.degenerate_baseline
                      else [num(random.mean, digits), num(random.p5, digits)])]
        row += [marks.paired_cell(result.scores[metric].vs_baseline, evaluation.digits(metric)) for metric in metrics]
        rows.append(row)
    return render_table(header, rows, markdown=markdown)


def config_heading(evaluation: Evaluation, config: str, markdown: bool = False) -> str:
    entry = evaluation.configs[config]
    flags = list(entry.flags())
    if entry.widened:
        flags.append(f"widened {entry.widened}")
    if entry.random_unavailable:
        flags.append(f"random baseline n/a: {report_name(entry.random_unavailable, markdown)}")
    return f"{config} (n = {entry.n})" + (f" [{'; '.join(flags)}]" if flags else "")


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    """Per config, in D order, its heading and table, after what the marks mean (the terminal's);
    report.md's appendix: the links to its per-metric files."""
    if markdown:
        links = ", ".join(f"[{report_name(evaluation.label(m), True)}]({quote(TABLES.format(metric=m))})"
                          for m in evaluation.metrics)
        return ["## Appendix: figures and tables per metric", "",
                f"Each metric's figures, full-test ranking and per-config tables: {links}.", ""]
    lines = [f"{marks.BELOW_BAND} after a score: worse than the random band; {marks.SIGNIFICANT} after "
             "a p: p < 0.05 against the baseline system (sacrebleu's paired test)", ""]
    for config in ordered_configs(evaluation):
        lines += [config_heading(evaluation, config), config_table(evaluation, config), ""]
    return lines


def figure_links(figures: list[plots.SvgPlot], metric: str | None = None) -> list[str]:
    """The links to a metric's figures (``None``: to the run's own), then a blank line."""
    return [f"![{markdown_text(f.file.removesuffix('.svg'))}]({quote(f.file)})"
            for f in figures if f.metric == metric] + [""]


def write_tables(evaluation: Evaluation, out: Path, figures: list[plots.SvgPlot]) -> list[Path]:
    """Per metric, report.md's appendix :data:`TABLES`: its figures, full-test ranking and per-config tables."""
    written = []
    for metric in evaluation.metrics:
        label = report_name(evaluation.label(metric), True)
        lines = [f"# {label}: figures and tables per config", "", "The findings and summaries are in "
                 "[report.md](report.md).", "", TABLE_LEGEND, *figure_links(figures, metric),
                 *full_test.full_test_section(evaluation, True, [metric])]
        if human.human_rows(evaluation, metric):
            lines += [f"## Correlation with human scores, {label}", "", human.human_table(evaluation, metric, True), ""]
        for config in ordered_configs(evaluation):
            lines += [f"## {config_heading(evaluation, config, True)}", "",
                      config_table(evaluation, config, True, [metric]), ""]
        written.append(out / TABLES.format(metric=metric))
        written[-1].write_text("\n".join(lines), encoding="utf-8")
    return written


@dataclass(frozen=True)
class Cell:
    config: str
    phenomenon: str
    min_distance: int | None
    n: int
    system: str
    metric: str
    score: float
    random_mean: float | None  # None: no random baseline (random_unavailable says why)
    random_p5: float | None
    random_p95: float | None
    percentile: float | None  # None on a degenerate baseline too
    delta_random: float | None
    worse_than_band: bool
    delta_baseline: float | None
    paired_p: float | None
    significant: bool  # paired_p < 0.05 (cells.SIGNIFICANT)
    flags: tuple[str, ...] = ()  # ConfigResult.flags: small, degenerate baseline, same rows as
    random_unavailable: str | None = None


def cells(evaluation: Evaluation) -> list[Cell]:
    """Every (config, system, metric) of the run, configs in D order."""
    out = []
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        for system, result in config.systems.items():
            for metric in evaluation.metrics:
                score = result.scores[metric]
                random, test = score.random, score.vs_baseline
                worse = config.below_band(score, evaluation.higher_is_better[metric])
                band = (None,) * 5 if random is None or config.degenerate_baseline else (
                    random.mean, random.p5, random.p95, random.percentile, score.score - random.mean)
                out.append(Cell(name, config.phenomenon, config.min_distance, config.n, system, metric,
                                score.score, *band, worse, None if test is None else test.delta,
                                None if test is None else test.p_value, test is not None and test.p_value < marks.ALPHA,
                                config.flags(), config.random_unavailable))
    return out


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"configs": ordered_configs(evaluation), "cells": cells(evaluation), "page_size": PAGE_ROWS}


def heatmap(evaluation: Evaluation, metric: str) -> plots.SvgPlot:
    """Systems × configs, each cell the score minus the random mean, red where worse, ▼ worse than
    the random band; a degenerate baseline's column hatched grey without marks or random numbers
    (its band means nothing); the exact numbers in each cell's tooltip."""
    label = isolate(evaluation.label(metric))  # a plug-in's label is a name too: see name_text
    higher = evaluation.higher_is_better[metric]
    configs = [n for n in ordered_configs(evaluation) if evaluation.configs[n].random_unavailable is None]
    systems = list(evaluation.systems)
    flagged = {c: "".join(mark for key, (mark, _) in MARKS.items() if any(f.startswith(key) for f in evaluation.configs[c].flags()))
             for c in configs}
    names = [f"{plots.short(c)} {flagged[c]}".rstrip() for c in configs]
    cell_w, cell_h = 20, 16
    left = 12 + plots.CHAR_PX * max(len(plots.plot_name(s)) for s in systems)
    top = 16 + 0.87 * plots.CHAR_PX * max(len(n) for n in names)  # labels turned 60°
    deltas = {(s, c): evaluation.configs[c].systems[s].scores[metric] for s in systems for c in configs}
    degenerate = {c for c in configs if evaluation.configs[c].degenerate_baseline}
    finite = [abs(m.score - m.random.mean) for (_, c), m in deltas.items()
              if c not in degenerate and plots.is_finite(m.score - m.random.mean)]
    limit = max(finite, default=0.0) or 1.0
    cells = []
    for i, system in enumerate(systems):
        for j, config in enumerate(configs):
            score = deltas[system, config]
            delta = score.score - score.random.mean
            worse = evaluation.configs[config].below_band(score, higher)
            hatched = config in degenerate
            fill = (DEGENERATE_GREY if hatched or not plots.is_finite(delta)
                    else plots.diverging(0.5 + 0.5 * delta / limit, reverse=not higher))
            band = (" (degenerate baseline: no random band)" if hatched else
                    f", random mean {score.random.mean:.2f} (5–95%: {score.random.p5:.2f}–{score.random.p95:.2f}), "
                    f"Δ {delta:+.2f}" + (f" {marks.BELOW_BAND} worse than the random band" if worse else ""))
            cells.append({"x": left + j * cell_w, "y": top + i * cell_h, "fill": fill, "worse": worse, "hatched": hatched,
                          "title": f"{isolate(system)} on {config}: {label} {score.score:.2f}{band}"})
    grid_right = left + len(configs) * cell_w
    caption = f"{label} − random mean"
    bar = {"x": grid_right + 16, "y": top, "w": 12, "h": len(systems) * cell_h, "caption": caption,
           "caption_x": grid_right + 16 + 12 + 4 + 7 * plots.CHAR_PX + 10,  # right of the bar's labels (+13.72)
           "stops": [{"offset": round(k / 10, 2), "colour": plots.diverging(1 - k / 10, reverse=not higher)} for k in range(11)],
           "labels": [{"y": top, "text": f"{limit:+.2f}"}, {"y": top + len(systems) * cell_h / 2, "text": "0"},
                      {"y": top + len(systems) * cell_h, "text": f"{-limit:+.2f}"}]}
    body = {"cells": cells, "cell_w": cell_w, "cell_h": cell_h,
            "columns": [{"x": left + (j + 0.5) * cell_w, "y": top - 6, "text": n} for j, n in enumerate(names)],
            "rows": [{"x": left - 6, "y": top + (i + 0.5) * cell_h, "text": isolate(plots.plot_name(s))} for i, s in enumerate(systems)],
            "bar": bar}
    title = f"Heat map, {label}: {marks.BELOW_BAND} worse than the random band; hatched grey: degenerate baseline"
    title += "".join(f"; {mark} {what}" for mark, what in MARKS.values() if any(mark in m for m in flagged.values()))
    # the bar's caption runs down its middle, and may be longer than the bar
    bottom = max(top + len(systems) * cell_h, top + len(systems) * cell_h / 2 + plots.CHAR_PX * len(caption) / 2)
    alt = (f"{label}: each system's score minus the random mean on each config; red is worse, {marks.BELOW_BAND} marks a score "
           "outside the random 5–95% band on the worse side; hatched grey: a degenerate baseline, not coloured")
    return plots.SvgPlot(f"heatmap-{metric}", title, alt, "heatmap", round(bar["caption_x"] + 10, 1),
                         round(bottom + 10, 1), body, FILE.format(pair=evaluation.pair, metric=metric))


def figures(evaluation: Evaluation, metric: str | None, human: dict[str, float] | None) -> list[plots.SvgPlot] | None:
    """A metric's heat map (None for the run, or without a config with a random baseline)."""
    if metric is None or all(c.random_unavailable is not None for c in evaluation.configs.values()):
        return None
    return [heatmap(evaluation, metric)]


def flagged_line(evaluation: Evaluation) -> str:
    counts = Counter(flag.split(" as ")[0] + (" as another" if " as " in flag else "")
                     for entry in evaluation.configs.values() for flag in entry.flags())
    flagged = sum(1 for entry in evaluation.configs.values() if entry.flags())
    detail = "; ".join(f"{n} {flag}" for flag, n in counts.items())
    return f"configs: {len(evaluation.configs)} scored, {flagged} flagged" + (f" ({detail})" if detail else "")
