"""The trends over the minimum distance D, per metric and phenomenon: the summary table (how often a
config scores below the full corpus and the random band, the systems whose score worsens with D),
the trend figures and the terminal's summary per phenomenon."""

from __future__ import annotations

from typing import Any

from auto_challenge_sets.evaluation.report import plots
from auto_challenge_sets.evaluation.report.cells import BELOW_BAND, family_size, ordered_configs
from auto_challenge_sets.evaluation.report.name_text import isolate, report_name
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.tables import render_table

KIND, FILE = "trend", "{phenomenon}.{metric}.trend.svg"

LEGEND = """\
- Summary, per metric and phenomenon, over its (system, config) cells: *< full* the share worse
  than the system's full-corpus score, *< random mean* worse than the random mean, *< random p5*
  worse than the random 5th percentile, *Δ random* the mean difference from the random mean,
  *worsening trend* the systems whose score goes towards worse with D (Spearman over D).
"""


def summary_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    header = ["phenomenon", "cells", "< full", "< random mean", "< random p5", "Δ random", "worsening trend"]
    digits = evaluation.digits(metric)
    rows = [[name, str(s.cells), f"{s.worse_than_full:.0%}", f"{s.worse_than_random_mean:.0%}",
             f"{s.worse_than_random_p5:.0%}", f"{s.mean_delta_random:+.{digits}f}",
             "n/a" if s.worsening_trend is None else  # no trend: fewer than three usable configs
             f"{s.worsening_trend}/{s.trends} ({surviving_worsening(evaluation, metric, name)} BH < 0.05 of "
             f"{family_size(evaluation.trends.get(metric, {}).get(name, {}).values())} trends)"]
            for name, s in evaluation.summary[metric].items()]
    return render_table(header, rows, markdown=markdown)


def surviving_worsening(evaluation: Evaluation, metric: str, phenomenon: str) -> int:
    """The systems whose trend over D worsens and survives the Benjamini–Hochberg correction."""
    sign = 1 if evaluation.higher_is_better[metric] else -1
    trends = evaluation.trends.get(metric, {}).get(phenomenon, {}).values()
    return sum(t.spearman is not None and sign * t.spearman < 0 and t.p_corrected is not None
               and t.p_corrected < ALPHA for t in trends)


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    lines = []
    for metric in evaluation.metrics:
        label = report_name(evaluation.label(metric), markdown)
        if markdown:
            lines += [f"## Summary, {label}", ""]
        else:
            lines.append(f"summary, {label} (distinct configs with enough rows; {BELOW_BAND} in the tables: "
                         "worse than the random 5th percentile)")
        lines += [summary_table(evaluation, metric, markdown), ""]
    return lines


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"phenomena": sorted({c.phenomenon for c in evaluation.configs.values()}),
            "surviving_trends": surviving_worsening}


def trend_plots(evaluation: Evaluation, metric: str) -> list[plots.SvgPlot]:
    """Per phenomenon: every system's score against D over the random 5–95th percentile band (mean over
    systems), n above each point; only the configs in the trends (:func:`.plots.in_trends`)."""
    label = isolate(evaluation.label(metric))  # a plug-in's label is a name too: see name_text
    colours = plots.system_colours(evaluation.systems)
    by_phenomenon: dict[str, list[str]] = {}
    for name in ordered_configs(evaluation):  # each phenomenon's configs in D order
        if plots.in_trends(config := evaluation.configs[name]):
            by_phenomenon.setdefault(config.phenomenon, []).append(name)
    # the right margin holds the names at the lines' ends (10 px text, about 0.9 of CHAR_PX a character)
    right = max(150.0, 24 + round(0.9 * plots.CHAR_PX * max(len(plots.plot_name(s)) for s in evaluation.systems)))
    left, top, bottom = 56.0, 30.0, 46.0
    width, height = 490.0 + right, max(360.0, top + bottom + plots.LABEL_GAP_PX * len(evaluation.systems))  # room for every name
    found = []
    for phenomenon, names in sorted(by_phenomenon.items()):
        configs = [evaluation.configs[n] for n in names]
        ds = [c.min_distance for c in configs]
        scores = {s: [c.systems[s].scores[metric].score for c in configs] for s in evaluation.systems}
        lows = [sum(r.scores[metric].random.p5 for r in c.systems.values()) / len(c.systems) for c in configs]
        highs = [sum(r.scores[metric].random.p95 for r in c.systems.values()) / len(c.systems) for c in configs]
        pad = 0.06 * (max(ds) - min(ds)) or 1.0  # the first and last points off the frame
        x = plots.Scale(min(ds) - pad, max(ds) + pad, left, width - right)
        y, y_ticks = plots.nice_scale([v for vs in scores.values() for v in vs] + lows + highs, height - bottom, top)
        series, ends, names_at_end = [], [], []
        for system, values in scores.items():
            points = [(x(d), y(v), f"{isolate(system)}, D={d}: {label} {v:.2f} (n={c.n})")
                      for d, v, c in zip(ds, values, configs) if plots.is_finite(v)]
            if points:
                series.append(plots.line_series(isolate(system), colours[system], points))
                ends.append(points[-1][1])
                names_at_end.append(isolate(plots.plot_name(system)))
        for entry, at, text in zip(series, plots.spread_labels(ends, top, height - bottom), names_at_end):
            last = entry["dots"][-1]
            entry["label"] = {"x": last["x"] + 8, "y": at, "text": text, "from_y": last["y"]}
        band = [f"{x(d)},{y(v)}" for d, v in zip(ds, lows)] + [f"{x(d)},{y(v)}" for d, v in reversed(list(zip(ds, highs)))]
        body = {"area": {"left": left, "right": width - right, "top": top, "bottom": height - bottom,
                         "x_ticks": [{"at": x(d), "text": str(d)} for d in sorted(set(ds))],
                         "y_ticks": [{"at": y(t), "text": f"{t:g}"} for t in y_ticks]},
                "x_label": "minimum distance D", "y_label": label + ("" if evaluation.higher_is_better[metric]
                                                                     else " (lower is better)"),
                "band": " ".join(band), "band_label": "grey: random 5–95th percentile",
                "counts": [{"x": x(d), "y": top - 8, "text": f"n={c.n}"} for d, c in zip(ds, configs)],
                "series": series}
        found.append(plots.SvgPlot(
            f"trend-{phenomenon}-{metric}", f"{phenomenon}, {label} by minimum distance D",
            f"{label} of every system against D on {phenomenon}, with the random 5–95% band and n per point",
            "trend", width, height, body, FILE.format(phenomenon=phenomenon, metric=metric)))
    return found


def figures(evaluation: Evaluation, metric: str | None, human: dict[str, float] | None) -> list[plots.SvgPlot] | None:
    return None if metric is None else trend_plots(evaluation, metric)


def terminal_table(evaluation: Evaluation) -> list[str]:
    """One row per phenomenon, per metric the share of cells below the random p5 and the worsening trends."""
    phenomena = list(dict.fromkeys(p for metric in evaluation.metrics for p in evaluation.summary.get(metric, {})))
    if not phenomena:
        return []
    header = ["phenomenon", *(f"{report_name(evaluation.label(m), False)} {what}" for m in evaluation.metrics
                              for what in ("< random p5", "worsening"))]
    rows = []
    for phenomenon in phenomena:
        row = [phenomenon]
        for metric in evaluation.metrics:
            s = evaluation.summary.get(metric, {}).get(phenomenon)
            trend = s and ("n/a" if s.worsening_trend is None else f"{s.worsening_trend}/{s.trends}")
            row += ["-", "-"] if s is None else [f"{s.worse_than_random_p5:.0%} of {s.cells}", trend]
        rows.append(row)
    return ["per phenomenon (distinct configs with enough rows):", render_table(header, rows), ""]
