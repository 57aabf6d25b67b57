"""Per-sentence statistics of a system's output, and the pool cache.

Every sentence is tokenized once and turned into a row of BLEU sufficient statistics and a RIBES
sentence score; in the same pass its raw text gives a row of chrF statistics
(:class:`SentenceStatistics`). The pool (the system's output on the full corpus) is
processed once per system output and kept in a small cache keyed by its content
(:func:`pool_statistics`); challenge rows that also occur in the pool reuse the pool's rows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from auto_challenge_sets.scoring.bleu_stats import BleuStatistics, count_references
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics
from auto_challenge_sets.scoring.forked import can_fork, cores, forked_pool
from auto_challenge_sets.scoring.ribes import sentence_ribes, words
from auto_challenge_sets.scoring.validation import RefsKey


@dataclass
class SentenceStatistics:
    """Per-sentence BLEU and chrF sufficient statistics and RIBES scores of one list of outputs."""

    bleu: np.ndarray  # (n, 2 + 2 * max_order) int64
    chrf: np.ndarray  # (n, 3 * (char_order + word_order)) int64
    ribes: np.ndarray  # (n,) float64
    nrefs: int  # references per sentence (-1 when it varies), for sacrebleu's signature


# Rows are independent, so a large input is cut into one contiguous chunk per core: forked workers
# inherit the scorers (_WORKER), only strings go out and arrays come back. compute() on 100k pairs
# spends ~35 s in this loop on one core. Below PARALLEL_ROWS the workers' start costs more than
# they save, and a worker process (the engine's, one system each) never forks again.
PARALLEL_ROWS = 20_000
_WORKER: dict[str, object] = {}


def sentence_statistics(
    predictions: Sequence[str],
    references: Sequence[RefsKey],
    scorer: BleuStatistics,
    lowercase_ribes: bool = True,
    chrf_scorer: ChrfStatistics | None = None,
    jobs: int | None = None,
) -> SentenceStatistics:
    """One pass: tokenize each sentence once, then BLEU statistics and RIBES from the tokens;
    chrF statistics from the raw text (chrF has no tokenizer). ``jobs`` (default: the cores)
    processes share an input of :data:`PARALLEL_ROWS` rows or more; the rows are the same."""
    chrf_scorer = ChrfStatistics() if chrf_scorer is None else chrf_scorer
    jobs = cores() if jobs is None else jobs
    if jobs > 1 and len(predictions) >= PARALLEL_ROWS and can_fork():
        bleu, chrf, ribes = _in_parallel(predictions, references, scorer, lowercase_ribes, chrf_scorer, jobs)
    else:
        bleu, chrf, ribes = _rows(predictions, references, scorer, lowercase_ribes, chrf_scorer)
    return SentenceStatistics(bleu=bleu, chrf=chrf, ribes=ribes, nrefs=count_references(references))


def _rows(predictions: Sequence[str], references: Sequence[RefsKey], scorer: BleuStatistics,
          lowercase_ribes: bool, chrf_scorer: ChrfStatistics) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    preprocess, chrf_preprocess = scorer.preprocess, chrf_scorer.preprocess
    rows, chrf_rows = [], []
    ribes = np.empty(len(predictions), dtype=np.float64)
    for i, (hyp, refs) in enumerate(zip(predictions, references, strict=True)):
        hyp_tok = preprocess(hyp)
        refs_tok = [preprocess(r) for r in refs]
        rows.append(scorer.segment_from_preprocessed(hyp_tok, refs_tok))
        ribes[i] = sentence_ribes(
            words(hyp_tok, lowercase_ribes), [words(r, lowercase_ribes) for r in refs_tok]
        )
        chrf_rows.append(
            chrf_scorer.segment_from_preprocessed(chrf_preprocess(hyp), [chrf_preprocess(r) for r in refs])
        )
    bleu = np.asarray(rows, dtype=np.int64).reshape(len(rows), scorer.width)
    chrf = np.asarray(chrf_rows, dtype=np.int64).reshape(len(chrf_rows), chrf_scorer.width)
    return bleu, chrf, ribes


def _chunk_rows(start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    w = _WORKER
    return _rows(w["predictions"][start:stop], w["references"][start:stop], w["scorer"], w["lowercase"], w["chrf"])


def _in_parallel(predictions: Sequence[str], references: Sequence[RefsKey], scorer: BleuStatistics,
                 lowercase_ribes: bool, chrf_scorer: ChrfStatistics, jobs: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
    bounds = np.linspace(0, len(predictions), jobs + 1).astype(int)
    state = {"predictions": predictions, "references": references, "scorer": scorer, "lowercase": lowercase_ribes,
             "chrf": chrf_scorer}
    with forked_pool(jobs, _WORKER, state) as pool:
        parts = list(pool.map(_chunk_rows, bounds[:-1], bounds[1:]))
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(3))


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
    return cached_pool(preds, refs, tokenize, lowercase_ribes)


def cached_pool(
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


def challenge_statistics(
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
    chrf = np.empty((len(predictions), pool.stats.chrf.shape[1]), dtype=np.int64)
    ribes = np.empty(len(predictions), dtype=np.float64)
    hits = [i for i, row in enumerate(found) if row is not None]
    if hits:
        rows = np.asarray([found[i] for i in hits], dtype=np.int64)
        bleu[hits] = pool.stats.bleu[rows]
        chrf[hits] = pool.stats.chrf[rows]
        ribes[hits] = pool.stats.ribes[rows]
    if missing:
        extra = sentence_statistics(
            [predictions[i] for i in missing], [references[i] for i in missing], scorer, lowercase_ribes
        )
        bleu[missing] = extra.bleu
        chrf[missing] = extra.chrf
        ribes[missing] = extra.ribes
    return SentenceStatistics(bleu=bleu, chrf=chrf, ribes=ribes, nrefs=count_references(references))


def clear_pool_cache() -> None:
    """Forget every cached pool (benchmarks time the first computation)."""
    _POOL_CACHE.clear()
