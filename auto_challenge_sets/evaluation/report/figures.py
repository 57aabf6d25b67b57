"""Every figure of a report, drawn once with ``templates/charts.svg.j2``: the ``.svg`` files report.md
links and, the same text, inline in index.html. The SVG depends on the Evaluation alone (no date,
counter or random id), so the same result gives the same bytes."""

from __future__ import annotations

from dataclasses import replace
from itertools import chain

from auto_challenge_sets.evaluation.progress import progress_bar
from auto_challenge_sets.evaluation.report.html.environment import environment
from auto_challenge_sets.evaluation.report.plots import SvgPlot
from auto_challenge_sets.evaluation.report.sections import SECTIONS
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.pipeline.timings import stage

KINDS = tuple(section.KIND for section in SECTIONS if hasattr(section, "KIND"))  # the page's figure sections


def draw(evaluation: Evaluation, human: dict[str, float] | None = None, progress: bool = False) -> list[SvgPlot]:
    """Every figure in report order: per metric each section's, then the run's own; each kind timed."""
    chart = environment().get_template("charts.svg.j2").module.chart
    drawn: list[SvgPlot] = []
    metrics = progress_bar(evaluation.metrics, progress, "plots per metric", unit="metric")
    for metric in chain(metrics, [None]):
        for section in SECTIONS:
            plots = section.figures(evaluation, metric, human) if hasattr(section, "figures") else None
            if plots is not None:
                with stage(f"figures: {section.KIND}", unit="files") as timed:
                    found = [replace(p, svg=chart(p), metric=metric) for p in plots if p is not None]
                    if timed is not None:
                        timed.count = len(found)
                drawn.extend(found)
    return drawn


def by_kind(figures: list[SvgPlot]) -> dict[str, list[SvgPlot]]:
    return {kind: [f for f in figures if f.kind == kind] for kind in KINDS}
