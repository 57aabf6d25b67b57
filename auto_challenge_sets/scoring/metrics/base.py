"""The metric interface: what the evaluation engine asks of any metric (the registry that names
them is the package, :mod:`auto_challenge_sets.scoring.metrics`). As sacrebleu's ``metrics/base.py``, a metric turns each sentence into a
row of statistics once, and every score after that (a config, a random corpus, a paired-test
trial) comes from rows in memory. :class:`SummedMetric`: the corpus score is a function of the
column sums (BLEU, chrF, TER); :class:`AveragedMetric`: the mean of sentence scores (RIBES, COMET).
A metric declares its options (:class:`~auto_challenge_sets.options.Option` records); every metric
also serves sacrebleu's ``significance.PairedTest`` (:meth:`Metric.sacrebleu_metric`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.options import Option, did_you_mean
from auto_challenge_sets.workers import one_blas_thread

References = Sequence[Sequence[str]]  # per sentence, its references (the first is the dataset's)


# Numbers (samples x sentences x columns gathered, or samples x pool rows counted) at once in
# ``sample_totals``: bounds memory (32 MB of int64).
CHUNK_ELEMENTS = 4_000_000


def sample_totals(stats: np.ndarray, index: np.ndarray, chunk_elements: int = CHUNK_ELEMENTS) -> np.ndarray:
    """Column sums of many corpora's rows at once (row k of ``index`` lists the rows of corpus k),
    in chunks of at most ``chunk_elements`` numbers. Integer rows give exact sums; where the corpora
    hold a tenth of the pool's rows or more, as each corpus's count of every row times the rows (a
    product in float64 where every sum is below 2**53: BLAS multiplies ten numbers in the time
    numpy gathers one)."""
    totals = np.empty((index.shape[0], stats.shape[1]), dtype=stats.dtype)
    counted = (stats.dtype.kind in "iub" and 10 * index.shape[1] >= len(stats)
               and index.shape[1] * np.abs(stats).max(initial=0) < 2**53)
    chunk = max(1, chunk_elements // max(1, len(stats) if counted else index.shape[1] * stats.shape[1]))
    with one_blas_thread():
        for start in range(0, index.shape[0], chunk):
            part = index[start : start + chunk]
            if counted:
                rows = (np.arange(len(part))[:, None] * len(stats) + part).ravel()
                counts = np.bincount(rows, minlength=len(part) * len(stats)).reshape(len(part), -1)
                totals[start : start + chunk] = counts.astype(np.float64) @ stats.astype(np.float64)
            else:
                totals[start : start + chunk] = stats[part].sum(axis=1)
    return totals


class Metric(ABC):
    """A corpus-level MT metric computed from per-sentence statistics. Subclasses set :attr:`name`
    (the registry key), :attr:`label`, :attr:`digits` and :attr:`higher_is_better`, and declare
    :attr:`options`, whose checked values, defaults filled in, are :attr:`values`."""

    name: ClassVar[str]
    label: ClassVar[str]
    digits: ClassVar[int] = 2
    higher_is_better: ClassVar[bool] = True
    needs_sources: ClassVar[bool] = False  # COMET-like metrics read the source sentences too
    parallel_safe: ClassVar[bool] = True  # False: its statistics run in the calling process (a model)
    options: ClassVar[tuple[Option, ...]] = ()  # what --metric-option KEY=VALUE may set

    def __init__(self, **options: Any) -> None:
        self.values: dict[str, Any] = option_values(type(self), options)

    @abstractmethod
    def statistics(self, hypotheses: Sequence[str], references: References,
                   sources: Sequence[str] | None = None) -> np.ndarray:
        """One row of statistics per sentence (a 1-d array of sentence scores for averaged metrics)."""

    @abstractmethod
    def corpus_score(self, stats: np.ndarray) -> float:
        """The score of the corpus made of these rows."""

    @abstractmethod
    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        """The scores of many corpora at once: row k of ``index`` lists the rows of corpus k."""

    @abstractmethod
    def paired_statistics(self, stats: np.ndarray) -> np.ndarray:
        """Rows whose column sums determine the score (for paired tests): ``stats`` itself for a
        summed metric, ``[score, 1]`` per sentence for an averaged one."""

    @abstractmethod
    def score_of_totals(self, totals: Sequence[float] | np.ndarray) -> float:
        """The score of summed :meth:`paired_statistics` rows."""

    @abstractmethod
    def signature(self, nrefs: int) -> str:
        """What makes the numbers reproducible (sacrebleu's signature where there is one)."""

    def exact_scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """:meth:`score_of_totals` of every row of ``totals``, the same numbers (the random corpora's
        scores); a vectorized version does the scalar code's arithmetic in its order."""
        return np.array([self.score_of_totals(row) for row in np.asarray(totals).tolist()], dtype=np.float64)

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """:meth:`exact_scores_of_totals`, or a faster version that may differ by rounding alone (the
        paired test rescores the trials rounding could change)."""
        return self.exact_scores_of_totals(totals)

    def sacrebleu_metric(self) -> Any:
        """The object sacrebleu's ``PairedTest`` scores this metric with."""
        return PairedTestAdapter(self)

    def worse(self, score: float, other: float) -> bool:
        """Whether ``score`` is worse than ``other`` on this metric's scale."""
        return score < other if self.higher_is_better else score > other


def option_values(cls: type[Metric], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option ``cls`` declares, as given (checked and typed) or its default; an undeclared key
    or a value of the wrong type is a :class:`RequestError` of ``metric_options``."""
    declared = {option.name: option for option in cls.options}
    for key in given:
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise RequestError("metric_options", f"metric {cls.name} has no option {key!r}"
                               f"{did_you_mean(str(key), declared)} (its options: {known})")
    values = {}
    for name, option in declared.items():
        value = given.get(name)
        try:
            values[name] = option.default if value is None else option.parse(value)
        except ValueError as error:
            raise RequestError("metric_options", f"{name}={value}: {error}") from None
    return values


class SummedMetric(Metric):
    """A metric whose corpus score is a function of summed per-sentence statistics."""

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.score_of_totals(np.asarray(stats).sum(axis=0))

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        return self.exact_scores_of_totals(sample_totals(stats, index))

    def paired_statistics(self, stats: np.ndarray) -> np.ndarray:
        return stats


class AveragedMetric(Metric):
    """A metric whose corpus score is the mean of sentence scores; subclasses define
    :meth:`sentence_scores`."""

    @abstractmethod
    def sentence_scores(self, hypotheses: Sequence[str], references: References,
                        sources: Sequence[str] | None = None) -> np.ndarray:
        """One float per sentence."""

    def statistics(self, hypotheses: Sequence[str], references: References,
                   sources: Sequence[str] | None = None) -> np.ndarray:
        scores = np.asarray(self.sentence_scores(hypotheses, references, sources), dtype=np.float64)
        if scores.shape != (len(hypotheses),):
            raise ValueError(f"metric {self.name}: sentence_scores returned shape {scores.shape} for "
                             f"{len(hypotheses)} sentences")
        return scores

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(stats.mean())

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        return stats[np.asarray(index)].mean(axis=1)

    def paired_statistics(self, stats: np.ndarray) -> np.ndarray:
        return np.column_stack([stats, np.ones(len(stats))])

    def score_of_totals(self, totals: Sequence[float] | np.ndarray) -> float:
        return float(totals[0]) / float(totals[1])

    def exact_scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        return totals[:, 0] / totals[:, 1]  # the same division as score_of_totals, row by row


class PairedTestAdapter:
    """Any :class:`Metric` in the shape sacrebleu's ``significance.PairedTest`` takes, so that its
    p-values are the ones the field cites."""

    def __init__(self, metric: Metric) -> None:
        self.metric = metric
        # id(hypotheses list) -> its paired statistics, already computed: the engine's statistics
        # are computed once per run, and a metric that reads sources (COMET) could not recompute them
        self.known: dict[int, np.ndarray] = {}

    def _extract_corpus_statistics(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> np.ndarray:
        if id(hypotheses) in self.known:
            return self.known[id(hypotheses)]
        per_sentence = [tuple(stream[i] for stream in references) for i in range(len(hypotheses))]
        stats = self.metric.statistics(list(hypotheses), per_sentence)
        return np.asarray(self.metric.paired_statistics(stats), dtype=np.float64)

    def _compute_score_from_stats(self, totals: Sequence[float]) -> SimpleNamespace:
        """What sacrebleu's paired test reads of a score: its name and its value."""
        return SimpleNamespace(name=self.metric.label, score=self.metric.score_of_totals(totals))

    def _aggregate_and_compute(self, stats: np.ndarray) -> SimpleNamespace:
        return self._compute_score_from_stats(np.asarray(stats).sum(axis=0))

    def get_signature(self) -> _Signature:
        return _Signature()


class _Signature:
    """What sacrebleu's paired test adds its settings to (the run's signature names them)."""

    def update(self, key: str, value: Any) -> None:
        pass
