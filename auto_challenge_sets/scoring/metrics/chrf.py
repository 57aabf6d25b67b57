"""sacrebleu's chrF from per-sentence character n-gram statistics (:mod:`.sacrebleu_metric`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sacrebleu.metrics import CHRF

from auto_challenge_sets.scoring.metrics.sacrebleu_metric import SacrebleuMetric, SegmentStatistics


class Chrf(SacrebleuMetric):
    """sacrebleu's chrF (character 6-grams, beta 2), 0-100."""

    name, label, digits = "chrf", "chrF", 2

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = SegmentStatistics(CHRF(), 18)

    def exact_scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacrebleu's ``CHRF._compute_f_score`` (effective-order averaging) for every row at once:
        the same additions, products and divisions in the same order, so the same numbers."""
        metric = self.rows.metric
        t = np.asarray(totals, dtype=np.float64)
        factor = metric.beta**2
        avg_prec, avg_rec, effective = np.zeros(len(t)), np.zeros(len(t)), np.zeros(len(t))
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in range(metric.order):
                n_hyp, n_ref, n_match = t[:, 3 * i], t[:, 3 * i + 1], t[:, 3 * i + 2]
                counted = (n_hyp > 0) & (n_ref > 0)
                avg_prec = np.where(counted, avg_prec + n_match / n_hyp, avg_prec)
                avg_rec = np.where(counted, avg_rec + n_match / n_ref, avg_rec)
                effective += counted
            avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
            avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
            score = (1 + factor) * avg_prec * avg_rec
            score = score / ((factor * avg_prec) + avg_rec)
        return np.where(avg_prec + avg_rec != 0, 100 * score, 0.0)
