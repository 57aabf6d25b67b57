"""Per-sentence statistics of a sacrebleu metric (BLEU, chrF, TER): a row per sentence from
sacrebleu's own ``_preprocess_segment`` → ``_extract_reference_info`` →
``_compute_segment_statistics``, and the score of summed rows through its scalar
``_compute_score_from_stats``, so every score equals sacrebleu's corpus score on the same rows to
the last bit. These underscore methods are sacrebleu's internal API (stable across 2.x); the tests
compare with ``sacrebleu.corpus_bleu`` / ``corpus_chrf`` / ``corpus_ter`` on real data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# Elements (samples x sentences x columns) gathered at once by ``sample_totals``: bounds memory
# (32 MB of int64).
CHUNK_ELEMENTS = 4_000_000


def sample_totals(stats: np.ndarray, index: np.ndarray, chunk_elements: int = CHUNK_ELEMENTS) -> np.ndarray:
    """Column sums of many corpora's rows at once (row k of ``index`` lists the rows of corpus k),
    in chunks of at most ``chunk_elements`` gathered numbers; integer rows give exact sums."""
    index = np.asarray(index)
    if index.ndim != 2:
        raise ValueError("index must be a 2-d array (samples x sentences)")
    totals = np.empty((index.shape[0], stats.shape[1]), dtype=stats.dtype)
    chunk = max(1, chunk_elements // max(1, index.shape[1] * stats.shape[1]))
    for start in range(0, index.shape[0], chunk):
        totals[start : start + chunk] = stats[index[start : start + chunk]].sum(axis=1)
    return totals


class SegmentStatistics:
    """The statistics rows (``width`` columns of ``dtype``) of the sacrebleu ``metric``."""

    def __init__(self, metric: Any, width: int, dtype: type = np.int64) -> None:
        self.metric, self.width, self.dtype = metric, width, dtype

    def preprocess(self, text: str) -> str:
        """sacrebleu's preprocessing of one segment (the metric's lowercasing, tokenization)."""
        return self.metric._preprocess_segment(text)

    def segment(self, hyp: str, refs: Sequence[str]) -> list:
        """Statistics row of one hypothesis against its references (sacrebleu keeps chrF's best one)."""
        info = self.metric._extract_reference_info([self.preprocess(r) for r in refs])
        return self.metric._compute_segment_statistics(self.preprocess(hyp), info)

    def extract(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        """Statistics matrix (one row per sentence); ``references[i]`` lists sentence i's refs."""
        if len(hypotheses) != len(references):
            raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} references")
        rows = [self.segment(hyp, refs) for hyp, refs in zip(hypotheses, references)]
        return np.asarray(rows, dtype=self.dtype).reshape(len(rows), self.width)

    def signature(self, nrefs: int) -> str:
        """sacrebleu's signature of the metric; ``nrefs`` = -1 for a variable number of references."""
        self.metric.num_refs = nrefs
        return self.metric.get_signature().format()

    def score(self, totals: Sequence[float] | np.ndarray) -> float:
        """The score of summed statistics, through sacrebleu's scalar code on Python numbers."""
        number = int if np.dtype(self.dtype).kind == "i" else float
        return float(self.metric._compute_score_from_stats([number(x) for x in totals]).score)
