"""sacrebleu's BLEU with its sufficient statistics kept per sentence: rows
``[hyp_len, ref_len, correct_1..4, total_1..4]`` whose column sums give ``sacrebleu.corpus_bleu``
to the last bit (:mod:`.sacrebleu_metric`); the tokenizer option RIBES shares."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from sacrebleu.metrics.bleu import BLEU

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics.sacrebleu_metric import SacrebleuMetric, SegmentStatistics

# BLEU's and RIBES's: RIBES reads the words of BLEU's tokenizer
TOKENIZE = Option("tokenize", str, "13a", "sacrebleu's tokenizer for BLEU and RIBES (13a, intl, zh, ja-mecab, ...)",
                  metavar="NAME")


def target_tokenizer(target: str | None) -> str | None:
    """sacrebleu's own choice of tokenizer for a target language where it is not 13a (``zh``,
    ``ja-mecab``, ``ko-mecab``), else None: BLEU with 13a sees a Chinese sentence as one word. Read
    from sacrebleu's BLEU, whose map this is, so the rule follows its releases."""
    return getattr(BLEU, "_TOKENIZER_MAP", {}).get(target or "")


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


@lru_cache(maxsize=8)
def _bleu_rows(tokenize: str) -> BleuStatistics:
    """One BLEU per tokenizer in a process, shared by BLEU and RIBES: sacrebleu caches a
    tokenizer's output per tokenizer object, so RIBES reads BLEU's tokens, not tokenizing again."""
    return BleuStatistics(tokenize=tokenize)


class Bleu(SacrebleuMetric):
    """sacrebleu's BLEU (``tokenize`` option, default 13a), 0-100."""

    name, label, digits = "bleu", "BLEU", 2
    options = (TOKENIZE,)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = _bleu_rows(self.values["tokenize"])

    def exact_scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacrebleu's ``BLEU.compute_bleu`` (exp smoothing, no effective order) for every row at once,
        its arithmetic in its order: numpy's divisions and sums, the math module's log and exp."""
        order = self.rows.metric.max_ngram_order
        t = np.asarray(totals, dtype=np.float64)
        correct, total = t[:, 2:2 + order], t[:, 2 + order:]
        smooth = np.cumprod(np.where(correct == 0, 2.0, 1.0), axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(correct == 0, 100.0 / (smooth * total), 100.0 * correct / total)
        precision[np.cumsum(total == 0, axis=1) > 0] = 0.0  # sacrebleu stops at the first order without n-grams
        logs = np.array([math.log(p) if p else -9999999999.0 for p in precision.ravel().tolist()]).reshape(precision.shape)
        bp = [math.exp(1 - r / s) if 0 < s < r else float(s >= r) for s, r in t[:, :2].tolist()]
        return np.where(correct.any(axis=1), bp * np.array([math.exp(x) for x in (sum(logs.T) / order).tolist()]), 0.0)

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """:meth:`exact_scores_of_totals` a column at a time, as ``bp · 100 · (∏ precision)^(1/order)``
        with numpy's exp: the same number but for rounding, which the paired test allows for. 0 where
        no n-gram matches or an order has none (sacrebleu's log of 0 is -9999999999)."""
        order = self.rows.metric.max_ngram_order
        t = np.asarray(totals, dtype=np.float64)
        sys_len, ref_len = t[:, 0], t[:, 1]
        ratio, smooth, matched, counted = np.ones(len(t)), np.ones(len(t)), np.zeros(len(t), bool), np.ones(len(t), bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            for n in range(order):
                correct, total = t[:, 2 + n], t[:, 2 + order + n]
                zero = correct == 0
                smooth = np.where(zero, smooth * 0.5, smooth)  # each order without a match halves the next
                ratio *= np.where(zero, smooth, correct) / total
                matched |= ~zero
                counted &= total > 0
            bp = np.where(sys_len < ref_len, np.exp(1 - ref_len / sys_len), 1.0)  # 0 for an empty output
            return np.where(matched & counted, 100 * bp * ratio ** (1 / order), 0.0)
