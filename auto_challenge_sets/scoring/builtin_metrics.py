"""The built-in metrics of the registry: BLEU, chrF and TER (sacrebleu's, from per-sentence
sufficient statistics) and RIBES (NTT's definition, a mean of sentence scores).

Each is a thin entry over the statistics modules, so a score equals sacrebleu's ``corpus_bleu`` /
``corpus_chrf`` / ``corpus_ter`` on the same lines to the last bit (the final step of each goes
through sacrebleu's scalar code).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics
from auto_challenge_sets.scoring.metric import AveragedMetric, References, SummedMetric, register_metric
from auto_challenge_sets.scoring.ribes import ALPHA, BETA, sentence_ribes, words
from auto_challenge_sets.scoring.segment_stats import SegmentStatistics, sample_totals

DEFAULT_METRICS = ("bleu", "chrf", "ribes")


class _SacrebleuMetric(SummedMetric):
    """A summed metric whose rows come from a :class:`SegmentStatistics` (``self.rows``)."""

    rows: Any

    def statistics(self, hypotheses: Sequence[str], references: References,
                   sources: Sequence[str] | None = None) -> np.ndarray:
        return self.rows.extract(hypotheses, references)

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.rows.corpus_score(stats)

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        return self.rows.sample_scores(stats, index)

    def score_of_totals(self, totals: Sequence[float] | np.ndarray) -> float:
        return self.rows.score(totals)

    def signature(self, nrefs: int) -> str:
        return self.rows.signature(nrefs)

    def sacrebleu_metric(self) -> Any:
        return self.rows.metric


@register_metric
class Bleu(_SacrebleuMetric):
    """sacrebleu's BLEU (``tokenize`` option, default 13a), 0-100."""

    name, label, digits = "bleu", "BLEU", 2

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = BleuStatistics(tokenize=options.get("tokenize", "13a"))


@register_metric
class Chrf(_SacrebleuMetric):
    """sacrebleu's chrF (character 6-grams, beta 2), 0-100."""

    name, label, digits = "chrf", "chrF", 2

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = ChrfStatistics()


class TerStatistics(SegmentStatistics):
    """sacrebleu's TER rows ``[edits, mean reference length]`` (floats: the mean need not be whole)."""

    width = 2

    def __init__(self) -> None:
        from sacrebleu.metrics.ter import TER

        self.metric = TER()

    def extract(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        rows = [self.segment(h, refs) for h, refs in zip(hypotheses, references, strict=True)]
        return np.asarray(rows, dtype=np.float64).reshape(len(rows), self.width)

    def score(self, totals: Sequence[float] | np.ndarray) -> float:
        return float(self.metric._compute_score_from_stats([float(x) for x in totals]).score)

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.score(stats.sum(axis=0))

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        return np.array([self.score(row) for row in sample_totals(stats, index).tolist()], dtype=np.float64)

    def signature(self, nrefs: int) -> str:
        self.metric.num_refs = nrefs
        return self.metric.get_signature().format()


@register_metric
class Ter(_SacrebleuMetric):
    """sacrebleu's TER (translation edit rate, 0-100 and more; lower is better)."""

    name, label, digits, higher_is_better = "ter", "TER", 2, False

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.rows = TerStatistics()


@register_metric
class Ribes(AveragedMetric):
    """RIBES as NTT's RIBES.py 1.03.1 defines it (:mod:`.ribes`), on sacrebleu's tokenization
    (``tokenize``), lower-cased unless ``lowercase_ribes`` is False; 0-1."""

    name, label, digits = "ribes", "RIBES", 4

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.tokens = BleuStatistics(tokenize=options.get("tokenize", "13a"))
        self.lowercase = bool(options.get("lowercase_ribes", True))

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
