"""What the sacrebleu metrics (BLEU, chrF, TER) share: per-sentence statistics, a row per sentence from
sacrebleu's own ``_preprocess_segment`` → ``_extract_reference_info`` →
``_compute_segment_statistics``, and the score of summed rows through its scalar
``_compute_score_from_stats``, so every score equals sacrebleu's corpus score on the same rows to
the last bit. These underscore methods are sacrebleu's internal API (stable across 2.x); the tests
compare with ``sacrebleu.corpus_bleu`` / ``corpus_chrf`` / ``corpus_ter`` on real data."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.metrics.base import References, SummedMetric


class SegmentStatistics:
    """The statistics rows (``width`` columns of ``dtype``) of the sacrebleu ``metric``."""

    def __init__(self, metric: Any, width: int, dtype: type = np.int64) -> None:
        self.metric, self.width, self.dtype = metric, width, dtype

    def preprocess(self, text: str) -> str:
        """sacrebleu's preprocessing of one segment (the metric's lowercasing, tokenization)."""
        return self.metric._preprocess_segment(text)

    def extract(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """Statistics matrix (one row per sentence); ``references[i]`` lists sentence i's refs."""
        rows = [_segment(self, hyp, tuple(refs)) for hyp, refs in zip(hypotheses, references, strict=True)]
        return np.asarray(rows, dtype=self.dtype).reshape(len(rows), self.width)

    def signature(self, nrefs: int) -> str:
        """sacrebleu's signature of the metric; ``nrefs`` = -1 for a variable number of references."""
        self.metric.num_refs = nrefs
        return self.metric.get_signature().format()

    def score(self, totals: Sequence[float] | np.ndarray) -> float:
        """The score of summed statistics, through sacrebleu's scalar code on Python numbers."""
        number = int if np.dtype(self.dtype).kind == "i" else float
        return float(self.metric._compute_score_from_stats([number(x) for x in totals]).score)


@lru_cache(maxsize=4096)  # a WMT test set's references, about 35 kB each for chrF
def _reference_info(rows: SegmentStatistics, refs: tuple[str, ...]) -> Any:
    """sacrebleu's n-grams of a row's references, read (never changed) by every system's row: made
    once per process, as sacrebleu's own ``references=`` makes them once for many systems."""
    return rows.metric._extract_reference_info([rows.preprocess(r) for r in refs])


@lru_cache(maxsize=2**16)
def _segment(rows: SegmentStatistics, hyp: str, refs: tuple[str, ...]) -> list:
    """Statistics row of one hypothesis against its references (sacrebleu keeps chrF's best one): once
    per process, as many systems share an output (44% of WMT21 de-en's 19 systems' rows repeat an
    earlier system's)."""
    return rows.metric._compute_segment_statistics(rows.preprocess(hyp), _reference_info(rows, refs))


class SacrebleuMetric(SummedMetric):
    """A summed metric whose rows come from a :class:`SegmentStatistics` (``self.rows``)."""

    rows: Any

    def statistics(self, hypotheses: Sequence[str], references: References,
                   sources: Sequence[str] | None = None) -> np.ndarray:
        return self.rows.extract(hypotheses, references)

    def score_of_totals(self, totals: Sequence[float] | np.ndarray) -> float:
        return self.rows.score(totals)

    def signature(self, nrefs: int) -> str:
        return self.rows.signature(nrefs)

    def sacrebleu_metric(self) -> Any:
        return self.rows.metric
