"""The full test set: every system's score on the full corpus and, per metric, the ranking with its
significance clusters and its paired test against the baseline system; the terminal's line per metric."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from auto_challenge_sets.configs import BASELINE
from auto_challenge_sets.evaluation.report.cells import SIGNIFICANT, by_full_test, num, paired_cell
from auto_challenge_sets.evaluation.report.name_text import report_name, terminal_text
from auto_challenge_sets.evaluation.results import Evaluation, FullTest, MetricInfo
from auto_challenge_sets.tables import render_table

MAX_NAMED = 5  # systems of the top cluster the terminal names on its line; the rest counted

LEGEND = f"""\
- Full test set, *cluster*: systems not significantly different share one; as the WMT findings group
  systems, a boundary falls between two neighbours when every system above it is significantly
  better than every system below it. *Δ baseline (p)*: the paired test against the baseline system
  on every row, `{SIGNIFICANT}` where p < 0.05 (sacrebleu's mark, not corrected, as WMT).
"""


def ranking_table(full_test: FullTest, metric: str, info: MetricInfo, markdown: bool = False) -> str:
    """One row per system, best first: rank, cluster, score, Δ baseline (p)."""
    digits = info.digits
    rows = []
    for entry in full_test.rankings[metric].systems:
        test = entry.vs_baseline
        name = report_name(entry.system, markdown) + (" (baseline)" if entry.system == full_test.baseline_system else "")
        rows.append([str(entry.rank), str(entry.cluster), name, f"{entry.score:.{digits}f}",
                     paired_cell(test, digits)])
    label = report_name(info.label, markdown)  # a plug-in's label is a name too
    return render_table(["rank", "cluster", "system", label, "Δ baseline (p)"], rows, markdown=markdown)


def full_corpus_label(evaluation: Evaluation, markdown: bool = False) -> str:
    """What the tables call the run's full corpus: its config by name when a ``ref_config`` replaced it."""
    config = evaluation.full_corpus_config
    return "full test set" if config == f"{evaluation.pair}.{BASELINE}" else f"full corpus: {report_name(config, markdown)}"


def full_test_section(evaluation: Evaluation, markdown: bool = False, metrics: list[str] | None = None,
                      ranked: bool = True) -> list[str]:
    """The report's section (empty for a run without it): each of ``metrics``' ranking table (all by
    default), or with ``ranked`` false its method alone (report.md's: its findings name each metric's
    best system and top cluster, its per-metric files hold the tables)."""
    found = evaluation.full_test
    if found is None:
        return []
    test = "approximate randomization" if found.paired_test == "ar" else "paired bootstrap"
    name = full_corpus_label(evaluation, markdown)
    lines = [f"## {name[0].upper()}{name[1:]}: ranking and significance clusters" if markdown
             else f"{name}: ranking and significance clusters", "",
             f"{found.rows} rows; sacrebleu's paired {test} ({found.paired_samples} samples) against "
             f"{report_name(found.baseline_system, markdown)} and between every pair; clusters at p < {found.alpha} "
             f"(correction: {report_name(found.correction, markdown)}, as WMT); random baseline: n/a "
             f"({report_name(found.random_unavailable, markdown)})", ""]
    if not ranked:
        return lines
    for metric in metrics or found.rankings:
        ranking = found.rankings[metric]
        label = report_name(evaluation.label(metric), markdown)
        heading = f"{label}: {ranking.clusters} cluster(s) of {len(ranking.systems)} systems"
        lines += [f"### {heading}" if markdown else heading, "", ranking_table(found, metric, evaluation.metric_info[metric], markdown), ""]
    return lines


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    """The full corpus's scores, then the ranking section (empty for a run without it)."""
    label = full_corpus_label(evaluation)
    heading = "## Full corpus" if markdown else "full corpus" if label == "full test set" else label
    header = ["system", *(report_name(evaluation.label(m), markdown) for m in evaluation.metrics)]
    rows = [[report_name(s, markdown), *(num(evaluation.full[s][m], evaluation.digits(m)) for m in evaluation.metrics)]
            for s in by_full_test(evaluation)]
    return [heading, *([""] if markdown else []), render_table(header, rows, markdown=markdown), "",
            *full_test_section(evaluation, markdown, ranked=not markdown)]


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"ranked": by_full_test(evaluation)}


def top_line(evaluation: Evaluation, metric: str, escape: Callable[[str], str] = terminal_text) -> str:
    """The best system and the top cluster, every name through ``escape`` (the output's)."""
    cls, label = evaluation.metric_info[metric], escape(evaluation.label(metric))
    ranking = None if evaluation.full_test is None else evaluation.full_test.rankings.get(metric)
    if ranking is None or not ranking.systems:
        scored = [(s, evaluation.full[s][metric]) for s in evaluation.systems if evaluation.full[s][metric] is not None]
        if not scored:
            return f"{label}: no score"
        best = (max if evaluation.higher_is_better[metric] else min)(scored, key=lambda item: item[1])
        return f"{label}: best {escape(best[0])} ({best[1]:.{cls.digits}f})"
    top = ranking.systems[0]
    cluster = [escape(entry.system) for entry in ranking.systems if entry.cluster == 1]
    shown = ", ".join(cluster[:MAX_NAMED]) + (f", … ({len(cluster)} systems)" if len(cluster) > MAX_NAMED else "")
    return (f"{label}: best {escape(top.system)} ({top.score:.{cls.digits}f}); {ranking.clusters} cluster(s) of "
            f"{len(ranking.systems)} systems; top cluster: {shown}")
