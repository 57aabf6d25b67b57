"""The scoring kernel: a set of rows scored by any metrics, against its length-matched random
corpora. Both front ends call it (``acs evaluate``'s engine and the ``ldd_challenge`` metric's
``compute()``), so they give the same numbers, signatures, seed default and draws on the same rows.
Each sentence becomes a row of statistics once; a set and its random corpora (:func:`draw`) are
scored from those rows (:func:`score_rows`), every number checked finite (:mod:`.finite`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from auto_challenge_sets.scoring.finite import corpus_score, run_metric, sample_scores
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    LengthMatchedSamples,
    sample_length_matched,
    summarize,
)
from auto_challenge_sets.scoring.metrics import Metric, References
from auto_challenge_sets.workers import imap

DEFAULT_SEED = 1  # the same random corpora on every run unless a seed is given
MAX_SAMPLES = 100_000  # random corpora of one set: more would not fit in memory, so it is a typo

# A system's rows do not depend on the rows computed beside them, so a system of PARALLEL_ROWS rows
# or more is cut into one contiguous block per job; below, a worker's start costs more than it saves.
# No block holds more than BLOCK_ROWS rows: every metric computes a block's statistics before the
# next block, so RIBES reads BLEU's tokens in sacrebleu's tokenizer cache (2**16 lines).
PARALLEL_ROWS = 10_000
BLOCK_ROWS = 16_384


def systems_statistics(metrics: Mapping[str, Metric], systems: Sequence[tuple[str, Sequence[str], References]],
                       sources: Sequence[str] | None, jobs: int) -> Iterator[dict[str, np.ndarray]]:
    """Every system's per-sentence statistics per metric (``systems``: name, predictions,
    references), one system after another; a ValueError of a metric keeps its type, its name in
    front. The metrics that may run in other processes go to ``jobs`` worker processes
    (:func:`~auto_challenge_sets.workers.imap`), a task per system or per block of a large one
    (:data:`PARALLEL_ROWS`, :data:`BLOCK_ROWS`); the others run here. The rows are the same
    whatever ``jobs``."""
    spread = {name: metric for name, metric in metrics.items() if metric.parallel_safe}
    here = {name: metric for name, metric in metrics.items() if name not in spread}
    cuts = []
    for _, predictions, _ in systems:  # as many references as predictions: the callers checked
        parts = max(jobs, -(-len(predictions) // BLOCK_ROWS)) if len(predictions) >= PARALLEL_ROWS else 1
        cuts.append(np.linspace(0, len(predictions), parts + 1).astype(int))

    def blocks() -> Iterator[tuple[Sequence[str], References, Sequence[str] | None, str]]:
        for (system, predictions, references), bounds in zip(systems, cuts):
            for start, stop in zip(bounds[:-1], bounds[1:]):
                yield (predictions[start:stop], references[start:stop],
                       None if sources is None else sources[start:stop], system)

    found = imap(partial(_statistics, spread), blocks(), jobs if spread else 1)
    try:
        for (system, predictions, references), bounds in zip(systems, cuts):
            parts = [next(found) for _ in bounds[1:]]
            rows = {name: parts[0][name] if len(parts) == 1 else np.concatenate([part[name] for part in parts])
                    for name in spread}
            rows.update(_statistics(here, (predictions, references, sources, system)))
            yield {name: rows[name] for name in metrics}
    finally:
        found.close()  # the workers end with an error here too


def _statistics(metrics: Mapping[str, Metric],
                rows: tuple[Sequence[str], References, Sequence[str] | None, str]) -> dict[str, np.ndarray]:
    predictions, references, sources, system = rows
    return {name: run_metric(name, system, partial(metric.statistics, predictions, references, sources))
            for name, metric in metrics.items()}


def draw(lengths: np.ndarray, pool_lengths: np.ndarray, exclude: np.ndarray, n_samples: int, tolerance: int,
         seed: int | None, stream: Sequence[int] = (0,), relative: float = DEFAULT_LENGTH_RELATIVE) -> LengthMatchedSamples:
    """``n_samples`` length-matched corpora (:func:`.sample_length_matched`) of the set's ``lengths``,
    never a pool row that ``exclude`` marks, from numpy's generator seeded ``[seed, *stream]``
    (independent, reproducible streams: a set's baseline is stream 0, compute()'s slice at
    distance D stream (1, D)); a fresh draw for seed None."""
    rng = np.random.default_rng() if seed is None else np.random.default_rng([seed, *stream])
    return sample_length_matched(lengths, pool_lengths, n_samples, tolerance, exclude, rng, relative)


@dataclass(frozen=True)
class RowsScore:
    """One metric's score of a set, and its random corpora's scores (None without corpora)."""

    score: float
    samples: np.ndarray | None

    def spread(self, higher_is_better: bool) -> dict[str, float] | None:
        """Where the score falls among the random corpora's (:func:`.summarize`)."""
        return None if self.samples is None else summarize(self.samples, self.score, higher_is_better)


def score_rows(metrics: Mapping[str, Metric], rows: Mapping[str, np.ndarray], pool: Mapping[str, np.ndarray],
               corpora: LengthMatchedSamples | None, system: str, where: str) -> dict[str, RowsScore]:
    """Every metric's score of a set (``rows``: its statistics per metric) and of its random
    ``corpora`` (drawn from ``pool``, the pool's statistics per metric); a failure or a
    non-finite number names the metric, ``system`` and ``where`` (``config de-en.particle.d3``)."""
    scored = {}
    for name, metric in metrics.items():
        value = corpus_score(metric, system, rows[name], where)
        samples = None if corpora is None else sample_scores(metric, system, pool[name], corpora.index, where)
        scored[name] = RowsScore(value, samples)
    return scored
