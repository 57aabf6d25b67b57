"""Plots of an :class:`~auto_challenge_sets.evaluation.results.Evaluation`, for every metric of the
run: a heat map of systems × configs (challenge − random mean), trends per phenomenon over D with
the random 5–95 band and n per point, challenge-vs-human scatter plots, and targeted accuracy by
distance. matplotlib is imported lazily, with the Agg backend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.results import ConfigResult, Evaluation
from auto_challenge_sets.scoring.metric import metric_class

# the plots' file names, fields in braces: the writers fill them, and the --out check
# (report_folder.py) reads them as the names a report may hold
HEATMAP, TREND = "{pair}.{metric}.heatmap.png", "{phenomenon}.{metric}.trend.png"
HUMAN, TARGETED = "{pair}.{metric}.human.png", "{pair}.targeted.png"
PLOT_NAMES = (HEATMAP, TREND, HUMAN, TARGETED)

FEW_JUDGED = 10  # a targeted accuracy resting on fewer instances is drawn and printed as "few"
DEGENERATE_GREY = "#d9d9d9"  # a heat map's degenerate-baseline column: no colour, no star, hatched


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


PLOT_NAME = 40  # characters of a system name a plot shows: a 5,000-character name leaves no room for the axes


def plot_name(name: str) -> str:
    """A system's name as a plot labels it: whole up to :data:`PLOT_NAME` characters, cut with … after."""
    return name if len(name) <= PLOT_NAME else name[:PLOT_NAME - 1] + "…"


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


def _label(metric: str) -> str:
    return metric_class(metric).label


def heatmap(evaluation: Evaluation, metric: str, path: Path) -> Path:
    plt = pyplot()
    configs = heatmap_configs(evaluation)
    systems = evaluation.systems
    higher = evaluation.higher_is_better[metric]
    cells = [[evaluation.configs[c].systems[s].scores[metric] for c in configs] for s in systems]
    grid = np.array([[cell.score - cell.random.mean for cell in row] for row in cells])
    degenerate = [evaluation.configs[c].degenerate_baseline for c in configs]
    grid[:, degenerate] = np.nan  # no colour where the random band means nothing
    limit = float(np.nanmax(np.abs(grid), initial=0.0)) or 1.0
    longest = max(len(plot_name(s)) for s in systems)  # the system labels' width, about 0.07 inch a character
    fig, ax = plt.subplots(figsize=(2.5 + 0.45 * len(configs) + 0.07 * max(0, longest - 12), 1.8 + 0.32 * len(systems)))
    image = ax.imshow(grid, cmap="RdBu" if higher else "RdBu_r", vmin=-limit, vmax=limit, aspect="auto")
    for j in (j for j, on in enumerate(degenerate) if on):
        ax.add_patch(plt.Rectangle((j - 0.5, -0.5), 1, len(systems), facecolor=DEGENERATE_GREY, hatch="///",
                                   edgecolor="#999999", linewidth=0))
    labels = [c.split(".", 1)[1] + flag_suffix(evaluation.configs[c]) for c in configs]
    ax.set_xticks(range(len(configs)), labels, rotation=70, fontsize=8, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(len(systems)), [plot_name(s) for s in systems], fontsize=8)
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            if evaluation.configs[configs[j]].starred(cell, higher):
                ax.text(j, i, "*", ha="center", va="center", fontsize=8)
    label = _label(metric)
    fig.colorbar(image, ax=ax, label=f"challenge {label} − random mean")
    band = "< 5th pct" if higher else "> 95th pct"
    ax.set_title(f"{evaluation.pair} {evaluation.split}, {label}: challenge sets vs length-matched random "
                 f"(* {band}; hatched grey: degenerate baseline)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def trend_plots(evaluation: Evaluation, metric: str, out: Path) -> list[Path]:
    """One PNG per phenomenon: the score against D for every system (labelled at its last point);
    the band is the systems' mean random 5–95th percentile; small, degenerate and repeated configs
    are left out (:func:`in_trends`), n is written at each point."""
    plt = pyplot()
    by_phenomenon: dict[str, list[str]] = {}
    for name, config in evaluation.configs.items():
        if in_trends(config):
            by_phenomenon.setdefault(config.phenomenon, []).append(name)
    paths = []
    label = _label(metric)
    for phenomenon, names in sorted(by_phenomenon.items()):
        names.sort(key=config_sort_key)
        ds = [evaluation.configs[n].min_distance for n in names]
        fig, ax = plt.subplots(figsize=(8, 4.8))
        for k, system in enumerate(evaluation.systems):
            ys = [evaluation.configs[n].systems[system].scores[metric].score for n in names]
            style = "-" if k < 10 else "--"
            (line,) = ax.plot(ds, ys, style, marker="o", ms=3, lw=0.9, alpha=0.8, label=plot_name(system))
            ax.annotate(plot_name(system), (ds[-1], ys[-1]), xytext=(4, 0), textcoords="offset points", fontsize=6,
                        color=line.get_color(), va="center")
        cells = [[evaluation.configs[n].systems[s].scores[metric].random for s in evaluation.systems] for n in names]
        lows = [np.mean([r.p5 for r in row]) for row in cells]
        highs = [np.mean([r.p95 for r in row]) for row in cells]
        ax.fill_between(ds, lows, highs, color="grey", alpha=0.25, label="random, 5–95th pct (mean over systems)")
        for d, name, high in zip(ds, names, highs):
            ax.annotate(f"n={evaluation.configs[name].n}", (d, high), fontsize=7, ha="center", va="bottom")
        ax.set_xlabel("minimum distance D")
        ax.set_ylabel(label)
        ax.set_xticks(ds)
        ax.set_title(f"{phenomenon}: {label} of {len(evaluation.systems)} systems by D "
                     "(small, degenerate and repeated configs left out)", fontsize=9)
        ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.08, 0.5))
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = out / TREND.format(phenomenon=phenomenon, metric=metric)
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


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


def human_scatter(evaluation: Evaluation, metric: str, human: dict[str, float], path: Path) -> Path:
    """The full test set and each phenomenon's lowest-D config with enough rows, against humans,
    every point labelled with its system."""
    plt = pyplot()
    panels = [(name or "full test set", scores, found) for name, scores, found in human_panels(evaluation, metric)]
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.6 * columns, 4.0 * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (title, scores, correlation) in zip(axes.flat, panels):
        names = [s for s in scores if s in human]
        xs, ys = [human[s] for s in names], [scores[s] for s in names]
        ax.scatter(xs, ys, s=14)
        for name, x, y in zip(names, xs, ys):
            ax.annotate(plot_name(name), (x, y), xytext=(3, 2), textcoords="offset points", fontsize=6)
        tau = "" if correlation is None or correlation.kendall is None else (
            f" (Kendall τ {correlation.kendall:+.2f}{', exploratory' if correlation.exploratory else ''})")
        ax.set_title(title + tau, fontsize=9)
        ax.set_xlabel("human score", fontsize=8)
        ax.set_ylabel(_label(metric) + ("" if evaluation.higher_is_better[metric] else " (lower is better)"), fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def targeted_plot(evaluation: Evaluation, path: Path) -> Path | None:
    """Accuracy against d, one panel per phenomenon: every system thin, the mean thick, with the
    instances judged (mean over systems) under each bucket; a point resting on fewer than
    :data:`FEW_JUDGED` instances is hollow, its bucket's n red."""
    if evaluation.targeted is None or not evaluation.targeted.by_distance:
        return None
    summaries = evaluation.targeted.by_distance
    plt = pyplot()
    fig, axes = plt.subplots(1, len(summaries), figsize=(3.8 * len(summaries), 3.6), squeeze=False, sharey=True)
    for ax, (phenomenon, summary) in zip(axes[0], summaries.items()):
        xs = range(len(summary.buckets))
        for k, system in enumerate(evaluation.systems):
            ys = [float("nan") if y is None else 100 * y for y in (summary.accuracy[system][b] for b in summary.buckets)]
            (line,) = ax.plot(xs, ys, "-" if k < 10 else "--", lw=0.8, alpha=0.7, label=plot_name(system))
            few = [x for x, b in zip(xs, summary.buckets) if summary.judged[system][b] < FEW_JUDGED]
            ax.plot(few, [ys[x] for x in few], "o", ms=4, mfc="none", color=line.get_color(), alpha=0.7)
        mean = [float("nan") if y is None else 100 * y for y in (summary.mean[b] for b in summary.buckets)]
        judged = [np.mean([summary.judged[s][b] for s in evaluation.systems]) for b in summary.buckets]
        ax.plot(xs, mean, "k-", lw=2, label="mean")
        for x, y, n in zip(xs, mean, judged):
            ax.plot([x], [y], "o", color="k", mfc="none" if n < FEW_JUDGED else "k", ms=6)
        ax.set_xticks(list(xs), [f"{b}\nn={n:.0f}" for b, n in zip(summary.buckets, judged)], fontsize=7)
        for tick, n in zip(ax.get_xticklabels(), judged):
            if n < FEW_JUDGED:
                tick.set_color("red")
        ax.set_title(phenomenon, fontsize=9)
        ax.set_xlabel(f"distance d (n: instances judged; hollow: fewer than {FEW_JUDGED})", fontsize=8)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("targeted accuracy (%)")
    # one legend for every panel: the systems in the same colours and styles in each
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return path


def all_plots(evaluation: Evaluation, out: Path, human: dict[str, float] | None = None,
              progress: bool = False) -> list[Path]:
    """Every plot of the run, per metric, into ``out``."""
    from auto_challenge_sets.builder.pipeline.timings import stage
    from auto_challenge_sets.evaluation.progress import progress_bar

    paths = []
    # names are plain text: `$\\foo$` as a system name is not mathtext (a ValueError after all the
    # scoring), nor LaTeX where a matplotlibrc turns usetex on
    with pyplot().rc_context({"text.parse_math": False, "text.usetex": False}):
        for metric in progress_bar(evaluation.metrics, progress, "plots per metric", unit="metric"):
            if heatmap_configs(evaluation):
                with stage("figures: heatmap", 1, "files"):
                    paths.append(heatmap(evaluation, metric, out / HEATMAP.format(pair=evaluation.pair,
                                                                                  metric=metric)))
            with stage("figures: trend", unit="files") as timed:
                trends = trend_plots(evaluation, metric, out)
                if timed is not None:
                    timed.count = len(trends)
            paths += trends
            if human:
                with stage("figures: human", 1, "files"):
                    paths.append(human_scatter(evaluation, metric, human,
                                               out / HUMAN.format(pair=evaluation.pair, metric=metric)))
        with stage("figures: targeted", unit="files") as timed:
            accuracy = targeted_plot(evaluation, out / TARGETED.format(pair=evaluation.pair))
            if timed is not None:
                timed.count = int(accuracy is not None)
    return paths + ([accuracy] if accuracy is not None else [])
