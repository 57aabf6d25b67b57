"""The findings, first in every output (the terminal, report.md, index.html): per phenomenon the best
system on its largest usable config and whether its lead is significant, the full test set's
significance clusters, the phenomena that cost systems most against the random band, and agreement
with humans against full-test BLEU, two-sided after Benjamini–Hochberg, with the run's power.
:func:`findings` builds the block with one output's name escaping (the page's: each name a ``<bdi>``);
``text`` and ``page`` lay it out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from auto_challenge_sets.evaluation.report.cells import corrected_cell, ordered_configs
from auto_challenge_sets.evaluation.report.name_text import markdown_text, terminal_text
from auto_challenge_sets.evaluation.report.plots import short
from auto_challenge_sets.evaluation.report.sections.full_test_section import full_corpus_label, top_line
from auto_challenge_sets.evaluation.results import DIAGNOSTIC, ConfigResult, Evaluation
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.evaluation.stats.versus_full import reference_metric, run_delta_power
from auto_challenge_sets.tables import render_table

HARDEST = 3  # phenomena named per metric
OPEN, CLOSE = "\ue000", "\ue001"  # a name's bounds in the page's lines, until _html makes them <bdi> elements
TARGETED = "targeted accuracy"


@dataclass(frozen=True)
class Findings:
    intro: str
    header: list[str]
    rows: list[list[str]]  # per phenomenon, the best system and its lead
    lines: list[str]  # the full test set's clusters, the hardest phenomena, the verdict against BLEU


def verdict_words(verdict: str, reference: str) -> str:
    """A verdict (:data:`.results.VERDICTS`) in words: better than, no different from, worse than full-test BLEU."""
    return f"{verdict} {'from' if verdict == 'no different' else 'than'} full-test {reference}"


def _best_row(evaluation: Evaluation, name: str, config: ConfigResult, metric: str,
              escape: Callable[[str], str]) -> list[str] | None:
    """The best system and the runner-up; the best's lead over the baseline system by its paired test
    or, where the best is the baseline, over the runner-up by the runner-up's; the systems
    significantly above and below the baseline."""
    sign, digits, baseline = (1 if evaluation.higher_is_better[metric] else -1), evaluation.digits(metric), evaluation.baseline_system
    scored = sorted(((s, r.scores[metric]) for s, r in config.systems.items() if metric in r.scores),
                    key=lambda item: -sign * item[1].score)
    if len(scored) < 2:
        return None
    (best, top), (second, runner_up) = scored[:2]
    test = top.vs_baseline if best != baseline else runner_up.vs_baseline
    lead = "-" if test is None else (f"{(test.delta if best != baseline else -test.delta):+.{digits}f} over "
                                     f"{'baseline' if best != baseline else 'runner-up'} (p {corrected_cell(test.p_value, False)})")
    tests = [score.vs_baseline for _, score in scored if score.vs_baseline is not None]
    above, below = (sum(t.p_value < ALPHA and side * sign * t.delta > 0 for t in tests) for side in (1, -1))
    return [f"{escape(short(name))} ({config.n})", escape(best), f"{top.score:.{digits}f}", escape(second),
            f"{runner_up.score:.{digits}f}", lead, "-" if test is None else "yes" if test.p_value < ALPHA else "no",
            f"{above} / {below}"]


def _hardest(evaluation: Evaluation, metric: str, escape: Callable[[str], str]) -> str | None:
    sign, digits = (1 if evaluation.higher_is_better[metric] else -1), evaluation.digits(metric)
    found = sorted(evaluation.summary.get(metric, {}).items(), key=lambda item: sign * item[1].mean_delta_random)
    named = [f"{escape(short(p))} {s.mean_delta_random:+.{digits}f} ({s.worse_than_random_p5:.0%})"
             for p, s in found[:HARDEST] if sign * s.mean_delta_random < 0]
    return (f"hardest against the random band, {escape(evaluation.label(metric))} (mean Δ random; cells below "
            f"the band): {', '.join(named) or 'none scores below its random mean'}") if found else None


def _agreement(evaluation: Evaluation, escape: Callable[[str], str]) -> list[str]:
    """τ with humans, and every measure's verdict against full-test BLEU (a config's after BH, a repeat
    counted once; the full test set's at its raw p), with the Δτ the run detects."""
    full = {m: f for m, f in (evaluation.human_full or {}).items() if f is not None and f.kendall is not None}
    if not full:
        return []
    reference = escape(evaluation.label(reference_metric(evaluation.metrics)))
    labels = {m: escape(evaluation.label(m)) for m in evaluation.metric_info} | {None: f"{TARGETED} ({DIAGNOSTIC})"}
    measures = [(m, name, found) for name, config in evaluation.configs.items() if config.same_rows_as is None
                for m, found in [*(config.human or {}).items(), (None, config.human_targeted)] if found is not None]
    tested = [(m, name, found.vs_full_test) for m, name, found in measures
              if found.vs_full_test is not None and found.vs_full_test.verdict is not None]

    def listed(verdict: str) -> str:
        return ", ".join(f"{labels[m]} on {escape(short(name))}" for m, name, t in tested if t.verdict == verdict) or "none"

    best = max(((f.kendall, m, name) for m, name, f in measures  # a usable config's, a metric's
                if m and f.kendall is not None and evaluation.configs[name].usable), default=None)
    lines = [f"agreement with humans (Kendall τ over {max(f.systems for f in full.values())} systems): full-test "
             + ", ".join(f"{labels[m]} {f.kendall:+.2f}" for m, f in full.items())
             + ("" if best is None else f"; highest on a config: {labels[best[1]]} on {escape(short(best[2]))} {best[0]:+.2f}"),
             (f"no config ranks systems better than full-test {reference} after correction" if listed("better") == "none"
              else f"better than full-test {reference} after BH: {listed('better')}")
             + f"; worse than full-test {reference}: {listed('worse')}; no different: "
             f"{sum(t.verdict == 'no different' for *_, t in tested)} of {len(tested)} measures (each config × metric"
             f"{' and targeted accuracy' if evaluation.targeted else ''}, BH per metric over the configs)"]
    lines += [f"full-test {labels[m]}: {verdict_words(f.vs_full_test.verdict, reference)} (Δτ {f.vs_full_test.delta:+.2f}, "
              f"p {corrected_cell(f.vs_full_test.p_value, False)})" for m, f in full.items()
              if f.vs_full_test is not None and f.vs_full_test.verdict is not None]
    power = run_delta_power(evaluation, [*evaluation.metrics, None])
    return lines + ([power.note()] if power else [])


def findings(evaluation: Evaluation, escape: Callable[[str], str]) -> Findings:
    """The block, every name through ``escape`` (the output's: terminal, Markdown, or the page's isolate)."""
    metric, baseline = reference_metric(evaluation.metrics), escape(evaluation.baseline_system)
    label = escape(evaluation.label(metric))
    by_config, seen, rows = evaluation.settings.findings_by == "config", set(), []
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        if config.usable and (by_config or config.phenomenon not in seen):
            seen.add(config.phenomenon)
            row = _best_row(evaluation, name, config, metric, escape)
            rows += [row] if row else []
    test = "approximate randomization" if evaluation.settings.paired_test == "ar" else "paired bootstrap"
    where = "each usable config" if by_config else "each phenomenon's largest usable config"
    intro = (f"{label} on {where} (rows); lead: sacrebleu's paired {test} "
             f"({evaluation.settings.paired_samples} samples) against the baseline system {baseline}, significant "
             f"at p < {ALPHA}; above / below: the systems significantly better / worse than {baseline}")
    header = ["config (rows)", "best", label, "runner-up", label, "best's lead (p)", f"p < {ALPHA}",
              "above / below baseline"]
    lines = [f"{escape(full_corpus_label(evaluation))}, {top_line(evaluation, m, escape)}" for m in evaluation.metrics]
    lines += [line for m in evaluation.metrics if (line := _hardest(evaluation, m, escape))]
    lines += _agreement(evaluation, escape)
    if evaluation.targeted is not None:
        lines.append(f"{TARGETED} is {DIAGNOSTIC}: it credits the reference's words (see its section)")
    return Findings(intro, header, rows, lines)


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    found = findings(evaluation, markdown_text if markdown else terminal_text)
    table = render_table(found.header, found.rows, markdown=markdown) if found.rows else "(no usable config)"
    bullet = "- " if markdown else "  "
    return ["## Findings" if markdown else "findings", "", found.intro, "", table, "",
            *(bullet + line for line in found.lines), ""]


def _marked(name: str) -> str:
    return OPEN + name.replace(OPEN, "").replace(CLOSE, "") + CLOSE


def _html(text: str) -> Markup:
    """A line of :func:`_marked` names as the page writes it: escaped, each name a ``<bdi>``."""
    return Markup(str(escape(text)).replace(OPEN, "<bdi>").replace(CLOSE, "</bdi>"))


def page(evaluation: Evaluation) -> dict[str, Any]:
    found = findings(evaluation, _marked)
    return {"findings": Findings(_html(found.intro), [_html(h) for h in found.header],
                                 [[_html(cell) for cell in row] for row in found.rows], [_html(line) for line in found.lines])}
