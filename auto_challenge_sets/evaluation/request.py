"""What an evaluation is asked to do: one immutable, validated request for 1…N systems.

The command line only turns flags into an :class:`EvaluationRequest`; the Python API builds the
same object. Every check of a value happens here, once, for every N, and an error names the
request field it is about (:class:`RequestError`), which the command line maps to its flag.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.evaluation.memory import MAX_INT, MemoryRows
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.scoring.kernel import DEFAULT_SEED, MAX_SAMPLES
from auto_challenge_sets.scoring.length_baseline import DEFAULT_LENGTH_RELATIVE, check_relative
from auto_challenge_sets.scoring.metrics import DEFAULT_METRICS, metric_class, route_options
from auto_challenge_sets.scoring.metrics.bleu import TOKENIZE, BleuStatistics, target_tokenizer
from auto_challenge_sets.scoring.paired import PAIRED_TESTS
from auto_challenge_sets.workers import cores

ALL = "all"
MAX_PAIRED_SAMPLES = 100_000
MAX_JOBS = 1024


def white_space_twins(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two ``names`` that are equal once white space is taken out (``A`` and ``A `` look
    the same in a table, and an HTML ``<option>`` strips them to one value), or None."""
    seen: dict[str, str] = {}
    for name in names:
        key = "".join(name.split())
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


@dataclass(frozen=True)
class EvaluationRequest:
    """Several systems' outputs of one test corpus (one or more), scored on a dataset folder's configs.

    ``hypotheses`` maps a system name to its output file, one line per corpus line (``-``: standard
    input); ``dataset`` may instead be ``compute()``'s rows in memory (:class:`.memory.MemoryRows`,
    the output of the one system ``hypotheses`` names). The first of ``metrics`` picks the baseline
    system (the best on the full corpus) when ``baseline`` is None. ``metric_options`` go to the
    metrics that declare them (:func:`~auto_challenge_sets.scoring.metrics.route_options`); a key none
    declares is an error. These defaults are ``acs evaluate``'s too.
    """

    dataset: str | os.PathLike[str] | MemoryRows
    hypotheses: Mapping[str, str | os.PathLike[str]]
    config: str = ALL  # a config name, several separated by commas, or "all"
    split: str | None = None  # default: the full-corpus config's only split
    pair: str | None = None  # with "all": the language pair, when the folder holds several
    # the metrics' extra reference files, one line per corpus line: multi-reference scores, as
    # sacrebleu's several -r files (the targeted judge's second translations: targeted.references)
    references: tuple[str | os.PathLike[str], ...] = ()
    ref_config: str | None = None  # the full corpus (default: {pair}.baseline)
    metrics: tuple[str, ...] = DEFAULT_METRICS
    n_samples: int = 100
    length_tolerance: int = 1
    length_relative: float = DEFAULT_LENGTH_RELATIVE  # the window's share of a row's length (length_baseline)
    seed: int = DEFAULT_SEED
    min_rows: int = 20
    baseline: str | None = None  # the system the others are tested against
    paired_test: str = "ar"  # sacrebleu's approximate randomization, or "bs" (paired bootstrap)
    paired_samples: int | None = None  # None: sacrebleu's default for the test (PAIRED_TESTS)
    targeted: TargetedRequest | None = None  # also score the targeted accuracy of lexical configs
    metric_options: Mapping[str, Any] = field(default_factory=dict)  # option -> value, for the metrics declaring it
    jobs: int | None = None  # worker processes for the systems' statistics (None: the cores this process may use;
    # the numbers do not depend on it)
    verify: bool = False  # also compare each data file's sha256 with the build record (sizes always are)

    def __post_init__(self) -> None:
        # frozen: the mappings are copied into read-only views, the sequences into tuples
        object.__setattr__(self, "hypotheses", MappingProxyType(dict(self.hypotheses)))
        object.__setattr__(self, "metric_options", MappingProxyType(dict(self.metric_options)))
        object.__setattr__(self, "references", tuple(self.references))
        metrics = (self.metrics,) if isinstance(self.metrics, str) else self.metrics
        object.__setattr__(self, "metrics", tuple(m.strip() for m in metrics))
        if self.paired_samples is None:
            default = PAIRED_TESTS.get(self.paired_test) if isinstance(self.paired_test, str) else None
            object.__setattr__(self, "paired_samples", default)
        self._validate()

    def _validate(self) -> None:
        if not self.hypotheses:
            raise RequestError("hypotheses", "no system output given")
        for name in self.hypotheses:
            if not isinstance(name, str) or not name.strip():
                raise RequestError("hypotheses", f"a system needs a non-blank name, got {name!r}")
        twins = white_space_twins(self.hypotheses)
        if twins:
            raise RequestError("hypotheses", f"system names {twins[0]!r} and {twins[1]!r} differ only in white space: "
                               "the page, its filters and the tables could not tell them apart; rename one")
        if not isinstance(self.config, str) or not [c for c in self.config.split(",") if c.strip()]:
            raise RequestError("config", f"{self.config!r} is empty: give a name, several separated by commas, "
                               "or all")
        if not self.metrics or any(not m for m in self.metrics):
            raise RequestError("metrics", f"names no metric: {','.join(self.metrics)!r}")
        if len(set(self.metrics)) != len(self.metrics):
            raise RequestError("metrics", f"names a metric twice: {', '.join(self.metrics)}")
        labels = {}
        for metric in self.metrics:
            try:
                labels[metric] = metric_class(metric).label
            except ValueError as error:
                raise RequestError("metrics", str(error)) from None
            if not isinstance(labels[metric], str) or not labels[metric].strip():
                raise RequestError("metrics", f"metric {metric!r} has no label to show (label {labels[metric]!r})")
        twins = white_space_twins(labels.values())
        if twins:
            names = [m for m, label in labels.items() if label in twins]
            raise RequestError("metrics", f"metrics {names[0]!r} and {names[1]!r} have the labels {twins[0]!r} and "
                               f"{twins[1]!r}, which differ only in white space: the tables could not tell them apart")
        if self.baseline is not None and self.baseline not in self.hypotheses:
            raise RequestError("baseline", f"{self.baseline!r} is none of the systems ({', '.join(self.hypotheses)})")
        if self.paired_test not in PAIRED_TESTS:
            raise RequestError("paired_test", f"must be ar or bs, not {self.paired_test!r}")
        for name, low, high in (("n_samples", 1, MAX_SAMPLES), ("paired_samples", 1, MAX_PAIRED_SAMPLES),
                                ("min_rows", 0, None), ("seed", 0, None),
                                # a window of tokens, which numpy's int64 arithmetic holds
                                ("length_tolerance", 0, MAX_INT),
                                ("jobs", 1, MAX_JOBS)):
            value = getattr(self, name)
            if name == "jobs" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise RequestError(name, f"must be an integer, got {value!r}")
            value = int(value)  # a numpy integer too
            object.__setattr__(self, name, value)
            if high is not None and value > high:
                raise RequestError(name, f"is {value}, above the limit of {high:_}")
            if value < low:
                bounds = f">= {low}" if high is None else f"from {low} to {high:,}"
                raise RequestError(name, f"must be {bounds}, got {value}")
        try:
            check_relative(self.length_relative)
        except ValueError as error:
            raise RequestError("length_relative", str(error).removeprefix("length_relative ")) from None
        self.metric_settings()  # an unknown option (a key that is no text too) or a value of the wrong type fails here, before any work
        if self.targeted is not None:
            self.targeted.check()
            unknown = sorted(set(self.targeted.hyp_alignments) - set(self.hypotheses))
            if unknown:
                raise RequestError("targeted.hyp_alignments", f"for {', '.join(unknown)}, which is no system "
                                   f"(systems: {', '.join(self.hypotheses)})")
        if isinstance(self.dataset, MemoryRows):
            needs_sources = [name for name in self.metrics if metric_class(name).needs_sources]
            object.__setattr__(self, "dataset", self.dataset.checked(self.n_samples, self.line_tokenizer(), needs_sources))

    def metric_settings(self, target: str | None = None) -> dict[str, dict[str, Any]]:
        """Per metric, every option it declares: as given in ``metric_options``, else, for the
        tokenizer of a ``target`` language sacrebleu tokenizes otherwise (Chinese, Japanese,
        Korean), sacrebleu's choice for it, as ``sacrebleu -l en-zh`` makes it; else its default."""
        given = dict(self.metric_options)
        tokenizer = target_tokenizer(target)
        if tokenizer is not None and "tokenize" not in given and any(
                option.name == "tokenize" for name in self.metrics for option in metric_class(name).options):
            given["tokenize"] = tokenizer
        return route_options(self.metrics, given)

    def line_tokenizer(self, target: str | None = None) -> Callable[[str], str]:
        """What the longest line a run scores counts (:mod:`~auto_challenge_sets.formats.line_limit`):
        the tokens of its BLEU/RIBES tokenizer, 13a without either."""
        name = next((values["tokenize"] for values in self.metric_settings(target).values() if "tokenize" in values),
                    TOKENIZE.default)
        return BleuStatistics(tokenize=name).preprocess

    @property
    def workers(self) -> int:
        """``jobs``, or the cores this process may use when it is None."""
        return cores() if self.jobs is None else self.jobs
