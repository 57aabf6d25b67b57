"""The run's signature and provenance, after the findings in the terminal, the text report and
report.md. The page lays the same out from the Evaluation itself (``index.html.j2``)."""

from __future__ import annotations

from typing import Any

from auto_challenge_sets.evaluation.report.name_text import markdown_code, markdown_text, terminal_text
from auto_challenge_sets.evaluation.results import Evaluation


def header(evaluation: Evaluation) -> list[str]:
    """The signature, the baseline system and the sets' provenance, one line each (plain text)."""
    made = evaluation.provenance and evaluation.provenance.summary
    return [f"signature: {terminal_text(evaluation.signature)}", f"baseline system: {terminal_text(evaluation.baseline_system)}",
            *([f"sets made by: {terminal_text(made)}"] if made else [])]


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    if not markdown:
        return [*header(evaluation), ""]
    made = evaluation.provenance and evaluation.provenance.summary
    return ["## The run", "", f"- **signature**: {markdown_code(evaluation.signature)}",
            f"- **dataset / pair / split**: {markdown_code(evaluation.dataset)} / {markdown_text(evaluation.pair)} / "
            f"{markdown_text(evaluation.split)} (full corpus: {markdown_text(evaluation.full_corpus_config)}, "
            f"{evaluation.full_corpus_rows} rows)",
            f"- **systems**: {', '.join(map(markdown_text, evaluation.systems))} (baseline of the paired tests: "
            f"{markdown_text(evaluation.baseline_system)})",
            *([f"- **sets made by**: {markdown_text(made)}"] if made else []),
            *(f"- **note**: {markdown_text(note)}" for note in evaluation.notes), ""]


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {}
