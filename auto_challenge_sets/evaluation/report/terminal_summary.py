"""What ``acs evaluate --out DIR`` prints: the findings first, then the run's header, the
per-phenomenon summary and the flagged configs, and one line naming what was written."""

from __future__ import annotations

from pathlib import Path

from auto_challenge_sets.evaluation.report.sections import challenge_section as challenge
from auto_challenge_sets.evaluation.report.sections import findings_section as findings
from auto_challenge_sets.evaluation.report.sections import provenance_section as provenance
from auto_challenge_sets.evaluation.report.sections import trends_section as trends
from auto_challenge_sets.evaluation.results import Evaluation

FIRST_FILES = ("index.html", "report.md", "results.json")  # named in the "wrote" line, the rest counted


def terminal_summary(evaluation: Evaluation) -> str:
    lines = [*findings.text(evaluation), *provenance.header(evaluation), "", *trends.terminal_table(evaluation),
             challenge.flagged_line(evaluation), "the full tables: index.html, and tables.METRIC.md beside report.md"]
    return "\n".join(lines)


def wrote_line(out: str | Path, written: list[Path], work: Path) -> str:
    """One short line: how many files, the main ones by name, and which to open."""
    names = [str(p.relative_to(work)) for p in written]
    first = [name for name in FIRST_FILES if name in names]
    rest = len(names) - len(first)
    listed = ", ".join(first) + (f", and {rest} more" if rest else "")
    page = " (open " + str(Path(out) / "index.html") + ")" if "index.html" in names else ""
    return f"wrote {len(names)} files to {out}: {listed}{page}"
