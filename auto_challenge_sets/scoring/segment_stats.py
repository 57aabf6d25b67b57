"""What per-sentence statistics of a sacrebleu metric have in common (BLEU: bleu_stats, chrF:
chrf_stats): a row per sentence from sacrebleu's own ``_preprocess_segment`` →
``_extract_reference_info`` → ``_compute_segment_statistics``, an int64 matrix of rows, and a
score of summed rows through sacrebleu's scalar ``_compute_score_from_stats`` on Python ints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# Elements (samples x sentences x columns) gathered at once by ``sample_totals``: bounds memory
# (32 MB of int64).
CHUNK_ELEMENTS = 4_000_000


def sample_totals(stats: np.ndarray, index: np.ndarray, chunk_elements: int = CHUNK_ELEMENTS) -> np.ndarray:
    """Column sums of many corpora's rows at once (row k of ``index`` lists the rows of corpus k):
    one numpy gather-and-reduce, in chunks of at most ``chunk_elements`` gathered numbers."""
    index = np.asarray(index)
    if index.ndim != 2:
        raise ValueError("index must be a 2-d array (samples x sentences)")
    totals = np.empty((index.shape[0], stats.shape[1]), dtype=stats.dtype)
    chunk = max(1, chunk_elements // max(1, index.shape[1] * stats.shape[1]))
    for start in range(0, index.shape[0], chunk):
        totals[start : start + chunk] = stats[index[start : start + chunk]].sum(axis=1)
    return totals


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
        """Statistics matrix (one row per sentence); ``references[i]`` lists sentence i's refs.

        The rows are computed in the order of their references (and put back in place): equal
        references then come in a run, whose reference side is counted once (:mod:`.ngram_counts`)."""
        if len(hypotheses) != len(references):
            raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} references")
        rows: list[Any] = [None] * len(hypotheses)
        for i in sorted(range(len(references)), key=references.__getitem__):
            rows[i] = self.segment(hypotheses[i], references[i])
        return np.asarray(rows, dtype=np.int64).reshape(len(rows), self.width)

    def signature(self, nrefs: int) -> str:
        """sacrebleu's signature of the metric; ``nrefs`` = -1 for a variable number of references."""
        self.metric.num_refs = nrefs
        return self.metric.get_signature().format()

    def score(self, totals: Sequence[int] | np.ndarray) -> float:
        """The score (0-100) of summed statistics, through sacrebleu's scalar code on Python ints."""
        return float(self.metric._compute_score_from_stats([int(x) for x in totals]).score)
