"""Rendering of challenge-set scores: a plain-text table, ``report.md`` and PNG plots.

Input is the metric's result dicts (see :mod:`auto_challenge_sets.scoring.challenge`), one per
config, as ``ConfigResult``s. Plots show score against the minimum distance D for one language
pair and phenomenon, with the length-matched random baseline as a band (5th–95th percentile of
the random corpora) plus its mean, and the full-corpus score as a horizontal line.
matplotlib is imported lazily (Agg backend), so tables work without a display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from auto_challenge_sets.scoring.challenge import spearman_by_distance
from auto_challenge_sets.tables import render_table

METRICS = (("bleu", "BLEU"), ("ribes", "RIBES"))


@dataclass(frozen=True)
class ConfigResult:
    """One scored config: its name, what it is, and the metric's result dict."""

    config: str
    pair: str
    phenomenon: str
    min_distance: int | None
    result: dict[str, Any]


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if metric == "bleu" else f"{value:.4f}"


def _baseline_cells(result: dict[str, Any], metric: str) -> list[str]:
    base = (result.get("random_baseline") or {}).get(metric)
    if not base:
        return ["-", "-", "-"]
    spread = f"{_fmt(base['mean'], metric)}±{_fmt(base['std'], metric)}"
    return [spread, f"{base['percentile']:.0f}", f"{base['p_value']:.3f}"]


HEADER = [
    "config", "n",
    "BLEU", "random BLEU", "pct", "p",
    "RIBES", "random RIBES", "pct", "p",
    "widened",
]


def table_rows(results: Sequence[ConfigResult]) -> list[list[str]]:
    """Cells of the score table, one row per config (strings)."""
    rows = []
    for item in results:
        r = item.result
        base = r.get("random_baseline") or {}
        rows.append(
            [item.config, str(r["n"]), _fmt(r["bleu"], "bleu"), *_baseline_cells(r, "bleu"),
             _fmt(r["ribes"], "ribes"), *_baseline_cells(r, "ribes"), str(base.get("widened", "-"))]
        )
    return rows


def text_table(results: Sequence[ConfigResult], full: dict[str, Any] | None = None) -> str:
    """Aligned plain-text table; ``full`` (the full-corpus scores) becomes the first row."""
    return render_table(*_table(results, full))


def _targeted_cell(result: dict[str, Any]) -> str:
    """Accuracy in % with the instances judged (``-`` for a config it does not apply to)."""
    targeted = result.get("targeted")
    if not targeted:
        return "-"
    judged = targeted["correct"] + targeted["wrong"]
    accuracy = "-" if targeted["accuracy"] is None else f"{100 * targeted['accuracy']:.1f}"
    return f"{accuracy} ({judged}/{targeted['instances']})"


def _table(results: Sequence[ConfigResult], full: dict[str, Any] | None) -> tuple[list[str], list[list[str]]]:
    """The header and rows; a targeted-accuracy column when any config has one."""
    rows = table_rows(results)
    if full is not None:
        rows.insert(0, ["(full corpus)", str(full["n"]), _fmt(full["bleu"], "bleu"), "", "", "",
                        _fmt(full["ribes"], "ribes"), "", "", "", ""])
    if not any(item.result.get("targeted") for item in results):
        return HEADER, rows
    cells = (["-"] if full is not None else []) + [_targeted_cell(item.result) for item in results]
    return [*HEADER, "targeted % (judged/all)"], [[*row, cell] for row, cell in zip(rows, cells)]


def group_by_phenomenon(results: Sequence[ConfigResult]) -> dict[str, list[dict[str, Any]]]:
    """Distance-breakdown rows per ``{pair}.{phenomenon}``, one row per D, sorted by D.

    Two configs with the same D (``de-en.particle`` and ``de-en.particle.d1``) give one row: the
    first in order of config name.
    """
    groups: dict[str, dict[int, dict[str, Any]]] = {}
    for item in sorted(results, key=lambda x: x.config):
        if item.min_distance is None:
            continue
        rows = groups.setdefault(f"{item.pair}.{item.phenomenon}", {})
        if item.min_distance in rows:
            continue
        r = item.result
        row = {"config": item.config, "min_distance": item.min_distance, "n": r["n"],
               "bleu": r["bleu"], "ribes": r["ribes"]}
        if r.get("random_baseline"):
            row["random_baseline"] = {k: r["random_baseline"][k] for k in ("bleu", "ribes", "widened")}
        rows[item.min_distance] = row
    return {name: [rows[d] for d in sorted(rows)] for name, rows in sorted(groups.items())}


def breakdown_summary(
    results: Sequence[ConfigResult], breakdowns: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, dict[str, Any]]:
    """Per phenomenon: the breakdown rows and the Spearman correlation of score with D.

    ``breakdowns`` overrides the rows gathered from ``results`` (e.g. a single config's own
    breakdown by distance).
    """
    groups = group_by_phenomenon(results) if breakdowns is None else breakdowns
    return {
        name: {"distance_breakdown": rows, "spearman": spearman_by_distance(rows)}
        for name, rows in groups.items()
    }


def plot_distance(
    rows: Sequence[dict[str, Any]],
    path: str | Path,
    title: str,
    full: dict[str, Any] | None = None,
) -> Path:
    """PNG of BLEU and RIBES against D: challenge scores, random band, full-corpus line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    ds = [r["min_distance"] for r in rows]
    for ax, (metric, label) in zip(axes, METRICS):
        scored = [(r["min_distance"], r) for r in rows if r.get(metric) is not None]
        xs = [d for d, _ in scored]
        ax.plot(xs, [r[metric] for _, r in scored], "o-", color="C0", label="challenge set")
        with_base = [(d, r["random_baseline"][metric]) for d, r in scored if r.get("random_baseline")]
        if with_base:
            bx = [d for d, _ in with_base]
            ax.fill_between(bx, [b["p5"] for _, b in with_base], [b["p95"] for _, b in with_base],
                            color="C1", alpha=0.25, label="random, 5–95th pct")
            ax.plot(bx, [b["mean"] for _, b in with_base], "--", color="C1", label="random, mean")
        if full is not None and full.get(metric) is not None:
            ax.axhline(full[metric], color="C2", linestyle=":", label="full corpus")
        ax.set_xlabel("minimum distance D")
        ax.set_ylabel(label)
        if ds:
            ax.set_xticks(sorted(set(ds)))
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def markdown_report(
    results: Sequence[ConfigResult],
    full: dict[str, Any] | None = None,
    meta: dict[str, str] | None = None,
    plots: dict[str, str] | None = None,
    breakdowns: dict[str, list[dict[str, Any]]] | None = None,
) -> str:
    """The text of ``report.md``."""
    lines = ["# LDD challenge-set report", ""]
    for key, value in (meta or {}).items():
        lines.append(f"- **{key}**: `{value}`")
    if results:
        lines.append(f"- **BLEU signature**: `{results[0].result['signature']}`")
        lines.append(f"- **RIBES signature**: `{results[0].result['ribes_signature']}`")
    lines += [
        "",
        ("BLEU is sacrebleu's (0–100), RIBES NTT's (0–1). *random*: mean ± std of BLEU/RIBES over "
        "length-matched random corpora from the full corpus; *pct*: share of them scoring at or "
        "below the challenge set (%); *p*: one-sided empirical p-value (1 + #random ≤ challenge) / "
        "(samples + 1); *widened*: challenge sentences whose length had no candidate within the "
        "tolerance."),
        "",
        "## Scores",
        "",
    ]
    lines.append(render_table(*_table(results, full), markdown=True))
    for name, summary in breakdown_summary(results, breakdowns).items():
        lines += ["", f"## {name}: score by minimum distance", ""]
        spear = summary["spearman"]
        cells = []
        for metric, label in METRICS:
            rho, p = spear[metric]["rho"], spear[metric]["p"]
            cells.append(f"{label} ρ = {'-' if rho is None else f'{rho:.3f}'}"
                         f" (p = {'-' if p is None else f'{p:.3g}'})")
        lines.append("Spearman correlation with D: " + "; ".join(cells) + ".")
        if plots and name in plots:
            lines += ["", f"![{name}]({plots[name]})"]
    return "\n".join(lines) + "\n"


def write_report(
    out_dir: str | Path,
    results: Sequence[ConfigResult],
    full: dict[str, Any] | None = None,
    meta: dict[str, str] | None = None,
    breakdowns: dict[str, list[dict[str, Any]]] | None = None,
) -> list[Path]:
    """Write ``report.md`` and one ``{pair}.{phenomenon}.png`` per phenomenon; return the paths."""
    groups = group_by_phenomenon(results) if breakdowns is None else breakdowns
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    plots: dict[str, str] = {}
    for name, rows in groups.items():
        png = plot_distance(rows, out / f"{name}.png", title=name, full=full)
        plots[name] = png.name
        written.append(png)
    report = out / "report.md"
    report.write_text(markdown_report(results, full, meta, plots, groups), encoding="utf-8")
    written.insert(0, report)
    return written
