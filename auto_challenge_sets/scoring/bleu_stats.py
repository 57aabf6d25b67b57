"""Per-sentence BLEU sufficient statistics, extracted and scored by sacrebleu's own code.

Corpus BLEU is a function of the column sums of per-sentence statistics
``[hyp_len, ref_len, correct_1..N, total_1..N]``. sacrebleu computes exactly these rows inside
``BLEU.corpus_score`` (``_preprocess_segment`` → ``_extract_reference_info`` →
``_compute_segment_statistics``) and scores their sum with ``_compute_score_from_stats``. We call
those same methods, keep the rows in an integer matrix, and score any sub-corpus — or many
resampled corpora at once — by summing rows with numpy. Integer sums are exact, and the final
step goes through sacrebleu's own scalar code, so every score equals ``sacrebleu.corpus_bleu``
on the same lines to the last bit (numpy's vectorized exp/log could differ by an ulp).

The underscore methods are sacrebleu's internal API (stable across 2.x); the tests compare with
``sacrebleu.corpus_bleu`` on real data so a change would be caught.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sacrebleu.metrics.bleu import BLEU

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.scoring.ngram_counts import bleu_row
from auto_challenge_sets.scoring.segment_stats import SegmentStatistics, sample_totals
from auto_challenge_sets.scoring.tokenize_13a import tokenize_13a


class BleuStatistics(SegmentStatistics):
    """sacrebleu BLEU with the sufficient statistics kept per sentence.

    The defaults are ``sacrebleu.corpus_bleu``'s: 13a tokenization, mixed case, 'exp' smoothing,
    n-grams up to 4, no effective order.
    """

    def __init__(
        self,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
    ) -> None:
        if not isinstance(tokenize, str) or tokenize not in BLEU.TOKENIZERS:
            raise RequestError("tokenize", f"unknown sacrebleu tokenizer {tokenize!r}; one of {sorted(BLEU.TOKENIZERS)}")
        self.tokenize_name = tokenize
        try:
            self.metric = BLEU(
                lowercase=lowercase,
                tokenize=tokenize,
                smooth_method=smooth_method,
                smooth_value=smooth_value,
                max_ngram_order=max_ngram_order,
            )
        except (ImportError, OSError, RuntimeError) as error:
            # ja-mecab/ko-mecab need extra packages (RuntimeError), flores*/spm download a model
            # (URLError, an OSError): a tokenizer that cannot run here is a bad argument here.
            # sacrebleu's own text is several lines (an install command among them): one line here
            raise RequestError("tokenize", f"sacrebleu tokenizer {tokenize!r} is not available: "
                               f"{' '.join(str(error).split()) or type(error).__name__}") from error
        self.width = 2 + 2 * max_ngram_order

    # -- extraction and scoring of rows: SegmentStatistics ------------------------------------

    def preprocess(self, text: str) -> str:
        """sacrebleu's preprocessing (lowercasing, tokenization); 13a's in C where it can be."""
        if self.tokenize_name != "13a":
            return super().preprocess(text)
        return tokenize_13a((text.lower() if self.metric.lowercase else text).rstrip())

    def segment_from_preprocessed(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """sacrebleu's statistics row of one tokenized hypothesis, without its per-n-gram loops."""
        return bleu_row(hyp, refs, self.metric.max_ngram_order, self.metric._get_closest_ref_len)

    def corpus_score(self, stats: np.ndarray) -> float:
        """BLEU of the corpus whose per-sentence rows are ``stats``."""
        return self.score(stats.sum(axis=0))

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        """BLEU of many corpora at once: row k of ``index`` lists the sentences of corpus k.

        Sums rows for all corpora in one numpy gather-and-reduce (in chunks to bound memory),
        then scores each sum with sacrebleu's scalar code.
        """
        return np.array([self.score(row) for row in sample_totals(stats, index).tolist()], dtype=np.float64)


def count_references(references: Sequence[Sequence[str]]) -> int:
    """References per sentence as sacrebleu's signature reports it (-1 when it varies)."""
    counts = {len(refs) for refs in references}
    return counts.pop() if len(counts) == 1 else -1
