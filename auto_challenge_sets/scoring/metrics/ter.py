"""sacrebleu's TER from per-sentence edits and reference lengths (:mod:`.sacrebleu_metric`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sacrebleu.metrics import TER

from auto_challenge_sets.scoring.metrics.sacrebleu_metric import SacrebleuMetric, SegmentStatistics


class Ter(SacrebleuMetric):
    """sacrebleu's TER (translation edit rate, 0-100 and more; lower is better)."""

    name, label, digits, higher_is_better = "ter", "TER", 2, False

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = SegmentStatistics(TER(), 2, np.float64)  # the mean reference length need not be whole

    def exact_scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacrebleu's ``TER._compute_score_from_stats`` for every row at once (the same division)."""
        t = np.asarray(totals, dtype=np.float64)
        edits, ref_lengths = t[:, 0], t[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(ref_lengths > 0, edits / ref_lengths, np.where(edits > 0, 1.0, 0.0))
        return 100 * rate
