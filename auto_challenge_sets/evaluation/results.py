"""The typed results of an evaluation, and their one JSON form (``results.json``).

Frozen dataclasses from the whole run down to one number; :meth:`Evaluation.to_json` is the
document that ``results.json`` holds (``"schema": "acs-evaluation/4"``, described by the JSON
Schema shipped beside this module, :data:`SCHEMA_PATH`) and :meth:`Evaluation.from_json` reads
back (``acs report`` renders a saved run from it alone), and :meth:`Evaluation.to_pandas` one
long table (a row per system, config and metric) for notebooks. docs/method.md, "Reading
results.json", says what each field means.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# the parts kept in modules of their own, re-exported: every reader imports them from here
from auto_challenge_sets.evaluation.result_full_test import FullTest as FullTest
from auto_challenge_sets.evaluation.result_full_test import FullTestRanking as FullTestRanking
from auto_challenge_sets.evaluation.result_full_test import PairwiseResult as PairwiseResult
from auto_challenge_sets.evaluation.result_full_test import RankedSystem as RankedSystem
from auto_challenge_sets.evaluation.result_json import decode
from auto_challenge_sets.evaluation.result_json import plain as _plain
from auto_challenge_sets.evaluation.result_provenance import AlignerProvenance as AlignerProvenance
from auto_challenge_sets.evaluation.result_provenance import FileDigest as FileDigest
from auto_challenge_sets.evaluation.result_provenance import ParserProvenance as ParserProvenance
from auto_challenge_sets.evaluation.result_provenance import Provenance as Provenance
from auto_challenge_sets.evaluation.result_scores import MetricInfo as MetricInfo
from auto_challenge_sets.evaluation.result_scores import MetricScore as MetricScore
from auto_challenge_sets.evaluation.result_scores import PairedResult as PairedResult
from auto_challenge_sets.evaluation.result_scores import RandomBaseline as RandomBaseline

# 4: each metric's label, digits and signature (``metric_info``), so a saved result renders alone;
# docs/method.md, "Reading results.json", says what changed from 3 (and from 2)
SCHEMA = "acs-evaluation/4"
SCHEMA_PATH = Path(__file__).resolve().parent / "results.schema.json"

# A config's marks, as every table, plot, page and results.json writes them (ConfigResult.flags)
SMALL = "small"
DEGENERATE = "degenerate baseline"
SAME_ROWS = "same rows as"


@dataclass(frozen=True)
class TargetedCounts:
    """Instances judged correct / wrong, without an expected translation (unaligned), and whose
    dependent was judged with its head (absorbed); accuracy = correct / (correct + wrong)."""

    instances: int
    correct: int
    wrong: int
    unaligned: int
    absorbed: int
    accuracy: float | None


@dataclass(frozen=True)
class DistanceCounts(TargetedCounts):
    distance: int = 0


@dataclass(frozen=True)
class RandomPairs:
    """The accuracy among random word pairs at the instances' distances in the same sentences
    (:mod:`auto_challenge_sets.scoring.targeted_control`): ``percentile`` is the share of draws
    at or below the real accuracy (%)."""

    draws: int  # the draws that judged any pair (a draw of unaligned heads alone has no accuracy)
    mean: float | None
    p5: float | None
    p95: float | None
    percentile: float | None


@dataclass(frozen=True)
class TargetedScore(TargetedCounts):
    by_distance: tuple[DistanceCounts, ...] = ()
    random_pairs: RandomPairs | None = None  # None: the control was not drawn

    @classmethod
    def from_dict(cls, entry: Mapping[str, Any]) -> TargetedScore:
        """From :func:`auto_challenge_sets.scoring.targeted.targeted_accuracy`'s result (and
        ``random_pairs``, :func:`auto_challenge_sets.scoring.targeted_control.percentile`'s)."""
        keys = ("instances", "correct", "wrong", "unaligned", "absorbed", "accuracy")
        control = entry.get("random_pairs")
        return cls(**{k: entry[k] for k in keys},
                   by_distance=tuple(DistanceCounts(**{k: d[k] for k in (*keys, "distance")})
                                     for d in entry["by_distance"]),
                   random_pairs=None if control is None else RandomPairs(**control))


@dataclass(frozen=True)
class SystemResult:
    """One system on one config: a score per metric, and its targeted accuracy on lexical configs."""

    scores: Mapping[str, MetricScore]
    targeted: TargetedScore | None = None


@dataclass(frozen=True)
class VersusFullTest:
    """Does this measure rank the systems as humans do better than the full test set's BLEU?
    Kendall's τ of the measure minus the ``reference`` metric's full-test τ over the same systems
    (:func:`.meta_evaluation.difference`): a 95% paired bootstrap interval over systems, the p of a
    paired permutation test (the two measures' ranks swapped per system), and on a config the p
    corrected across the run's configs (BH) with its exploratory label."""

    reference: str  # the metric whose full-test score is compared: bleu, else the run's first metric
    delta: float | None  # τ(measure) − τ(reference on the full test set)
    ci: tuple[float, float] | None
    p_value: float | None
    p_corrected: float | None = None
    exploratory: bool | None = None
    family_size: int | None = None  # the distinct tests the correction counted (None: left out of it)


@dataclass(frozen=True)
class HumanCorrelation:
    """How a score ranks the systems against human scores (scipy's Spearman and Kendall), a 95%
    bootstrap interval of Kendall's τ over systems, and the config's τ among the τ of its random
    corpora (percentile, mean): a set that ranks no better than random sentences shows there."""

    systems: int
    spearman: float | None
    spearman_p: float | None
    kendall: float | None
    p_value: float | None  # Kendall's
    ci: tuple[float, float] | None
    random_kendall_percentile: float | None = None
    random_kendall_mean: float | None = None
    # Benjamini–Hochberg over the run's configs (:mod:`.multiple_testing`); None on the full test set
    p_corrected: float | None = None
    exploratory: bool | None = None  # corrected p >= 0.05: a lead to confirm on another test set
    family_size: int | None = None  # the distinct tests the correction counted (None: left out of it)
    vs_full_test: VersusFullTest | None = None  # None for the reference itself


@dataclass(frozen=True)
class SegmentAgreement:
    """Sentence-level agreement with human segment scores (z) on a config's sentences, over
    (system, sentence) pairs that have a human score: Kendall's τ-b of the metric's sentence score
    with z; for targeted accuracy over judged instances, τ-b of the verdict (1 correct, 0 wrong)
    with z, and the mean z of instances judged correct minus wrong with a 95% bootstrap interval.
    Intervals resample, p-values permute, whole sentences (:mod:`.segments`)."""

    segments: int  # pairs (a metric) or judged instances (targeted accuracy) with a human z
    kendall: float | None
    p_value: float | None
    correct: int | None = None
    wrong: int | None = None
    z_correct_minus_wrong: float | None = None
    ci: tuple[float, float] | None = None
    p_corrected: float | None = None
    exploratory: bool | None = None
    family_size: int | None = None
    # the correct − wrong difference (its interval ci) tested on its own, corrected the same way
    difference_p_value: float | None = None
    difference_p_corrected: float | None = None
    difference_exploratory: bool | None = None
    difference_family_size: int | None = None


@dataclass(frozen=True)
class ConfigResult:
    """One config: its rows, flags, every system's scores and the correlations with humans."""

    n: int
    phenomenon: str  # {pair}.{phenomenon}
    min_distance: int | None
    small: bool  # fewer than min_rows rows: scored, left out of trends and summaries
    same_rows_as: str | None  # the earlier config with the very same rows, counted once
    widened: int  # rows whose length had no random candidate within the tolerance
    systems: Mapping[str, SystemResult]
    human: Mapping[str, HumanCorrelation | None] | None = None  # metric -> correlation
    human_targeted: HumanCorrelation | None = None
    # the complement cannot supply length-matched samples (scoring.length_baseline.is_degenerate):
    # scored and shown, left out of trends and summaries
    degenerate_baseline: bool = False
    segment: Mapping[str, SegmentAgreement | None] | None = None  # metric -> agreement (--human-seg)
    segment_targeted: SegmentAgreement | None = None
    # why the scores have no random baseline ("n/a"), e.g. the config is the full corpus; None: they have one
    random_unavailable: str | None = None

    def flags(self, short: bool = False) -> tuple[str, ...]:
        """The config's marks in this order: ``small`` (fewer than ``min_rows`` rows),
        ``degenerate baseline``, ``same rows as X``. The one source every renderer (terminal,
        report.md, PNGs, index.html) and results.json writes them from, so they cannot disagree;
        ``short``: X without its pair, as the plots name configs."""
        same = self.same_rows_as
        if same is not None and short:
            same = same.split(".", 1)[-1]
        return tuple(label for label, on in ((SMALL, self.small), (DEGENERATE, self.degenerate_baseline),
                                             (f"{SAME_ROWS} {same}", same is not None)) if on)

    @property
    def usable(self) -> bool:
        """A point of the trends, summaries and trend plots: enough rows, a random baseline that
        means something, and rows no earlier config holds (counted once)."""
        return not self.small and not self.degenerate_baseline and self.same_rows_as is None

    def starred(self, score: MetricScore, higher_is_better: bool) -> bool:
        """The tables' and heat maps' star: worse than the random band, where that band means
        something (never on a degenerate baseline, whose percentiles are not shown either)."""
        return not self.degenerate_baseline and score.worse_than_random_band(higher_is_better)


@dataclass(frozen=True)
class Trend:
    """Spearman's ρ of a system's score with D over a phenomenon's distinct, non-small configs."""

    n: int
    spearman: float | None  # None ("n/a") below 3 distinct usable configs or with constant scores
    p_value: float | None
    p_corrected: float | None = None  # Benjamini–Hochberg over the metric's trends of the run
    family_size: int | None = None  # the trends that correction counted


@dataclass(frozen=True)
class PhenomenonSummary:
    """Over the (system, config) cells of a phenomenon's distinct, non-small configs: the share
    scoring worse than the full corpus, than the random mean, than the random 5th percentile
    (95th where lower is better); the mean difference from the random mean; and how many systems'
    trends over D go towards worse scores."""

    cells: int
    systems: int
    worse_than_full: float
    worse_than_random_mean: float
    worse_than_random_p5: float
    mean_delta_random: float
    worsening_trend: int | None  # None ("n/a"): no system's trend could be computed
    trends: int = 0  # systems whose trend could be computed (the denominator of worsening_trend)


@dataclass(frozen=True)
class TargetedByDistance:
    """A phenomenon's targeted accuracy by distance buckets, from its smallest-D config."""

    config: str
    buckets: tuple[str, ...]
    accuracy: Mapping[str, Mapping[str, float | None]]  # system -> bucket -> accuracy
    judged: Mapping[str, Mapping[str, int]]  # system -> bucket -> instances judged
    mean: Mapping[str, float | None]  # bucket -> mean accuracy over systems
    # bucket -> the judge's pass rate on a second human translation (None: unmeasured)
    second_reference: Mapping[str, float | None] | None = None


@dataclass(frozen=True)
class ControlMatching:
    """How one config's random-pair control drew each instance's pairs
    (:func:`auto_challenge_sets.scoring.targeted_control.draw_pairs`): with the head's and the
    dependent's UPOS (``matched``), the head's only, neither (``unmatched``: no such pair in the
    sentence at that distance, or no UPOS in the dataset), or the instance itself (no other pair fits)."""

    instances: int
    matched: int
    head_only: int
    unmatched: int
    itself: int


@dataclass(frozen=True)
class JudgeCheck:
    """The targeted judge measured on a second human translation (``--ref``): each extra reference
    judged as a system's output is, against the run's other references (the dataset's, and with
    ``--targeted-all-refs`` the other extra ones), never against itself. A human translation is
    right, so ``pass_rate`` is the share of correct translations the judge recognises; ``judged``
    counts distinct instances (correct + wrong) over every lexical config. ``status``
    ``unmeasured`` (``pass_rate`` None): no second translation, or the aligner cannot align it."""

    status: str  # "measured" or "unmeasured"
    reason: str  # what was judged against what, or why it is unmeasured
    references: int  # the human translations judged
    judged: int
    correct: int
    pass_rate: float | None
    by_config: Mapping[str, TargetedScore] = field(default_factory=dict)  # config -> its counts


@dataclass(frozen=True)
class TargetedRun:
    aligner: str
    signature: str
    by_distance: Mapping[str, TargetedByDistance]
    judge: JudgeCheck  # measured, or unmeasured and why (never null in results.json)
    control_upos: bool = False  # the dataset has source_upos: the control could match part of speech
    control: Mapping[str, ControlMatching] = field(default_factory=dict)  # config -> matching (empty: no control)
    # the verdicts rest on eflomal links of too few pairs without priors (pipeline/provenance.py)
    alignment_warning: str | None = None


@dataclass(frozen=True)
class Settings:
    n_samples: int
    length_tolerance: int
    seed: int
    paired_test: str
    paired_samples: int
    min_rows: int
    # metric -> every option it declares -> the value the run used (Metric.options; defaults filled in)
    metric_options: Mapping[str, Mapping[str, Any]]
    # each row's length window is max(length_tolerance, floor(length_relative × length)) tokens
    # (scoring.length_baseline.length_window); 0: the tolerance alone
    length_relative: float = 0.0


@dataclass(frozen=True)
class Evaluation:
    """Everything one run found. ``full`` is each system's score per metric on the full corpus."""

    signature: str
    dataset: str
    pair: str
    split: str
    full_corpus_config: str
    full_corpus_rows: int
    systems: tuple[str, ...]
    baseline_system: str
    metrics: tuple[str, ...]
    higher_is_better: Mapping[str, bool]
    settings: Settings
    full: Mapping[str, Mapping[str, float]]
    configs: Mapping[str, ConfigResult]
    trends: Mapping[str, Mapping[str, Mapping[str, Trend]]]  # metric -> phenomenon -> system
    summary: Mapping[str, Mapping[str, PhenomenonSummary]]  # metric -> phenomenon
    metric_info: Mapping[str, MetricInfo]  # metric -> its label, digits and signature (the renderers')
    human_full: Mapping[str, HumanCorrelation | None] | None = None  # metric -> correlation
    human_unmatched: Mapping[str, tuple[str, ...]] | None = None  # table rows / systems without a match
    targeted: TargetedRun | None = None
    notes: tuple[str, ...] = field(default=())
    segment_full: Mapping[str, SegmentAgreement | None] | None = None  # metric -> agreement on the full corpus
    full_test: FullTest | None = None  # paired tests and significance clusters on the full corpus
    provenance: Provenance | None = None  # how the sets were made (the build record)
    # with targeted accuracy: config -> system -> per row (the config's order) each instance's
    # verdict, as judged; for the HTML page's sentences, not in results.json (tens of MB on WMT21)
    verdicts: Mapping[str, Mapping[str, list[list[str]]]] | None = field(default=None, repr=False, compare=False)
    human_scores: Mapping[str, float] | None = None  # system -> human score (--human), for acs meta-evaluate
    # with an aligning targeted judge: system -> per pool row its source-output links, the other
    # side of the links the verdicts rest on (the page's sentences; not in results.json either)
    output_links: Mapping[str, list[list[tuple[int, int]]]] | None = field(default=None, repr=False, compare=False)

    def label(self, metric: str) -> str:
        """The metric's name in every table, plot and page (:attr:`metric_info`)."""
        return self.metric_info[metric].label

    def digits(self, metric: str) -> int:
        return self.metric_info[metric].digits

    def to_json(self) -> dict[str, Any]:
        """The ``results.json`` document: plain JSON types, NaN as null."""
        document = dataclasses.asdict(dataclasses.replace(self, verdicts=None, output_links=None))  # the page's only
        del document["verdicts"], document["output_links"]
        for name, config in self.configs.items():  # the marks the pages print, in their words
            document["configs"][name]["flags"] = list(config.flags())
        return {"schema": SCHEMA, **_plain(document)}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Evaluation:
        """The result :meth:`to_json` wrote (a document the schema validates), without the page-only
        ``verdicts`` and ``output_links``; a null where a float never is None (NaN or an infinity) comes
        back as NaN (:mod:`.result_json`)."""
        return decode(cls, {k: v for k, v in document.items() if k != "schema"})

    def to_pandas(self) -> Any:
        """One long table: a row per (system, config, metric), the full corpus as config
        ``full_corpus_config`` (no random baseline), targeted accuracy as metric ``targeted``."""
        import pandas as pd

        rows = []
        for system in self.systems:
            for metric in self.metrics:
                rows.append({"system": system, "config": self.full_corpus_config, "phenomenon": None,
                             "min_distance": None, "n": self.full_corpus_rows, "metric": metric,
                             "score": self.full[system][metric]})
        for name, config in self.configs.items():
            common = {"config": name, "phenomenon": config.phenomenon, "min_distance": config.min_distance,
                      "n": config.n, "small": config.small, "same_rows_as": config.same_rows_as,
                      "degenerate_baseline": config.degenerate_baseline}
            for system, result in config.systems.items():
                for metric, score in result.scores.items():
                    test = score.vs_baseline
                    rows.append({"system": system, **common, "metric": metric, "score": score.score,
                                 **_random_columns(score.random),
                                 "delta_vs_baseline": None if test is None else test.delta,
                                 "paired_p_value": None if test is None else test.p_value})
                if result.targeted is not None:
                    rows.append({"system": system, **common, "metric": "targeted", "score": result.targeted.accuracy,
                                 "targeted_judged": result.targeted.correct + result.targeted.wrong})
        return pd.DataFrame(rows)


def _random_columns(random: RandomBaseline | None) -> dict[str, float | None]:
    """The long table's random_* columns (None without a random baseline)."""
    return {f"random_{f.name}": None if random is None else getattr(random, f.name)
            for f in dataclasses.fields(RandomBaseline)}

