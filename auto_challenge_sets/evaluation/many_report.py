"""Tables, ``report.md`` and plots of a many-system evaluation (:mod:`.many`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation import targeted_report
from auto_challenge_sets.tables import render_table

LABELS = {"bleu": "BLEU", "chrf": "chrF", "ribes": "RIBES"}


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def config_table(payload: dict[str, Any], config: str, markdown: bool = False) -> str:
    """One row per system: each metric, its random mean and p5, and the paired test against the baseline."""
    entry = payload["configs"][config]
    metrics = payload["metrics"]
    header = ["system"]
    for metric in metrics:
        header += [LABELS[metric], "random", "p5"]
    header += [f"Δ{LABELS[m]} (p)" for m in metrics if m != "ribes"]
    rows = []
    digits = {"bleu": 2, "chrf": 2, "ribes": 4}
    for system, scores in entry["systems"].items():
        row = [system + (" (baseline)" if system == payload["baseline_system"] else "")]
        for metric in metrics:
            random = scores["random"][metric]
            star = "*" if scores[metric] < random["p5"] else ""
            row += [_num(scores[metric], digits[metric]) + star, _num(random["mean"], digits[metric]),
                    _num(random["p5"], digits[metric])]
        for metric in metrics:
            if metric == "ribes":
                continue
            test = (scores.get("vs_baseline") or {}).get(metric)
            row.append("-" if test is None else f"{test['delta']:+.2f} ({test['p_value']:.3f})")
        rows.append(row)
    return render_table(header, rows, markdown=markdown)


def config_heading(payload: dict[str, Any], config: str) -> str:
    entry = payload["configs"][config]
    flags = []
    if entry["small"]:
        flags.append(f"small: fewer than {payload['min_rows']} rows, left out of trends and summaries")
    if entry["same_rows_as"]:
        flags.append(f"the same rows as {entry['same_rows_as']}")
    return f"{config} (n = {entry['n']})" + (f" [{'; '.join(flags)}]" if flags else "")


def summary_table(payload: dict[str, Any], markdown: bool = False) -> str:
    header = ["phenomenon", "cells", "< full", "< random mean", "< random p5", "Δ random", "negative trend"]
    rows = [[name, str(s["cells"]), f"{s['below_full']:.0%}", f"{s['below_random_mean']:.0%}",
             f"{s['below_random_p5']:.0%}", f"{s['mean_delta_random']:+.2f}", f"{s['negative_trend']}/{s['systems']}"]
            for name, s in payload["summary"].items()]
    return render_table(header, rows, markdown=markdown)


def human_table(payload: dict[str, Any], markdown: bool = False) -> str:
    header = ["config", "n", "systems", "Spearman", "Kendall", "p", "95% CI", "random τ pct"]
    rows = []
    items = [("(full test set)", payload.get("human_full"), None)]
    items += [(name, c.get("human"), c) for name, c in payload["configs"].items()]
    for name, human, config in items:
        if not human:
            continue
        ci = human.get("ci")
        rows.append([name, "-" if config is None else str(config["n"]), str(human["systems"]),
                     _num(human["spearman"], 3), _num(human["kendall"], 3), _num(human["p_value"], 3),
                     "-" if not ci else f"[{ci[0]:.2f}, {ci[1]:.2f}]",
                     _num(human.get("random_kendall_percentile"), 0)])
    return render_table(header, rows, markdown=markdown)


def text_report(payload: dict[str, Any]) -> str:
    lines = [f"signature: {payload['signature']}", f"baseline system: {payload['baseline_system']}", ""]
    for config in sorted(payload["configs"], key=config_sort_key):
        lines += [config_heading(payload, config), config_table(payload, config), ""]
    lines += ["summary (distinct configs with enough rows; * in the tables: below the random 5th percentile)",
              summary_table(payload)]
    if payload.get("human_full") is not None:
        lines += ["", "correlation with human scores (BLEU)", human_table(payload)]
    section = targeted_report.text_section(payload)
    if section:
        lines += ["", *section]
    return "\n".join(lines)


def write_many_report(out_dir: str | Path, payload: dict[str, Any], random_bleu: dict | None = None,
                      human_scores: dict[str, float] | None = None) -> list[Path]:
    """``results.json``, ``report.md`` and the plots; return the paths written."""
    from auto_challenge_sets.evaluation import many_plots

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.json"]
    written[0].write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=_plain) + "\n", encoding="utf-8")
    plots = [many_plots.heatmap(payload, out / f"{payload['pair']}.heatmap.png")]
    plots += many_plots.trend_plots(payload, out)
    if human_scores:
        plots.append(many_plots.human_scatter(payload, human_scores, out / f"{payload['pair']}.human.png"))
    accuracy = targeted_report.accuracy_plot(payload, out / f"{payload['pair']}.targeted.png")
    plots += [accuracy] if accuracy is not None else []
    lines = ["# LDD challenge sets: many systems", "", f"- **signature**: `{payload['signature']}`",
             f"- **pair / split**: {payload['pair']} / {payload['split']}",
             f"- **systems**: {', '.join(payload['systems'])} (baseline of the paired tests: "
             f"{payload['baseline_system']})", "", "## Summary", "", summary_table(payload, markdown=True), ""]
    if payload.get("human_full") is not None:
        lines += ["## Correlation with human scores", "", human_table(payload, markdown=True), ""]
    lines += targeted_report.text_section(payload, markdown=True)
    lines += [f"![{p.stem}]({p.name})" for p in plots] + [""]
    for config in sorted(payload["configs"], key=config_sort_key):
        lines += [f"## {config_heading(payload, config)}", "", config_table(payload, config, markdown=True), ""]
    (out / "report.md").write_text("\n".join(lines), encoding="utf-8")
    return [*written, out / "report.md", *plots]


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON: {type(value).__name__}")
