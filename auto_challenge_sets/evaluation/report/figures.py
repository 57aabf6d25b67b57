"""Every figure of a report, drawn once: laid out by :mod:`.html_plots`, written as SVG by
``templates/charts.svg.j2``, saved as the ``.svg`` files report.md links and put, the same text,
inline in index.html (which keeps the tooltips and the line picked out on hover that an ``<img>``
would lose). The SVG depends on the Evaluation alone: no date, counter or random id, so the same
result gives the same bytes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auto_challenge_sets.builder.pipeline.timings import stage
from auto_challenge_sets.evaluation.report import html_plots
from auto_challenge_sets.evaluation.report.plots import heatmap_configs
from auto_challenge_sets.evaluation.results import Evaluation

KINDS = ("heatmap", "trend", "human", "targeted")  # the page's figure sections, in its order


@dataclass(frozen=True)
class Figure:
    """One figure as written: what it shows (``plot``) and its SVG text (markup-safe, for the page)."""

    plot: html_plots.SvgPlot
    svg: Any

    @property
    def file(self) -> str:
        return self.plot.file

    @property
    def key(self) -> str:  # the page's anchor
        return self.plot.key

    @property
    def title(self) -> str:  # the page's caption
        return self.plot.title

    @property
    def alt(self) -> str:
        return self.plot.alt


def chart_writer() -> Any:
    """The template macro that writes one :class:`~.html_plots.SvgPlot` as SVG, from the page's own
    Jinja environment (autoescaping: a system's name is text in the SVG, never markup)."""
    from auto_challenge_sets.evaluation.report.html.html_report import environment

    return environment().get_template("charts.svg.j2").module.chart


def draw(evaluation: Evaluation, human: dict[str, float] | None = None,
         progress: bool = False) -> list[Figure]:
    """Every figure of the run in report order: per metric its heat map, trends and human scatter,
    then the targeted accuracy; each kind timed as a stage ``figures: KIND``."""
    from auto_challenge_sets.evaluation.progress import progress_bar

    chart = chart_writer()
    figures: list[Figure] = []

    def drawn(kind: str, plots: list[html_plots.SvgPlot | None]) -> None:
        with stage(f"figures: {kind}", unit="files") as timed:
            found = [Figure(p, chart(p)) for p in plots if p is not None]
            if timed is not None:
                timed.count = len(found)
        figures.extend(found)

    for metric in progress_bar(evaluation.metrics, progress, "plots per metric", unit="metric"):
        if heatmap_configs(evaluation):
            drawn("heatmap", [html_plots.heatmap(evaluation, metric)])
        drawn("trend", list(html_plots.trend_plots(evaluation, metric)))
        if human:
            drawn("human", [html_plots.human_scatter(evaluation, metric, human)])
    drawn("targeted", [html_plots.targeted_plot(evaluation)])
    return figures


def by_kind(figures: list[Figure]) -> dict[str, list[Figure]]:
    """The figures by page section (:data:`KINDS`; a section without data has an empty list)."""
    return {kind: [f for f in figures if f.plot.kind == kind] for kind in KINDS}


def all_plots(evaluation: Evaluation, out: Path, human: dict[str, float] | None = None,
              progress: bool = False) -> list[Figure]:
    """Every figure of the run, drawn (:func:`draw`) and written into ``out`` as its ``.svg`` file."""
    figures = draw(evaluation, human, progress)
    with stage("figures: files", len(figures), "files"):
        for figure in figures:
            (out / figure.file).write_text(str(figure.svg) + "\n", encoding="utf-8")
    return figures
