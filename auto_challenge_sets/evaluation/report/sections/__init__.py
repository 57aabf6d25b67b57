"""The report's sections, one module each, as compare-mt's reporters: each holds its text and
Markdown (``text(evaluation, markdown)``), its page data (``page(evaluation)``: the variables its
part of ``index.html.j2`` reads) and, where it has figures, their layout (``figures(evaluation,
metric, human)``, called per metric and once with ``None`` for the run; ``None``: no figure there),
their part of the page (``KIND``) and their file name (``FILE``). A new section costs at most six
files: its module here, its place in :data:`SECTIONS`, its part of ``index.html.j2``, its macro in
``charts.svg.j2`` (a figure of a new kind), its legend in :mod:`..report` (if it has one) and its
test."""

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
