"""The report of an Evaluation, assembled from its sections: the plain text ``acs evaluate`` prints,
and the ``--out`` folder (``results.json``, ``report.md``, the figures and ``index.html``)."""

from __future__ import annotations

import json
from pathlib import Path

from auto_challenge_sets.evaluation.page_sentences import SAVED, Sentences
from auto_challenge_sets.evaluation.report import cells, figures, sections
from auto_challenge_sets.evaluation.report.html import html_report
from auto_challenge_sets.evaluation.report.plots import SvgPlot
from auto_challenge_sets.evaluation.report.sections import SECTIONS
from auto_challenge_sets.evaluation.report.sections import challenge_section as challenge
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.pipeline.timings import stage

LEGEND = "".join(m.LEGEND for m in (cells, sections.trends, sections.human, sections.segments, sections.full_test))
RESULTS, MARKDOWN = "results.json", "report.md"
TITLE = "# LDD challenge sets: evaluation"


def text_report(evaluation: Evaluation) -> str:
    lines = [line for section in SECTIONS for line in section.text(evaluation)]
    return "\n".join(lines).rstrip("\n")


def markdown_report(evaluation: Evaluation, drawn: list[SvgPlot]) -> str:
    """The sections in the text's order (the findings, then the run), the legend after them, the
    per-config tables last."""
    findings, run, *rest = (section.text(evaluation, markdown=True) for section in SECTIONS if section is not challenge)
    lines = [TITLE, "", *findings, *run, "## How to read this report", "", LEGEND, *(line for lines in rest for line in lines)]
    lines += challenge.figure_links(drawn)  # the run's own; a metric's are in its tables file
    return "\n".join([*lines, *challenge.text(evaluation, markdown=True)])


def report_names() -> tuple[str, ...]:
    """Every name :func:`write_report` may write, relative to its folder, fields in braces."""
    figures = (section.FILE for section in SECTIONS if hasattr(section, "FILE"))
    return (RESULTS, MARKDOWN, challenge.TABLES, SAVED, *figures, *html_report.PAGE_NAMES)


def write_report(out_dir: str | Path, evaluation: Evaluation, sentences: Sentences | None = None,
                 progress: bool = False) -> list[Path]:
    """The report folder, from the result alone (and the ``sentences``, saved so that ``acs report``
    renders the same page); the paths written."""
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
    drawn = figures.draw(evaluation, evaluation.human_scores, progress)
    with stage("figures: files", len(drawn), "files"):
        for figure in drawn:
            (out / figure.file).write_text(str(figure.svg) + "\n", encoding="utf-8")
    plots, report = [out / figure.file for figure in drawn], out / MARKDOWN
    with stage(MARKDOWN, 1, "files"):
        report.write_text(markdown_report(evaluation, drawn), encoding="utf-8")
        tables = challenge.write_tables(evaluation, out, drawn)
    page = html_report.write_html(out, evaluation, sentences, drawn)
    return [results, *saved, report, *tables, *plots, *page]
