"""The typed results of an evaluation, and their one JSON form (``results.json``).

Frozen dataclasses from the whole run down to one number; :meth:`Evaluation.to_json` is the
document that ``results.json`` holds (``"schema": "acs-evaluation/4"``), :meth:`Evaluation.from_json`
reads it back, checked (``acs report`` renders a saved run from it alone), and
:meth:`Evaluation.to_pandas` makes one long table (a row per system, config and metric) for
notebooks. A field's bounds are its metadata (:func:`.result_json.bounded`); the JSON Schema
shipped beside this module, :data:`SCHEMA_PATH`, is :func:`schema_text`, generated from these
classes. docs/method.md, "Reading results.json", says what each field means.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from auto_challenge_sets.evaluation.result_json import PAGE_ONLY, bounded, decode, json_schema, plain

SCHEMA = "acs-evaluation/4"
SCHEMA_PATH = Path(__file__).resolve().parent / "results.schema.json"

# A config's marks, as every table, plot, page and results.json writes them (ConfigResult.flags)
SMALL = "small"
DEGENERATE = "degenerate baseline"
SAME_ROWS = "same rows as"
# what targeted accuracy is, in every output that shows it (results.json: TargetedRun.role)
DIAGNOSTIC = "a diagnostic, not a ranking measure"
# a measure's agreement with humans against full-test BLEU's, after BH (VersusFullTest.verdict)
VERDICTS = ("better", "no different", "worse")


# the bounds several fields share (a function each: a dataclass field is one field's alone)
def _count(default: Any = dataclasses.MISSING) -> Any:
    return bounded(default, minimum=0)


def _share(default: Any = dataclasses.MISSING) -> Any:
    return bounded(default, minimum=0, maximum=1)


def _percent(default: Any = dataclasses.MISSING) -> Any:
    return bounded(default, minimum=0, maximum=100)


def _p(default: Any = dataclasses.MISSING) -> Any:
    """An empirical p, (1 + count) / (trials + 1): never 0."""
    return bounded(default, exclusiveMinimum=0, maximum=1)


def _family(default: Any = None) -> Any:
    """The distinct tests a Benjamini–Hochberg correction counted (None: left out of it)."""
    return bounded(default, minimum=1)


def _paired_test() -> Any:
    """sacrebleu's paired tests: approximate randomization, paired bootstrap."""
    return bounded(enum=["ar", "bs"])


@dataclass(frozen=True)
class RandomBaseline:
    """Where a score falls among the scores of length-matched random corpora (one per sample).

    ``percentile``: share of random corpora scoring at or worse than the set (%); ``p_value``: the
    one-sided empirical p-value of "the set scores worse than random", (1 + that count) /
    (samples + 1) (:func:`auto_challenge_sets.scoring.length_baseline.summarize`); worse means lower
    for a metric where higher is better, higher otherwise."""

    mean: float
    std: float = bounded(minimum=0)
    p5: float
    p95: float
    percentile: float = _percent()
    p_value: float = _p()


@dataclass(frozen=True)
class PairedResult:
    """sacrebleu's paired test of a system against the baseline system on one config."""

    delta: float  # system − baseline
    p_value: float = _p()


@dataclass(frozen=True)
class MetricScore:
    score: float
    random: RandomBaseline | None  # None ("n/a"): no row outside the config to draw from (the full corpus)
    vs_baseline: PairedResult | None = None  # None for the baseline system itself

    def worse_than_random_band(self, higher_is_better: bool) -> bool:
        """Below the random corpora's 5th percentile (above their 95th where lower is better):
        what the tables' ▼ and the summary's share count; never without a random baseline."""
        if self.random is None:
            return False
        return self.score < self.random.p5 if higher_is_better else self.score > self.random.p95


@dataclass(frozen=True)
class MetricInfo:
    """What a result says of one of its metrics, so that a saved result renders without the metric
    registry: the tables' label, the decimals shown, and the metric's own signature (sacrebleu's
    for its metrics). Its direction is :attr:`Evaluation.higher_is_better`."""

    label: str = bounded(minLength=1)
    digits: int = _count()
    signature: str


@dataclass(frozen=True)
class RankedSystem:
    """One system in a metric's ranking of the full test set (:mod:`.full_test`)."""

    system: str
    score: float
    rank: int = bounded(minimum=1)  # by score, 1 = best; systems with the very same score share the better rank
    cluster: int = bounded(minimum=1)  # significance cluster, 1 = the top one (see FullTest.cluster_rule)
    vs_baseline: PairedResult | None  # sacrebleu's paired test against the baseline system; None for it


@dataclass(frozen=True)
class PairwiseResult:
    """sacrebleu's paired test of two systems on the full test set, ``better`` ranked above
    ``worse``: ``delta`` = better − worse (the test is symmetric: the same p either way round)."""

    better: str
    worse: str
    delta: float
    p_value: float = _p()


@dataclass(frozen=True)
class FullTestRanking:
    """One metric's ranking of the systems on the full test set, with its significance clusters."""

    systems: tuple[RankedSystem, ...] = bounded(minItems=1)  # in rank order
    pairs: tuple[PairwiseResult, ...]  # every pair of systems, tested once
    clusters: int = bounded(minimum=1)


@dataclass(frozen=True)
class FullTest:
    """The full test set as a first-class row: every system against the baseline system (paired
    test), and per metric a ranking by score grouped into clusters of systems not significantly
    different (:mod:`.full_test`). It has no random baseline: no sentence lies outside it."""

    rows: int = bounded(minimum=1)
    baseline_system: str
    paired_test: str = _paired_test()
    paired_samples: int = bounded(minimum=1)
    alpha: float = bounded(exclusiveMinimum=0, exclusiveMaximum=1)
    correction: str  # of the pairwise p-values behind the clusters ("none", as WMT)
    cluster_rule: str
    random_unavailable: str = bounded(minLength=1)
    rankings: Mapping[str, FullTestRanking]  # metric -> ranking


@dataclass(frozen=True)
class FileDigest:
    """A file by its base name and sha256 (eflomal's priors)."""

    file: str
    sha256: str | None


@dataclass(frozen=True)
class ParserProvenance:
    """The parse as the build recorded it: the backend (``conllu``: a pre-parsed ``file``), its
    package and version, its model (a file or a name) and the sha256 of the model or the file."""

    backend: str
    package: str | None
    version: str | None
    model: str | None
    file: str | None
    sha256: str | None = bounded(pattern="^[0-9a-f]{64}$")
    options: Mapping[str, Any]


@dataclass(frozen=True)
class AlignerProvenance(ParserProvenance):
    """The alignment as the build recorded it (``pharaoh``: a precomputed ``file``), with how its
    directions were combined, the pairs aligned and the priors (``priors_used`` None: the backend
    takes none)."""

    symmetrization: str | None = None
    pairs: int | None = bounded(None, minimum=0)
    priors: FileDigest | None = None
    priors_used: bool | None = None


@dataclass(frozen=True)
class Provenance:
    """How the evaluated split's sets were made (``acs_build.json``): ``summary`` is the one line
    every report shows; ``recorded`` False for a folder built before the record kept it (then
    only the old labels, ``parser_label`` and ``aligner_label``); ``warning``: the alignment is
    eflomal's on too few pairs without priors."""

    recorded: bool
    summary: str = bounded(minLength=1)
    parser_label: str | None = None
    aligner_label: str | None = None
    parser: ParserProvenance | None = None
    aligner: AlignerProvenance | None = None  # None: not aligned (or not recorded)
    tokenization: Mapping[str, str] | None = None
    packages: Mapping[str, str] | None = None
    warning: str | None = None


@dataclass(frozen=True)
class TargetedCounts:
    """Instances judged correct / wrong, without an expected translation (unaligned), and whose
    dependent was judged with its head (absorbed); accuracy = correct / (correct + wrong)."""

    instances: int = _count()
    correct: int = _count()
    wrong: int = _count()
    unaligned: int = _count()
    absorbed: int = _count()
    accuracy: float | None = _share()


@dataclass(frozen=True)
class DistanceCounts(TargetedCounts):
    distance: int = _count(0)


@dataclass(frozen=True)
class RandomPairs:
    """The accuracy among random word pairs at the instances' distances in the same sentences
    (:mod:`auto_challenge_sets.scoring.targeted_control`): ``percentile`` is the share of draws
    at or below the real accuracy (%)."""

    draws: int = _count()  # the draws that judged any pair (a draw of unaligned heads alone has no accuracy)
    mean: float | None = _share()
    p5: float | None = _share()
    p95: float | None = _share()
    percentile: float | None = _percent()


@dataclass(frozen=True)
class TargetedScore(TargetedCounts):
    by_distance: tuple[DistanceCounts, ...] = ()
    random_pairs: RandomPairs | None = None  # None: the control was not drawn


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
    corrected across the run's configs (BH) with its exploratory label; ``verdict``: better, no
    different or worse than the reference at that p (corrected on a config, raw on the full test
    set; None: untested, or a small config left out of the correction)."""

    reference: str  # the metric whose full-test score is compared: bleu, else the run's first metric
    delta: float | None = bounded(minimum=-2, maximum=2)  # τ(measure) − τ(reference on the full test set)
    ci: tuple[float, float] | None
    p_value: float | None = _p()
    p_corrected: float | None = _share(None)
    exploratory: bool | None = None
    family_size: int | None = _family()  # the distinct tests the correction counted (None: left out of it)
    verdict: str | None = bounded(None, enum=[*VERDICTS, None])


@dataclass(frozen=True)
class HumanCorrelation:
    """How a score ranks the systems against human scores (scipy's Spearman and Kendall), a 95%
    bootstrap interval of Kendall's τ over systems, and the config's τ among the τ of its random
    corpora (percentile, mean): a set that ranks no better than random sentences shows there."""

    systems: int = bounded(minimum=3)
    spearman: float | None
    spearman_p: float | None
    kendall: float | None
    p_value: float | None  # Kendall's
    ci: tuple[float, float] | None
    random_kendall_percentile: float | None = _percent(None)
    random_kendall_mean: float | None = None
    # Benjamini–Hochberg over the run's configs (:mod:`.multiple_testing`); None on the full test set
    p_corrected: float | None = _share(None)
    exploratory: bool | None = None  # corrected p >= 0.05: a lead to confirm on another test set
    family_size: int | None = _family()  # the distinct tests the correction counted (None: left out of it)
    vs_full_test: VersusFullTest | None = None  # None for the reference itself


@dataclass(frozen=True)
class SegmentAgreement:
    """Sentence-level agreement with human segment scores (z) on a config's sentences, over
    (system, sentence) pairs that have a human score: Kendall's τ-b of the metric's sentence score
    with z; for targeted accuracy over judged instances, τ-b of the verdict (1 correct, 0 wrong)
    with z, and the mean z of instances judged correct minus wrong with a 95% bootstrap interval.
    Intervals resample, p-values permute, whole sentences (:mod:`.segments`)."""

    segments: int = _count()  # pairs (a metric) or judged instances (targeted accuracy) with a human z
    kendall: float | None = bounded(minimum=-1, maximum=1)
    p_value: float | None
    correct: int | None = _count(None)
    wrong: int | None = _count(None)
    z_correct_minus_wrong: float | None = None
    ci: tuple[float, float] | None = None
    p_corrected: float | None = _share(None)
    exploratory: bool | None = None
    family_size: int | None = _family()
    # the correct − wrong difference (its interval ci) tested on its own, corrected the same way
    difference_p_value: float | None = _share(None)
    difference_p_corrected: float | None = _share(None)
    difference_exploratory: bool | None = None
    difference_family_size: int | None = _family()


@dataclass(frozen=True)
class ConfigResult:
    """One config: its rows, flags, every system's scores and the correlations with humans."""

    # written by to_json beside the fields: the marks the reports print (flags())
    JSON_EXTRA: ClassVar[dict[str, Any]] = {"flags": {
        "type": "array", "uniqueItems": True, "maxItems": 3,
        "items": {"type": "string", "pattern": f"^({SMALL}|{DEGENERATE}|{SAME_ROWS} .+)$"}}}

    n: int = bounded(minimum=1)
    phenomenon: str  # {pair}.{phenomenon}
    min_distance: int | None = _count()
    small: bool  # fewer than min_rows rows: scored, left out of trends and summaries
    same_rows_as: str | None  # the earlier config with the very same rows, counted once
    widened: int = _count()  # rows whose length had no random candidate within the tolerance
    systems: Mapping[str, SystemResult] = bounded(minProperties=1)
    human: Mapping[str, HumanCorrelation | None] | None = None  # metric -> correlation
    human_targeted: HumanCorrelation | None = None
    # length matching failed for the config (scoring.length_baseline.is_degenerate): scored and
    # shown, left out of trends and summaries
    degenerate_baseline: bool = False
    # how closely the random corpora match (scoring.length_baseline.LengthMatchedSamples); None
    # without random corpora: the rows that drew from the whole corpus (too few others of their
    # length), the mean |Δlength| of a replacement in tokens, the mean distinct replacements of a row
    shared: int = _count(0)
    length_gap: float | None = bounded(None, minimum=0)
    distinct: float | None = bounded(None, minimum=0)
    segment: Mapping[str, SegmentAgreement | None] | None = None  # metric -> agreement (--human-seg)
    segment_targeted: SegmentAgreement | None = None
    # why the scores have no random baseline ("n/a"), e.g. the config is the full corpus; None: they have one
    random_unavailable: str | None = bounded(None, minLength=1)

    def flags(self) -> tuple[str, ...]:
        """The config's marks in this order: ``small`` (fewer than ``min_rows`` rows),
        ``degenerate baseline``, ``same rows as X``. The one source every renderer (terminal,
        report.md, the figures, index.html) and results.json writes them from, so they cannot disagree."""
        same = self.same_rows_as
        return tuple(label for label, on in ((SMALL, self.small), (DEGENERATE, self.degenerate_baseline),
                                             (f"{SAME_ROWS} {same}", same is not None)) if on)

    @property
    def usable(self) -> bool:
        """A point of the trends, summaries and trend plots: enough rows, a random baseline that
        means something, and rows no earlier config holds (counted once)."""
        return not self.small and not self.degenerate_baseline and self.same_rows_as is None

    def below_band(self, score: MetricScore, higher_is_better: bool) -> bool:
        """The tables' and heat maps' ▼: worse than the random band, where that band means
        something (never on a degenerate baseline, whose percentiles are not shown either)."""
        return not self.degenerate_baseline and score.worse_than_random_band(higher_is_better)


@dataclass(frozen=True)
class Trend:
    """Spearman's ρ of a system's score with D over a phenomenon's distinct, non-small configs."""

    n: int = _count()
    spearman: float | None = bounded(minimum=-1, maximum=1)  # None ("n/a") below 3 distinct usable configs or with constant scores
    p_value: float | None
    p_corrected: float | None = _share(None)  # Benjamini–Hochberg over the metric's trends of the run
    family_size: int | None = _family()  # the trends that correction counted


@dataclass(frozen=True)
class PhenomenonSummary:
    """Over the (system, config) cells of a phenomenon's distinct, non-small configs: the share
    scoring worse than the full corpus, than the random mean, than the random 5th percentile
    (95th where lower is better); the mean difference from the random mean; and how many systems'
    trends over D go towards worse scores."""

    cells: int = bounded(minimum=1)
    systems: int = bounded(minimum=1)
    worse_than_full: float = _share()
    worse_than_random_mean: float = _share()
    worse_than_random_p5: float = _share()
    mean_delta_random: float
    worsening_trend: int | None = _count()  # None ("n/a"): no system's trend could be computed
    trends: int = _count(0)  # systems whose trend could be computed (the denominator of worsening_trend)


@dataclass(frozen=True)
class TargetedByDistance:
    """A phenomenon's targeted accuracy by distance buckets, from its smallest-D config."""

    config: str
    buckets: tuple[str, ...]
    accuracy: Mapping[str, Mapping[str, float | None]]  # system -> bucket -> accuracy
    judged: Mapping[str, Mapping[str, int]] = _count()  # system -> bucket -> instances judged
    mean: Mapping[str, float | None]  # bucket -> mean accuracy over systems
    # bucket -> the judge's pass rate on a second human translation (None: unmeasured)
    second_reference: Mapping[str, float | None] | None = None


@dataclass(frozen=True)
class ControlMatching:
    """How one config's random-pair control drew each instance's pairs
    (:func:`auto_challenge_sets.scoring.targeted_control.draw_pairs`): with the head's and the
    dependent's UPOS (``matched``), the head's only, neither (``unmatched``: no such pair in the
    sentence at that distance, or no UPOS in the dataset), or the instance itself (no other pair fits)."""

    instances: int = _count()
    matched: int = _count()
    head_only: int = _count()
    unmatched: int = _count()
    itself: int = _count()


@dataclass(frozen=True)
class JudgeCheck:
    """The targeted judge measured on a second human translation (``--judge-ref``; never the metrics'
    ``--ref``): each judged as a system's output is, against the dataset's reference (and with
    ``--targeted-all-refs`` the other second translations), never against itself. A human translation is
    right, so ``pass_rate`` is the share of correct translations the judge recognises; ``judged``
    counts distinct instances (correct + wrong) over every lexical config. ``status``
    ``unmeasured`` (``pass_rate`` None): no second translation, or the aligner cannot align it."""

    status: str = bounded(enum=["measured", "unmeasured"])  # "measured" or "unmeasured"
    reason: str = bounded(minLength=1)  # what was judged against what, or why it is unmeasured
    references: int = _count()  # the human translations judged
    judged: int = _count()
    correct: int = _count()
    pass_rate: float | None = _share()
    by_config: Mapping[str, TargetedScore] = field(default_factory=dict)  # config -> its counts


@dataclass(frozen=True)
class TargetedRun:
    aligner: str
    signature: str
    by_distance: Mapping[str, TargetedByDistance]
    judge: JudgeCheck  # measured, or unmeasured and why (never null in results.json)
    control_upos: bool = False  # the rows have UPOS tags (source_upos): the control could match part of speech
    control: Mapping[str, ControlMatching] = field(default_factory=dict)  # config -> matching (empty: no control)
    # the verdicts rest on eflomal links of too few pairs without priors (pipeline/provenance.py)
    alignment_warning: str | None = None
    role: str = bounded(DIAGNOSTIC, enum=[DIAGNOSTIC])  # said wherever targeted accuracy is shown


@dataclass(frozen=True)
class Method:
    """The method's constants, as the run used them (the statistics' modules read theirs from
    these defaults; a results.json written before they were recorded reads with them): ``alpha``,
    below which a corrected p is no longer exploratory and two full-test systems differ; the
    bootstrap resamples and permutations of the human correlations (and of Δτ vs the full test
    set), and of the segment-level agreement."""

    alpha: float = bounded(0.05, exclusiveMinimum=0, exclusiveMaximum=1)
    bootstrap: int = bounded(1000, minimum=1)
    permutations: int = bounded(9999, minimum=1)  # random orders, where n! is more
    segment_bootstrap: int = bounded(1000, minimum=1)
    # the smallest p is then 1/1000, below the 0.05/30 that a result must reach to survive
    # Benjamini–Hochberg over a run's 30 or so configs
    segment_permutations: int = bounded(999, minimum=1)


@dataclass(frozen=True)
class Settings:
    n_samples: int = bounded(minimum=1)
    length_tolerance: int = _count()
    seed: int = _count()
    paired_test: str = _paired_test()
    paired_samples: int = bounded(minimum=1)
    min_rows: int = _count()
    # metric -> every option it declares -> the value the run used (Metric.options; defaults filled in)
    metric_options: Mapping[str, Mapping[str, Any]]
    # each row's length window is max(length_tolerance, floor(length_relative × length)) tokens
    # (scoring.length_baseline.length_window); 0: the tolerance alone
    length_relative: float = _share(0.0)
    method: Method = field(default_factory=Method)
    findings_by: str = bounded("phenomenon", enum=["phenomenon", "config"])  # acs evaluate --findings-by


@dataclass(frozen=True)
class Evaluation:
    """Everything one run found. ``full`` is each system's score per metric on the full corpus."""

    JSON_EXTRA: ClassVar[dict[str, Any]] = {"schema": {"const": SCHEMA}}  # written by to_json

    signature: str = bounded(minLength=1)
    dataset: str
    pair: str = bounded(pattern="^[^-.]+-[^-.]+$")
    split: str
    full_corpus_config: str
    full_corpus_rows: int = bounded(minimum=1)
    systems: tuple[str, ...] = bounded(minItems=1, uniqueItems=True)
    baseline_system: str
    metrics: tuple[str, ...] = bounded(minItems=1, uniqueItems=True)
    higher_is_better: Mapping[str, bool]
    settings: Settings
    full: Mapping[str, Mapping[str, float]]
    configs: Mapping[str, ConfigResult] = bounded(minProperties=1)
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
    verdicts: Mapping[str, Mapping[str, list[list[str]]]] | None = field(default=None, repr=False, compare=False,
                                                                                metadata=PAGE_ONLY)
    human_scores: Mapping[str, float] | None = None  # system -> human score (--human), for acs meta-evaluate
    # with an aligning targeted judge: system -> per pool row its source-output links, the other
    # side of the links the verdicts rest on (the page's sentences; not in results.json either)
    output_links: Mapping[str, list[list[tuple[int, int]]]] | None = field(default=None, repr=False, compare=False,
                                                                                metadata=PAGE_ONLY)

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
        return {"schema": SCHEMA, **plain(document)}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Evaluation:
        """The result :meth:`to_json` wrote, without the page-only ``verdicts`` and ``output_links``;
        a null where a float never is None (NaN or an infinity) comes back as NaN. A value the
        dataclasses cannot hold is a :class:`.result_json.ResultError` naming its field."""
        return decode(cls, document)

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
                                 **{f"random_{f.name}": None if score.random is None else getattr(score.random, f.name)
                                    for f in dataclasses.fields(RandomBaseline)},
                                 "delta_vs_baseline": None if test is None else test.delta,
                                 "paired_p_value": None if test is None else test.p_value})
                if result.targeted is not None:
                    rows.append({"system": system, **common, "metric": "targeted", "score": result.targeted.accuracy,
                                 "targeted_judged": result.targeted.correct + result.targeted.wrong})
        return pd.DataFrame(rows)


def schema_text() -> str:
    """results.schema.json as these dataclasses describe it (a test keeps the shipped file equal)."""
    return json_schema(Evaluation, title=f"{SCHEMA}: the results.json of `acs evaluate`",
                       **{"$id": "https://github.com/auto-challenge-sets/auto_challenge_sets/results.schema.json"})
