"""The ``ldd_challenge`` metric: registered metrics (BLEU, chrF and RIBES unless more are named) on
a challenge set, against a length-matched random baseline drawn from the full corpus, with a
breakdown by minimum dependency distance.

The scoring is the evaluation engine's (:mod:`auto_challenge_sets.scoring.kernel`): the same
metrics, draws, seed default, cap and signatures, so ``evaluate.load("ldd_challenge")`` and
``acs evaluate`` give the same numbers on the same rows. This module adds what the metric's
contract needs around it: checked arguments, the pool cache, the distance breakdown, the targeted
accuracy and the output keys of the metric card.

How it stays cheap: each metric's per-sentence statistics of the pool (the system's output on the
full corpus) are computed once and kept in a small cache keyed by the pool's content
(:func:`pool_statistics`); challenge rows that also occur in the pool reuse its rows. Scoring a
challenge set, its slices by distance and hundreds of random corpora is then row sums and means.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.bleu_stats import BleuStatistics, count_references
from auto_challenge_sets.scoring.builtin_metrics import DEFAULT_METRICS
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    check_relative,
    rule_signature,
)
from auto_challenge_sets.scoring.line_limit import check_line_lengths
from auto_challenge_sets.scoring.metric import Metric, create_metric, metric_class
from auto_challenge_sets.scoring.pool_cache import SYSTEM, PoolStatistics, clear_pool_cache, pool_statistics
from auto_challenge_sets.scoring.targeted import (
    CHRF_THRESHOLD,
    check_alignments,
    check_instances,
    targeted_accuracy,
)
from auto_challenge_sets.scoring.validation import (
    RefsKey,
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

__all__ = ["clear_pool_cache", "compute", "corpus_scores", "pool_statistics", "spearman_by_distance"]

WHERE = "the challenge set"


def signature_key(name: str) -> str:
    """The output key of a metric's signature: BLEU's is ``signature`` (the card's first key, from
    before there were others), every other metric's ``{name}_signature``."""
    return "signature" if name == "bleu" else f"{name}_signature"


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> dict[str, float | None]:
    """Spearman's rho of score with D (scipy); None where it is undefined."""
    from scipy.stats import spearmanr

    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return {"rho": None, "p": None}
    result = spearmanr(xs, ys)
    rho, p = float(result.statistic), float(result.pvalue)
    return {"rho": None if math.isnan(rho) else rho, "p": None if math.isnan(p) else p}


def spearman_by_distance(rows: Sequence[dict[str, Any]], metrics: Sequence[str]) -> dict[str, dict[str, float | None]]:
    """Spearman correlation of each metric's score with the minimum distance over breakdown rows."""
    usable = [r for r in rows if r.get("n")]
    ds = [r["min_distance"] for r in usable]
    return {m: _spearman(ds, [r[m] for r in usable]) for m in metrics}


def _set_statistics(metrics: dict[str, Metric], preds: list[str], refs: list[RefsKey], sources: list[str] | None,
                    pool: PoolStatistics | None) -> dict[str, np.ndarray]:
    """The challenge rows' statistics, taken from the pool where the same row was scored."""
    if pool is None:
        return kernel.statistics(metrics, preds, refs, sources, system=SYSTEM)
    pool_rows = pool.rows(metrics)
    columns = (preds, refs) if sources is None else (preds, refs, sources)
    found = [pool.row_of(*key) for key in zip(*columns)]
    hits = [i for i, row in enumerate(found) if row is not None]
    missing = [i for i, row in enumerate(found) if row is None]
    extra = {} if not missing else kernel.statistics(
        metrics, [preds[i] for i in missing], [refs[i] for i in missing],
        None if sources is None else [sources[i] for i in missing], system=SYSTEM)
    out = {}
    for name in metrics:
        rows = np.asarray(pool_rows[name])
        dtype = rows.dtype if not missing else np.result_type(rows, extra[name])
        out[name] = np.empty((len(preds), *rows.shape[1:]), dtype=dtype)
        if hits:
            out[name][hits] = rows[np.asarray([found[i] for i in hits], dtype=np.int64)]
        if missing:
            out[name][missing] = extra[name]
    return out


# -- compute() ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Sampling:
    """How the random baseline draws: shared by the whole set and each distance slice."""

    metrics: dict[str, Metric]
    pool: dict[str, np.ndarray]  # each metric's statistics of the pool
    pool_lengths: np.ndarray
    exclude: np.ndarray
    n_samples: int
    tolerance: int
    seed: int | None
    relative: float = DEFAULT_LENGTH_RELATIVE  # the window's share of a row's length (length_baseline)

    def baseline(self, lengths: np.ndarray, rows: dict[str, np.ndarray], stream: tuple[int, ...],
                 return_samples: bool = False) -> tuple[dict[str, kernel.RowsScore], dict[str, Any]]:
        """One sampling of length-matched corpora (stream ``[seed, *stream]``), scored by every
        metric with the set of ``rows``: the scores, and the card's ``random_baseline``."""
        corpora = kernel.draw(lengths, self.pool_lengths, self.exclude, self.n_samples, self.tolerance, self.seed,
                              stream, self.relative)
        scored = kernel.score_rows(self.metrics, rows, self.pool, corpora, SYSTEM, WHERE)
        result: dict[str, Any] = {name: s.spread(self.metrics[name].higher_is_better) for name, s in scored.items()}
        result.update({"widened": corpora.widened, "max_tolerance": corpora.max_tolerance,
                       "n_samples": self.n_samples, "length_tolerance": self.tolerance, "length_relative": self.relative,
                       # the engine's random[…] part of its signature: what makes these numbers
                       "signature": f"random[n:{self.n_samples}|{rule_signature(self.tolerance, self.relative)}"
                                    f"|seed:{self.seed}]",
                       "pool_size": corpora.pool_size})
        if return_samples:
            result["samples"] = {"index": corpora.index.tolist(), **{n: s.samples.tolist() for n, s in scored.items()}}
        return scored, result


def _checked_sources(name: str, values: Any, count: int, count_name: str, needed: list[str]) -> list[str] | None:
    """``sources``/``pool_sources``, checked; None where no metric reads them."""
    if values is None:
        if needed:
            raise ValueError(f"{name} is None; metric {', '.join(needed)} needs the source sentences, one per "
                             f"item of {count_name}")
        return None
    checked = check_strings(name, values)
    if len(checked) != count:
        raise ValueError(f"{name} has {len(checked)} items but {count_name} has {count}")
    return checked if needed else None


def _checked_pool(
    n: int, lengths: Any, ids: Any, pool_predictions: Any, pool_references: Any, pool_lengths: Any,
    pool_ids: Any, pool_sources: Any, needed: list[str], preprocess: Any,
) -> tuple[PoolStatistics | None, np.ndarray | None, np.ndarray | None, list | None]:
    """The pool (its statistics cached), its lengths and ids and the challenge rows' lengths,
    checked (all None without a pool; only the lengths when they are given without one)."""
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
    pool_srcs = _checked_sources("pool_sources", pool_sources, len(pool_preds), "pool_predictions", needed)
    check_line_lengths("pool_predictions", pool_preds, preprocess)
    check_line_lengths("pool_references", pool_refs, preprocess)
    return pool_statistics(pool_preds, pool_refs, pool_srcs), pool_lens, lens, pids


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


def _breakdown(metrics: dict[str, Metric], stats: dict[str, np.ndarray], dist: np.ndarray, lens: np.ndarray | None,
               sampling: _Sampling | None, min_distances: list[int] | None,
               whole: tuple[dict[str, kernel.RowsScore], dict[str, Any] | None]) -> list[dict[str, Any]]:
    """Scores of the rows with distance >= D, for each D. A slice that holds every row is the set
    itself and reuses its scores and random baseline ``whole``: one baseline per set, never two."""
    ds = sorted(set(dist.tolist())) if min_distances is None else min_distances
    rows = []
    for d in ds:
        mask = dist >= d
        n = int(mask.sum())
        row: dict[str, Any] = {"min_distance": d, "n": n, **dict.fromkeys(metrics)}
        if n:
            part = {name: values[mask] for name, values in stats.items()}
            if n == len(dist):
                scored, base = whole
            elif sampling is None:
                scored, base = kernel.score_rows(metrics, part, {}, None, SYSTEM, f"the rows at distance >= {d}"), None
            else:
                scored, base = sampling.baseline(lens[mask], part, (1, d))
            row.update({name: s.score for name, s in scored.items()})
            if base is not None:
                row["random_baseline"] = {k: base[k] for k in (*metrics, "widened")}
        rows.append(row)
    return rows


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
    seed: int | None = kernel.DEFAULT_SEED,
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
    sources: Sequence[str] | None = None,
    pool_sources: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Score a challenge set with the engine's default metrics (BLEU, chrF, RIBES) and those ``metrics``
    names, each with its signature; against a pool (the full corpus) with ``lengths``, its length-matched
    random baseline, drawn as ``acs evaluate`` draws a config's (seed ``[seed, 0]``). Every argument is
    described in the metric card (metrics/ldd_challenge/README.md); malformed input is a ValueError
    naming the argument."""
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
    scored_by = _metrics(metrics, tokenize, lowercase_ribes)
    needed = [name for name, metric in scored_by.items() if metric.needs_sources]
    srcs = _checked_sources("sources", sources, len(preds), "predictions", needed)
    preprocess = _checked_line_lengths(preds, refs, tokenize)
    pool, pool_lens, lens, pids = _checked_pool(len(preds), lengths, ids, pool_predictions, pool_references,
                                                pool_lengths, pool_ids, pool_sources, needed, preprocess)
    stats = _set_statistics(scored_by, preds, refs, srcs, pool)
    sampling = None if pool is None else _Sampling(
        scored_by, pool.rows(scored_by), pool_lens, _exclusion(pool, preds, refs, challenge_ids, pids, exclude_challenge),
        int(n_samples), int(length_tolerance), seed, float(length_relative))
    whole = ((kernel.score_rows(scored_by, stats, {}, None, SYSTEM, WHERE), None) if sampling is None
             else sampling.baseline(lens, stats, (0,), return_samples))
    result: dict[str, Any] = {"n": len(preds), **_scores_and_signatures(scored_by, whole[0], refs),
                              "random_baseline": whole[1], "distance_breakdown": None, "spearman": None, "targeted": None}
    if dist is not None:
        result.update(_by_distance(scored_by, stats, dist, lens, sampling, ds, whole))
    return result | ({} if targeted is None else {"targeted": targeted_accuracy(*targeted, chrf_threshold=float(
        targeted_chrf))})


def _scores_and_signatures(metrics: dict[str, Metric], scores: dict[str, kernel.RowsScore],
                           refs: list[RefsKey]) -> dict[str, Any]:
    nrefs = count_references(refs)
    return {key: value for name, metric in metrics.items()
            for key, value in ((name, scores[name].score), (signature_key(name), metric.signature(nrefs)))}


def _by_distance(metrics: dict[str, Metric], stats: dict[str, np.ndarray], dist: np.ndarray, lens: np.ndarray | None,
                 sampling: _Sampling | None, ds: list[int], whole: tuple) -> dict[str, Any]:
    """``distance_breakdown`` and ``spearman``: the scores per minimum distance and their trend."""
    breakdown = _breakdown(metrics, stats, dist, lens, sampling, ds, whole)
    return {"distance_breakdown": breakdown, "spearman": spearman_by_distance(breakdown, list(metrics))}


def _checked_line_lengths(preds: list[str], refs: list[RefsKey], tokenize: str) -> Any:
    """Every line within the limit of the BLEU tokens it makes (line_limit.py); the tokenizer."""
    preprocess = BleuStatistics(tokenize=tokenize).preprocess
    for name, texts in (("predictions", preds), ("references", refs)):
        check_line_lengths(name, texts, preprocess)
    return preprocess


def _metrics(names: Any, tokenize: str, lowercase_ribes: bool) -> dict[str, Metric]:
    """The engine's default metrics and the registered ones ``names`` adds, with the run's options
    (a ValueError names a bad one)."""
    if isinstance(names, str) or not listlike(names):
        raise ValueError(f"metrics must be a list of registered metric names, got {names!r}")
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"metrics must be a list of registered metric names, got {name!r}")
    given = {"tokenize": tokenize, "lowercase_ribes": lowercase_ribes}  # to the metrics declaring them
    return {name: create_metric(name, **{option.name: given[option.name] for option in metric_class(name).options
                                         if option.name in given})
            for name in dict.fromkeys([*DEFAULT_METRICS, *names])}


def _checked_distances(distances: Sequence[int] | None, min_distances: Sequence[int] | None,
                       count: int) -> tuple[list[int] | None, list[int] | None]:
    """``distances`` (one per prediction) and the ``min_distances`` of the breakdown, checked."""
    dist = None if distances is None else check_ints("distances", distances, count, "predictions")
    return dist, None if min_distances is None else check_min_distances(min_distances, dist is not None)


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
    """The default metrics' scores and signatures of a whole corpus, through the pool cache.

    Scoring the full corpus that also serves as the random baseline's pool costs nothing extra.
    """
    preds = check_strings("predictions", predictions)
    refs = check_references("references", references, len(preds), "predictions")
    check_tokenize(tokenize)
    check_bool("lowercase_ribes", lowercase_ribes)
    preprocess = BleuStatistics(tokenize=tokenize).preprocess
    check_line_lengths("predictions", preds, preprocess)
    check_line_lengths("references", refs, preprocess)
    scored_by = _metrics((), tokenize, lowercase_ribes)
    scored = kernel.score_rows(scored_by, pool_statistics(preds, refs).rows(scored_by), {}, None, SYSTEM, "the corpus")
    nrefs = count_references(refs)
    result: dict[str, Any] = {"n": len(preds)}
    for name, metric in scored_by.items():
        result[name] = scored[name].score
        result[signature_key(name)] = metric.signature(nrefs)
    return result
