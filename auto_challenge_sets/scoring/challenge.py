"""The ``ldd_challenge`` metric: BLEU, chrF and RIBES on a challenge set, against a length-matched
random baseline drawn from the full corpus, with a breakdown by minimum dependency distance.

How it stays cheap: per-sentence statistics are computed once per system output
(:mod:`auto_challenge_sets.scoring.statistics`). Scoring a challenge set, its slices by distance and hundreds of resampled corpora
is then integer row sums (see :mod:`auto_challenge_sets.scoring.bleu_stats` and
:mod:`auto_challenge_sets.scoring.chrf_stats`) and means of floats, so a
system scored on every config of a dataset costs about one pass over its output.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from auto_challenge_sets.scoring.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    check_relative,
    rule_signature,
    sample_length_matched,
    summarize,
)
from auto_challenge_sets.scoring.line_limit import check_line_lengths
from auto_challenge_sets.scoring.metric import Metric, create_metric, metric_class
from auto_challenge_sets.scoring.ribes import ALPHA, BETA
from auto_challenge_sets.scoring.statistics import (
    PoolStatistics,
    SentenceStatistics,
    cached_pool,
    challenge_statistics,
    pool_statistics,
)
from auto_challenge_sets.scoring.targeted import (
    CHRF_THRESHOLD,
    check_alignments,
    check_instances,
    targeted_accuracy,
)
from auto_challenge_sets.scoring.validation import (
    check_bool,
    check_ids,
    check_ints,
    check_min_distances,
    check_references,
    check_sample_size,
    check_settings,
    check_strings,
    check_targeted_ranges,
    check_tokenize,
    listlike,
)

__all__ = ["compute", "corpus_scores", "pool_statistics", "spearman_by_distance"]

ALWAYS = ("bleu", "chrf", "ribes")  # scored by every call; ``metrics`` adds others


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> dict[str, float | None]:
    """Spearman's rho of score with D (scipy); None where it is undefined."""
    from scipy.stats import spearmanr

    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return {"rho": None, "p": None}
    result = spearmanr(xs, ys)
    rho, p = float(result.statistic), float(result.pvalue)
    return {"rho": None if math.isnan(rho) else rho, "p": None if math.isnan(p) else p}


def spearman_by_distance(rows: Sequence[dict[str, Any]],
                         extra: Sequence[str] = ()) -> dict[str, dict[str, float | None]]:
    """Spearman correlation of BLEU and RIBES (and chrF, where the rows have it, and each metric
    of ``extra``) with the minimum distance over breakdown rows."""
    usable = [r for r in rows if r.get("n")]
    ds = [r["min_distance"] for r in usable]
    metrics = ("bleu", "ribes", "chrf") if all("chrf" in r for r in usable) else ("bleu", "ribes")
    return {m: _spearman(ds, [r[m] for r in usable]) for m in (*metrics, *extra)}


@dataclass(frozen=True)
class _Sampling:
    """How the random baseline draws: shared by the whole set and each distance slice."""

    scorer: BleuStatistics
    chrf_scorer: ChrfStatistics
    pool: PoolStatistics
    pool_lengths: np.ndarray
    exclude: np.ndarray
    n_samples: int
    tolerance: int
    seed: int | None
    extra: tuple[tuple[Metric, np.ndarray], ...] = ()  # other registered metrics: (metric, pool statistics)
    relative: float = DEFAULT_LENGTH_RELATIVE  # the window's share of a row's length (length_baseline)

    def rng(self, *stream: int) -> np.random.Generator:
        """Independent, reproducible streams: the main baseline, then one per distance slice."""
        if self.seed is None:
            return np.random.default_rng()
        return np.random.default_rng([self.seed, *stream])

    def baseline(self, lengths: np.ndarray, scores: dict[str, float], stream: tuple[int, ...],
                 return_samples: bool = False) -> dict[str, Any]:
        """One sampling of length-matched corpora, scored by every metric (``scores``: the
        challenge set's own bleu, ribes and chrf, which the samples are compared with)."""
        samples = sample_length_matched(lengths, self.pool_lengths, self.n_samples, self.tolerance,
                                        self.exclude, self.rng(*stream), self.relative)
        drawn = {
            "bleu": self.scorer.sample_scores(self.pool.stats.bleu, samples.index),
            "ribes": self.pool.stats.ribes[samples.index].mean(axis=1),
            "chrf": self.chrf_scorer.sample_scores(self.pool.stats.chrf, samples.index),
        }
        drawn.update({metric.name: metric.sample_scores(stats, samples.index) for metric, stats in self.extra})
        directions = {metric.name: metric.higher_is_better for metric, _ in self.extra}
        result: dict[str, Any] = {m: summarize(values, scores[m], directions.get(m, True)) for m, values in drawn.items()}
        result.update({
            "widened": samples.widened,
            "max_tolerance": samples.max_tolerance,
            "n_samples": self.n_samples,
            "length_tolerance": self.tolerance,
            "length_relative": self.relative,
            # the engine's random[…] part of its signature: what makes these numbers
            "signature": f"random[n:{self.n_samples}|{rule_signature(self.tolerance, self.relative)}|seed:{self.seed}]",
            "pool_size": int(len(self.pool) - self.exclude.sum()),
        })
        if return_samples:
            result["samples"] = {"index": samples.index.tolist(), **{m: v.tolist() for m, v in drawn.items()}}
        return result


def _checked_pool(
    n: int, lengths: Any, ids: Any, pool_predictions: Any, pool_references: Any, pool_lengths: Any,
    pool_ids: Any, tokenize: str, lowercase_ribes: bool, preprocess: Callable[[str], str],
) -> tuple[PoolStatistics | None, np.ndarray | None, np.ndarray | None, list | None]:
    """The pool's statistics, lengths and ids and the challenge rows' lengths, checked (all None
    without a pool; only the lengths when they are given without one)."""
    if all(x is None for x in (pool_predictions, pool_references, pool_lengths)):
        if pool_ids is not None:
            raise ValueError("pool_ids given without pool_predictions")
        return None, None, None if lengths is None else check_ints("lengths", lengths, n, "predictions"), None
    pool_preds = check_strings("pool_predictions", pool_predictions)
    pool_refs = check_references("pool_references", pool_references, len(pool_preds), "pool_predictions")
    if pool_lengths is None:
        raise ValueError("pool_lengths is None; the random baseline needs source lengths of the pool")
    pool_lens = check_ints("pool_lengths", pool_lengths, len(pool_preds), "pool_predictions")
    if lengths is None:
        raise ValueError("lengths is None; the random baseline needs the challenge rows' source lengths")
    if (ids is None) != (pool_ids is None):
        given, missing = ("ids", "pool_ids") if pool_ids is None else ("pool_ids", "ids")
        raise ValueError(f"{given} is given but {missing} is None: the challenge rows are left out of the "
                         "pool by id only when both are given")
    lens = check_ints("lengths", lengths, n, "predictions")
    pids = None if pool_ids is None else check_ids("pool_ids", pool_ids, len(pool_preds), "pool_predictions")
    check_line_lengths("pool_predictions", pool_preds, preprocess)
    check_line_lengths("pool_references", pool_refs, preprocess)
    return cached_pool(tuple(pool_preds), tuple(pool_refs), tokenize, lowercase_ribes), pool_lens, lens, pids


def _exclusion(pool: PoolStatistics, preds: list[str], refs: list[Any], challenge_ids: list | None,
               pool_ids: list | None, exclude_challenge: bool) -> np.ndarray:
    """Pool rows never drawn: the challenge rows themselves (by id, else by identical text)."""
    exclude = np.zeros(len(pool), dtype=bool)
    if not exclude_challenge:
        return exclude
    if challenge_ids is not None and pool_ids is not None:
        wanted = set(challenge_ids)
        exclude[[i for i, x in enumerate(pool_ids) if x in wanted]] = True
    else:
        pairs = set(zip(preds, refs))
        exclude[[i for i, x in enumerate(zip(pool.predictions, pool.references)) if x in pairs]] = True
    return exclude


def _breakdown(scorers: tuple[BleuStatistics, ChrfStatistics], stats: SentenceStatistics, dist: np.ndarray,
               lens: np.ndarray | None, sampling: _Sampling | None,
               min_distances: list[int] | None, whole: dict[str, Any] | None = None,
               extra: Sequence[tuple[Metric, np.ndarray]] = ()) -> list[dict[str, Any]]:
    """Scores of the rows with distance >= D, for each D. A slice that holds every row is the set
    itself and reuses its random baseline ``whole``: one baseline per set, never two."""
    scorer, chrf_scorer = scorers
    ds = sorted(set(dist.tolist())) if min_distances is None else min_distances
    rows = []
    for d in ds:
        mask = dist >= d
        n = int(mask.sum())
        row: dict[str, Any] = {"min_distance": d, "n": n, "bleu": None, "ribes": None, "chrf": None,
                               **{metric.name: None for metric, _ in extra}}
        if n:
            row["bleu"] = scorer.corpus_score(stats.bleu[mask])
            row["ribes"] = float(stats.ribes[mask].mean())
            row["chrf"] = chrf_scorer.corpus_score(stats.chrf[mask])
            row.update({metric.name: metric.corpus_score(rows[mask]) for metric, rows in extra})
            if sampling is not None:
                base = whole if whole is not None and n == len(dist) else sampling.baseline(lens[mask], row, (1, d))
                keys = ("bleu", "ribes", "chrf", *(metric.name for metric, _ in extra), "widened")
                row["random_baseline"] = {k: base[k] for k in keys}
        rows.append(row)
    return rows


def _scores(scorers: tuple[BleuStatistics, ChrfStatistics], stats: SentenceStatistics,
            lowercase_ribes: bool) -> dict[str, Any]:
    """The challenge set's own scores and signatures (the optional parts still None)."""
    scorer, chrf_scorer = scorers
    return {
        "bleu": scorer.corpus_score(stats.bleu),
        "ribes": float(stats.ribes.mean()),
        "n": len(stats.ribes),
        "signature": scorer.signature(stats.nrefs),
        "ribes_signature": (
            f"ribes:ntt-1.03.1|alpha:{ALPHA}|beta:{BETA}|case:{'lc' if lowercase_ribes else 'mixed'}"
            f"|tok:{scorer.metric.tokenizer_signature}"
        ),
        "chrf": chrf_scorer.corpus_score(stats.chrf),
        "chrf_signature": chrf_scorer.signature(stats.nrefs),
        "random_baseline": None,
        "distance_breakdown": None,
        "spearman": None,
        "targeted": None,
    }


def compute(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    lengths: Sequence[int] | None = None,
    distances: Sequence[int] | None = None,
    pool_predictions: Sequence[str] | None = None,
    pool_references: Sequence[str] | Sequence[Sequence[str]] | None = None,
    pool_lengths: Sequence[int] | None = None,
    ids: Sequence[Hashable] | None = None, pool_ids: Sequence[Hashable] | None = None,
    n_samples: int = 100,
    length_tolerance: int = 1,
    length_relative: float = DEFAULT_LENGTH_RELATIVE,
    seed: int | None = None,
    tokenize: str = "13a",
    lowercase_ribes: bool = True,
    min_distances: Sequence[int] | None = None,
    exclude_challenge: bool = True,
    return_samples: bool = False,
    instances: Sequence[Sequence[dict[str, int]]] | None = None,
    source_alignments: Sequence[str | Sequence[tuple[int, int]]] | None = None,
    hypothesis_alignments: Sequence[str | Sequence[tuple[int, int]]] | None = None,
    targeted_chrf: float = CHRF_THRESHOLD,
    metrics: Sequence[str] = (),
) -> dict[str, Any]:
    """Score a challenge set; every argument is described in the metric card (metrics/ldd_challenge/README.md).
    ``distances`` adds ``distance_breakdown`` and ``spearman``; ``instances`` with ``source_alignments``
    (source-reference) and ``hypothesis_alignments`` (source-output) add ``targeted``, the targeted accuracy
    (:mod:`.targeted`); ``metrics``, other registered metrics scored wherever BLEU, chrF and RIBES are
    (:func:`_score_others`); a pool (the full corpus) with ``lengths`` adds ``random_baseline``, the challenge
    rows left out of it (by ``ids``/``pool_ids`` when both are given, else by identical text). BLEU, chrF:
    sacrebleu's 0–100 scale; RIBES: NTT's 0–1. Malformed input: ValueError naming the argument."""
    preds = check_strings("predictions", predictions)
    refs = check_references("references", references, len(preds), "predictions")
    check_settings(n_samples, length_tolerance, seed, tokenize, {"lowercase_ribes": lowercase_ribes,
                   "exclude_challenge": exclude_challenge, "return_samples": return_samples})
    check_relative(length_relative)
    if any(x is not None for x in (pool_predictions, pool_references, pool_lengths)):
        check_sample_size(n_samples, len(preds), return_samples)  # before the pool's statistics
    dist, ds = _checked_distances(distances, min_distances, len(preds))
    challenge_ids = None if ids is None else check_ids("ids", ids, len(preds), "predictions")
    targeted = _checked_targeted(preds, refs, instances, source_alignments, hypothesis_alignments, targeted_chrf,
                                 None if lengths is None else check_ints("lengths", lengths, len(preds), "predictions"))
    others = _other_metrics(metrics, tokenize, lowercase_ribes)
    scorers = (BleuStatistics(tokenize=tokenize), ChrfStatistics())
    for name, texts in (("predictions", preds), ("references", refs)):
        check_line_lengths(name, texts, scorers[0].preprocess)
    pool, pool_lens, lens, pids = _checked_pool(len(preds), lengths, ids, pool_predictions, pool_references,
                                                pool_lengths, pool_ids, tokenize, lowercase_ribes,
                                                scorers[0].preprocess)
    stats = challenge_statistics(preds, refs, scorers[0], lowercase_ribes, pool)
    result = _scores(scorers, stats, lowercase_ribes)
    extra = _score_others(result, others, preds, refs, stats.nrefs)
    sampling = None if pool is None else _Sampling(
        *scorers, pool, pool_lens, _exclusion(pool, preds, refs, challenge_ids, pids, exclude_challenge),
        int(n_samples), int(length_tolerance), seed, _pool_statistics(others, pool), float(length_relative))
    result["random_baseline"] = None if sampling is None else sampling.baseline(lens, result, (0,), return_samples)
    if dist is not None:
        result["distance_breakdown"] = _breakdown(scorers, stats, dist, lens, sampling, ds, result["random_baseline"], extra)
        result["spearman"] = spearman_by_distance(result["distance_breakdown"], [m.name for m in others])
    if targeted is not None:
        result["targeted"] = targeted_accuracy(*targeted, chrf_threshold=float(targeted_chrf))
    return result


def _pool_statistics(others: list[Metric], pool: Any) -> tuple[tuple[Metric, np.ndarray], ...]:
    """Each other metric's per-sentence statistics of the pool, for its random baseline."""
    return tuple((m, m.statistics(list(pool.predictions), list(pool.references))) for m in others)


def _checked_distances(distances: Sequence[int] | None, min_distances: Sequence[int] | None,
                       count: int) -> tuple[list[int] | None, list[int] | None]:
    """``distances`` (one per prediction) and the ``min_distances`` of the breakdown, checked."""
    dist = None if distances is None else check_ints("distances", distances, count, "predictions")
    return dist, None if min_distances is None else check_min_distances(min_distances, dist is not None)


def _score_others(result: dict[str, Any], others: list[Metric], preds: list[str], refs: list[tuple[str, ...]],
                  nrefs: int) -> tuple[tuple[Metric, np.ndarray], ...]:
    """The other metrics (``metrics=["ter"]``, a plug-in's) on the rows: each one's score and
    ``{name}_signature`` go into ``result``; the statistics come back for the breakdown."""
    extra = tuple((metric, metric.statistics(preds, refs)) for metric in others)
    for metric, rows in extra:
        result[metric.name] = metric.corpus_score(rows)
        result[f"{metric.name}_signature"] = metric.signature(nrefs)
    return extra


def _other_metrics(names: Any, tokenize: str, lowercase_ribes: bool) -> list[Metric]:
    """The registered metrics named besides the three always scored (a ValueError names a bad one)."""
    if isinstance(names, str) or not listlike(names):
        raise ValueError(f"metrics must be a list of registered metric names, got {names!r}")
    others = []
    for name in dict.fromkeys(names):
        if not isinstance(name, str):
            raise ValueError(f"metrics must be a list of registered metric names, got {name!r}")
        if name not in ALWAYS:
            given = {"tokenize": tokenize, "lowercase_ribes": lowercase_ribes}  # to the metrics declaring them
            others.append(create_metric(name, **{option.name: given[option.name]
                                                 for option in metric_class(name).options if option.name in given}))
    return others


def _checked_targeted(preds: list[str], refs: list[tuple[str, ...]], instances: Any, source_alignments: Any,
                      hypothesis_alignments: Any, targeted_chrf: Any, lengths: np.ndarray | None) -> tuple | None:
    """The targeted-accuracy inputs, checked (None when none is given): the first reference is the
    one ``source_alignments`` aligns; ``lengths`` (checked) bound the source word ids."""
    given = {"instances": instances, "source_alignments": source_alignments}
    if all(value is None for value in (instances, source_alignments, hypothesis_alignments)):
        return None
    missing = [name for name, value in given.items() if value is None]
    if missing:
        raise ValueError(f"targeted accuracy needs instances and source_alignments (hypothesis_alignments: "
                         f"optional); {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} None")
    if isinstance(targeted_chrf, bool) or not isinstance(targeted_chrf, int | float) or not 0 <= targeted_chrf <= 100:
        raise ValueError(f"targeted_chrf must be a number from 0 to 100, got {targeted_chrf!r}")
    n = len(preds)
    checked = (check_instances(instances, n), [r[0] for r in refs], preds,
               check_alignments("source_alignments", source_alignments, n),
               None if hypothesis_alignments is None else check_alignments("hypothesis_alignments", hypothesis_alignments, n))
    check_targeted_ranges(checked[0], checked[3], checked[4], checked[1], preds, lengths)
    return checked


def corpus_scores(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    tokenize: str = "13a",
    lowercase_ribes: bool = True,
) -> dict[str, Any]:
    """BLEU, RIBES and chrF of a whole corpus, through the pool cache.

    Scoring the full corpus that also serves as the random baseline's pool costs nothing extra.
    """
    preds = check_strings("predictions", predictions)
    refs = check_references("references", references, len(preds), "predictions")
    check_tokenize(tokenize)
    scorer, chrf_scorer = BleuStatistics(tokenize=tokenize), ChrfStatistics()
    check_line_lengths("predictions", preds, scorer.preprocess)
    check_line_lengths("references", refs, scorer.preprocess)
    pool = cached_pool(tuple(preds), tuple(refs), tokenize, check_bool("lowercase_ribes", lowercase_ribes))
    return {
        "bleu": scorer.corpus_score(pool.stats.bleu),
        "ribes": float(pool.stats.ribes.mean()),
        "n": len(pool),
        "signature": scorer.signature(pool.stats.nrefs),
        "chrf": chrf_scorer.corpus_score(pool.stats.chrf),
        "chrf_signature": chrf_scorer.signature(pool.stats.nrefs),
    }
