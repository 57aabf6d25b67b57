"""The evaluation engine: 1…N systems × the chosen configs × any registered metrics, in one
process. One system is N = 1; there is no other engine.

Every system's output on the full corpus (the pool) becomes per-sentence statistics once per
metric; a config's rows are a subset of the pool's, so its scores are sums (or means) over rows.
Its length-matched random corpora are drawn once per config (stream ``[seed, 0]``) and scored for
every system and metric by the kernel (:mod:`auto_challenge_sets.scoring.kernel`), which
``compute()`` uses too. On top: paired tests against a baseline system (:mod:`.significance`),
per phenomenon the trend of each score with D and a summary, human correlations (:mod:`.human`)
and targeted accuracy (:mod:`.targeted_scores`).

Honest statistics: a config with fewer than ``min_rows`` rows is scored but flagged ``small`` and
left out of trends and summaries; a config holding the very rows of another is flagged
``same_rows_as`` and counted once.
"""

from __future__ import annotations

from collections import defaultdict
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import numpy as np

from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.inputs import ConfigRows, Corpus, SystemOutput, read_corpus, read_systems
from auto_challenge_sets.evaluation.progress import progress_bar as _progress
from auto_challenge_sets.evaluation.request import EvaluationRequest, RequestError
from auto_challenge_sets.evaluation.results import (
    ConfigResult,
    Evaluation,
    MetricInfo,
    MetricScore,
    PhenomenonSummary,
    RandomBaseline,
    Settings,
    SystemResult,
    Trend,
)
from auto_challenge_sets.evaluation.stats import full_test, multiple_testing, segments, targeted_scores
from auto_challenge_sets.evaluation.stats.human import HumanScores, correlation
from auto_challenge_sets.evaluation.stats.significance import paired_tests
from auto_challenge_sets.evaluation.stats.versus_full import add_versus_full_test, oriented
from auto_challenge_sets.formats.corpus import ReadReport
from auto_challenge_sets.formats.target_languages import language_of
from auto_challenge_sets.pipeline.timings import stage
from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.finite import MetricFailure, check_statistics, corpus_score
from auto_challenge_sets.scoring.length_baseline import LengthMatchedSamples, is_degenerate, rule_signature
from auto_challenge_sets.scoring.metrics import Metric, create_metric
from auto_challenge_sets.scoring.metrics.bleu import count_references


def _metrics(request: EvaluationRequest, target: str) -> dict[str, Metric]:
    metrics = {}
    for name, options in request.metric_settings(target).items():
        try:
            metrics[name] = create_metric(name, **options)
        except RequestError as error:  # carries its field (a tokenizer that is unknown or cannot run here)
            if error.field in request.metric_options:  # given as a metric option, not by its own field
                raise RequestError("metric_options", f"{error.field}={request.metric_options[error.field]}: "
                                   f"{error.detail}") from None
            raise
        except ValueError as error:  # a metric that names no field: the metric itself cannot be made
            raise RequestError("metrics", str(error)) from None
    return metrics


def _statistics(outputs: list[SystemOutput], metrics: dict[str, Metric], sources: list[str] | None,
                progress: bool, jobs: int) -> dict[str, dict[str, np.ndarray]]:
    """Every system's statistics per metric, on ``jobs`` worker processes (:func:`.kernel.systems_statistics`:
    the rows do not depend on the process that computed them, so any ``jobs`` gives the same numbers)."""
    found = kernel.systems_statistics(metrics, [(o.name, o.predictions, o.references) for o in outputs], sources, jobs)
    stats: dict[str, dict[str, np.ndarray]] = {}
    try:
        for output, rows in _progress(zip(outputs, found), progress, "statistics per system", len(outputs), "system"):
            stats[output.name] = rows
    except BrokenProcessPool:  # a worker died (os._exit, a crash in a plug-in's extension): name the suspects
        spread = ", ".join(name for name, metric in metrics.items() if metric.parallel_safe)
        raise MetricFailure(f"a worker process died computing the statistics of metric(s) {spread}; "
                            "run with --jobs 1 to see which metric fails and why") from None
    return stats


def _score_config(request: EvaluationRequest, corpus: Corpus, config: ConfigRows, metrics: dict[str, Metric],
                  stats: dict[str, dict[str, np.ndarray]],
                  samples_out: dict[str, dict[str, np.ndarray]]
                  ) -> tuple[dict[str, dict[str, MetricScore]], LengthMatchedSamples | None]:
    """Every system's score per metric on one config, each with the config's one random baseline
    (none when no row of the pool lies outside the config: the full corpus itself)."""
    exclude = np.zeros(len(corpus.base["line"]), dtype=bool)
    exclude[config.positions] = True
    corpora = None if exclude.all() else kernel.draw(config.lengths, corpus.pool_lengths, exclude, request.n_samples,
                                                     request.length_tolerance, request.seed,
                                                     relative=request.length_relative)
    scores: dict[str, dict[str, MetricScore]] = {}
    for system, per_metric in stats.items():
        rows = {name: per_metric[name][config.positions] for name in metrics}
        scored = kernel.score_rows(metrics, rows, per_metric, corpora, system, f"config {config.name}")
        scores[system] = {}
        for name, metric in metrics.items():
            found = scored[name]
            if found.samples is not None:
                samples_out.setdefault(name, {})[system] = found.samples
            spread = found.spread(metric.higher_is_better)
            scores[system][name] = MetricScore(found.score, None if spread is None else RandomBaseline(
                **{k: spread[k] for k in ("mean", "std", "p5", "p95", "percentile", "p_value")}))
    return scores, corpora


def _with_paired_tests(request: EvaluationRequest, config: ConfigRows, outputs: list[SystemOutput],
                       metrics: dict[str, Metric], baseline: str, scores: dict[str, dict[str, MetricScore]],
                       stats: dict[str, dict[str, np.ndarray]]) -> dict[str, SystemResult]:
    by_name = {output.name: output for output in outputs}
    order = [baseline, *[name for name in by_name if name != baseline]]
    rows = config.positions.tolist()
    text = request.paired_test != "ar"  # approximate randomization runs on the statistics alone
    named = [(name, [by_name[name].predictions[r] for r in rows] if text else []) for name in order]
    references = [by_name[baseline].references[r] for r in rows] if text else []
    rows_stats = {s: {m: per_metric[m][config.positions] for m in metrics} for s, per_metric in stats.items()}
    tests = paired_tests(named, references, metrics, request.paired_test, request.paired_samples, rows_stats)
    return {name: SystemResult({m: MetricScore(s.score, s.random, tests.get(name, {}).get(m))
                                for m, s in scores[name].items()}) for name in by_name}


def _distinct_points(configs: dict[str, ConfigResult]) -> dict[str, list[tuple[int, str]]]:
    """Per phenomenon: (D, config) of its distinct configs with enough rows."""
    points: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for name, config in configs.items():
        if config.usable and config.min_distance is not None:
            points[config.phenomenon].append((config.min_distance, name))
    return dict(sorted(points.items()))


def _trends(configs: dict[str, ConfigResult], systems: list[str], metric: str) -> dict[str, dict[str, Trend]]:
    """Per phenomenon and system: one Spearman of the score with D over the distinct, non-small
    configs (None below 3 points or when every score is the same)."""
    from scipy.stats import spearmanr

    trends: dict[str, dict[str, Trend]] = {}
    for phenomenon, points in _distinct_points(configs).items():
        trends[phenomenon] = {}
        ds = [d for d, _ in points]
        for system in systems:
            scores = [configs[name].systems[system].scores[metric].score for _, name in points]
            rho = p = None
            if len(points) >= 3 and len(set(scores)) > 1:
                result = spearmanr(ds, scores)
                rho, p = float(result.statistic), float(result.pvalue)
            trends[phenomenon][system] = Trend(len(points), rho, p)
    return trends


def _summary(configs: dict[str, ConfigResult], full: dict[str, dict[str, float]], metric: Metric,
             trends: dict[str, dict[str, Trend]]) -> dict[str, PhenomenonSummary]:
    name = metric.name
    summary = {}
    for phenomenon, points in _distinct_points(configs).items():
        cells = [(system, result.scores[name]) for _, config in points
                 for system, result in configs[config].systems.items()]
        n = len(cells)
        sign = 1 if metric.higher_is_better else -1
        computed = [t for t in trends.get(phenomenon, {}).values() if t.spearman is not None]
        worsening = [t for t in computed if sign * t.spearman < 0]
        summary[phenomenon] = PhenomenonSummary(
            cells=n, systems=len({s for s, _ in cells}),
            worse_than_full=sum(metric.worse(e.score, full[s][name]) for s, e in cells) / n,
            worse_than_random_mean=sum(metric.worse(e.score, e.random.mean) for _, e in cells) / n,
            worse_than_random_p5=sum(e.worse_than_random_band(metric.higher_is_better) for _, e in cells) / n,
            mean_delta_random=float(np.mean([e.score - e.random.mean for _, e in cells])),
            worsening_trend=len(worsening) if computed else None, trends=len(computed))
    return summary


def _signature(request: EvaluationRequest, metrics: dict[str, Metric], nrefs: int) -> str:
    """Each metric's (``nrefs:N``), the random baseline's, the paired test's, and the targeted judge's:
    the references it matches against and the translations it is checked on (never the metrics')."""
    parts = [f"{metric.label}[{metric.signature(nrefs)}]" for metric in metrics.values()]
    parts.append(f"random[n:{request.n_samples}|{rule_signature(request.length_tolerance, request.length_relative)}"
                 f"|seed:{request.seed}]")
    parts.append(f"paired[{request.paired_test}:{request.paired_samples}|seed:sacrebleu]")
    if request.targeted is not None:
        checked = len(request.targeted.references)
        parts.append(f"targeted[nrefs:{1 + checked * request.targeted.all_references}|judge-refs:{checked}]")
    return "+".join(parts)


def evaluate(request: EvaluationRequest, human: HumanScores | None = None, progress: bool = False,
             human_seg: segments.SegmentScores | None = None) -> Evaluation:
    """Score every system on every chosen config (see the module docstring); ``human_seg``: human
    segment scores, for the sentence-level agreement of every config (:mod:`.segments`)."""
    with stage("read inputs", len(request.hypotheses), "systems"):
        corpus = read_corpus(request)
        metrics = _metrics(request, language_of(corpus.pair))
        report = ReadReport()
        outputs = read_systems(request, corpus, report)
        sources = list(corpus.folder.read(corpus.base_name, corpus.split, ["source"])["source"]) \
            if any(metric.needs_sources for metric in metrics.values()) else None
    with stage("statistics", len(outputs) * len(metrics), "system-metrics"):
        try:
            stats = _statistics(outputs, metrics, sources, progress, request.workers)
        except ValueError as error:
            raise InputError(str(error), corpus.folder.where(corpus.base_name, corpus.split)) from None
        check_statistics(stats, request.hypotheses, corpus.base["line"])
    systems = [output.name for output in outputs]
    full = {s: {name: corpus_score(metric, s, stats[s][name], f"the full corpus ({corpus.base_name})")
                for name, metric in metrics.items()} for s in systems}
    primary = metrics[request.metrics[0]]
    pick = max if primary.higher_is_better else min
    baseline = request.baseline or pick(systems, key=lambda s: full[s][primary.name])

    with stage("full test", len(outputs), "systems"):
        tested = full_test.full_test(outputs, metrics, stats, full, baseline, request.paired_test,
                                     request.paired_samples)
    configs: dict[str, ConfigResult] = {}
    random_samples: dict[str, dict[str, dict[str, np.ndarray]]] = {}  # config -> metric -> system -> samples
    positions = {config.name: config.positions for config in corpus.configs}
    drawn: dict[str, LengthMatchedSamples | None] = {}  # config -> its random corpora
    for config in _progress(corpus.configs, progress, "configs (random baseline, paired tests)", unit="config"):
        twin = config.same_rows_as  # the very same rows in the same order: the same draws, coins and numbers
        copied = twin is not None and np.array_equal(config.positions, positions[twin])
        samples: dict[str, dict[str, np.ndarray]] = random_samples[twin] if copied else {}
        with stage("random baselines", 1, "configs"):
            scores, corpora = (None, drawn[twin]) if copied else _score_config(
                request, corpus, config, metrics, stats, samples)
        drawn[config.name] = corpora
        with stage("paired tests", 1, "configs"):
            paired = configs[twin].systems if copied else _with_paired_tests(request, config, outputs, metrics,
                                                                            baseline, scores, stats)
        random_samples[config.name] = samples
        parsed = parse_config_name(config.name)
        configs[config.name] = ConfigResult(
            n=int(len(config.positions)), phenomenon=f"{parsed.pair}.{parsed.phenomenon}",
            min_distance=parsed.min_distance, small=config.small, same_rows_as=config.same_rows_as,
            # a challenge config of every row has no random corpora and is flagged degenerate; the
            # full corpus itself is no challenge set
            widened=corpora.widened if corpora else 0,
            degenerate_baseline=is_degenerate(len(config.positions), corpora.widened) if corpora else not parsed.is_baseline,
            **({"shared": corpora.shared, "length_gap": corpora.length_gap(config.lengths, corpus.pool_lengths)[0],
                "distinct": corpora.distinct()} if corpora else {}),
            systems=paired,
            random_unavailable=None if samples else full_test.NO_RANDOM)  # the full corpus itself has none

    targeted = None
    verdicts: dict[str, dict[str, list[list[str]]]] = {}  # config -> system -> per row (the page, --human-seg)
    output_links: dict[str, list] = {}  # system -> per pool row, the links its verdicts rest on (the page)
    pair_samples: dict[str, dict[str, np.ndarray]] = {}  # config -> system -> random-pair accuracies
    if request.targeted is not None:
        with stage("targeted", len(corpus.configs), "configs"):
            targeted, per_config, pair_samples = targeted_scores.score(request.targeted, corpus, outputs, verdicts,
                                                                       seed=request.seed, output_links=output_links)
            configs = {name: config if name not in per_config else replace(config, systems={
                s: replace(r, targeted=per_config[name][s]) for s, r in config.systems.items()})
                for name, config in configs.items()}
            targeted = targeted_scores.run_summary(targeted, configs, systems)

    human_full = human_unmatched = None
    if human is not None:
        with stage("human", len(configs), "configs"):
            human_full = {name: correlation(oriented({s: full[s][name] for s in systems}, metric.higher_is_better),
                                            human, seed=request.seed) for name, metric in metrics.items()}
            configs = {name: _with_human(config, metrics, human, random_samples[name], request.seed,
                                         pair_samples.get(name))
                       for name, config in configs.items()}
            human_unmatched = {"table": tuple(human.unmatched_table), "systems": tuple(human.unmatched_systems)}
            human_full, configs = add_versus_full_test(configs, human_full, full, {n: m.higher_is_better for n, m
                                                                                   in metrics.items()}, human.scores,
                                                       request.seed)

    segment_full = None
    if human_seg is not None:
        with stage("segments", len(configs), "configs"):
            human_seg.check_lines(corpus.total_lines)
            segment_full, configs = _with_segments(corpus, metrics, stats, human_seg, verdicts, configs,
                                                   request.seed, request.workers)
    with stage("trends", len(metrics), "metrics"):
        configs = multiple_testing.correct_configs(configs, list(metrics))
        trends = {name: multiple_testing.correct_trends(_trends(configs, systems, name)) for name in metrics}
    notes = [*corpus.notes, *report.messages()]
    if human_seg is not None:
        notes += [f"{label}: {', '.join(names)}" for label, names in (
            ("segment scores of systems not evaluated", human_seg.unmatched_table),
            ("systems without segment scores", human_seg.unmatched_systems)) if names]
    if human is not None and len(human.scores) < 3:
        notes.append(f"human scores match {len(human.scores)} system(s): a correlation needs at least 3")
    nrefs = count_references(outputs[0].references)
    if request.references:  # a second translation changes every metric's number: never without a word
        notes.append(f"the metrics score each line against {nrefs} references (the dataset's and --ref's; "
                     "nrefs in each metric's signature), as sacrebleu with several -r files; the targeted judge "
                     "does not use them (--judge-ref checks it on a second translation, the metrics unchanged)")
    return Evaluation(
        signature=_signature(request, metrics, nrefs),
        dataset=str(request.dataset), pair=corpus.pair, split=corpus.split, full_corpus_config=corpus.base_name,
        full_corpus_rows=len(corpus.base["line"]), systems=tuple(systems), baseline_system=baseline,
        metrics=tuple(metrics), higher_is_better={n: m.higher_is_better for n, m in metrics.items()},
        settings=Settings(request.n_samples, request.length_tolerance, request.seed, request.paired_test,
                          request.paired_samples, request.min_rows,
                          {name: dict(metric.values) for name, metric in metrics.items()}, request.length_relative),
        full=full, configs=configs, trends=trends,
        summary={name: _summary(configs, full, metric, trends[name]) for name, metric in metrics.items()},
        metric_info={n: MetricInfo(m.label, m.digits, m.signature(nrefs)) for n, m in metrics.items()},
        human_full=human_full, human_unmatched=human_unmatched, targeted=targeted, notes=tuple(notes),
        segment_full=segment_full, provenance=corpus.provenance, verdicts=verdicts or None, full_test=tested,
        human_scores=None if human is None else dict(human.scores), output_links=output_links or None)


def _with_human(config: ConfigResult, metrics: dict[str, Metric], human: HumanScores,
                samples: dict[str, dict[str, np.ndarray]], seed: int,
                pair_samples: dict[str, np.ndarray] | None = None) -> ConfigResult:
    per_metric = {}
    for name, metric in metrics.items():
        # higher is better on both sides: a correlation is positive where the metric agrees with humans
        auto = oriented({s: r.scores[name].score for s, r in config.systems.items()}, metric.higher_is_better)
        random = samples.get(name)  # none without a random baseline (the full corpus)
        random = None if random is None else oriented(random, metric.higher_is_better)
        per_metric[name] = correlation(auto, human, random, seed=seed)
    accuracy = {s: r.targeted.accuracy for s, r in config.systems.items()
                if r.targeted is not None and r.targeted.accuracy is not None}
    has_targeted = any(r.targeted is not None for r in config.systems.values())
    return replace(config, human=per_metric,
                   # targeted τ among the τ of the random-pair draws: the control of targeted accuracy
                   human_targeted=correlation(accuracy, human, pair_samples or None, seed=seed) if has_targeted else None)


def _with_segments(corpus: Corpus, metrics: dict[str, Metric], stats: dict[str, dict[str, np.ndarray]],
                   human_seg: segments.SegmentScores, verdicts: dict[str, dict[str, list[list[str]]]],
                   configs: dict[str, ConfigResult], seed: int, jobs: int = 1,
                   ) -> tuple[dict[str, Any], dict[str, ConfigResult]]:
    """Sentence-level agreement with the human segment scores: on the full corpus, and per config."""
    pool_z = {system: human_seg.z(system, corpus.base["line"]) for system in stats}
    scores = {name: {s: segments.sentence_scores(metric, stats[s][name]) for s in stats}
              for name, metric in metrics.items()}  # a sentence's score does not depend on the config
    # the very same rows give the same metric numbers: an earlier config's are copied, not permuted
    # again (not targeted accuracy's: a config at D holds only the instances at distance D or more)
    (full, _), *done = segments.config_agreements(
        [segments.ConfigTask(np.arange(len(corpus.base["line"])), None)]
        + [segments.ConfigTask(config.positions, verdicts.get(config.name), metrics=config.same_rows_as is None)
           for config in corpus.configs], scores, pool_z, seed, jobs)
    out = {}
    for config, (per_metric, targeted) in zip(corpus.configs, done):
        twin = config.same_rows_as
        out[config.name] = replace(configs[config.name], segment=per_metric if twin is None else out[twin].segment,
                                   segment_targeted=targeted)
    return full, out


def system_statistics(request: EvaluationRequest, outputs: list[SystemOutput], sources: list[str] | None,
                      ) -> tuple[dict[str, Metric], dict[str, dict[str, np.ndarray]]]:
    """The request's metrics and every output's statistics per metric, as :func:`evaluate` computes
    them; the way in of rows held in memory (``compute()``, :mod:`.memory`)."""
    metrics = _metrics(request, None)
    return metrics, _statistics(outputs, metrics, sources, False, request.workers)
