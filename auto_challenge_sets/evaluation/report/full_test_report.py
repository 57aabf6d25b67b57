"""The full test set's ranking in the text and markdown reports: per metric, every system by score
with its rank, its significance cluster and its paired test against the baseline system
(:mod:`.full_test`)."""

from __future__ import annotations

from auto_challenge_sets.configs import BASELINE
from auto_challenge_sets.evaluation.report.name_text import report_name
from auto_challenge_sets.evaluation.results import Evaluation, FullTest, MetricInfo
from auto_challenge_sets.tables import render_table

LEGEND = """\
- Full test set, *ranking*: the systems by their score on the whole test set; *cluster*: systems
  not significantly different share one. As the WMT findings group systems: a boundary falls
  between two neighbours when every system above it is significantly better than every system
  below it (sacrebleu's paired test, p < 0.05, not corrected for the number of pairs, as WMT).
  *Δ baseline (p)*: the paired test against the baseline system on every row. The full test set
  has no random baseline (*n/a*): no sentence lies outside it.
"""


def ranking_table(full_test: FullTest, metric: str, info: MetricInfo, markdown: bool = False) -> str:
    """One row per system, best first: rank, cluster, score, Δ baseline (p); ``info``: the metric's."""
    digits = info.digits
    rows = []
    for entry in full_test.rankings[metric].systems:
        test = entry.vs_baseline
        name = report_name(entry.system, markdown) + (" (baseline)" if entry.system == full_test.baseline_system else "")
        rows.append([str(entry.rank), str(entry.cluster), name, f"{entry.score:.{digits}f}",
                     "-" if test is None else f"{test.delta:+.{digits}f} ({test.p_value:.3f})"])
    label = report_name(info.label, markdown)  # a plug-in's label is a name too
    return render_table(["rank", "cluster", "system", label, "Δ baseline (p)"], rows,
                        markdown=markdown)


def full_corpus_label(evaluation: Evaluation) -> str:
    """What the tables call the run's full corpus: its config by name when a ``ref_config``
    other than the pair's baseline replaced it (the reader must see which rows those are)."""
    config = evaluation.full_corpus_config
    return "full test set" if config == f"{evaluation.pair}.{BASELINE}" else f"full corpus: {config}"


def full_test_section(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    """The report's section (empty for a run without it)."""
    found = evaluation.full_test
    if found is None:
        return []
    test = "approximate randomization" if found.paired_test == "ar" else "paired bootstrap"
    name = full_corpus_label(evaluation)
    lines = [f"## {name[0].upper()}{name[1:]}: ranking and significance clusters" if markdown
             else f"{name}: ranking and significance clusters", "",
             f"{found.rows} rows; sacrebleu's paired {test} ({found.paired_samples} samples) against "
             f"{report_name(found.baseline_system, markdown)} and between every pair; clusters at p < {found.alpha} "
             f"(correction: {found.correction}, as WMT); random baseline: n/a ({found.random_unavailable})", ""]
    for metric, ranking in found.rankings.items():
        label = report_name(evaluation.label(metric), markdown)
        heading = f"{label}: {ranking.clusters} cluster(s) of {len(ranking.systems)} systems"
        lines += [f"### {heading}" if markdown else heading, "", ranking_table(found, metric, evaluation.metric_info[metric], markdown), ""]
    return lines
