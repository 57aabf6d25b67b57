"""Targeted accuracy: what it is and how far its judge was measured, each system's accuracy by distance
and per config beside its random-pair control, its correlation with the human scores, and the
figure of accuracy by distance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.evaluation.report import cells, plots
from auto_challenge_sets.evaluation.report.name_text import isolate, markdown_code, report_name, terminal_text
from auto_challenge_sets.evaluation.report.sections.full_test_section import full_corpus_label
from auto_challenge_sets.evaluation.report.sections.human_section import power, versus_cells, versus_header
from auto_challenge_sets.evaluation.results import DIAGNOSTIC as ROLE
from auto_challenge_sets.evaluation.results import ControlMatching, Evaluation, HumanCorrelation, TargetedRun
from auto_challenge_sets.evaluation.stats.versus_full import power_line
from auto_challenge_sets.tables import render_table

KIND, FILE = "targeted", "{pair}.targeted.svg"
FEW_JUDGED = 10  # a targeted accuracy resting on fewer instances is drawn and printed as "few"
SECOND_REFERENCE = "2nd human translation"  # the judge's pass rate on it, beside the systems'
DIAGNOSTIC = ("targeted accuracy is a diagnostic of reference-word recall, not a ranking measure: it credits "
              "the words of the dataset's reference, and a correct translation in other words fails")


def judge_line(targeted: TargetedRun) -> str:
    """The judge's pass rate on a second human translation, or that it is unmeasured and why."""
    judge = targeted.judge
    if judge.pass_rate is None:
        reason = "no instance judged" if judge.status == "measured" else judge.reason
        return f"this judge is unmeasured ({reason})"
    return (f"this judge passes {100 * judge.pass_rate:.0f}% of a second human translation "
            f"({judge.judged:,} instances judged; {judge.reason})")


def control_line(evaluation: Evaluation) -> str | None:
    """How the random-pair control drew its pairs, in shares of instances, summed over each
    phenomenon's smallest-D config (which holds every instance of the others); None without it."""
    targeted = evaluation.targeted
    if targeted is None or not targeted.control:
        return None
    smallest = [targeted.control[s.config] for s in targeted.by_distance.values() if s.config in targeted.control]
    found = ControlMatching(*(sum(getattr(m, key) for m in smallest)
                              for key in ("instances", "matched", "head_only", "unmatched", "itself")))
    if not evaluation.targeted.control_upos:
        return ("random-pair control: not matched on part of speech (the dataset has no source_upos column; "
                "rebuild it with this acs to match)")
    if not found.instances:
        return "random-pair control: no instance drawn"

    def share(count: int) -> str:
        return f"{100 * count / found.instances:.0f}%"

    return (f"random-pair control: pairs with the instance's head and dependent UPOS for {share(found.matched)} of "
            f"{found.instances:,} instances, with the head's UPOS only for {share(found.head_only)}, with neither "
            f"(no such pair in the sentence) for {share(found.unmatched)}"
            + (f", the instance itself (no other pair fits) for {share(found.itself)}" if found.itself else ""))


def matched_share(matching: ControlMatching | None) -> float | None:
    if matching is None or not matching.instances:
        return None
    return matching.matched / matching.instances


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}"


def targeted_tables(evaluation: Evaluation, markdown: bool = False) -> list[tuple[str, str]]:
    """Per phenomenon: a heading and a table of each system's accuracy (%) by distance d, with the
    mean over systems and the instances judged per d; and the table against the control."""
    out = []
    systems = cells.by_full_test(evaluation)  # every table's order, best first on the full corpus
    for phenomenon, summary in evaluation.targeted.by_distance.items():
        buckets = summary.buckets
        rows = [[report_name(system, markdown), *(_pct(summary.accuracy[system][b]) for b in buckets)]
                for system in systems]
        rows.append(["mean", *(_pct(summary.mean[b]) for b in buckets)])
        if summary.second_reference is not None:
            rows.append([SECOND_REFERENCE, *(_pct(summary.second_reference[b]) for b in buckets)])
        judged = [sum(summary.judged[s][b] for s in systems) / len(systems) for b in buckets]
        rows.append(["judged (mean)", *(f"{n:.0f}" for n in judged)])
        heading = (f"{phenomenon}: targeted accuracy (%) by distance d "
                   f"(from {cells.config_label(summary.config, evaluation.configs[summary.config].flags())})")
        out.append((heading, render_table(["system", *(f"d={b}" for b in buckets)], rows, markdown=markdown)))
        control = _random_pairs_table(evaluation, phenomenon, markdown)
        if control is not None:
            out.append((f"{phenomenon}: targeted accuracy (%) per config [its percentile among random word pairs "
                        "at the same distances in the same sentences, matched on part of speech where the sentence allows]", control))
    return out


def _random_pairs_table(evaluation: Evaluation, phenomenon: str, markdown: bool) -> str | None:
    """Each system's accuracy on each config of the phenomenon beside its random-pair control's percentile."""
    configs = {name: c for name, c in evaluation.configs.items() if c.phenomenon == phenomenon
               and any(r.targeted is not None and r.targeted.random_pairs is not None for r in c.systems.values())}
    if not configs:
        return None

    def cell(score) -> str:
        if score is None or score.accuracy is None:
            return "-"
        control = score.random_pairs
        return _pct(score.accuracy) + ("" if control is None or control.percentile is None
                                       else f" [{control.percentile:.0f}]")

    rows = [[report_name(system, markdown), *(cell(c.systems[system].targeted) for c in configs.values())]
            for system in cells.by_full_test(evaluation)]
    found = {row.config: row for row in targeted_configs(evaluation)}  # the page's, per config
    rows.append(["random pairs (mean)", *(_pct(found[name].mean_random_pairs) for name in configs)])
    if evaluation.targeted.control_upos:
        rows.append(["pairs matched on UPOS", *(_pct(found[name].matched) for name in configs)])
    if evaluation.targeted.judge.by_config:
        rows.append([SECOND_REFERENCE, *(_pct(found[name].second_reference) for name in configs)])
    return render_table(["system", *(cells.config_label(name, c.flags()) for name, c in configs.items())], rows, markdown=markdown)


def targeted_human_table(evaluation: Evaluation, markdown: bool = False) -> str:
    """Kendall's τ with the human scores: targeted accuracy next to the first metric's, per lexical config."""
    metric = evaluation.metrics[0]
    label = report_name(evaluation.label(metric), markdown)
    configs = evaluation.configs.values()
    header = ["config", f"{label} τ", f"{label} p", cells.family_header(f"{label} p", ((c.human or {}).get(metric)
                                                                                    for c in configs)),
              "targeted τ", "targeted p", cells.family_header("targeted p", (c.human_targeted for c in configs)),
              "systems", "τ pct (random pairs)",
              *versus_header(evaluation, [c.human_targeted for c in configs], markdown, " targeted τ")]
    rows = []
    full = (evaluation.human_full or {}).get(metric)
    if full is not None:
        rows.append([f"({full_corpus_label(evaluation, markdown)})", cells.num(full.kendall, 3), cells.num(full.p_value, 3), "-", "-", "-", "-",
                     str(full.systems), "-", "-", "-", "-"])
    for name, config in evaluation.configs.items():
        targeted, auto = config.human_targeted, (config.human or {}).get(metric)
        if targeted is None:
            continue
        rows.append([cells.config_label(name, config.flags()), "-" if auto is None else cells.num(auto.kendall, 3),
                     "-" if auto is None else cells.num(auto.p_value, 3),
                     "-" if auto is None else cells.corrected_cell(auto.p_corrected, auto.exploratory),
                     cells.num(targeted.kendall, 3), cells.num(targeted.p_value, 3),
                     cells.corrected_cell(targeted.p_corrected, targeted.exploratory), str(targeted.systems),
                     cells.num(targeted.random_kendall_percentile, 0), *versus_cells(targeted)])
    return render_table(header, rows, markdown=markdown)


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    """The report's targeted-accuracy section (empty without targeted accuracy)."""
    targeted = evaluation.targeted
    if targeted is None:
        return []
    signature = markdown_code(targeted.signature) if markdown else terminal_text(targeted.signature)
    lines = ["## Targeted accuracy" if markdown else "targeted accuracy", "",
             f"alignment: {report_name(targeted.aligner, markdown)}; signature: {signature}", ""]
    if targeted.alignment_warning:
        warning = report_name(targeted.alignment_warning, markdown)
        lines += [f"> **warning**: {warning}" if markdown else f"warning: {warning}", ""]
    diagnostic, judge, *control = targeted_notes(evaluation)
    lines += [f"{diagnostic}; {report_name(judge, markdown)}", "", *(line for note in control for line in (note, ""))]
    for heading, table in targeted_tables(evaluation, markdown):
        lines += [f"### {heading}" if markdown else heading, "", table, ""]
    if evaluation.human_full is not None:
        lines += ["### Correlation with human scores" if markdown else "correlation with human scores (Kendall τ)",
                  "", targeted_human_table(evaluation, markdown), "", *power(evaluation, None)]
    return lines


def targeted_notes(evaluation: Evaluation) -> list[str]:
    """What the page says beside targeted accuracy: what it measures, its judge, its control."""
    if evaluation.targeted is None:
        return []
    control = control_line(evaluation)
    return [DIAGNOSTIC, judge_line(evaluation.targeted), *([control] if control else [])]


@dataclass(frozen=True)
class TargetedConfigRow:
    """One lexical config's targeted accuracy against its random-pair control and the humans."""

    config: str
    n: int
    flags: tuple[str, ...]
    mean_accuracy: float | None  # over systems
    mean_random_pairs: float | None  # the control's mean accuracy, over systems
    above_control: int  # systems above the control's 95th percentile
    below_control: int  # ... below its 5th
    systems: int
    human: HumanCorrelation | None
    second_reference: float | None = None  # the judge's pass rate on a second human translation
    matched: float | None = None  # matched_share


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def targeted_configs(evaluation: Evaluation) -> list[TargetedConfigRow]:
    """Every config with targeted accuracy, in D order, against its random-pair control and the humans."""
    run, rows = evaluation.targeted, []
    for name in cells.ordered_configs(evaluation):
        config = evaluation.configs[name]
        scores = [r.targeted for r in config.systems.values() if r.targeted is not None]
        if not scores:
            continue
        judged = [s for s in scores if s.accuracy is not None]
        controls = [s.random_pairs for s in judged if s.random_pairs is not None and s.random_pairs.mean is not None]
        judge = None if run is None else run.judge.by_config.get(name)  # a run's judge is never None
        rows.append(TargetedConfigRow(
            name, config.n, config.flags(), _mean([s.accuracy for s in judged]), _mean([c.mean for c in controls]),
            sum(s.random_pairs is not None and s.random_pairs.p95 is not None and s.accuracy > s.random_pairs.p95
                for s in judged),
            sum(s.random_pairs is not None and s.random_pairs.p5 is not None and s.accuracy < s.random_pairs.p5
                for s in judged),
            len(judged), config.human_targeted, None if judge is None else judge.accuracy,
            matched_share(run.control.get(name)) if run is not None and run.control_upos else None))
    return rows


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"targeted_configs": targeted_configs(evaluation),
            "targeted_notes": targeted_notes(evaluation), "few": FEW_JUDGED,
            "targeted_power": power_line(evaluation, None)}  # None without human scores (no targeted τ)


def targeted_plot(evaluation: Evaluation) -> plots.SvgPlot | None:
    """Accuracy (%) against the distance bucket, one panel per phenomenon: every system thin, the mean
    thick, the instances judged (mean over systems) under each bucket."""
    if evaluation.targeted is None or not evaluation.targeted.by_distance:
        return None
    colours = plots.system_colours(evaluation.systems)
    panel_w, panel_h = 300.0, 270.0
    panels = []
    for k, (phenomenon, summary) in enumerate(evaluation.targeted.by_distance.items()):
        left = k * panel_w
        buckets = list(summary.buckets)
        x = plots.Scale(-0.5, len(buckets) - 0.5, left + 50, left + panel_w - 12)
        y = plots.Scale(0.0, 100.0, panel_h - 52, 30)
        series = []
        for system in evaluation.systems:
            points = [(x(b), y(100 * a), f"{isolate(system)}, d={bucket}: {100 * a:.0f}% of {summary.judged[system][bucket]}"
                       + (" (few)" if summary.judged[system][bucket] < FEW_JUDGED else ""))
                      for b, bucket in enumerate(buckets) if plots.is_finite(a := summary.accuracy[system][bucket])]
            if points:
                series.append(plots.line_series(isolate(system), colours[system], points, width=1.0))
                for dot, bucket in zip(series[-1]["dots"], [b for b in buckets if plots.is_finite(summary.accuracy[system][b])]):
                    dot["few"] = summary.judged[system][bucket] < FEW_JUDGED
        judged = [sum(summary.judged[s][b] for s in evaluation.systems) / len(evaluation.systems) for b in buckets]
        mean = [(x(b), y(100 * a), f"mean, d={bucket}: {100 * a:.0f}%" + (" (few)" if n < FEW_JUDGED else ""))
                for b, (bucket, n) in enumerate(zip(buckets, judged)) if plots.is_finite(a := summary.mean[bucket])]
        panels.append({
            "left": left + 50, "right": left + panel_w - 12, "top": 30, "bottom": panel_h - 52,
            "title": phenomenon, "title_x": left + panel_w / 2, "title_y": 16,
            "x_ticks": [{"at": x(b), "text": bucket, "n": f"n={n:.0f}", "few": n < FEW_JUDGED}
                        for b, (bucket, n) in enumerate(zip(buckets, judged))],
            "y_ticks": [{"at": y(t), "text": f"{t:g}"} for t in (0, 25, 50, 75, 100)],
            "series": series, "mean": plots.line_series("mean", ("#000000", ""), mean, width=2.5) if mean else None,
            "x_label": "distance d (n: instances judged)", "y_label": "targeted accuracy (%)"})
    # one legend for every panel (the systems in the same colours in each), right of the last
    entries = [(isolate(plots.plot_name(s)), *colours[s], 1.0) for s in evaluation.systems] + [("mean", "#000000", "", 2.5)]
    at = len(panels) * panel_w + 8
    legend = [{"x": at, "y": 30 + k * plots.LEGEND_ROW_PX, "text": text, "colour": colour, "dash": dash, "width": width}
              for k, (text, colour, dash, width) in enumerate(entries)]
    legend.append({"x": at, "y": 30 + len(entries) * plots.LEGEND_ROW_PX, "text": f"hollow: fewer than {FEW_JUDGED} judged",
                   "colour": "", "dash": "", "width": 0})
    width = at + 28 + 0.9 * plots.CHAR_PX * max(len(e["text"]) for e in legend)
    return plots.SvgPlot("targeted-plot", f"Targeted accuracy by distance ({ROLE})",
                   "targeted accuracy (%) of every system (thin) and their mean (thick) against the distance d, "
                   "with the instances judged per bucket", "targeted", round(width, 1),
                   max(panel_h, 30 + (len(legend) + 1) * plots.LEGEND_ROW_PX),
                   {"panels": panels, "legend": legend}, FILE.format(pair=evaluation.pair))


def figures(evaluation: Evaluation, metric: str | None, human: dict[str, float] | None) -> list[plots.SvgPlot | None] | None:
    return [targeted_plot(evaluation)] if metric is None else None
