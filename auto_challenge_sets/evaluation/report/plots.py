"""The drawing primitives the sections lay their figures out with: :class:`SvgPlot` (what
``templates/charts.svg.j2`` writes), scales and round ticks, labels placed clear of each other, the palettes
(matplotlib's tab20 and RdBu, written out: the figures need nothing else of it), and names as a
figure prints them."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from auto_challenge_sets.evaluation.results import ConfigResult

# matplotlib's tab20 (Tableau's 10 colours, each with its light tint), in its order
TAB20 = ("#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896", "#9467bd",
         "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d",
         "#17becf", "#9edae5")
# ColorBrewer's diverging RdBu, 11 classes, red (0) to blue (1): matplotlib's "RdBu" interpolates these
RDBU = ("#67001f", "#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#f7f7f7", "#d1e5f0", "#92c5de", "#4393c3",
        "#2166ac", "#053061")
TICK_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)  # a tick step is one of these times a power of ten

PLOT_NAME = 40  # characters of a system name a figure prints: a 5,000-character name leaves no room for the axes
CHAR_EM = 0.6  # a character's width in ems, a little over the average of a sans-serif face's
CHAR_PX = CHAR_EM * 11  # the width of a character of the charts' 11 px text (for margins)
LABEL_GAP_PX = 10  # the least vertical space between two direct labels at a line's end
LEGEND_ROW_PX = 14


def text_width(text: str, px: float = 11) -> float:
    """A text's width estimated from its characters (bidi marks have none): what the figures place
    labels by, and what the tests measure them by."""
    return CHAR_EM * px * sum(unicodedata.category(c) != "Cf" for c in text)


def plot_name(name: str) -> str:
    """A system's name as a figure labels it, cut with … after :data:`PLOT_NAME` characters."""
    return name if len(name) <= PLOT_NAME else name[:PLOT_NAME - 1] + "…"


def in_trends(config: ConfigResult) -> bool:
    """Whether a config is a point of the trend and human plots (a distance, and usable)."""
    return config.min_distance is not None and config.usable


def system_colours(systems: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Per system its colour and dash pattern: tab20's 20 colours, dashed from the 21st on."""
    return {s: (TAB20[k % 20], "" if k < 20 else "5 3") for k, s in enumerate(systems)}


def diverging(position: float, reverse: bool = False) -> str:
    """The RdBu colour at ``position`` (0 red … 1 blue; ``reverse``: blue to red), interpolated."""
    position = min(1.0, max(0.0, 1.0 - position if reverse else position)) * (len(RDBU) - 1)
    k = min(int(position), len(RDBU) - 2)
    fraction = position - k
    low, high = RDBU[k], RDBU[k + 1]
    channels = (round(int(low[i:i + 2], 16) + fraction * (int(high[i:i + 2], 16) - int(low[i:i + 2], 16)))
                for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in channels)


def nice_ticks(low: float, high: float, bins: int = 5) -> list[float]:
    """Round ticks covering ``low`` < ``high`` in at most ``bins`` steps of :data:`TICK_STEPS` × 10ⁿ."""
    magnitude = 10.0 ** math.floor(math.log10((high - low) / bins))
    for factor in TICK_STEPS:
        step = factor * magnitude
        first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if last - first <= bins:
            break
    # rounding to the step's own digits: 3 × 0.1 is 0.30000000000000004, a tick label must say 0.3
    digits = max(0, 2 - math.floor(math.log10(step)))
    return [round(k * step, digits) for k in range(first, last + 1)]


@dataclass(frozen=True)
class SvgPlot:
    """One figure: its kind (how ``chart`` draws it), size, what it draws (``body``), title, alt and file."""

    key: str
    title: str
    alt: str
    kind: str
    width: float
    height: float
    body: dict[str, Any] = field(default_factory=dict)
    file: str = ""
    svg: Any = None  # its SVG text, markup-safe for the page, once drawn (:func:`.figures.draw`)
    metric: str | None = None  # the metric it shows, once drawn; None: the run's own figure

    @property
    def frame_width(self) -> float:
        return round(max(self.width, 8 + 1.1 * CHAR_PX * len(self.title)), 1)  # wide letters, ▼: a margin


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


def is_finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


def nice_scale(values: Sequence[float], start: float, end: float, bins: int = 5) -> tuple[Scale, list[float]]:
    """A scale whose ends are round tick values covering ``values``, and its ticks."""
    finite = [v for v in values if is_finite(v)] or [0.0, 1.0]
    low, high = min(finite), max(finite)
    if low == high:
        low, high = low - 1, high + 1
    ticks = nice_ticks(low, high, bins)
    return Scale(min(ticks[0], low), max(ticks[-1], high), start, end), ticks


def spread_labels(ys: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP_PX) -> list[float]:
    """Label positions near ``ys`` (pixels), at least ``gap`` apart and inside top…bottom, in order."""
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


Box = tuple[float, float, float, float]  # left, top, right, bottom
# where a point's label may go, tried in this order (dx, dy of the text's middle, text-anchor):
# right, left, above, below, then the four corners; a point's dot has a radius of 3
SPOTS = ((5, 0, "start"), (-5, 0, "end"), (0, -9, "middle"), (0, 9, "middle"),
         (4, -7, "start"), (-4, -7, "end"), (4, 7, "start"), (-4, 7, "end"))
NEAR = tuple((k * dx, k * dy, anchor) for k in (1, 2, 3) for dx, dy, anchor in SPOTS)  # a number's: also further out


def place_labels(points: Sequence[tuple[float, float]], texts: Sequence[tuple[str, str]], frame: Box,
                 taken: list[Box], px: float = 9) -> list[dict[str, Any] | None]:
    """Each point's label, its name or else its short fallback (a number, placed further out too
    where no spot is free: :data:`NEAR`), at the first spot where its box (:func:`text_width` wide,
    ``px`` tall) lies inside ``frame`` and over nothing ``taken`` (boxes, extended with each label
    placed): ``{"x", "y", "anchor", "text"}`` with the text's middle at y; None where neither fits.
    Deterministic: the points in their order, the spots in theirs."""
    placed: list[dict[str, Any] | None] = []
    for (x, y), (name, fallback) in zip(points, texts):
        placed.append(None)
        for text, dx, dy, anchor in [(name, *spot) for spot in SPOTS] + [(fallback, *spot) for spot in NEAR]:
            width = text_width(text, px)
            left = x + dx - {"start": 0, "middle": width / 2, "end": width}[anchor]
            box = (left, y + dy - px / 2, left + width, y + dy + px / 2)
            if frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3] and all(
                    box[2] <= o[0] or o[2] <= box[0] or box[3] <= o[1] or o[3] <= box[1] for o in taken):
                taken.append(box)
                placed[-1] = {"x": round(x + dx, 1), "y": round(y + dy, 1), "anchor": anchor, "text": text}
                break
    return placed


def short(name: str) -> str:
    """A config or phenomenon without its pair, as the figures and the findings name it."""
    return name.split(".", 1)[-1]


def line_series(name: str, colour: tuple[str, str], points: list[tuple[float, float, str]],
                width: float = 1.2) -> dict[str, Any]:
    return {"name": name, "colour": colour[0], "dash": colour[1], "width": width,
            "points": " ".join(f"{x},{y}" for x, y, _ in points),
            "dots": [{"x": x, "y": y, "title": t} for x, y, t in points]}
