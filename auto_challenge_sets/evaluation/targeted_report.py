"""Tables and the plot of targeted accuracy (many systems: :mod:`.many_targeted`'s payload)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auto_challenge_sets.tables import render_table


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}"


def accuracy_tables(payload: dict[str, Any], markdown: bool = False) -> list[tuple[str, str]]:
    """Per phenomenon: a heading and a table of each system's accuracy (%) by distance d, with the
    mean over systems and the instances judged (the mean over systems) per d."""
    targeted = payload.get("targeted") or {}
    out = []
    for phenomenon, summary in targeted.get("by_distance", {}).items():
        buckets = summary["buckets"]
        rows = [[system, *(_pct(summary["systems"][system][b]) for b in buckets)] for system in payload["systems"]]
        rows.append(["mean", *(_pct(summary["mean"][b]) for b in buckets)])
        judged = [sum(summary["systems"][s]["judged"][b] for s in payload["systems"]) / len(payload["systems"])
                  for b in buckets]
        rows.append(["judged (mean)", *(f"{n:.0f}" for n in judged)])
        heading = f"{phenomenon}: targeted accuracy (%) by distance d (from {summary['config']})"
        out.append((heading, render_table(["system", *(f"d={b}" for b in buckets)], rows, markdown=markdown)))
    return out


def human_table(payload: dict[str, Any], markdown: bool = False) -> str:
    """Kendall's tau with the human scores: targeted accuracy next to BLEU, per lexical config."""
    header = ["config", "BLEU τ", "BLEU p", "targeted τ", "targeted p", "systems"]
    rows = []
    full = payload.get("human_full")
    if full:
        rows.append(["(full test set)", f"{full['kendall']:.3f}", f"{full['p_value']:.3f}", "-", "-",
                     str(full["systems"])])
    for name, config in payload["configs"].items():
        targeted, bleu = config.get("human_targeted"), config.get("human")
        if not targeted:
            continue
        rows.append([name, "-" if not bleu else f"{bleu['kendall']:.3f}", "-" if not bleu else f"{bleu['p_value']:.3f}",
                     "-" if targeted["kendall"] is None else f"{targeted['kendall']:.3f}",
                     "-" if targeted["p_value"] is None else f"{targeted['p_value']:.3f}", str(targeted["systems"])])
    return render_table(header, rows, markdown=markdown)


def text_section(payload: dict[str, Any], markdown: bool = False) -> list[str]:
    """The report's targeted-accuracy section (empty without ``--targeted``)."""
    targeted = payload.get("targeted")
    if not targeted:
        return []
    lines = ["## Targeted accuracy" if markdown else "targeted accuracy", "",
             f"alignment: {targeted['aligner']}; signature: {targeted['signature']}", ""]
    for heading, table in accuracy_tables(payload, markdown):
        lines += [f"### {heading}" if markdown else heading, "", table, ""]
    if payload.get("human_full") is not None:
        lines += ["### Correlation with human scores" if markdown else "correlation with human scores (Kendall τ)",
                  "", human_table(payload, markdown), ""]
    return lines


def accuracy_plot(payload: dict[str, Any], path: Path) -> Path | None:
    """Accuracy against d, one panel per phenomenon: every system thin, the mean thick."""
    from auto_challenge_sets.evaluation.many_plots import pyplot

    summaries = (payload.get("targeted") or {}).get("by_distance") or {}
    if not summaries:
        return None
    plt = pyplot()
    fig, axes = plt.subplots(1, len(summaries), figsize=(3.6 * len(summaries), 3.4), squeeze=False, sharey=True)
    for ax, (phenomenon, summary) in zip(axes[0], summaries.items()):
        xs = range(len(summary["buckets"]))
        for system in payload["systems"]:
            ys = [summary["systems"][system][b] for b in summary["buckets"]]
            ax.plot(xs, [float("nan") if y is None else 100 * y for y in ys], "-", lw=0.7, alpha=0.5)
        mean = [summary["mean"][b] for b in summary["buckets"]]
        ax.plot(xs, [float("nan") if y is None else 100 * y for y in mean], "k-o", lw=2, label="mean")
        ax.set_xticks(list(xs), summary["buckets"], fontsize=8)
        ax.set_title(phenomenon, fontsize=9)
        ax.set_xlabel("distance d", fontsize=8)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("targeted accuracy (%)")
    axes[0][0].legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
