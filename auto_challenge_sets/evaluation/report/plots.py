"""What the figures of an :class:`~auto_challenge_sets.evaluation.results.Evaluation` show and in
which colours: the configs each figure takes, the marks after a config's name, a system's name as a
figure prints it, the palettes and the tick values. :mod:`.html_plots` lays the figures out from
these and :mod:`.figures` writes them as SVG, once, for report.md and index.html alike.

The palettes and ticks are written here rather than taken from matplotlib: they were all the
figures still used of it (20 colours, an 11-stop colour ramp and a tick rule), and importing it
cost more than laying out every figure of a run."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.results import ConfigResult, Evaluation

# the figures' file names, fields in braces: the layout fills them, and the --out check
# (report_folder.py) reads them as the names a report may hold
HEATMAP, TREND = "{pair}.{metric}.heatmap.svg", "{phenomenon}.{metric}.trend.svg"
HUMAN, TARGETED = "{pair}.{metric}.human.svg", "{pair}.targeted.svg"
PLOT_NAMES = (HEATMAP, TREND, HUMAN, TARGETED)
# the PNGs of acs evaluate before the figures were SVG: a folder of such a report is still a report,
# replaced whole by the next run (never refused as foreign)
EARLIER_PLOT_NAMES = tuple(name.removesuffix(".svg") + ".png" for name in PLOT_NAMES)

FEW_JUDGED = 10  # a targeted accuracy resting on fewer instances is drawn and printed as "few"
DEGENERATE_GREY = "#d9d9d9"  # a heat map's degenerate-baseline column: no colour, no star, hatched

# matplotlib's tab20 (Tableau's 10 colours, each with its light tint), in its order
TAB20 = ("#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896", "#9467bd",
         "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d",
         "#17becf", "#9edae5")
# ColorBrewer's diverging RdBu, 11 classes, red (0) to blue (1): matplotlib's "RdBu" interpolates these
RDBU = ("#67001f", "#b2182b", "#d6604d", "#f4a582", "#fddbc7", "#f7f7f7", "#d1e5f0", "#92c5de", "#4393c3",
        "#2166ac", "#053061")
TICK_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)  # a tick step is one of these times a power of ten

PLOT_NAME = 40  # characters of a system name a figure prints: a 5,000-character name leaves no room for the axes


def plot_name(name: str) -> str:
    """A system's name as a figure labels it: whole up to :data:`PLOT_NAME` characters, cut with … after
    (its tooltip keeps it whole)."""
    return name if len(name) <= PLOT_NAME else name[:PLOT_NAME - 1] + "…"


def metric_label(evaluation: Evaluation, metric: str) -> str:
    """The label a figure gives ``metric`` (the one place the figures read it): the result's own."""
    return evaluation.label(metric)


def in_trends(config: ConfigResult) -> bool:
    """Whether a config is a point of the trend and human plots: it has a distance and is a point
    of the trends (:attr:`ConfigResult.usable`: not small, not degenerate, not a repeat)."""
    return config.min_distance is not None and config.usable


def config_flags(config: ConfigResult) -> list[str]:
    """The config's marks (:meth:`ConfigResult.flags`)."""
    return list(config.flags())


def flag_suffix(config: ConfigResult) -> str:
    """The marks after a config's short name in a plot: `` (small, same rows as particle.d4)``."""
    flags = config.flags(short=True)
    return f" ({', '.join(flags)})" if flags else ""


def heatmap_configs(evaluation: Evaluation) -> list[str]:
    """The heat maps' columns: the configs with a random baseline (not the full corpus itself), in D order."""
    return sorted((n for n, c in evaluation.configs.items() if c.random_unavailable is None), key=config_sort_key)


def human_panels(evaluation: Evaluation, metric: str) -> list[tuple[str | None, dict[str, float], Any]]:
    """What the human scatter plots show, panel by panel: the full test set (config None), then
    each phenomenon's lowest-D config in the trends; each with every system's score and the
    metric's correlation with the humans there."""
    full = (evaluation.human_full or {}).get(metric)
    panels: list[tuple[str | None, dict[str, float], Any]] = [
        (None, {s: evaluation.full[s][metric] for s in evaluation.systems}, full)]
    seen = set()
    for name in sorted(evaluation.configs, key=config_sort_key):
        config = evaluation.configs[name]
        if not in_trends(config) or config.phenomenon in seen:
            continue
        seen.add(config.phenomenon)
        panels.append((name, {s: r.scores[metric].score for s, r in config.systems.items()},
                       (config.human or {}).get(metric)))
    return panels


def system_colours(systems: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Per system its colour and dash pattern: tab20's 20 colours, dashed from the 21st on."""
    return {s: (TAB20[k % 20], "" if k < 20 else "5 3") for k, s in enumerate(systems)}


def diverging(position: float, reverse: bool = False) -> str:
    """The RdBu colour at ``position`` (0 red … 0.5 near white … 1 blue; ``reverse``: blue to red),
    clipped to 0…1 and linearly interpolated between its 11 stops."""
    position = min(1.0, max(0.0, 1.0 - position if reverse else position)) * (len(RDBU) - 1)
    k = min(int(position), len(RDBU) - 2)
    fraction = position - k
    low, high = RDBU[k], RDBU[k + 1]
    channels = (round(int(low[i:i + 2], 16) + fraction * (int(high[i:i + 2], 16) - int(low[i:i + 2], 16)))
                for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in channels)


def nice_ticks(low: float, high: float, bins: int = 5) -> list[float]:
    """Round tick values from at or below ``low`` to at or above ``high``, at most ``bins`` steps
    apart, the step 1, 2, 2.5 or 5 times a power of ten (the smallest that fits)."""
    if not high > low:
        raise ValueError(f"nice_ticks needs low < high, got {low!r}, {high!r}")
    magnitude = 10.0 ** math.floor(math.log10((high - low) / bins))
    for factor in TICK_STEPS:
        step = factor * magnitude
        first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
        if last - first <= bins:
            break
    # rounding to the step's own digits: 3 × 0.1 is 0.30000000000000004, a tick label must say 0.3
    digits = max(0, 2 - math.floor(math.log10(step)))
    return [round(k * step, digits) for k in range(first, last + 1)]
