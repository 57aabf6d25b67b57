"""The report's sections, one module each: ``text(evaluation, markdown)``, ``page(evaluation)`` (the
variables of its part of ``index.html.j2``) and, with figures, ``figures(evaluation, metric, human)``
(per metric, then once with ``None``; ``None``: no figure there), ``KIND`` and ``FILE``."""

from __future__ import annotations

from auto_challenge_sets.evaluation.report.sections import (
    challenge,
    full_test,
    human,
    provenance,
    segments,
    targeted,
    trends,
)

# the text report's order; report.md moves the long per-config tables after the figures
SECTIONS = (provenance, full_test, challenge, trends, human, targeted, segments)
