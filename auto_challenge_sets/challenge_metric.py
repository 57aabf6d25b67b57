"""The ``ldd_challenge`` metric: BLEU and RIBES on a challenge set, against a length-matched
random baseline drawn from the full corpus, with a breakdown by minimum dependency distance.

How it stays cheap: every sentence is tokenized once and turned into a row of BLEU sufficient
statistics and a RIBES sentence score (:class:`SentenceStatistics`). The pool (the system's
output on the full corpus) is processed once per system output and kept in a small cache keyed
by its content (:func:`pool_statistics`); challenge rows that also occur in the pool reuse the
pool's rows. Scoring a challenge set, its slices by distance and hundreds of resampled corpora
is then integer row sums (see :mod:`auto_challenge_sets.bleu_stats`) and means of floats, so a
system scored on every config of a dataset costs about one pass over its output.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from auto_challenge_sets.bleu_stats import BleuStatistics, count_references
from auto_challenge_sets.length_baseline import sample_length_matched, summarize
from auto_challenge_sets.ribes import ALPHA, BETA, sentence_ribes, words

RefsKey = tuple[str, ...]


# -- input validation --------------------------------------------------------------------------
# Every bad argument is a ValueError naming it (the metric's documented contract, also for wrong
# types: evaluate and sacrebleu users catch ValueError), hence the TRY004 exemptions below.


def _listlike(values: Any) -> bool:
    """A list, tuple, numpy array, pandas Series, ... but not a string or a mapping."""
    if isinstance(values, (str, bytes, Mapping)):
        return False
    return hasattr(values, "__len__") and hasattr(values, "__iter__")


def _check_strings(name: str, values: Any, allow_empty_list: bool = False) -> list[str]:
    if values is None:
        raise ValueError(f"{name} is None; expected a list of strings")
    if not _listlike(values):
        raise ValueError(f"{name} must be a list of strings, got {type(values).__name__}")
    values = list(values)
    if not values and not allow_empty_list:
        raise ValueError(f"{name} is empty")
    if set(map(type, values)) <= {str}:  # the common case, at C speed (pools are long)
        return values
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not a string: {value!r}")  # noqa: TRY004
    return values


def _check_references(name: str, values: Any, count: int, count_name: str) -> list[RefsKey]:
    """``references``: one string, or a non-empty list of strings, per prediction."""
    if values is None:
        raise ValueError(f"{name} is None; expected a list of strings or of lists of strings")
    if not _listlike(values):
        raise ValueError(f"{name} must be a list, got {type(values).__name__}")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {str}:  # one reference per row: the common case, fast
        return [(value,) for value in values]
    refs: list[RefsKey] = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            refs.append((value,))
            continue
        if not _listlike(value):
            raise ValueError(
                f"{name}[{i}] is {type(value).__name__}; expected a string or a list of strings"
            )
        items = tuple(value)
        if not items:
            raise ValueError(f"{name}[{i}] is an empty list of references")
        for j, item in enumerate(items):
            if not isinstance(item, str):
                raise ValueError(  # noqa: TRY004 (the metric's contract: ValueError naming the argument)
                    f"{name}[{i}][{j}] is {type(item).__name__}, not a string: {item!r}"
                )
        refs.append(items)
    return refs


def _check_ints(name: str, values: Any, count: int, count_name: str) -> np.ndarray:
    if values is None:
        raise ValueError(f"{name} is None; expected a list of integers")
    if not _listlike(values):
        raise ValueError(f"{name} must be a list of integers, got {type(values).__name__}")
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        values = values.tolist()
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {int}:  # fast path; the loop below finds the culprit otherwise
        array = np.asarray(values, dtype=np.int64)
        if not len(array) or array.min() >= 0:
            return array
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}, not an integer: {value!r}")  # noqa: TRY004
        if value < 0:
            raise ValueError(f"{name}[{i}] is negative: {value}")
    return np.asarray(values, dtype=np.int64)


def _check_ids(name: str, values: Any, count: int, count_name: str) -> list[Hashable]:
    if not _listlike(values):
        raise ValueError(f"{name} must be a list of ids, got {type(values).__name__}")
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{name} has {len(values)} items but {count_name} has {count}")
    if set(map(type, values)) <= {str, int}:
        return values
    for i, value in enumerate(values):
        if value is None or not isinstance(value, str | int | np.integer):
            raise ValueError(f"{name}[{i}] is {type(value).__name__}; ids must be strings or integers")
    return values


# -- per-sentence statistics -------------------------------------------------------------------


@dataclass
class SentenceStatistics:
    """Per-sentence BLEU sufficient statistics and RIBES scores of one list of outputs."""

    bleu: np.ndarray  # (n, 2 + 2 * max_order) int64
    ribes: np.ndarray  # (n,) float64
    nrefs: int  # references per sentence (-1 when it varies), for sacrebleu's signature


def sentence_statistics(
    predictions: Sequence[str],
    references: Sequence[RefsKey],
    scorer: BleuStatistics,
    lowercase_ribes: bool = True,
) -> SentenceStatistics:
    """One pass: tokenize each sentence once, then BLEU statistics and RIBES from the tokens."""
    preprocess = scorer.preprocess
    rows = []
    ribes = np.empty(len(predictions), dtype=np.float64)
    for i, (hyp, refs) in enumerate(zip(predictions, references, strict=True)):
        hyp_tok = preprocess(hyp)
        refs_tok = [preprocess(r) for r in refs]
        rows.append(scorer.segment_from_preprocessed(hyp_tok, refs_tok))
        ribes[i] = sentence_ribes(
            words(hyp_tok, lowercase_ribes), [words(r, lowercase_ribes) for r in refs_tok]
        )
    bleu = np.asarray(rows, dtype=np.int64).reshape(len(rows), scorer.width)
    return SentenceStatistics(bleu=bleu, ribes=ribes, nrefs=count_references(references))


@dataclass
class PoolStatistics:
    """Statistics of a system's output on the full corpus, computed once and reused."""

    predictions: tuple[str, ...]
    references: tuple[RefsKey, ...]
    stats: SentenceStatistics
    tokenize: str
    lowercase_ribes: bool
    _rows: dict[tuple[str, RefsKey], int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # (prediction, references) -> pool row, so identical challenge rows reuse the pool's work.
        for i, key in enumerate(zip(self.predictions, self.references)):
            self._rows.setdefault(key, i)

    def __len__(self) -> int:
        return len(self.predictions)

    def row_of(self, prediction: str, refs: RefsKey) -> int | None:
        """Pool row scored on exactly this prediction and these references, if any."""
        return self._rows.get((prediction, refs))


_POOL_CACHE: OrderedDict[tuple, PoolStatistics] = OrderedDict()
_POOL_CACHE_SIZE = 4


def pool_statistics(
    pool_predictions: Sequence[str],
    pool_references: Sequence[str] | Sequence[Sequence[str]],
    tokenize: str = "13a",
    lowercase_ribes: bool = True,
) -> PoolStatistics:
    """Statistics of a pool, from a small LRU cache keyed by the pool's content and settings.

    Scoring many configs of one dataset against one system output passes the same pool each
    time; only the first call does the work. Hashing the strings is cheap (Python caches string
    hashes) next to tokenizing them; a hit is confirmed by comparing the contents.
    """
    preds = tuple(pool_predictions)
    refs = tuple((r,) if isinstance(r, str) else tuple(r) for r in pool_references)
    return _cached_pool(preds, refs, tokenize, lowercase_ribes)


def _cached_pool(
    preds: tuple[str, ...], refs: tuple[RefsKey, ...], tokenize: str, lowercase_ribes: bool
) -> PoolStatistics:
    key = (tokenize, lowercase_ribes, len(preds), hash(preds), hash(refs))
    cached = _POOL_CACHE.get(key)
    if cached is not None and cached.predictions == preds and cached.references == refs:
        _POOL_CACHE.move_to_end(key)
        return cached
    scorer = BleuStatistics(tokenize=tokenize)
    stats = sentence_statistics(preds, refs, scorer, lowercase_ribes)
    pool = PoolStatistics(preds, refs, stats, tokenize, lowercase_ribes)
    _POOL_CACHE[key] = pool
    while len(_POOL_CACHE) > _POOL_CACHE_SIZE:
        _POOL_CACHE.popitem(last=False)
    return pool


def _challenge_statistics(
    predictions: list[str],
    references: list[RefsKey],
    scorer: BleuStatistics,
    lowercase_ribes: bool,
    pool: PoolStatistics | None,
) -> SentenceStatistics:
    """Challenge rows' statistics, taken from the pool where the same sentence was scored."""
    if pool is None:
        return sentence_statistics(predictions, references, scorer, lowercase_ribes)
    found = [pool.row_of(p, r) for p, r in zip(predictions, references)]
    missing = [i for i, row in enumerate(found) if row is None]
    bleu = np.empty((len(predictions), scorer.width), dtype=np.int64)
    ribes = np.empty(len(predictions), dtype=np.float64)
    hits = [i for i, row in enumerate(found) if row is not None]
    if hits:
        rows = np.asarray([found[i] for i in hits], dtype=np.int64)
        bleu[hits] = pool.stats.bleu[rows]
        ribes[hits] = pool.stats.ribes[rows]
    if missing:
        extra = sentence_statistics(
            [predictions[i] for i in missing], [references[i] for i in missing], scorer, lowercase_ribes
        )
        bleu[missing] = extra.bleu
        ribes[missing] = extra.ribes
    return SentenceStatistics(bleu=bleu, ribes=ribes, nrefs=count_references(references))


# -- scoring -----------------------------------------------------------------------------------


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> dict[str, float | None]:
    """Spearman's rho of score with D (scipy); None where it is undefined."""
    from scipy.stats import spearmanr

    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return {"rho": None, "p": None}
    result = spearmanr(xs, ys)
    rho, p = float(result.statistic), float(result.pvalue)
    return {"rho": None if math.isnan(rho) else rho, "p": None if math.isnan(p) else p}


def spearman_by_distance(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Spearman correlation of BLEU and RIBES with the minimum distance over breakdown rows."""
    usable = [r for r in rows if r.get("n")]
    ds = [r["min_distance"] for r in usable]
    return {m: _spearman(ds, [r[m] for r in usable]) for m in ("bleu", "ribes")}


def _baseline(
    scorer: BleuStatistics,
    challenge: SentenceStatistics,
    challenge_lengths: np.ndarray,
    pool: PoolStatistics,
    pool_lengths: np.ndarray,
    exclude: np.ndarray,
    n_samples: int,
    tolerance: int,
    rng: np.random.Generator,
    bleu: float,
    ribes: float,
    return_samples: bool = False,
) -> dict[str, Any]:
    samples = sample_length_matched(challenge_lengths, pool_lengths, n_samples, tolerance, exclude, rng)
    bleu_samples = scorer.sample_scores(pool.stats.bleu, samples.index)
    ribes_samples = pool.stats.ribes[samples.index].mean(axis=1)
    result: dict[str, Any] = {
        "bleu": summarize(bleu_samples, bleu),
        "ribes": summarize(ribes_samples, ribes),
        "widened": samples.widened,
        "max_tolerance": samples.max_tolerance,
        "n_samples": n_samples,
        "length_tolerance": tolerance,
        "pool_size": int(len(pool) - exclude.sum()),
    }
    if return_samples:
        result["samples"] = {
            "index": samples.index.tolist(),
            "bleu": bleu_samples.tolist(),
            "ribes": ribes_samples.tolist(),
        }
    return result


def _rng(seed: int | None, *stream: int) -> np.random.Generator:
    """Independent, reproducible streams: the main baseline, then one per distance slice."""
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng([seed, *stream])


def compute(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    lengths: Sequence[int] | None = None,
    distances: Sequence[int] | None = None,
    pool_predictions: Sequence[str] | None = None,
    pool_references: Sequence[str] | Sequence[Sequence[str]] | None = None,
    pool_lengths: Sequence[int] | None = None,
    ids: Sequence[Hashable] | None = None,
    pool_ids: Sequence[Hashable] | None = None,
    n_samples: int = 100,
    length_tolerance: int = 1,
    seed: int | None = None,
    tokenize: str = "13a",
    lowercase_ribes: bool = True,
    min_distances: Sequence[int] | None = None,
    exclude_challenge: bool = True,
    return_samples: bool = False,
) -> dict[str, Any]:
    """Score a challenge set. See the metric card (metrics/ldd_challenge/README.md).

    * ``predictions`` / ``references``: the system's outputs on the challenge rows and one
      reference (str) or several (list of str) per row.
    * ``distances``: one int per row; adds ``distance_breakdown`` (rows with distance ≥ D, for D
      in ``min_distances``, default every distinct value) and ``spearman`` (score vs D).
    * ``pool_predictions`` / ``pool_references`` / ``pool_lengths`` (the full corpus) together
      with ``lengths`` (source tokens per challenge row): adds ``random_baseline`` from
      ``n_samples`` length-matched random corpora (``length_tolerance`` tokens). The challenge
      rows are left out of the pool (``exclude_challenge``): by ``ids``/``pool_ids`` when both
      are given, otherwise by identical (prediction, references) pairs.
    * ``seed``: same seed, same numbers. ``tokenize``: sacrebleu tokenizer for BLEU and RIBES.

    BLEU is on sacrebleu's 0–100 scale (``sacrebleu.corpus_bleu`` defaults), RIBES on NTT's 0–1.
    Raises ValueError naming the argument for malformed input.
    """
    preds = _check_strings("predictions", predictions)
    refs = _check_references("references", references, len(preds), "predictions")
    if not isinstance(n_samples, int | np.integer) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")
    if (
        not isinstance(length_tolerance, int | np.integer)
        or isinstance(length_tolerance, bool)
        or length_tolerance < 0
    ):
        raise ValueError(f"length_tolerance must be a non-negative integer, got {length_tolerance!r}")
    if seed is not None and (not isinstance(seed, int | np.integer) or isinstance(seed, bool) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    dist = None if distances is None else _check_ints("distances", distances, len(preds), "predictions")
    challenge_ids = None if ids is None else _check_ids("ids", ids, len(preds), "predictions")

    use_pool = any(x is not None for x in (pool_predictions, pool_references, pool_lengths))
    pool = pool_lens = lens = None
    scorer = BleuStatistics(tokenize=tokenize)
    if use_pool:
        pool_preds = _check_strings("pool_predictions", pool_predictions)
        pool_refs = _check_references("pool_references", pool_references, len(pool_preds), "pool_predictions")
        if pool_lengths is None:
            raise ValueError("pool_lengths is None; the random baseline needs source lengths of the pool")
        pool_lens = _check_ints("pool_lengths", pool_lengths, len(pool_preds), "pool_predictions")
        if lengths is None:
            raise ValueError("lengths is None; the random baseline needs the challenge rows' source lengths")
        if (ids is None) != (pool_ids is None):
            given, missing = ("ids", "pool_ids") if pool_ids is None else ("pool_ids", "ids")
            raise ValueError(f"{given} is given but {missing} is None: the challenge rows are left out of the "
                             "pool by id only when both are given")
        lens = _check_ints("lengths", lengths, len(preds), "predictions")
        pool = _cached_pool(tuple(pool_preds), tuple(pool_refs), tokenize, lowercase_ribes)
    elif lengths is not None:
        lens = _check_ints("lengths", lengths, len(preds), "predictions")
    if pool_ids is not None and pool is None:
        raise ValueError("pool_ids given without pool_predictions")

    stats = _challenge_statistics(preds, refs, scorer, lowercase_ribes, pool)
    bleu = scorer.corpus_score(stats.bleu)
    ribes = float(stats.ribes.mean())
    result: dict[str, Any] = {
        "bleu": bleu,
        "ribes": ribes,
        "n": len(preds),
        "signature": scorer.signature(stats.nrefs),
        "ribes_signature": (
            f"ribes:ntt-1.03.1|alpha:{ALPHA}|beta:{BETA}|case:{'lc' if lowercase_ribes else 'mixed'}"
            f"|tok:{scorer.metric.tokenizer_signature}"
        ),
        "random_baseline": None,
        "distance_breakdown": None,
        "spearman": None,
    }

    exclude = None
    if pool is not None:
        exclude = np.zeros(len(pool), dtype=bool)
        if exclude_challenge:
            if challenge_ids is not None and pool_ids is not None:
                pids = _check_ids("pool_ids", pool_ids, len(pool), "pool_predictions")
                wanted = set(challenge_ids)
                exclude[[i for i, x in enumerate(pids) if x in wanted]] = True
            else:
                pairs = set(zip(preds, refs))
                pool_pairs = zip(pool.predictions, pool.references)
                exclude[[i for i, x in enumerate(pool_pairs) if x in pairs]] = True
        result["random_baseline"] = _baseline(
            scorer, stats, lens, pool, pool_lens, exclude, int(n_samples), int(length_tolerance),
            _rng(seed, 0), bleu, ribes, return_samples,
        )

    if dist is not None:
        ds = sorted(set(dist.tolist())) if min_distances is None else [int(d) for d in min_distances]
        rows = []
        for d in ds:
            mask = dist >= d
            n = int(mask.sum())
            row: dict[str, Any] = {"min_distance": d, "n": n, "bleu": None, "ribes": None}
            if n:
                sub = SentenceStatistics(stats.bleu[mask], stats.ribes[mask], stats.nrefs)
                row["bleu"] = scorer.corpus_score(sub.bleu)
                row["ribes"] = float(sub.ribes.mean())
                if pool is not None:
                    base = _baseline(
                        scorer, sub, lens[mask], pool, pool_lens, exclude, int(n_samples),
                        int(length_tolerance), _rng(seed, 1, d), row["bleu"], row["ribes"],
                    )
                    row["random_baseline"] = {k: base[k] for k in ("bleu", "ribes", "widened")}
            rows.append(row)
        result["distance_breakdown"] = rows
        result["spearman"] = spearman_by_distance(rows)
    return result


def corpus_scores(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    tokenize: str = "13a",
    lowercase_ribes: bool = True,
) -> dict[str, Any]:
    """BLEU and RIBES of a whole corpus, through the pool cache.

    Scoring the full corpus that also serves as the random baseline's pool costs nothing extra.
    """
    preds = _check_strings("predictions", predictions)
    refs = _check_references("references", references, len(preds), "predictions")
    pool = pool_statistics(preds, refs, tokenize, lowercase_ribes)
    scorer = BleuStatistics(tokenize=tokenize)
    return {
        "bleu": scorer.corpus_score(pool.stats.bleu),
        "ribes": float(pool.stats.ribes.mean()),
        "n": len(pool),
        "signature": scorer.signature(pool.stats.nrefs),
    }
