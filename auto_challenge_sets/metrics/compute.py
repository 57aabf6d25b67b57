"""``compute()``, what the ``ldd_challenge`` evaluate module runs: ``acs evaluate`` of one system on
one config held in memory (an :class:`~auto_challenge_sets.evaluation.request.EvaluationRequest` of
:class:`~auto_challenge_sets.evaluation.memory.MemoryRows`, the engine's statistics, the kernel's
random corpora: the same numbers), plus the metric card's contract: the distance breakdown, the
targeted accuracy and the output keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Any

import numpy as np

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.evaluation.engine import system_statistics
from auto_challenge_sets.evaluation.inputs import SystemOutput
from auto_challenge_sets.evaluation.memory import MemoryRows, check_bool, listlike
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.length_baseline import DEFAULT_LENGTH_RELATIVE, rule_signature
from auto_challenge_sets.scoring.metrics import DEFAULT_METRICS, Metric
from auto_challenge_sets.scoring.metrics.bleu import count_references
from auto_challenge_sets.scoring.targeted import CHRF_THRESHOLD, targeted_accuracy

SYSTEM = "(predictions)"  # what an error names as the system: compute() scores one, unnamed
WHERE = "the challenge set"


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


def _request(rows: MemoryRows, metrics: Any, n_samples: Any, length_tolerance: Any, length_relative: Any, seed: Any,
             tokenize: Any, lowercase_ribes: Any) -> EvaluationRequest:
    """The request of one system on these rows, checked (a ValueError names the argument). The
    keywords that become metric options are Python values here, not the command line's text."""
    if isinstance(metrics, str) or not listlike(metrics) or not all(isinstance(name, str) for name in metrics):
        raise ValueError(f"metrics must be a list of registered metric names, got {metrics!r}")
    if not isinstance(tokenize, str):
        raise ValueError(f"tokenize must be the name of a sacrebleu tokenizer, got {tokenize!r}")  # noqa: TRY004
    check_bool("lowercase_ribes", lowercase_ribes)
    try:
        return EvaluationRequest(
            rows, {SYSTEM: "predictions"}, metrics=tuple(dict.fromkeys([*DEFAULT_METRICS, *metrics])),
            n_samples=n_samples, length_tolerance=length_tolerance, length_relative=length_relative,
            seed=kernel.DEFAULT_SEED if seed is None else seed,  # None (fresh draws) is compute()'s alone
            metric_options={"tokenize": tokenize, "lowercase_ribes": lowercase_ribes})
    except RequestError as error:  # compute()'s arguments are named first: a metric option is one
        raise ValueError(error.detail if error.field == "metric_options" else f"{error.field} {error.detail}") from None


def _pooled(rows: MemoryRows) -> tuple[list[int], list[str], list[tuple[str, ...]], list[str] | None]:
    """One output of the system: the pool's rows, then the challenge rows the pool does not hold
    (the same prediction, references and source); with the challenge rows' positions in it, as a
    config's rows are positions in the pool of ``acs evaluate``."""
    predictions, references = list(rows.pool_predictions or ()), list(rows.pool_references or ())
    sources = None if rows.sources is None else list(rows.pool_sources or ())
    columns = (predictions, references) if sources is None else (predictions, references, sources)
    position: dict[tuple, int] = {}
    for i, key in enumerate(zip(*columns)):
        position.setdefault(key, i)
    positions = []
    given = (rows.predictions, rows.references) if sources is None else (rows.predictions, rows.references, rows.sources)
    for key in zip(*given):
        if key not in position:
            position[key] = len(predictions)
            for column, value in zip(columns, key):
                column.append(value)
        positions.append(position[key])
    return positions, predictions, references, sources


def _exclusion(rows: MemoryRows) -> np.ndarray:
    """Pool rows never drawn: the challenge rows themselves (by id, else by identical text)."""
    exclude = np.zeros(len(rows.pool_predictions), dtype=bool)
    if not rows.exclude_challenge:
        return exclude
    if rows.ids is not None:  # pool_ids too (MemoryRows.checked)
        wanted = set(rows.ids)
        exclude[[i for i, x in enumerate(rows.pool_ids) if x in wanted]] = True
    else:
        pairs = set(zip(rows.predictions, rows.references))
        exclude[[i for i, x in enumerate(zip(rows.pool_predictions, rows.pool_references)) if x in pairs]] = True
    return exclude


def _baseline(metrics: dict[str, Metric], pool: dict[str, np.ndarray], pool_lengths: np.ndarray, exclude: np.ndarray,
              n_samples: int, tolerance: int, seed: int | None, relative: float, lengths: np.ndarray,
              rows: dict[str, np.ndarray], stream: tuple[int, ...], where: str,
              return_samples: bool = False) -> tuple[dict[str, kernel.RowsScore], dict[str, Any]]:
    """One sampling of length-matched corpora from the pool (each metric's statistics ``pool``; stream
    ``[seed, *stream]``), scored by every metric with the set of ``rows`` (``where`` in errors): the
    scores, and the card's ``random_baseline``. :func:`compute` binds all but the set's arguments."""
    corpora = kernel.draw(lengths, pool_lengths, exclude, n_samples, tolerance, seed, stream, relative)
    scored = kernel.score_rows(metrics, rows, pool, corpora, SYSTEM, where)
    result: dict[str, Any] = {name: s.spread(metrics[name].higher_is_better) for name, s in scored.items()}
    result.update({"widened": corpora.widened, "max_tolerance": corpora.max_tolerance,
                   "n_samples": n_samples, "length_tolerance": tolerance, "length_relative": relative,
                   # the engine's random[…] part of its signature: what makes these numbers
                   "signature": f"random[n:{n_samples}|{rule_signature(tolerance, relative)}|seed:{seed}]",
                   "pool_size": corpora.pool_size})
    if return_samples:
        result["samples"] = {"index": corpora.index.tolist(), **{n: s.samples.tolist() for n, s in scored.items()}}
    return scored, result


def _breakdown(metrics: dict[str, Metric], stats: dict[str, np.ndarray], dist: np.ndarray, lens: np.ndarray | None,
               sampling: Callable[..., Any] | None, min_distances: list[int] | None,
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
            where = f"the rows at distance >= {d}"
            if n == len(dist):
                scored, base = whole
            elif sampling is None:
                scored, base = kernel.score_rows(metrics, part, {}, None, SYSTEM, where), None
            else:
                scored, base = sampling(lens[mask], part, (1, d), where)
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
    given = MemoryRows(predictions, references, lengths, distances, min_distances, ids, sources, pool_predictions,
                       pool_references, pool_lengths, pool_ids, pool_sources, exclude_challenge, return_samples,
                       instances, source_alignments, hypothesis_alignments, targeted_chrf)
    request = _request(given, metrics, n_samples, length_tolerance, length_relative, seed, tokenize, lowercase_ribes)
    rows: MemoryRows = request.dataset  # checked
    positions, predictions, references, sources = _pooled(rows)
    scored_by, found = system_statistics(request, [SystemOutput(SYSTEM, predictions, references)], sources)
    every = found[SYSTEM]
    stats = {name: values[positions] for name, values in every.items()}
    sampling = None if rows.pool_predictions is None else partial(
        _baseline, scored_by, {name: values[:len(rows.pool_predictions)] for name, values in every.items()},
        rows.pool_lengths, _exclusion(rows), request.n_samples, request.length_tolerance, seed, request.length_relative)
    whole = ((kernel.score_rows(scored_by, stats, {}, None, SYSTEM, WHERE), None) if sampling is None
             else sampling(rows.lengths, stats, (0,), WHERE, rows.return_samples))
    nrefs = count_references(rows.references)
    result: dict[str, Any] = {"n": len(rows.predictions), **{
        key: value for name, metric in scored_by.items()
        # BLEU's signature is ``signature``, the card's first key (from before there were others)
        for key, value in ((name, whole[0][name].score),
                           ("signature" if name == "bleu" else f"{name}_signature", metric.signature(nrefs)))},
        "random_baseline": whole[1], "distance_breakdown": None, "spearman": None, "targeted": None}
    if rows.distances is not None:
        breakdown = _breakdown(scored_by, stats, rows.distances, rows.lengths, sampling, rows.min_distances, whole)
        result.update({"distance_breakdown": breakdown, "spearman": spearman_by_distance(breakdown, list(scored_by))})
    if rows.instances is not None:
        result["targeted"] = targeted_accuracy(rows.instances, [r[0] for r in rows.references], rows.predictions,
                                               rows.source_alignments, rows.hypothesis_alignments,
                                               chrf_threshold=rows.targeted_chrf)
    return result
