"""The layout of every figure of a report, from the Evaluation's own numbers: this module places
each figure's parts (pixel positions, colours, labels), ``templates/charts.svg.j2`` writes them as
SVG elements, and :mod:`.figures` writes each figure once, as the ``.svg`` file report.md links
and the same SVG inline in index.html.

Why not matplotlib, which drew the report's PNGs (and once the page's SVG): its figures cost more
than the evaluation itself (12.7 s of PNGs and report against 10.6 s of evaluation on the 19-system
WMT21 run), where laying a figure out here costs a few milliseconds; and here each system's line is
one SVG group (``class="series"``) that the page picks out on hover and keyboard focus, with its
name and numbers in a tooltip, which matplotlib's output cannot name.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.report.name_text import isolate
from auto_challenge_sets.evaluation.report.plots import (
    DEGENERATE_GREY,
    FEW_JUDGED,
    HEATMAP,
    HUMAN,
    TARGETED,
    TREND,
    diverging,
    flag_suffix,
    heatmap_configs,
    human_panels,
    in_trends,
    metric_label,
    nice_ticks,
    plot_name,
    system_colours,
)
from auto_challenge_sets.evaluation.results import Evaluation

FONT_PX = 11  # the charts' text size; CHAR_PX the width of a character at that size (for margins)
CHAR_PX = 6.2
LABEL_GAP_PX = 10  # the least vertical space between two direct labels at a line's end
CAPTION_PX = 20  # the line under a figure that repeats its title: a .svg opened alone has no caption
LEGEND_ROW_PX = 14


@dataclass(frozen=True)
class SvgPlot:
    """One figure: how the template draws it (``kind``: heatmap, trend, human, targeted), its size,
    what it draws (``body``), a title, the alt text and its file in the report folder."""

    key: str
    title: str
    alt: str
    kind: str
    width: float
    height: float
    body: dict[str, Any] = field(default_factory=dict)
    file: str = ""

    @property
    def frame_width(self) -> float:
        """The whole figure's width: the drawing, or the caption under it where that is longer."""
        return round(max(self.width, 8 + 1.1 * CHAR_PX * len(self.title)), 1)  # wide letters, ★: a margin

    @property
    def frame_height(self) -> float:
        return self.height + CAPTION_PX


@dataclass(frozen=True)
class Scale:
    """Data values ``low``…``high`` onto pixels ``start``…``end`` (for y, start is the bottom)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        span = self.high - self.low
        return round(self.start + ((value - self.low) / span if span else 0.5) * (self.end - self.start), 1)


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def nice_scale(values: Sequence[float], start: float, end: float, bins: int = 5) -> tuple[Scale, list[float]]:
    """A scale whose ends are round tick values covering ``values``, and its ticks."""
    finite = [v for v in values if _finite(v)] or [0.0, 1.0]
    low, high = min(finite), max(finite)
    if low == high:
        low, high = low - 1, high + 1
    ticks = nice_ticks(low, high, bins)
    return Scale(min(ticks[0], low), max(ticks[-1], high), start, end), ticks


def spread_labels(ys: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP_PX) -> list[float]:
    """Label positions near ``ys`` (pixels, down is larger) at least ``gap`` apart and inside
    top…bottom, in the input's order: direct labels at the lines' ends must not print over
    each other when lines end close together."""
    order = sorted(range(len(ys)), key=lambda k: ys[k])
    placed = [0.0] * len(ys)
    previous = top - gap
    for k in order:
        previous = max(ys[k], previous + gap)
        placed[k] = previous
    overflow = placed[order[-1]] - bottom if order else 0.0
    if overflow > 0:  # pushed past the bottom: shift the run up, keeping the gaps
        limit = top
        for k in order:
            placed[k] = max(placed[k] - overflow, limit)
            limit = placed[k] + gap
    return [round(p, 1) for p in placed]


def _short(config: str) -> str:
    return config.split(".", 1)[1] if "." in config else config


def heatmap(evaluation: Evaluation, metric: str) -> SvgPlot:
    """Systems × configs, each cell the score minus the random mean, red where worse, ★ worse than
    the random band; a degenerate baseline's column hatched grey without stars (its band means
    nothing); the exact numbers in each cell's tooltip."""
    label = isolate(metric_label(evaluation, metric))  # a plug-in's label is a name too: see name_text
    higher = evaluation.higher_is_better[metric]
    configs = heatmap_configs(evaluation)
    systems = list(evaluation.systems)
    names = [_short(c) + flag_suffix(evaluation.configs[c]) for c in configs]
    cell_w, cell_h = 20, 16
    left = 12 + CHAR_PX * max(len(plot_name(s)) for s in systems)
    top = 16 + 0.87 * CHAR_PX * max(len(n) for n in names)  # labels turned 60°
    deltas = {(s, c): evaluation.configs[c].systems[s].scores[metric] for s in systems for c in configs}
    degenerate = {c for c in configs if evaluation.configs[c].degenerate_baseline}
    finite = [abs(m.score - m.random.mean) for (_, c), m in deltas.items()
              if c not in degenerate and _finite(m.score - m.random.mean)]
    limit = max(finite, default=0.0) or 1.0
    cells = []
    for i, system in enumerate(systems):
        for j, config in enumerate(configs):
            score = deltas[system, config]
            delta = score.score - score.random.mean
            worse = evaluation.configs[config].starred(score, higher)
            hatched = config in degenerate
            fill = (DEGENERATE_GREY if hatched or not _finite(delta)
                    else diverging(0.5 + 0.5 * delta / limit, reverse=not higher))
            cells.append({
                "x": left + j * cell_w, "y": top + i * cell_h, "fill": fill, "worse": worse, "hatched": hatched,
                "title": (f"{isolate(system)} on {config}: {label} {score.score:.2f}, random mean {score.random.mean:.2f} "
                          f"(5–95%: {score.random.p5:.2f}–{score.random.p95:.2f}), Δ {delta:+.2f}"
                          + (" ★ worse than the random band" if worse else "")
                          + (" (degenerate baseline: the random band means nothing here)" if hatched else ""))})
    grid_right = left + len(configs) * cell_w
    caption = f"{label} − random mean"
    bar = {"x": grid_right + 16, "y": top, "w": 12, "h": len(systems) * cell_h, "caption": caption,
           "caption_x": grid_right + 16 + 12 + 4 + 7 * CHAR_PX + 10,  # right of the bar's labels (+13.72)
           "stops": [{"offset": round(k / 10, 2), "colour": diverging(1 - k / 10, reverse=not higher)} for k in range(11)],
           "labels": [{"y": top, "text": f"{limit:+.2f}"}, {"y": top + len(systems) * cell_h / 2, "text": "0"},
                      {"y": top + len(systems) * cell_h, "text": f"{-limit:+.2f}"}]}
    body = {"cells": cells, "cell_w": cell_w, "cell_h": cell_h,
            "columns": [{"x": left + (j + 0.5) * cell_w, "y": top - 6, "text": n} for j, n in enumerate(names)],
            "rows": [{"x": left - 6, "y": top + (i + 0.5) * cell_h, "text": isolate(plot_name(s))} for i, s in enumerate(systems)],
            "bar": bar}
    title = f"Heat map, {label}: ★ worse than the random band; hatched grey: degenerate baseline"
    # the bar's caption runs down its middle, and may be longer than the bar
    bottom = max(top + len(systems) * cell_h, top + len(systems) * cell_h / 2 + CHAR_PX * len(caption) / 2)
    alt = (f"{label}: each system's score minus the random mean on each config; red is worse, ★ marks a score "
           "outside the random 5–95% band on the worse side; hatched grey: a degenerate baseline, not coloured")
    return SvgPlot(f"heatmap-{metric}", title, alt, "heatmap", round(bar["caption_x"] + 10, 1), round(bottom + 10, 1),
                   body, HEATMAP.format(pair=evaluation.pair, metric=metric))


def _series(name: str, colour: tuple[str, str], points: list[tuple[float, float, str]], width: float = 1.2
            ) -> dict[str, Any]:
    return {"name": name, "colour": colour[0], "dash": colour[1], "width": width,
            "points": " ".join(f"{x},{y}" for x, y, _ in points),
            "dots": [{"x": x, "y": y, "title": t} for x, y, t in points]}


def trend_plots(evaluation: Evaluation, metric: str) -> list[SvgPlot]:
    """Per phenomenon: every system's score against D, named at its last point, over the random
    5–95th percentile band (mean over systems), n above each point; configs left out of trends
    (small, degenerate baseline) are left out here too."""
    label = isolate(metric_label(evaluation, metric))  # a plug-in's label is a name too: see name_text
    colours = system_colours(evaluation.systems)
    by_phenomenon: dict[str, list[str]] = {}
    for name, config in evaluation.configs.items():
        if in_trends(config):
            by_phenomenon.setdefault(config.phenomenon, []).append(name)
    # the right margin holds the names at the lines' ends (10 px text, about 0.9 of CHAR_PX a character)
    right = max(150.0, 24 + round(0.9 * CHAR_PX * max(len(plot_name(s)) for s in evaluation.systems)))
    width, height = 490.0 + right, 360.0
    left, top, bottom = 56.0, 30.0, 46.0
    plots = []
    for phenomenon, names in sorted(by_phenomenon.items()):
        names.sort(key=config_sort_key)
        configs = [evaluation.configs[n] for n in names]
        ds = [c.min_distance for c in configs]
        scores = {s: [c.systems[s].scores[metric].score for c in configs] for s in evaluation.systems}
        lows = [sum(r.scores[metric].random.p5 for r in c.systems.values()) / len(c.systems) for c in configs]
        highs = [sum(r.scores[metric].random.p95 for r in c.systems.values()) / len(c.systems) for c in configs]
        pad = 0.06 * (max(ds) - min(ds)) or 1.0  # the first and last points off the frame
        x = Scale(min(ds) - pad, max(ds) + pad, left, width - right)
        y, y_ticks = nice_scale([v for vs in scores.values() for v in vs] + lows + highs, height - bottom, top)
        series, ends, names_at_end = [], [], []
        for system, values in scores.items():
            points = [(x(d), y(v), f"{isolate(system)}, D={d}: {label} {v:.2f} (n={c.n})")
                      for d, v, c in zip(ds, values, configs) if _finite(v)]
            if points:
                series.append(_series(isolate(system), colours[system], points))
                ends.append(points[-1][1])
                names_at_end.append(isolate(plot_name(system)))
        for entry, at, text in zip(series, spread_labels(ends, top, height - bottom), names_at_end):
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
        plots.append(SvgPlot(
            f"trend-{phenomenon}-{metric}", f"{phenomenon}, {label} by minimum distance D",
            f"{label} of every system against D on {phenomenon}, with the random 5–95% band and n per point",
            "trend", width, height, body, TREND.format(phenomenon=phenomenon, metric=metric)))
    return plots


def _panel_axes(left: float, top: float, width: float, height: float, xs: Sequence[float], ys: Sequence[float],
                margin: tuple[float, float, float, float] = (50, 12, 30, 40)) -> tuple[Scale, Scale, dict[str, Any]]:
    m_left, m_right, m_top, m_bottom = margin
    x, x_ticks = nice_scale(xs, left + m_left, left + width - m_right, bins=4)
    y, y_ticks = nice_scale(ys, top + height - m_bottom, top + m_top, bins=4)
    area = {"left": left + m_left, "right": left + width - m_right, "top": top + m_top,
            "bottom": top + height - m_bottom,
            "x_ticks": [{"at": x(t), "text": f"{t:g}"} for t in x_ticks],
            "y_ticks": [{"at": y(t), "text": f"{t:g}"} for t in y_ticks]}
    return x, y, area


def human_scatter(evaluation: Evaluation, metric: str, human: dict[str, float]) -> SvgPlot | None:
    """The full test set and each phenomenon's lowest-D usable config against the human scores,
    one panel each, every point named."""
    label = isolate(metric_label(evaluation, metric))  # a plug-in's label is a name too: see name_text
    panels = [("full test set" if name is None else _short(name), scores, found)
              for name, scores, found in human_panels(evaluation, metric)]
    panel_w, panel_h, columns = 330.0, 270.0, 3
    columns = min(columns, len(panels))
    drawn = []
    for k, (title, scores, correlation) in enumerate(panels):
        names = [s for s in evaluation.systems if s in human and _finite(scores.get(s))]
        if not names:
            continue
        left, top = (k % columns) * panel_w, (k // columns) * panel_h
        x, y, area = _panel_axes(left, top, panel_w, panel_h, [human[s] for s in names], [scores[s] for s in names])
        tau = "" if correlation is None or correlation.kendall is None else (
            f" (Kendall τ {correlation.kendall:+.2f}{', exploratory' if correlation.exploratory else ''})")
        points = [{"x": x(human[s]), "y": y(scores[s]), "name": isolate(plot_name(s)),
                   "title": f"{isolate(s)}: human {human[s]:.3f}, {label} {scores[s]:.2f}"} for s in names]
        drawn.append({**area, "title": title + tau, "title_x": left + panel_w / 2, "title_y": top + 16,
                      "points": points, "x_label": "human score",
                      "y_label": label + ("" if evaluation.higher_is_better[metric] else " (lower is better)")})
    if not drawn:
        return None
    rows = -(-len(panels) // columns)
    return SvgPlot(f"human-{metric}", f"{label} against human scores",
                   f"{label} of each system against its human score, on the full test set and each phenomenon's "
                   "lowest-D config, every point named", "human", columns * panel_w, rows * panel_h,
                   {"panels": drawn}, HUMAN.format(pair=evaluation.pair, metric=metric))


def targeted_plot(evaluation: Evaluation) -> SvgPlot | None:
    """Accuracy (%) against the distance bucket, one panel per phenomenon: every system thin and
    named in its tooltip, the mean thick, the instances judged (mean over systems) under each bucket."""
    if evaluation.targeted is None or not evaluation.targeted.by_distance:
        return None
    colours = system_colours(evaluation.systems)
    panel_w, panel_h = 300.0, 270.0
    panels = []
    for k, (phenomenon, summary) in enumerate(evaluation.targeted.by_distance.items()):
        left = k * panel_w
        buckets = list(summary.buckets)
        x = Scale(-0.5, len(buckets) - 0.5, left + 50, left + panel_w - 12)
        y = Scale(0.0, 100.0, panel_h - 52, 30)
        series = []
        for system in evaluation.systems:
            points = [(x(b), y(100 * a), f"{isolate(system)}, d={bucket}: {100 * a:.0f}% of {summary.judged[system][bucket]}"
                       + (" (few)" if summary.judged[system][bucket] < FEW_JUDGED else ""))
                      for b, bucket in enumerate(buckets) if _finite(a := summary.accuracy[system][bucket])]
            if points:
                series.append(_series(isolate(system), colours[system], points, width=1.0))
                for dot, bucket in zip(series[-1]["dots"], [b for b in buckets if _finite(summary.accuracy[system][b])]):
                    dot["few"] = summary.judged[system][bucket] < FEW_JUDGED
        judged = [sum(summary.judged[s][b] for s in evaluation.systems) / len(evaluation.systems) for b in buckets]
        mean = [(x(b), y(100 * a), f"mean, d={bucket}: {100 * a:.0f}%" + (" (few)" if n < FEW_JUDGED else ""))
                for b, (bucket, n) in enumerate(zip(buckets, judged)) if _finite(a := summary.mean[bucket])]
        panels.append({
            "left": left + 50, "right": left + panel_w - 12, "top": 30, "bottom": panel_h - 52,
            "title": phenomenon, "title_x": left + panel_w / 2, "title_y": 16,
            "x_ticks": [{"at": x(b), "text": bucket, "n": f"n={n:.0f}", "few": n < FEW_JUDGED}
                        for b, (bucket, n) in enumerate(zip(buckets, judged))],
            "y_ticks": [{"at": y(t), "text": f"{t:g}"} for t in (0, 25, 50, 75, 100)],
            "series": series, "mean": _series("mean", ("#000000", ""), mean, width=2.5) if mean else None,
            "x_label": "distance d (n: instances judged)", "y_label": "targeted accuracy (%)"})
    # one legend for every panel (the systems in the same colours in each), right of the last
    entries = [(isolate(plot_name(s)), *colours[s], 1.0) for s in evaluation.systems] + [("mean", "#000000", "", 2.5)]
    at = len(panels) * panel_w + 8
    legend = [{"x": at, "y": 30 + k * LEGEND_ROW_PX, "text": text, "colour": colour, "dash": dash, "width": width}
              for k, (text, colour, dash, width) in enumerate(entries)]
    legend.append({"x": at, "y": 30 + len(entries) * LEGEND_ROW_PX, "text": f"hollow: fewer than {FEW_JUDGED} judged",
                   "colour": "", "dash": "", "width": 0})
    width = at + 28 + 0.9 * CHAR_PX * max(len(e["text"]) for e in legend)
    return SvgPlot("targeted-plot", "Targeted accuracy by distance",
                   "targeted accuracy (%) of every system (thin) and their mean (thick) against the distance d, "
                   "with the instances judged per bucket", "targeted", round(width, 1),
                   max(panel_h, 30 + (len(legend) + 1) * LEGEND_ROW_PX),
                   {"panels": panels, "legend": legend}, TARGETED.format(pair=evaluation.pair))

