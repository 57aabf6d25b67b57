"""The built-in metrics: BLEU, chrF and TER (sacrebleu's, from per-sentence sufficient
statistics, :mod:`.segment_stats`) and RIBES (NTT's definition, a mean of sentence scores). The
registry (:mod:`.metric`) registers :data:`BUILTINS`; this module does not import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from sacrebleu.metrics import BLEU, CHRF, TER

from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics.base import AveragedMetric, References, SummedMetric
from auto_challenge_sets.scoring.metrics.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.metrics.ribes import ALPHA, BETA, sentence_ribes, words
from auto_challenge_sets.scoring.metrics.segment_stats import SegmentStatistics

DEFAULT_METRICS = ("bleu", "chrf", "ribes")

# BLEU's and RIBES's: RIBES reads the words of BLEU's tokenizer
TOKENIZE = Option("tokenize", str, "13a", "sacrebleu's tokenizer for BLEU and RIBES (13a, intl, zh, ja-mecab, ...)",
                  metavar="NAME")
LOWERCASE_RIBES = Option("lowercase_ribes", bool, True,
                         "lowercase before RIBES, as RIBES.py does (false: RIBES.py's --case)")


def target_tokenizer(target: str | None) -> str | None:
    """sacrebleu's own choice of tokenizer for a target language where it is not 13a (``zh``,
    ``ja-mecab``, ``ko-mecab``), else None: BLEU with 13a sees a Chinese sentence as one word. Read
    from sacrebleu's BLEU, whose map this is, so the rule follows its releases."""
    return getattr(BLEU, "_TOKENIZER_MAP", {}).get(target or "")


@lru_cache(maxsize=8)
def _bleu_rows(tokenize: str) -> BleuStatistics:
    """One BLEU per tokenizer in a process, shared by BLEU and RIBES: sacrebleu caches a
    tokenizer's output per tokenizer object, so RIBES reads BLEU's tokens, not tokenizing again."""
    return BleuStatistics(tokenize=tokenize)


class _SacrebleuMetric(SummedMetric):
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


class Bleu(_SacrebleuMetric):
    """sacrebleu's BLEU (``tokenize`` option, default 13a), 0-100."""

    name, label, digits = "bleu", "BLEU", 2
    options = (TOKENIZE,)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = _bleu_rows(self.values["tokenize"])

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacrebleu's ``BLEU.compute_bleu`` (exp smoothing, no effective order) for every row at
        once; numpy's exp and log may round differently from the math module's, which the paired
        test allows for (:meth:`Metric.scores_of_totals`)."""
        metric = self.rows.metric
        t = np.asarray(totals, dtype=np.float64)
        order = metric.max_ngram_order
        sys_len, ref_len = t[:, 0], t[:, 1]
        correct, total = t[:, 2 : 2 + order], t[:, 2 + order :]
        with np.errstate(divide="ignore", invalid="ignore"):
            bp = np.where(sys_len < ref_len, np.where(sys_len > 0, np.exp(1 - ref_len / sys_len), 0.0), 1.0)
            log_sum = np.zeros(len(t))
            smooth = np.ones(len(t))
            stopped = np.zeros(len(t), dtype=bool)
            for n in range(order):
                stopped |= total[:, n] == 0  # sacrebleu stops at the first order with no n-grams
                zero = correct[:, n] == 0
                smooth = np.where(~stopped & zero, smooth * 2, smooth)
                precision = np.where(zero, 100.0 / (smooth * total[:, n]), 100.0 * correct[:, n] / total[:, n])
                precision = np.where(stopped, 0.0, precision)
                log_sum = log_sum + np.where(precision == 0, -9999999999.0, np.log(np.where(precision > 0, precision, 1)))
            scores = bp * np.exp(log_sum / order)
        return np.where((correct != 0).any(axis=1), scores, 0.0)


class Chrf(_SacrebleuMetric):
    """sacrebleu's chrF (character 6-grams, beta 2), 0-100."""

    name, label, digits = "chrf", "chrF", 2
    exact_vectorized = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = SegmentStatistics(CHRF(), 18)

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
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


class Ter(_SacrebleuMetric):
    """sacrebleu's TER (translation edit rate, 0-100 and more; lower is better)."""

    name, label, digits, higher_is_better = "ter", "TER", 2, False
    exact_vectorized = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = SegmentStatistics(TER(), 2, np.float64)  # the mean reference length need not be whole

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """sacrebleu's ``TER._compute_score_from_stats`` for every row at once (the same division)."""
        t = np.asarray(totals, dtype=np.float64)
        edits, ref_lengths = t[:, 0], t[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = np.where(ref_lengths > 0, edits / ref_lengths, np.where(edits > 0, 1.0, 0.0))
        return 100 * rate


class Ribes(AveragedMetric):
    """RIBES as NTT's RIBES.py 1.03.1 defines it (:mod:`.ribes`), on sacrebleu's tokenization
    (``tokenize``), lower-cased unless ``lowercase_ribes`` is false; 0-1."""

    name, label, digits = "ribes", "RIBES", 4
    options = (TOKENIZE, LOWERCASE_RIBES)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.tokens = _bleu_rows(self.values["tokenize"])
        self.lowercase = self.values["lowercase_ribes"]

    def sentence_scores(self, hypotheses: Sequence[str], references: References,
                        sources: Sequence[str] | None = None) -> np.ndarray:
        preprocess, lowercase = self.tokens.preprocess, self.lowercase
        scores = np.empty(len(hypotheses), dtype=np.float64)
        for i, (hyp, refs) in enumerate(zip(hypotheses, references, strict=True)):
            scores[i] = sentence_ribes(words(preprocess(hyp), lowercase),
                                       [words(preprocess(r), lowercase) for r in refs])
        return scores

    def signature(self, nrefs: int) -> str:
        return (f"nrefs:{nrefs}|case:{'lc' if self.lowercase else 'mixed'}|tok:{self.tokens.tokenize_name}"
                f"|alpha:{ALPHA}|beta:{BETA}|version:ntt-1.03.1")


BUILTINS = (Bleu, Chrf, Ter, Ribes)  # in the registry's order
