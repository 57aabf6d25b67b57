"""The one report of an :class:`~auto_challenge_sets.evaluation.results.Evaluation`: the plain-text
tables printed by ``acs evaluate``, and with ``--out`` the folder of ``results.json``,
``report.md`` and the figures (:mod:`.figures`). Every metric of the run is shown, whatever it is."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.page_sentences import Sentences
from auto_challenge_sets.evaluation.report.full_test_report import LEGEND as FULL_TEST_LEGEND
from auto_challenge_sets.evaluation.report.full_test_report import full_corpus_label as full_corpus_label
from auto_challenge_sets.evaluation.report.full_test_report import full_test_section
from auto_challenge_sets.evaluation.report.name_text import markdown_code, report_name
from auto_challenge_sets.evaluation.report.system_order import by_full_test, ranked_systems
from auto_challenge_sets.evaluation.report.targeted_labels import DIAGNOSTIC, control_line, judge_line
from auto_challenge_sets.evaluation.report.targeted_tables import targeted_tables
from auto_challenge_sets.evaluation.report.validity_report import LEGEND as VALIDITY_LEGEND
from auto_challenge_sets.evaluation.report.validity_report import (
    config_label,
    corrected_cell,
    family_header,
    family_size,
    segment_section,
    surviving_worsening,
)
from auto_challenge_sets.evaluation.results import Evaluation, HumanCorrelation
from auto_challenge_sets.evaluation.stats.human import MIN_CI_SYSTEMS
from auto_challenge_sets.evaluation.stats.versus_full import power_line, reference_metric
from auto_challenge_sets.tables import render_table

LEGEND = """\
- *score*: the metric on the config's rows (BLEU, chrF and TER are sacrebleu's, 0–100; RIBES is
  NTT's, 0–1; TER is an error rate: lower is better). `*` after a score: worse than the 5th
  percentile of the random corpora (above the 95th where lower is better).
- *random* / *p5*: mean and 5th percentile of the metric over length-matched random corpora drawn
  from the full corpus (every challenge sentence replaced by a sentence whose source length
  differs by at most the tolerance).
- *Δ (p)*: the system's score minus the baseline system's on the same rows, and the p-value of
  sacrebleu's paired test (approximate randomization by default).
- *small*: fewer rows than `min_rows` (a config of exactly `min_rows` rows is not small): scored,
  left out of trends, summaries and the corrections for multiple testing. *same rows as X*: the
  config holds the very rows of the earlier config X and is counted once (in trends, summaries and
  corrections). The marks follow a config's name in every table and plot.
- Summary, per metric and phenomenon, over its (system, config) cells: *< full* the share worse
  than the system's full-corpus score, *< random mean* worse than the random mean, *< random p5*
  worse than the random 5th percentile, *Δ random* the mean difference from the random mean,
  *worsening trend* the systems whose score goes towards worse with D (Spearman over D).
- Human correlation, per metric (scores negated where lower is better, so a positive τ always
  means agreeing with humans): Spearman's ρ and Kendall's τ over systems, Kendall's p-value, a 95%
  bootstrap interval of τ over systems, and *random τ pct*: where the config's τ falls among the τ
  of its random corpora (a set that ranks systems no better than random sentences of its lengths
  sits near 50). *Δτ vs full BLEU*: the config's τ minus full-test BLEU's over the same systems
  (BLEU unless it is not among the metrics: then the first metric), a 95% paired bootstrap
  interval over systems, the p of a paired permutation test (the two measures' ranks swapped per
  system) and its BH correction across the configs: does the config agree with humans better than
  the full test set's BLEU? *Power*, under each table: the τ needed for p < 0.05 with this many
  systems and to survive BH over this many configs (exact null distribution of Kendall's τ).
""" + VALIDITY_LEGEND + FULL_TEST_LEGEND


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def config_table(evaluation: Evaluation, config: str, markdown: bool = False) -> str:
    """One row per system: each metric, its random mean and p5, and the paired test against the baseline."""
    entry = evaluation.configs[config]
    header = ["system"]
    for metric in evaluation.metrics:
        header += [report_name(evaluation.label(metric), markdown), "random", "p5"]
    header += [f"Δ{report_name(evaluation.label(m), markdown)} (p)" for m in evaluation.metrics]
    rows = []
    first = evaluation.metrics[0]
    for system in ranked_systems(evaluation, lambda s: entry.systems[s].scores[first].score if s in entry.systems else None):
        if system not in entry.systems:
            continue
        result = entry.systems[system]
        row = [report_name(system, markdown) + (" (baseline)" if system == evaluation.baseline_system else "")]
        for metric in evaluation.metrics:
            score, digits = result.scores[metric], evaluation.digits(metric)
            worse = entry.starred(score, evaluation.higher_is_better[metric])
            random = score.random
            row += [_num(score.score, digits) + ("*" if worse else ""),
                    *(["n/a", "n/a"] if random is None else [_num(random.mean, digits), _num(random.p5, digits)])]
        for metric in evaluation.metrics:
            test = result.scores[metric].vs_baseline
            row.append("-" if test is None else f"{test.delta:+.{evaluation.digits(metric)}f} ({test.p_value:.3f})")
        rows.append(row)
    return render_table(header, rows, markdown=markdown)


def config_heading(evaluation: Evaluation, config: str) -> str:
    entry = evaluation.configs[config]
    flags = list(entry.flags())
    if entry.widened:
        flags.append(f"widened {entry.widened}")
    if entry.random_unavailable:
        flags.append(f"random baseline n/a: {entry.random_unavailable}")
    return f"{config} (n = {entry.n})" + (f" [{'; '.join(flags)}]" if flags else "")


def summary_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    header = ["phenomenon", "cells", "< full", "< random mean", "< random p5", "Δ random", "worsening trend"]
    digits = evaluation.digits(metric)
    rows = [[name, str(s.cells), f"{s.worse_than_full:.0%}", f"{s.worse_than_random_mean:.0%}",
             f"{s.worse_than_random_p5:.0%}", f"{s.mean_delta_random:+.{digits}f}", _worsening(evaluation, metric, name)]
            for name, s in evaluation.summary[metric].items()]
    return render_table(header, rows, markdown=markdown)


def _worsening(evaluation: Evaluation, metric: str, phenomenon: str) -> str:
    """Worsening trends over the systems with a computable trend, and how many survive BH; n/a
    when no trend could be computed (fewer than three usable configs)."""
    summary = evaluation.summary[metric][phenomenon]
    if summary.worsening_trend is None:
        return "n/a"
    surviving = surviving_worsening(evaluation, metric, phenomenon)
    size = family_size(evaluation.trends.get(metric, {}).get(phenomenon, {}).values())
    return f"{summary.worsening_trend}/{summary.trends} ({surviving} BH < 0.05 of {size} trends)"


def _human_cells(human: HumanCorrelation, random_means_something: bool = True) -> list[str]:
    """``random_means_something``: False on a degenerate baseline, whose random τ percentile is not printed."""
    ci = human.ci
    return [str(human.systems), _num(human.spearman, 3), _num(human.kendall, 3), _num(human.p_value, 3),
            corrected_cell(human.p_corrected, human.exploratory),
            ("n/a: too few systems" if human.systems < MIN_CI_SYSTEMS else "-") if not ci else f"[{ci[0]:.2f}, {ci[1]:.2f}]",
            _num(human.random_kendall_percentile if random_means_something else None, 0)]


def _versus_cells(human: HumanCorrelation | None) -> list[str]:
    """τ minus full-test BLEU's, its interval, raw and corrected p (see :mod:`.versus_full`)."""
    test = None if human is None else human.vs_full_test
    if test is None or test.delta is None:
        return ["-", "-", "-"]
    ci = "" if test.ci is None else f" [{test.ci[0]:+.2f}, {test.ci[1]:+.2f}]"
    return [f"{test.delta:+.3f}{ci}", _num(test.p_value, 3), corrected_cell(test.p_corrected, test.exploratory)]


def versus_header(evaluation: Evaluation, found: Iterable[HumanCorrelation | None], what: str = "τ") -> list[str]:
    """The Δτ columns' headers; ``found``: the correlations whose differences the column holds (their family)."""
    return [f"Δ{what} vs full {evaluation.label(reference_metric(evaluation.metrics))} [95% CI]", "p",
            family_header("p", (None if h is None else h.vs_full_test for h in found))]


def human_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    found = [(c.human or {}).get(metric) for c in evaluation.configs.values()]
    header = ["config", "n", "systems", "Spearman", "Kendall", "p", family_header("p", found), "95% CI",
              "random τ pct", *versus_header(evaluation, found)]
    rows = []
    full = (evaluation.human_full or {}).get(metric)
    if full is not None:
        rows.append([f"({full_corpus_label(evaluation)})", str(evaluation.full_corpus_rows), *_human_cells(full),
                     *_versus_cells(full)])
    for name, config in evaluation.configs.items():
        human = (config.human or {}).get(metric)
        if human is not None:
            rows.append([config_label(name, config), str(config.n),
                         *_human_cells(human, not config.degenerate_baseline), *_versus_cells(human)])
    return render_table(header, rows, markdown=markdown)


def _power(evaluation: Evaluation, metric: str | None) -> list[str]:
    line = power_line(evaluation, metric)
    return [] if line is None else [line, ""]


def targeted_human_table(evaluation: Evaluation, markdown: bool = False) -> str:
    """Kendall's τ with the human scores: targeted accuracy next to the first metric's, per lexical config."""
    metric = evaluation.metrics[0]
    label = report_name(evaluation.label(metric), markdown)
    configs = evaluation.configs.values()
    header = ["config", f"{label} τ", f"{label} p", family_header(f"{label} p", ((c.human or {}).get(metric)
                                                                                    for c in configs)),
              "targeted τ", "targeted p", family_header("targeted p", (c.human_targeted for c in configs)),
              "systems", "τ pct (random pairs)",
              *versus_header(evaluation, [c.human_targeted for c in configs], " targeted τ")]
    rows = []
    full = (evaluation.human_full or {}).get(metric)
    if full is not None:
        rows.append([f"({full_corpus_label(evaluation)})", _num(full.kendall, 3), _num(full.p_value, 3), "-", "-", "-", "-",
                     str(full.systems), "-", "-", "-", "-"])
    for name, config in evaluation.configs.items():
        targeted, auto = config.human_targeted, (config.human or {}).get(metric)
        if targeted is None:
            continue
        rows.append([config_label(name, config), "-" if auto is None else _num(auto.kendall, 3),
                     "-" if auto is None else _num(auto.p_value, 3),
                     "-" if auto is None else corrected_cell(auto.p_corrected, auto.exploratory),
                     _num(targeted.kendall, 3), _num(targeted.p_value, 3),
                     corrected_cell(targeted.p_corrected, targeted.exploratory), str(targeted.systems),
                     _num(targeted.random_kendall_percentile, 0), *_versus_cells(targeted)])
    return render_table(header, rows, markdown=markdown)


def targeted_section(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    """The report's targeted-accuracy section (empty without targeted accuracy)."""
    targeted = evaluation.targeted
    if targeted is None:
        return []
    lines = ["## Targeted accuracy" if markdown else "targeted accuracy", "",
             f"alignment: {targeted.aligner}; signature: {targeted.signature}", ""]
    if targeted.alignment_warning:
        lines += [f"> **warning**: {targeted.alignment_warning}" if markdown else f"warning: {targeted.alignment_warning}",
                  ""]
    lines += [f"{DIAGNOSTIC}; {judge_line(targeted)}", ""]
    control = control_line(evaluation)
    if control is not None:
        lines += [control, ""]
    for heading, table in targeted_tables(evaluation, markdown):
        lines += [f"### {heading}" if markdown else heading, "", table, ""]
    if evaluation.human_full is not None:
        lines += ["### Correlation with human scores" if markdown else "correlation with human scores (Kendall τ)",
                  "", targeted_human_table(evaluation, markdown), "", *_power(evaluation, None)]
    return lines


def _has_human(evaluation: Evaluation, metric: str) -> bool:
    if (evaluation.human_full or {}).get(metric) is not None:
        return True
    return any((c.human or {}).get(metric) is not None for c in evaluation.configs.values())


def made_by(evaluation: Evaluation) -> str | None:
    """The one line of the sets' provenance (None for a result made without one)."""
    return None if evaluation.provenance is None else evaluation.provenance.summary


def text_report(evaluation: Evaluation) -> str:
    lines = [f"signature: {evaluation.signature}", f"baseline system: {evaluation.baseline_system}"]
    lines += [f"sets made by: {made_by(evaluation)}"] if made_by(evaluation) else []
    lines.append("")
    label = full_corpus_label(evaluation)
    lines += ["full corpus" if label == "full test set" else label, _full_table(evaluation), ""]
    lines += full_test_section(evaluation)
    for config in sorted(evaluation.configs, key=config_sort_key):
        lines += [config_heading(evaluation, config), config_table(evaluation, config), ""]
    for metric in evaluation.metrics:
        lines += [f"summary, {evaluation.label(metric)} (distinct configs with enough rows; * in the tables: worse than "
                  "the random 5th percentile)", summary_table(evaluation, metric), ""]
    for metric in evaluation.metrics:
        if _has_human(evaluation, metric):
            lines += [f"correlation with human scores, {evaluation.label(metric)}", human_table(evaluation, metric), "",
                      *_power(evaluation, metric)]
    lines += targeted_section(evaluation)
    lines += segment_section(evaluation)
    return "\n".join(lines).rstrip("\n")


def _full_table(evaluation: Evaluation, markdown: bool = False) -> str:
    header = ["system", *(report_name(evaluation.label(m), markdown) for m in evaluation.metrics)]
    rows = [[report_name(system, markdown), *(_num(evaluation.full[system][m], evaluation.digits(m)) for m in evaluation.metrics)]
            for system in by_full_test(evaluation)]
    return render_table(header, rows, markdown=markdown)


def markdown_report(evaluation: Evaluation, plots: list[Path]) -> str:
    def name(text: str) -> str:  # a system, a metric's label, a note with a path: never markup
        return report_name(text, markdown=True)

    lines = ["# LDD challenge sets: evaluation", "",
             f"- **signature**: `{evaluation.signature}`",
             f"- **dataset / pair / split**: {markdown_code(evaluation.dataset)} / {evaluation.pair} / {evaluation.split} "
             f"(full corpus: {evaluation.full_corpus_config}, {evaluation.full_corpus_rows} rows)",
             f"- **systems**: {', '.join(map(name, evaluation.systems))} (baseline of the paired tests: "
             f"{name(evaluation.baseline_system)})",
             *([f"- **sets made by**: {name(made_by(evaluation))}"] if made_by(evaluation) else []),
             *(f"- **note**: {name(note)}" for note in evaluation.notes),
             "", "## How to read this report", "", LEGEND, "## Full corpus", "", _full_table(evaluation, True), ""]
    lines += full_test_section(evaluation, markdown=True)
    for metric in evaluation.metrics:
        lines += [f"## Summary, {name(evaluation.label(metric))}", "", summary_table(evaluation, metric, markdown=True), ""]
    for metric in evaluation.metrics:
        if _has_human(evaluation, metric):
            lines += [f"## Correlation with human scores, {name(evaluation.label(metric))}", "",
                      human_table(evaluation, metric, markdown=True), "", *_power(evaluation, metric)]
    lines += targeted_section(evaluation, markdown=True)
    lines += segment_section(evaluation, markdown=True)
    lines += [f"![{p.stem}]({p.name})" for p in plots] + [""]
    for config in sorted(evaluation.configs, key=config_sort_key):
        lines += [f"## {config_heading(evaluation, config)}", "", config_table(evaluation, config, markdown=True), ""]
    return "\n".join(lines)


RESULTS, MARKDOWN = "results.json", "report.md"


def report_names() -> tuple[str, ...]:
    """Every name :func:`write_report` may write, relative to its folder, fields in braces (a
    plot's metric, a sidecar's config): the one list of a report's files, from its writers."""
    from auto_challenge_sets.evaluation.page_sentences import SAVED
    from auto_challenge_sets.evaluation.report.html.html_report import PAGE_NAMES
    from auto_challenge_sets.evaluation.report.plots import PLOT_NAMES

    return (RESULTS, MARKDOWN, SAVED, *PLOT_NAMES, *PAGE_NAMES)


def write_report(out_dir: str | Path, evaluation: Evaluation, sentences: Sentences | None = None,
                 progress: bool = False) -> list[Path]:
    """``results.json``, ``report.md``, the plots and ``index.html`` into ``out_dir``, from the
    result alone (given the ``sentences`` behind each config, the page shows them and they are
    saved beside results.json, so ``acs report`` renders the same page); return the paths written."""
    from auto_challenge_sets.builder.pipeline.timings import stage
    from auto_challenge_sets.evaluation.page_sentences import SAVED
    from auto_challenge_sets.evaluation.report import figures as drawing
    from auto_challenge_sets.evaluation.report.html.html_report import write_html

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = out / RESULTS
    with stage(RESULTS, 1, "files"):
        results.write_text(json.dumps(evaluation.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    saved = []
    if sentences is not None:
        with stage(SAVED, 1, "files"):
            sentences.save(out / SAVED)
        saved.append(out / SAVED)
    figures = drawing.all_plots(evaluation, out, evaluation.human_scores, progress)
    plots, report = [out / figure.file for figure in figures], out / MARKDOWN
    with stage(MARKDOWN, 1, "files"):
        report.write_text(markdown_report(evaluation, plots), encoding="utf-8")
    page = write_html(out, evaluation, sentences, figures)
    return [results, *saved, report, *plots, *page]
