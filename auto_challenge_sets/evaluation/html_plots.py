"""The plots of :mod:`.plots` as SVG text for inlining in the HTML page (no image files, no
network): the very figures of the PNGs, each saved once more with matplotlib's SVG backend
(:func:`.plots.save`), grouped by the page's sections.

Text stays text (``svg.fonttype: none``): the SVGs are several times smaller than with glyph
outlines, and a reader can search the page for a system's name in a plot.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from auto_challenge_sets.evaluation import plots
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.scoring.metric import metric_class

# the XML prologue and DOCTYPE of a standalone SVG file are not allowed inside HTML
_PROLOGUE = re.compile(r"\A.*?(?=<svg\b)", re.S)
# coordinates: matplotlib writes 6 decimals; a tenth of a point is finer than a screen pixel, and
# cutting the path data and positions (never the text) to one decimal makes the plots smaller
_GEOMETRY = re.compile(r'(\s(?:d|x|y|points)=")([^"]*)(")')
_DECIMAL = re.compile(r"(-?\d+\.\d)\d+")


@dataclass(frozen=True)
class SvgPlot:
    """One plot: its SVG markup (trusted: made by matplotlib here), a title and its alt text."""

    key: str
    title: str
    alt: str
    svg: str


def _round(match: re.Match[str]) -> str:
    return match.group(1) + _DECIMAL.sub(r"\1", match.group(2)) + match.group(3)


def _inline(svg: str) -> str:
    return _GEOMETRY.sub(_round, _PROLOGUE.sub("", svg, count=1))


def _plot(twins: plots.SvgTwins, name: str, key: str, title: str, alt: str) -> list[SvgPlot]:
    return [SvgPlot(key, title, alt, _inline(twins[name]))] if name in twins else []


def draw_svg(evaluation: Evaluation, human: dict[str, float] | None = None) -> plots.SvgTwins:
    """Every plot of the run as SVG text, drawn here (the PNGs of the drawing are thrown away):
    for a page written without :func:`.report.write_report`, which has them already."""
    twins: plots.SvgTwins = {}
    with tempfile.TemporaryDirectory(prefix="acs-plots-") as tmp:
        plots.all_plots(evaluation, Path(tmp), human, svg=twins)
    return twins


def svg_plots(evaluation: Evaluation, twins: plots.SvgTwins) -> dict[str, list[SvgPlot]]:
    """The plots by page section: ``heatmap``, ``trend``, ``human``, ``targeted`` (a section
    without data has an empty list). ``twins``: plot file name -> SVG text (:func:`.plots.all_plots`)."""
    pair = evaluation.pair
    found: dict[str, list[SvgPlot]] = {"heatmap": [], "trend": [], "human": [], "targeted": []}
    for metric in evaluation.metrics:
        label = metric_class(metric).label
        found["heatmap"] += _plot(
            twins, f"{pair}.{metric}.heatmap.png", f"heatmap-{metric}", f"Heat map, {label}",
            f"{label}: each system's score minus the random mean on each config; * marks a score outside the "
            "random 5–95% band on the worse side")
        suffix = f".{metric}.trend.png"
        for name in sorted(n for n in twins if n.endswith(suffix)):
            phenomenon = name[: -len(suffix)]
            found["trend"] += _plot(
                twins, name, f"trend-{phenomenon}-{metric}", f"{phenomenon}, {label} by minimum distance D",
                f"{label} of every system against D on {phenomenon}, with the random 5–95% band and n per point")
        found["human"] += _plot(
            twins, f"{pair}.{metric}.human.png", f"human-{metric}", f"{label} against human scores",
            f"{label} of each system against its human score, on the full test set and each phenomenon's "
            "lowest-D config")
    found["targeted"] += _plot(
        twins, f"{pair}.targeted.png", "targeted", "Targeted accuracy by distance",
        "targeted accuracy (%) of every system and their mean against the distance d, with the instances "
        "judged per bucket")
    return found
