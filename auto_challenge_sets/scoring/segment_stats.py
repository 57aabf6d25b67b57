"""What per-sentence statistics of a sacrebleu metric have in common (BLEU: bleu_stats, chrF:
chrf_stats): a row per sentence from sacrebleu's own ``_preprocess_segment`` →
``_extract_reference_info`` → ``_compute_segment_statistics``, an int64 matrix of rows, and a
score of summed rows through sacrebleu's scalar ``_compute_score_from_stats`` on Python ints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class SegmentStatistics:
    """A sacrebleu metric (``self.metric``) whose statistics rows have ``self.width`` columns;
    subclasses set both and may check references in :meth:`segment_from_preprocessed`."""

    metric: Any
    width: int

    def preprocess(self, text: str) -> str:
        """sacrebleu's preprocessing of one segment (the metric's lowercasing, tokenization)."""
        return self.metric._preprocess_segment(text)

    def segment_from_preprocessed(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """Statistics row of one preprocessed hypothesis against its preprocessed references."""
        info = self.metric._extract_reference_info(refs)
        return self.metric._compute_segment_statistics(hyp, info)

    def segment(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """Statistics row of one raw hypothesis against its raw references."""
        return self.segment_from_preprocessed(self.preprocess(hyp), [self.preprocess(r) for r in refs])

    def extract(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """Statistics matrix (one row per sentence); ``references[i]`` lists sentence i's refs."""
        rows = [self.segment(h, refs) for h, refs in zip(hypotheses, references, strict=True)]
        return np.asarray(rows, dtype=np.int64).reshape(len(rows), self.width)

    def score(self, totals: Sequence[int] | np.ndarray) -> float:
        """The score (0-100) of summed statistics, through sacrebleu's scalar code on Python ints."""
        return float(self.metric._compute_score_from_stats([int(x) for x in totals]).score)
