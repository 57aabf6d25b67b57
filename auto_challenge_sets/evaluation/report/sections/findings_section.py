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
from auto_challenge_sets.evaluation.report.sections.full_test_section import full_corpus_label, top_line
from auto_challenge_sets.evaluation.results import DIAGNOSTIC, ConfigResult, Evaluation, MetricScore
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.evaluation.stats.power import delta_power_note
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


def _short(name: str) -> str:
    """A config or phenomenon without its pair, as the plots name it."""
    return name.split(".", 1)[-1]


def _lead(scored: list[tuple[str, MetricScore]], baseline: str, digits: int) -> tuple[str, str]:
    """The best system's lead and whether it is significant: over the baseline system by its paired
    test, or, where the best is the baseline, over the runner-up by the runner-up's test."""
    (best, top), (_, second) = scored[0], scored[1]
    test = top.vs_baseline if best != baseline else second.vs_baseline
    if test is None:
        return "-", "-"
    delta, over = (test.delta, "baseline") if best != baseline else (-test.delta, "runner-up")
    return (f"{delta:+.{digits}f} over {over} (p {corrected_cell(test.p_value, False)})",
            "yes" if test.p_value < ALPHA else "no")


def _best_row(evaluation: Evaluation, name: str, config: ConfigResult, metric: str,
              escape: Callable[[str], str]) -> list[str] | None:
    sign, digits = (1 if evaluation.higher_is_better[metric] else -1), evaluation.digits(metric)
    scored = sorted(((s, r.scores[metric]) for s, r in config.systems.items() if metric in r.scores),
                    key=lambda item: -sign * item[1].score)
    if len(scored) < 2:
        return None
    tests = [score.vs_baseline for _, score in scored if score.vs_baseline is not None]
    above = sum(t.p_value < ALPHA and sign * t.delta > 0 for t in tests)
    below = sum(t.p_value < ALPHA and sign * t.delta < 0 for t in tests)
    return [f"{escape(_short(name))} ({config.n})", escape(scored[0][0]), f"{scored[0][1].score:.{digits}f}",
            escape(scored[1][0]), f"{scored[1][1].score:.{digits}f}",
            *_lead(scored, evaluation.baseline_system, digits), f"{above} / {below}"]


def _hardest(evaluation: Evaluation, metric: str, escape: Callable[[str], str]) -> str | None:
    sign, digits = (1 if evaluation.higher_is_better[metric] else -1), evaluation.digits(metric)
    found = sorted(evaluation.summary.get(metric, {}).items(), key=lambda item: sign * item[1].mean_delta_random)
    named = [f"{escape(_short(p))} {s.mean_delta_random:+.{digits}f} ({s.worse_than_random_p5:.0%})"
             for p, s in found[:HARDEST] if sign * s.mean_delta_random < 0]
    return (f"hardest against the random band, {escape(evaluation.label(metric))} (mean Δ random; cells below "
            f"the band): {', '.join(named) or 'none scores below its random mean'}") if found else None


def _verdicts(evaluation: Evaluation, escape: Callable[[str], str]) -> list[str]:
    """Every measure's verdict against full-test BLEU (a config's after BH; a repeat counted once)."""
    reference = escape(evaluation.label(reference_metric(evaluation.metrics)))
    measures = [(metric, name, correlation.vs_full_test) for name, config in evaluation.configs.items()
                if config.same_rows_as is None
                for metric, correlation in [*(config.human or {}).items(), (None, config.human_targeted)]
                if correlation is not None and correlation.vs_full_test is not None
                and correlation.vs_full_test.verdict is not None]
    labels = {m: escape(evaluation.label(m)) for m in evaluation.metric_info} | {None: f"{TARGETED} ({DIAGNOSTIC})"}

    def listed(verdict: str) -> str:
        names = [f"{labels[m]} on {escape(_short(name))}" for m, name, test in measures if test.verdict == verdict]
        return ", ".join(names) or "none"

    counts = [f"{labels[m]} {'/'.join(str(sum(t.verdict == v and k == m for k, _, t in measures)) for v in ('better', 'no different', 'worse'))}"
              for m in labels if any(k == m for k, _, _ in measures)]
    better = listed("better")
    lines = [(f"no config ranks systems better than full-test {reference} after correction" if better == "none" else
              f"better than full-test {reference} after BH: {better}") + f"; worse than full-test {reference}: {listed('worse')}",
             f"verdict per measure (Δτ against full-test {reference}, BH per metric over the configs; better / no "
             f"different / worse): {'; '.join(counts)}"]
    full = [(m, f.vs_full_test) for m, f in (evaluation.human_full or {}).items() if f is not None and f.vs_full_test]
    lines += [f"full-test {labels[m]}: {verdict_words(t.verdict, reference)} (Δτ {t.delta:+.2f}, p "
              f"{corrected_cell(t.p_value, False)})"
              for m, t in full if t.verdict is not None]
    power = run_delta_power(evaluation, [*evaluation.metrics, None])
    return lines + ([delta_power_note(power)] if power else [])


def _agreement(evaluation: Evaluation, escape: Callable[[str], str]) -> list[str]:
    full = {m: f for m, f in (evaluation.human_full or {}).items() if f is not None and f.kendall is not None}
    if not full:
        return []
    taus = [(c.human[m].kendall, m, name) for name, c in evaluation.configs.items() if c.usable and c.human
            for m in evaluation.metrics if c.human.get(m) is not None and c.human[m].kendall is not None]
    best = max(taus, default=None, key=lambda item: item[0])
    line = (f"agreement with humans (Kendall τ over {max(f.systems for f in full.values())} systems): full-test "
            + ", ".join(f"{escape(evaluation.label(m))} {f.kendall:+.2f}" for m, f in full.items()))
    if best is not None:
        line += f"; highest on a config: {escape(evaluation.label(best[1]))} on {escape(_short(best[2]))} {best[0]:+.2f}"
    return [line, *_verdicts(evaluation, escape)]


def findings(evaluation: Evaluation, escape: Callable[[str], str]) -> Findings:
    """The block, every name through ``escape`` (the output's: terminal, Markdown, or the page's isolate)."""
    metric, baseline = reference_metric(evaluation.metrics), escape(evaluation.baseline_system)
    label = escape(evaluation.label(metric))
    seen, rows = set(), []
    for name in ordered_configs(evaluation):
        config = evaluation.configs[name]
        if config.usable and config.phenomenon not in seen:
            seen.add(config.phenomenon)
            row = _best_row(evaluation, name, config, metric, escape)
            rows += [row] if row else []
    test = "approximate randomization" if evaluation.settings.paired_test == "ar" else "paired bootstrap"
    intro = (f"{label} on each phenomenon's largest usable config (rows); lead: sacrebleu's paired {test} "
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
