"""Per-sentence chrF (and chrF++) statistics, extracted and scored by sacrebleu's own code.

Corpus chrF is a function of the column sums of per-sentence statistics: for each character
n-gram order 1..``char_order`` and then each word n-gram order 1..``word_order``, the triple
``[hyp n-grams, ref n-grams, matched n-grams]`` (all integers). sacrebleu computes exactly these
rows inside ``CHRF.corpus_score`` (``_preprocess_segment`` → ``_extract_reference_info`` →
``_compute_segment_statistics``), sums them with Python integer addition (``sum_of_lists``) and
scores the sum with ``_compute_score_from_stats``. We call those same methods, keep the rows in an
int64 matrix and score any sub-corpus, or many resampled corpora at once, by summing rows with
numpy. Integer sums are exact whatever the order, and the final step goes through sacrebleu's
scalar code on Python ints, so every score equals ``sacrebleu.corpus_chrf`` to the last bit.

With several references sacrebleu keeps, per sentence, the statistics of the reference with the
best sentence-level chrF (the first one on a tie); ``_compute_segment_statistics`` does that
choice, so the row kept here is the very row sacrebleu sums.

The underscore methods are sacrebleu's internal API (stable across 2.x); the tests compare with
``sacrebleu.corpus_chrf`` on real data so a change would be caught.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sacrebleu.metrics.chrf import CHRF

from auto_challenge_sets.scoring.ngram_counts import chrf_row
from auto_challenge_sets.scoring.segment_stats import SegmentStatistics, sample_totals

# Elements (samples x sentences x columns) gathered per chunk in ``sample_scores``; bounds memory
# (32 MB of int64). Module-level so that a test can make it small and run several chunks.
CHUNK_ELEMENTS = 4_000_000


def _check_order(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


class ChrfStatistics(SegmentStatistics):
    """sacrebleu chrF with the sufficient statistics kept per sentence.

    The defaults are ``sacrebleu.corpus_chrf``'s: character n-grams up to 6, no word n-grams,
    beta 2, mixed case, whitespace removed, effective-order averaging (no eps smoothing).
    ``word_order=2`` is chrF++.
    """

    def __init__(
        self,
        char_order: int = CHRF.CHAR_ORDER,
        word_order: int = CHRF.WORD_ORDER,
        beta: int = CHRF.BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
    ) -> None:
        char_order = _check_order("char_order", char_order, 1)
        word_order = _check_order("word_order", word_order, 0)
        beta = _check_order("beta", beta, 0)
        self.metric = CHRF(
            char_order=char_order,
            word_order=word_order,
            beta=beta,
            lowercase=bool(lowercase),
            whitespace=bool(whitespace),
            eps_smoothing=bool(eps_smoothing),
        )
        self.width = 3 * (char_order + word_order)

    # -- extraction: SegmentStatistics, with chrF's own check of the references ----------------

    def segment_from_preprocessed(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """Statistics row of one preprocessed hypothesis, against the best of its references."""
        if not refs:
            raise ValueError("chrF needs at least one reference per sentence")
        metric = self.metric
        if metric.word_order == 0:  # chrF: the same row, without sacrebleu's per-n-gram loops
            return chrf_row(hyp, refs, metric.char_order, metric.whitespace, metric._compute_f_score)
        return super().segment_from_preprocessed(hyp, refs)

    # -- scoring ------------------------------------------------------------------------------

    def corpus_score(self, stats: np.ndarray) -> float:
        """chrF of the corpus whose per-sentence rows are ``stats``."""
        return self.score(np.asarray(stats, dtype=np.int64).reshape(-1, self.width).sum(axis=0))

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        """chrF of many corpora at once: row k of ``index`` lists the sentences of corpus k.

        Sums rows for all corpora in one numpy gather-and-reduce (in chunks of at most
        ``CHUNK_ELEMENTS`` gathered numbers), then scores each sum with sacrebleu's scalar code.
        """
        totals = sample_totals(stats, index, CHUNK_ELEMENTS)
        return np.array([self.score(row) for row in totals.tolist()], dtype=np.float64)

    @property
    def name(self) -> str:
        """sacrebleu's name of the score: ``chrF2`` (``chrF2++`` with word_order=2)."""
        return f"chrF{self.metric.beta}" + "+" * self.metric.word_order
