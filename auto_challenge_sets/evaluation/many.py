"""The many-system evaluation: every system × every config × BLEU, chrF and RIBES, the random
baseline, paired tests against a baseline system, trends over D, human correlation and the
summary — into one JSON-ready result (the schema of ``results.json``, see README).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.corpus import ReadReport
from auto_challenge_sets.evaluation import many_targeted
from auto_challenge_sets.evaluation.human import HumanScores, correlate
from auto_challenge_sets.evaluation.significance import paired_tests
from auto_challenge_sets.evaluation.systems import (
    Corpus,
    SystemsRequest,
    read_corpus,
    read_system,
    sample_index,
    summarize_random,
)
from auto_challenge_sets.scoring.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics
from auto_challenge_sets.scoring.statistics import PoolStatistics, cached_pool
from auto_challenge_sets.scoring.targeted import signature


class _Scorer:
    """One metric's corpus score and random-corpus scores from per-sentence statistics."""

    def __init__(self, tokenize: str):
        self.bleu = BleuStatistics(tokenize=tokenize)
        self.chrf = ChrfStatistics()

    def score(self, metric: str, pool: PoolStatistics, rows: np.ndarray | slice) -> float:
        if metric == "ribes":
            return float(pool.stats.ribes[rows].mean())
        scorer = self.bleu if metric == "bleu" else self.chrf
        return scorer.corpus_score(getattr(pool.stats, metric)[rows])

    def samples(self, metric: str, pool: PoolStatistics, index: np.ndarray) -> np.ndarray:
        if metric == "ribes":
            return pool.stats.ribes[index].mean(axis=1)
        scorer = self.bleu if metric == "bleu" else self.chrf
        return scorer.sample_scores(getattr(pool.stats, metric), index)

    def signature(self, request: SystemsRequest, nrefs: int) -> str:
        parts = []
        if "bleu" in request.metrics:
            parts.append(f"BLEU[{self.bleu.signature(nrefs)}]")
        if "chrf" in request.metrics:
            parts.append(f"chrF[{self.chrf.signature(nrefs)}]")
        if "ribes" in request.metrics:
            parts.append(f"RIBES[ntt-1.03.1|case:{'lc' if request.lowercase_ribes else 'mixed'}|tok:{request.tokenize}]")
        parts.append(f"random[n:{request.n_samples}|tol:{request.length_tolerance}|seed:{request.seed}]")
        parts.append(f"paired[{request.paired_test}:{request.paired_samples}|seed:sacrebleu]")
        return "+".join(parts)


@dataclass
class ManyResults:
    """``payload`` is results.json; the rest feeds the tables and plots."""

    payload: dict[str, Any]
    corpus: Corpus
    notes: list[str] = field(default_factory=list)
    random_bleu: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)  # config -> system -> samples


def _system_pools(request: SystemsRequest, corpus: Corpus, report: ReadReport) -> dict[str, PoolStatistics]:
    pools = {}
    for name, path in request.hypotheses.items():
        preds, refs = read_system(request, corpus, name, path, report)
        pools[name] = cached_pool(tuple(preds), tuple(refs), request.tokenize, request.lowercase_ribes)
    return pools


def _score_config(request, corpus, config, pools, scorer, results: ManyResults) -> dict[str, Any]:
    index = sample_index(corpus, config, request)
    systems: dict[str, Any] = {}
    for name, pool in pools.items():
        entry: dict[str, Any] = {"random": {}}
        for metric in request.metrics:
            value = scorer.score(metric, pool, config.positions)
            samples = scorer.samples(metric, pool, index)
            entry[metric] = value
            entry["random"][metric] = summarize_random(samples, value)
            if metric == "bleu":
                results.random_bleu.setdefault(config.name, {})[name] = samples
        systems[name] = entry
    parsed = parse_config_name(config.name)
    return {"n": int(len(config.positions)), "small": config.small, "same_rows_as": config.same_rows_as,
            "phenomenon": f"{parsed.pair}.{parsed.phenomenon}", "min_distance": parsed.min_distance,
            "systems": systems}


def _add_targeted(request: SystemsRequest, corpus: Corpus, pools: dict[str, PoolStatistics],
                  configs: dict[str, Any]) -> dict[str, Any]:
    """Targeted accuracy of every system on every lexical config; the payload's ``targeted``."""
    from auto_challenge_sets.evaluation.targeted import align_outputs

    outputs = {name: list(pool.predictions) for name, pool in pools.items()}
    alignments = align_outputs(request.targeted, corpus.base, outputs, corpus.total_lines,
                               corpus.folder.where(corpus.base_name, corpus.split))
    threshold = request.targeted.chrf_threshold
    for config in corpus.configs:
        if config.instances is None:
            continue
        scored = many_targeted.score_config(config.instances, config.positions.tolist(), pools, alignments, threshold)
        configs[config.name]["targeted"] = True
        for name, entry in scored.items():
            configs[config.name]["systems"][name]["targeted"] = entry
    return {"aligner": alignments.aligner, "signature": signature(threshold, alignments.systems is not None),
            "by_distance": many_targeted.summary(configs, list(pools))}


def _add_paired_tests(request, corpus, pools, baseline: str, configs: dict[str, Any]) -> None:
    order = [baseline, *[name for name in pools if name != baseline]]
    for config in corpus.configs:
        rows = config.positions.tolist()
        named = [(name, [pools[name].predictions[r] for r in rows]) for name in order]
        references = [pools[baseline].references[r] for r in rows]
        tests = paired_tests(named, references, request.metrics, request.paired_test, request.paired_samples,
                             request.tokenize)
        for name in pools:
            configs[config.name]["systems"][name]["vs_baseline"] = tests.get(name)


def _trends(configs: dict[str, Any], systems: list[str], metric: str = "bleu") -> dict[str, Any]:
    """Per phenomenon and system: one Spearman of the score with D over the distinct, non-small
    configs, with its n and p-value (None below 3 points)."""
    from scipy.stats import spearmanr

    by_phenomenon: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for name, config in configs.items():
        if not config["small"] and config["same_rows_as"] is None and config["min_distance"] is not None:
            by_phenomenon[config["phenomenon"]].append((config["min_distance"], name))
    trends: dict[str, Any] = {}
    for phenomenon, points in sorted(by_phenomenon.items()):
        trends[phenomenon] = {}
        for system in systems:
            ds = [d for d, _ in points]
            scores = [configs[name]["systems"][system][metric] for _, name in points]
            entry: dict[str, Any] = {"spearman": None, "p_value": None, "n": len(points)}
            if len(points) >= 3 and len(set(scores)) > 1:
                result = spearmanr(ds, scores)
                entry["spearman"], entry["p_value"] = float(result.statistic), float(result.pvalue)
            trends[phenomenon][system] = entry
    return trends


def _summary(configs: dict[str, Any], full: dict[str, Any], trends: dict[str, Any]) -> dict[str, Any]:
    cells: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for config in configs.values():
        if config["small"] or config["same_rows_as"] is not None or config["min_distance"] is None:
            continue
        for system, entry in config["systems"].items():
            cells[config["phenomenon"]].append((system, entry))
    summary = {}
    for phenomenon, items in sorted(cells.items()):
        n = len(items)
        negatives = [s for s, t in trends.get(phenomenon, {}).items() if t["spearman"] is not None and t["spearman"] < 0]
        summary[phenomenon] = {
            "cells": n,
            "below_full": sum(e["bleu"] < full[s]["bleu"] for s, e in items) / n,
            "below_random_mean": sum(e["bleu"] < e["random"]["bleu"]["mean"] for _, e in items) / n,
            "below_random_p5": sum(e["bleu"] < e["random"]["bleu"]["p5"] for _, e in items) / n,
            "mean_delta_random": float(np.mean([e["bleu"] - e["random"]["bleu"]["mean"] for _, e in items])),
            "negative_trend": len(negatives),
            "systems": len({s for s, _ in items}),
        }
    return summary


def evaluate_many(request: SystemsRequest, human: HumanScores | None = None) -> ManyResults:
    """Score every system on every config of the request (see the module docstring)."""
    request.check()
    if "bleu" not in request.metrics:
        request.metrics = ("bleu", *request.metrics)  # the random baseline summary and trends read BLEU
    corpus = read_corpus(request)
    report = ReadReport()
    pools = _system_pools(request, corpus, report)
    scorer = _Scorer(request.tokenize)
    every_row = slice(None)
    full = {name: {m: scorer.score(m, pool, every_row) for m in request.metrics} for name, pool in pools.items()}
    baseline = request.baseline or max(full, key=lambda name: full[name]["bleu"])
    results = ManyResults({}, corpus, notes=report.messages())
    configs = {c.name: _score_config(request, corpus, c, pools, scorer, results) for c in corpus.configs}
    _add_paired_tests(request, corpus, pools, baseline, configs)
    trends = _trends(configs, list(pools))
    nrefs = len(next(iter(pools.values())).references[0])
    results.payload = {
        "signature": scorer.signature(request, nrefs), "pair": corpus.pair, "split": corpus.split,
        "systems": list(pools), "baseline_system": baseline, "metrics": list(request.metrics),
        "min_rows": request.min_rows, "full": full, "configs": configs, "trends": trends,
        "summary": _summary(configs, full, trends),
    }
    if request.targeted is not None:
        results.payload["targeted"] = _add_targeted(request, corpus, pools, configs)
    if human is not None:
        _add_human(results, human, request.seed)
        if request.targeted is not None:
            many_targeted.add_human(configs, human, request.seed)
    return results


def _add_human(results: ManyResults, human: HumanScores, seed: int) -> None:
    payload = results.payload
    payload["human_full"] = correlate({s: v["bleu"] for s, v in payload["full"].items()}, human, seed=seed)
    for name, config in payload["configs"].items():
        auto = {s: e["bleu"] for s, e in config["systems"].items()}
        config["human"] = correlate(auto, human, results.random_bleu.get(name), seed=seed)
    payload["human_unmatched"] = {"table": human.unmatched_table, "systems": human.unmatched_systems}
