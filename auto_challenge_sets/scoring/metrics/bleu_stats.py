"""sacrebleu's BLEU with its sufficient statistics kept per sentence: rows
``[hyp_len, ref_len, correct_1..4, total_1..4]`` whose column sums give ``sacrebleu.corpus_bleu``
to the last bit (:mod:`.segment_stats`)."""

from __future__ import annotations

from collections.abc import Sequence

from sacrebleu.metrics.bleu import BLEU

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.scoring.metrics.segment_stats import SegmentStatistics


class BleuStatistics(SegmentStatistics):
    """``sacrebleu.corpus_bleu``'s BLEU (mixed case, 'exp' smoothing, 4-grams) with the tokenizer
    ``tokenize``; one that sacrebleu does not know or cannot run here is a :class:`RequestError`."""

    def __init__(self, tokenize: str = "13a") -> None:
        if not isinstance(tokenize, str) or tokenize not in BLEU.TOKENIZERS:
            raise RequestError("tokenize", f"unknown sacrebleu tokenizer {tokenize!r}; one of {sorted(BLEU.TOKENIZERS)}")
        self.tokenize_name = tokenize
        try:
            super().__init__(BLEU(tokenize=tokenize), 10)
        except (ImportError, OSError, RuntimeError) as error:
            # ja-mecab/ko-mecab need extra packages (RuntimeError), flores*/spm download a model
            # (URLError, an OSError); sacrebleu's text is several lines (an install command among them)
            raise RequestError("tokenize", f"sacrebleu tokenizer {tokenize!r} is not available: "
                               f"{' '.join(str(error).split()) or type(error).__name__}") from error


def count_references(references: Sequence[Sequence[str]]) -> int:
    """References per sentence as sacrebleu's signature reports it (-1 when it varies)."""
    counts = {len(refs) for refs in references}
    return counts.pop() if len(counts) == 1 else -1
