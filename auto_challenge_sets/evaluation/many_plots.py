"""Plots of a many-system evaluation: a heat map of systems × configs (challenge − random mean),
trend lines per phenomenon with the random 5–95 band and n per point, and challenge-vs-human
scatter plots. matplotlib is imported lazily, with the Agg backend."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.configs import config_sort_key


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def heatmap(payload: dict[str, Any], path: Path) -> Path:
    plt = pyplot()
    configs = sorted(payload["configs"], key=config_sort_key)
    systems = payload["systems"]
    grid = np.array([[payload["configs"][c]["systems"][s]["bleu"] - payload["configs"][c]["systems"][s]["random"]["bleu"]["mean"]
                      for c in configs] for s in systems])
    limit = float(np.nanmax(np.abs(grid))) or 1.0
    fig, ax = plt.subplots(figsize=(1.5 + 0.45 * len(configs), 1.5 + 0.32 * len(systems)))
    image = ax.imshow(grid, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
    labels = [c.split(".", 1)[1] + (" (small)" if payload["configs"][c]["small"] else "") for c in configs]
    ax.set_xticks(range(len(configs)), labels, rotation=70, fontsize=8)
    ax.set_yticks(range(len(systems)), systems, fontsize=8)
    for i, system in enumerate(systems):
        for j, config in enumerate(configs):
            entry = payload["configs"][config]["systems"][system]
            if entry["bleu"] < entry["random"]["bleu"]["p5"]:
                ax.text(j, i, "*", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="challenge BLEU − random mean")
    ax.set_title(f"{payload['pair']} {payload['split']}: challenge sets vs length-matched random (* < 5th pct)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def trend_plots(payload: dict[str, Any], out: Path) -> list[Path]:
    """One PNG per phenomenon: BLEU against D for every system; the band is the systems' mean
    random 5–95th percentile; small configs are left out, n is written at each point."""
    plt = pyplot()
    by_phenomenon: dict[str, list[str]] = {}
    for name, config in payload["configs"].items():
        if config["min_distance"] is not None and not config["small"]:
            by_phenomenon.setdefault(config["phenomenon"], []).append(name)
    paths = []
    for phenomenon, names in sorted(by_phenomenon.items()):
        names.sort(key=config_sort_key)
        ds = [payload["configs"][n]["min_distance"] for n in names]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for system in payload["systems"]:
            ax.plot(ds, [payload["configs"][n]["systems"][system]["bleu"] for n in names], "-", lw=0.8, alpha=0.6)
        lows = [np.mean([e["random"]["bleu"]["p5"] for e in payload["configs"][n]["systems"].values()]) for n in names]
        highs = [np.mean([e["random"]["bleu"]["p95"] for e in payload["configs"][n]["systems"].values()]) for n in names]
        ax.fill_between(ds, lows, highs, color="grey", alpha=0.25, label="random, 5–95th pct (mean over systems)")
        for d, name, high in zip(ds, names, highs):
            ax.annotate(f"n={payload['configs'][name]['n']}", (d, high), fontsize=7, ha="center", va="bottom")
        ax.set_xlabel("minimum distance D")
        ax.set_ylabel("BLEU")
        ax.set_xticks(ds)
        ax.set_title(f"{phenomenon}: BLEU of {len(payload['systems'])} systems by D")
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = out / f"{phenomenon}.trend.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def human_scatter(payload: dict[str, Any], human: dict[str, float], path: Path) -> Path:
    """The full test set and each phenomenon's lowest-D config with enough rows, against humans."""
    plt = pyplot()
    panels = [("full test set", {s: v["bleu"] for s, v in payload["full"].items()})]
    seen = set()
    for name in sorted(payload["configs"], key=config_sort_key):
        config = payload["configs"][name]
        if config["min_distance"] is None or config["small"] or config["phenomenon"] in seen:
            continue
        seen.add(config["phenomenon"])
        panels.append((name, {s: e["bleu"] for s, e in config["systems"].items()}))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 3.2), squeeze=False)
    for ax, (title, scores) in zip(axes[0], panels):
        names = [s for s in scores if s in human]
        ax.scatter([human[s] for s in names], [scores[s] for s in names], s=12)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("human score", fontsize=8)
        ax.set_ylabel("BLEU", fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
