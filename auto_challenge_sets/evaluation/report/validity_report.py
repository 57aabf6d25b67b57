"""The report's cells and tables of validity: corrected p-values with their exploratory label,
the degenerate-baseline mark, and the segment-level agreement table (``--human-seg``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from auto_challenge_sets.evaluation.report.name_text import report_name
from auto_challenge_sets.evaluation.results import ConfigResult, Evaluation, SegmentAgreement
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA
from auto_challenge_sets.tables import render_table

EXPLORATORY = "exploratory"

LEGEND = f"""\
- *degenerate baseline*: the rest of the corpus cannot supply length-matched random corpora (it
  holds fewer rows than the config, or more than a tenth of the config's rows needed a wider length
  window; *widened* counts them): the random columns mean little, so no star and no random τ
  percentile is printed for it (its heat-map column is hatched grey), and the config is left out of
  trends and summaries. A trend over fewer than three usable configs is *n/a*, never "not worsening".
- *p (BH)*: the p-value corrected across the configs of the run (Benjamini–Hochberg, scipy's
  `false_discovery_control`; the trends' across every phenomenon and system of the metric); the
  header gives the family's size, its distinct tests: a *same rows as* config repeats its
  original's test and is counted once, a *small* one is left out (no corrected p, and
  *{EXPLORATORY}*). A result with a corrected p ≥ {ALPHA} is marked *{EXPLORATORY}*: a lead to
  confirm on another test set (docs/method.md, "Choose on one test set, confirm on another"). The
  full test set is one test and keeps its raw p.
- Segment level (`--human-seg`), per config over the (system, sentence) pairs with a human z:
  Kendall's τ-b of each metric's sentence score with z; with targeted accuracy, over its judged
  instances, the mean z of instances judged correct minus wrong with a 95% bootstrap interval, and
  τ-b of the verdict with z. Whole sentences are the unit: the interval resamples them (cluster
  bootstrap), the τ p-values permute their human z. The difference has its own p (the one that
  inverts its interval), corrected like the rest: the interval is marked *{EXPLORATORY}* when that
  does not survive.
"""


def corrected_cell(p: float | None, exploratory: bool | None) -> str:
    """The corrected p, and the label when it does not survive (or was left out: a small config)."""
    if p is None:
        return "-" + (f" ({EXPLORATORY})" if exploratory else "")
    return ("<0.001" if p < 0.001 else f"{p:.3f}") + (f" ({EXPLORATORY})" if exploratory else "")


def config_label(name: str, config: ConfigResult, short: bool = False) -> str:
    """A config's name with its marks (:meth:`ConfigResult.flags`), as every table and plot shows it."""
    flags = config.flags(short)
    return f"{name} ({', '.join(flags)})" if flags else name


def family_size(results: Iterable[Any], field: str = "family_size") -> int | None:
    """The family size of one column's corrected p's (a column is one family): the distinct tests BH counted."""
    return next((getattr(r, field) for r in results if r is not None and getattr(r, field) is not None), None)


def family_header(label: str, results: Iterable[Any], field: str = "family_size") -> str:
    """A corrected p's column header, ``p (BH, 39 tests)``: the family size printed with the p."""
    size = family_size(results, field)
    return f"{label} (BH)" if size is None else f"{label} (BH, {size} tests)"


def _tau(found: SegmentAgreement | None) -> list[str]:
    if found is None or found.kendall is None:
        return ["-", "-", "-"]
    return [f"{found.kendall:.3f}", f"{found.p_value:.3g}" if found.p_value is not None else "-",
            corrected_cell(found.p_corrected, found.exploratory)]


def _difference(found: SegmentAgreement | None) -> list[str]:
    if found is None or found.z_correct_minus_wrong is None:
        return ["-", "-", "-", "-"]
    ci = "-" if found.ci is None else f"[{found.ci[0]:+.3f}, {found.ci[1]:+.3f}]"
    if found.ci is not None and found.difference_exploratory:
        ci += f" ({EXPLORATORY})"
    return [f"{found.correct}/{found.wrong}", f"{found.z_correct_minus_wrong:+.3f}", ci,
            corrected_cell(found.difference_p_corrected, found.difference_exploratory)]


def has_segments(evaluation: Evaluation) -> bool:
    return evaluation.segment_full is not None or any(c.segment is not None for c in evaluation.configs.values())


def segment_table(evaluation: Evaluation, metric: str, markdown: bool = False) -> str:
    """Per config: the metric's sentence-level τ-b with human z, and targeted accuracy's
    correct − wrong z difference and τ-b beside it (when scored)."""
    label = report_name(evaluation.label(metric), markdown)
    targeted = any(c.segment_targeted is not None for c in evaluation.configs.values())
    found_all = [(c.segment or {}).get(metric) for c in evaluation.configs.values()]
    header = ["config", "pairs", f"{label} τ-b", "p", family_header("p", found_all)]
    if targeted:
        targeted_all = [c.segment_targeted for c in evaluation.configs.values()]
        header += ["judged c/w", "z correct − wrong", "95% CI", family_header("p", targeted_all, "difference_family_size"),
                   "targeted τ-b", "p", family_header("p", targeted_all)]
    rows = []
    full = (evaluation.segment_full or {}).get(metric)
    if full is not None:
        cells = _tau(full)
        rows.append(["(full test set)", str(full.segments), *cells[:2], "-", *(["-"] * 7 if targeted else [])])
    for name, config in evaluation.configs.items():
        found = (config.segment or {}).get(metric)
        if found is None and config.segment_targeted is None:
            continue
        row = [config_label(name, config), "-" if found is None else str(found.segments), *_tau(found)]
        if targeted:
            row += [*_difference(config.segment_targeted), *_tau(config.segment_targeted)]
        rows.append(row)
    return render_table(header, rows, markdown=markdown)


def segment_section(evaluation: Evaluation, markdown: bool = False) -> list[str]:
    if not has_segments(evaluation):
        return []
    lines = []
    for metric in evaluation.metrics:
        title = f"Segment-level agreement with human z, {report_name(evaluation.label(metric), markdown)}"
        lines += [f"## {title}" if markdown else title.lower(), "", segment_table(evaluation, metric, markdown), ""]
    return lines


def surviving_worsening(evaluation: Evaluation, metric: str, phenomenon: str) -> int:
    """The systems whose trend over D worsens and survives the Benjamini–Hochberg correction."""
    sign = 1 if evaluation.higher_is_better[metric] else -1
    trends = evaluation.trends.get(metric, {}).get(phenomenon, {}).values()
    return sum(t.spearman is not None and sign * t.spearman < 0 and t.p_corrected is not None
               and t.p_corrected < ALPHA for t in trends)
