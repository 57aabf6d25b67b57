"""The metric interface and its registry: what the evaluation engine asks of any metric.

Modelled on sacrebleu's ``metrics/base.py``: a metric turns each sentence into a row of
statistics once, and every score after that (a config, a random corpus, a paired-test trial) is
computed from rows that are already in memory. Two kinds:

- :class:`SummedMetric`: the corpus score is a function of the column sums of per-sentence
  sufficient statistics (BLEU's n-gram counts, chrF's character n-gram counts, TER's edits and
  reference lengths);
- :class:`AveragedMetric`: the corpus score is the mean of sentence scores (RIBES, COMET), for
  metrics that do not decompose.

The registry maps a name (``--metrics bleu,ter``) to a metric class. The built-ins register
themselves (:mod:`.builtin_metrics`); any installed package adds one through the entry-point group
``auto_challenge_sets.metrics`` (``mine = my_package:MyMetric``), loaded the first time a name is
looked up. A model-based metric (COMET) is such an entry point too: it lives above the core,
which never imports torch.

Every metric also serves sacrebleu's ``significance.PairedTest``, which takes any object with
sacrebleu's ``_extract_corpus_statistics`` / ``_aggregate_and_compute`` / ``get_signature``:
sacrebleu's own metric objects where they exist (so p-values equal ``sacrebleu --paired-ar``), an
adapter over :meth:`Metric.paired_statistics` otherwise.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from auto_challenge_sets.scoring.segment_stats import sample_totals

ENTRY_POINT_GROUP = "auto_challenge_sets.metrics"

References = Sequence[Sequence[str]]  # per sentence, its references (the first is the dataset's)


class Metric(ABC):
    """A corpus-level MT metric computed from per-sentence statistics.

    Subclasses set :attr:`name` (the registry key, lower case), :attr:`label` (for tables),
    :attr:`digits` (decimals shown) and :attr:`higher_is_better`. Options common to a run are
    passed as keywords (``tokenize``, ``lowercase_ribes``, ...); a metric reads the ones it knows
    and ignores the rest, so every metric can be created from the same request.
    """

    name: ClassVar[str]
    label: ClassVar[str]
    digits: ClassVar[int] = 2
    higher_is_better: ClassVar[bool] = True
    needs_sources: ClassVar[bool] = False  # COMET-like metrics read the source sentences too
    parallel_safe: ClassVar[bool] = True  # False: its statistics run in the calling process (a model)
    # True where scores_of_totals does the scalar code's arithmetic in its order (the same numbers):
    # the random corpora are then scored all at once too
    exact_vectorized: ClassVar[bool] = False

    def __init__(self, **options: Any) -> None:
        self.options = options

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

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        """:meth:`score_of_totals` of every row of ``totals`` (rows x columns). A metric may give a
        vectorized version whose numbers differ from the scalar ones by rounding alone: the paired
        test recomputes, with :meth:`score_of_totals`, every trial whose outcome rounding could
        change (:func:`auto_challenge_sets.scoring.paired.approximate_randomization`)."""
        return np.array([self.score_of_totals(row) for row in np.asarray(totals).tolist()], dtype=np.float64)

    def sacrebleu_metric(self) -> Any:
        """The object sacrebleu's ``PairedTest`` scores this metric with."""
        return PairedTestAdapter(self)

    def worse(self, score: float, other: float) -> bool:
        """Whether ``score`` is worse than ``other`` on this metric's scale."""
        return score < other if self.higher_is_better else score > other


class SummedMetric(Metric):
    """A metric whose corpus score is a function of summed per-sentence statistics."""

    def corpus_score(self, stats: np.ndarray) -> float:
        return self.score_of_totals(np.asarray(stats).sum(axis=0))

    def sample_scores(self, stats: np.ndarray, index: np.ndarray) -> np.ndarray:
        totals = sample_totals(stats, index)
        if self.exact_vectorized:
            return self.scores_of_totals(totals)
        return np.array([self.score_of_totals(row) for row in totals.tolist()], dtype=np.float64)

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

    def scores_of_totals(self, totals: np.ndarray) -> np.ndarray:
        return totals[:, 0] / totals[:, 1]  # the same division as score_of_totals, row by row


class _Score:
    """What sacrebleu's paired test reads of a score: its value and its name."""

    def __init__(self, name: str, score: float) -> None:
        self.name, self.score = name, score


class PairedTestAdapter:
    """Any :class:`Metric` in the shape sacrebleu's ``significance.PairedTest`` takes (it calls
    ``_extract_corpus_statistics``, ``_aggregate_and_compute``, ``_compute_score_from_stats`` and
    ``get_signature``). sacrebleu's test cannot take our metrics otherwise, and writing a second
    approximate randomization would give p-values that differ from the ones the field cites."""

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

    def _compute_score_from_stats(self, totals: Sequence[float]) -> _Score:
        return _Score(self.metric.label, self.metric.score_of_totals(totals))

    def _aggregate_and_compute(self, stats: np.ndarray) -> _Score:
        return self._compute_score_from_stats(np.asarray(stats).sum(axis=0))

    def get_signature(self) -> _Signature:
        return _Signature(self.metric.signature(1))


class _Signature:
    def __init__(self, text: str) -> None:
        self.text = text

    def update(self, key: str, value: Any) -> None:
        self.text += f"|{key}:{value}"

    def format(self, short: bool = False) -> str:
        return self.text


# -- the registry -------------------------------------------------------------------------------

_REGISTRY: dict[str, type[Metric]] = {}
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}", re.ASCII)
_entry_points_loaded = False


def register_metric(cls: type[Metric]) -> type[Metric]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    name = getattr(cls, "name", None)
    # the name becomes part of file names (de-en.{name}.heatmap.png) and a --metrics item: `a/../b`
    # would write outside the report folder
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"a metric needs a lower-case name: ASCII letters, digits, _ and - (starting with a "
                         f"letter, at most 64 characters), got {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"metric {name!r} must be a subclass of auto_challenge_sets.scoring.metric.Metric")
    _REGISTRY[name] = cls
    return cls


def _load_entry_points() -> None:
    """Register the metrics that installed packages declare (once per process)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from auto_challenge_sets.plugins import load_plugins

    def register(entry: Any, cls: Any) -> None:
        if getattr(cls, "name", None) != entry.name:
            raise ValueError(f"its class is named {getattr(cls, 'name', None)!r}")
        register_metric(cls)

    load_plugins(ENTRY_POINT_GROUP, _REGISTRY, register, "metric")


def _builtins() -> None:
    from auto_challenge_sets.scoring import builtin_metrics  # noqa: F401 - registers on import


def metric_names() -> list[str]:
    """Every registered metric: the built-ins first, then plug-ins, in registration order."""
    _builtins()
    _load_entry_points()
    return list(_REGISTRY)


def metric_class(name: str) -> type[Metric]:
    """The class registered as ``name``; ValueError naming the known ones otherwise."""
    _builtins()
    if name not in _REGISTRY:
        _load_entry_points()
    if name not in _REGISTRY:
        raise ValueError(f"unknown metric {name!r} (known: {', '.join(metric_names())})")
    return _REGISTRY[name]


def create_metric(name: str, **options: Any) -> Metric:
    """An instance of the metric registered as ``name``, with the run's options."""
    return metric_class(name)(**options)
