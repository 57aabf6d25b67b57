"""The report's sections, one module each: ``text(evaluation, markdown)``, ``page(evaluation)`` (the
variables of its part of ``index.html.j2``) and, with figures, ``figures(evaluation, metric, human)``
(per metric, then once with ``None``; ``None``: no figure there), ``KIND`` and ``FILE``."""

from __future__ import annotations

from auto_challenge_sets.evaluation.report.sections import challenge_section as challenge
from auto_challenge_sets.evaluation.report.sections import findings_section as findings
from auto_challenge_sets.evaluation.report.sections import full_test_section as full_test
from auto_challenge_sets.evaluation.report.sections import human_section as human
from auto_challenge_sets.evaluation.report.sections import provenance_section as provenance
from auto_challenge_sets.evaluation.report.sections import segments_section as segments
from auto_challenge_sets.evaluation.report.sections import targeted_section as targeted
from auto_challenge_sets.evaluation.report.sections import trends_section as trends

# the text report's order, the findings first; report.md moves the long per-config tables after the figures
SECTIONS = (findings, provenance, full_test, challenge, trends, human, targeted, segments)
