"""What every table of the report shares: a number's text, a corrected p with its exploratory
label, a config's name with its marks, a family's size in a column's header, and the order of the
systems (ranked as WMT's tables are, not alphabetical)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.evaluation.results import Evaluation, PairedResult
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA

EXPLORATORY = "exploratory"
# p < 0.05 against the baseline system, as sacrebleu and the WMT findings mark it; a score worse than
# the random band (another mark: a sacrebleu reader reads * as significant)
SIGNIFICANT, BELOW_BAND = "*", "▼"

LEGEND = f"""\
- *small*: fewer rows than `min_rows` (a config of exactly `min_rows` rows is not small): scored,
  left out of trends, summaries and the corrections for multiple testing. *same rows as X*: the
  config holds the very rows of the earlier config X and is counted once (in trends, summaries and
  corrections). The marks follow a config's name in every table and plot (the heat map's as ° and =).
- *degenerate baseline*: length matching failed (more than a tenth of the config's rows had no
  segment of the corpus within their length window; *widened* counts them): the random band means nothing, so its random mean, band, Δ random,
  {BELOW_BAND} and random τ percentile print as *-* (its heat-map column is hatched grey), and the config
  is left out of trends and summaries. A trend over fewer than three usable configs is *n/a*, never
  "not worsening".
- *p (BH)*: the p-value corrected across the configs of the run (Benjamini–Hochberg, scipy's
  `false_discovery_control`; the trends' across every phenomenon and system of the metric), beside
  its raw one; the header gives the family's distinct tests (a *same rows as* config counted once, a
  *small* one left out: no corrected p, *{EXPLORATORY}*). A corrected p ≥ {ALPHA} is *{EXPLORATORY}*: a
  lead to confirm on another test set (docs/method.md, "Choose on one test set, confirm on
  another"). The full test set is one test and keeps its raw p.
"""


def num(value: float | None, digits: int = 3, sign: bool = False) -> str:
    """A number as a table cell prints it (``sign``: always signed), a dash for none."""
    return "-" if value is None else f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def corrected_cell(p: float | None, exploratory: bool | None) -> str:
    """The corrected p, and the label when it does not survive (or was left out: a small config)."""
    return ("-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}") + (f" ({EXPLORATORY})" if exploratory else "")


def paired_cell(test: PairedResult | None, digits: int) -> str:
    """Δ against the baseline system and its p as sacrebleu prints them (4 decimals), ``*`` where p < 0.05
    (not corrected, as sacrebleu and WMT mark it)."""
    if test is None:
        return "-"
    return f"{test.delta:+.{digits}f} ({test.p_value:.4f})" + (SIGNIFICANT if test.p_value < ALPHA else "")


def config_label(name: str, flags: tuple[str, ...]) -> str:
    """A config's name with its marks (:meth:`ConfigResult.flags`), as every table and plot shows it."""
    return f"{name} ({', '.join(flags)})" if flags else name


def family_size(results: Iterable[Any], field: str = "family_size") -> int | None:
    """The family size of one column's corrected p's (a column is one family): the distinct tests BH counted."""
    return next((getattr(r, field) for r in results if r is not None and getattr(r, field) is not None), None)


def family_header(label: str, results: Iterable[Any], field: str = "family_size") -> str:
    """A corrected p's column header, ``p (BH, 39 tests)``: the family size printed with the p."""
    size = family_size(results, field)
    return f"{label} (BH)" if size is None else f"{label} (BH, {size} tests)"


def ranked_systems(evaluation: Evaluation, score_of: Callable[[str], float | None]) -> list[str]:
    """The systems best first by the first metric (``score_of`` a system's score with it, per its
    direction), ties by name, unscored last: tables ranked as WMT's, not alphabetical."""
    sign = -1 if evaluation.higher_is_better[evaluation.metrics[0]] else 1
    scores = {system: score_of(system) for system in evaluation.systems}
    return sorted(evaluation.systems, key=lambda s: (scores[s] is None, 0.0 if scores[s] is None else sign * scores[s], s))


def by_full_test(evaluation: Evaluation) -> list[str]:
    """The systems best first by the first metric on the full corpus (tables with no single score column)."""
    return ranked_systems(evaluation, lambda system: evaluation.full[system][evaluation.metrics[0]])


def ordered_configs(evaluation: Evaluation) -> list[str]:
    """The configs in D order (a phenomenon's configs by their distance), as every table lists them."""
    return sorted(evaluation.configs, key=config_sort_key)
