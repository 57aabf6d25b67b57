"""Agreement with the human segment scores (``--human-seg``), per metric and config: the sentence-level
τ-b with the human z and, with targeted accuracy, the z difference between instances judged correct
and wrong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.evaluation.report import cells
from auto_challenge_sets.evaluation.report.cells import config_label, corrected_cell, family_header, num
from auto_challenge_sets.evaluation.report.name_text import report_name
from auto_challenge_sets.evaluation.results import Evaluation, SegmentAgreement
from auto_challenge_sets.tables import render_table

LEGEND = f"""\
- Segment level (`--human-seg`), per config over the (system, sentence) pairs with a human z:
  Kendall's τ-b of each metric's sentence score with z, its p permuting the sentences' z; with
  targeted accuracy, τ-b of the verdict with z, and the mean z of instances judged correct minus
  wrong with a 95% cluster-bootstrap interval over sentences and the p that inverts it, corrected
  like the rest (the interval is *{cells.EXPLORATORY}* when that does not survive).
"""


def _tau(found: SegmentAgreement | None) -> list[str]:
    if found is None or found.kendall is None:
        return ["-", "-", "-"]
    return [f"{found.kendall:.3f}", f"{found.p_value:.3g}" if found.p_value is not None else "-",
            corrected_cell(found.p_corrected, found.exploratory)]


def _difference(found: SegmentAgreement | None) -> list[str]:
    if found is None or found.z_correct_minus_wrong is None:
        return ["-", "-", "-", "-", "-"]
    ci = "-" if found.ci is None else f"[{found.ci[0]:+.3f}, {found.ci[1]:+.3f}]"
    if found.ci is not None and found.difference_exploratory:
        ci += f" ({cells.EXPLORATORY})"
    return [f"{found.correct}/{found.wrong}", f"{found.z_correct_minus_wrong:+.3f}", ci, num(found.difference_p_value, 3),
            corrected_cell(found.difference_p_corrected, found.difference_exploratory)]


def segment_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    """Per config: the metric's τ-b with human z, and targeted accuracy's correct − wrong z difference and τ-b."""
    label = report_name(evaluation.label(metric), markdown)
    targeted = any(c.segment_targeted is not None for c in evaluation.configs.values())
    found_all = [(c.segment or {}).get(metric) for c in evaluation.configs.values()]
    header = ["config", "pairs", f"{label} τ-b", "p", family_header("p", found_all)]
    if targeted:
        targeted_all = [c.segment_targeted for c in evaluation.configs.values()]
        header += ["judged c/w", "z correct − wrong", "95% CI", "p", family_header("p", targeted_all, "difference_family_size"),
                   "targeted τ-b", "p", family_header("p", targeted_all)]
    rows = [[config_label(row.config, row.flags), "-" if row.metric is None else str(row.metric.segments), *_tau(row.metric),
             *([*_difference(row.targeted), *_tau(row.targeted)] if targeted else [])]
            for row in segment_rows(evaluation, metric)]  # the full test set's has no BH (its flags empty)
    return render_table(header, rows, markdown=markdown)


def text(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    if evaluation.segment_full is None and all(c.segment is None for c in evaluation.configs.values()):
        return []
    lines = []
    for metric in evaluation.metrics:
        title = f"Segment-level agreement with human z, {report_name(evaluation.label(metric), markdown)}"
        lines += [f"## {title}" if markdown else title.lower(), "", segment_table(evaluation, metric, markdown), ""]
    return lines


@dataclass(frozen=True)
class SegmentRow:
    config: str
    flags: tuple[str, ...]
    metric: SegmentAgreement | None
    targeted: SegmentAgreement | None


def segment_rows(evaluation: Evaluation, metric: str) -> list[SegmentRow]:
    """The full test set first, then every config with a segment-level agreement, in D order."""
    rows = []
    full = (evaluation.segment_full or {}).get(metric)
    if full is not None:
        rows.append(SegmentRow("(full test set)", (), full, None))
    for name in cells.ordered_configs(evaluation):
        config = evaluation.configs[name]
        found = (config.segment or {}).get(metric)
        if found is None and config.segment_targeted is None:
            continue
        rows.append(SegmentRow(name, config.flags(), found, config.segment_targeted))
    return rows


def page(evaluation: Evaluation) -> dict[str, Any]:
    return {"segments": {m: segment_rows(evaluation, m) for m in evaluation.metrics}}
