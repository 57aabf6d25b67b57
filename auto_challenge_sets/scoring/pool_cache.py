"""The pool cache of ``compute()``: a system's output on the full corpus and each metric's
per-sentence statistics of it, computed once and kept for the next config scored against the same
pool (a small LRU keyed by the pool's content)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.metric_base import Metric
from auto_challenge_sets.scoring.validation import RefsKey

SYSTEM = "(predictions)"  # what an error names as the system: compute() scores one, unnamed


def _options_key(metric: Metric) -> tuple:
    """A metric with its options: the same name with another tokenizer has other rows."""
    return metric.name, tuple(sorted((k, repr(v)) for k, v in metric.values.items()))


@dataclass
class PoolStatistics:
    """A system's output on the full corpus and each metric's rows of it, computed once and reused."""

    predictions: tuple[str, ...]
    references: tuple[RefsKey, ...]
    sources: tuple[str, ...] | None
    stats: dict[tuple, np.ndarray] = field(default_factory=dict, repr=False)  # _options_key -> rows
    _rows: dict[tuple, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # (prediction, references[, source]) -> pool row, so identical challenge rows reuse the pool's work
        for i, key in enumerate(zip(*self._columns())):
            self._rows.setdefault(key, i)

    def _columns(self) -> tuple[Sequence, ...]:
        return (self.predictions, self.references) + (() if self.sources is None else (self.sources,))

    def __len__(self) -> int:
        return len(self.predictions)

    def rows(self, metrics: dict[str, Metric]) -> dict[str, np.ndarray]:
        """Each metric's statistics of the pool, computed for the metrics not seen before."""
        missing = {name: m for name, m in metrics.items() if _options_key(m) not in self.stats}
        if missing:
            found = kernel.statistics(missing, self.predictions, self.references, self.sources, system=SYSTEM)
            self.stats.update({_options_key(missing[name]): rows for name, rows in found.items()})
        return {name: self.stats[_options_key(m)] for name, m in metrics.items()}

    def row_of(self, *key: Any) -> int | None:
        """Pool row scored on exactly this prediction, these references (and this source), if any."""
        return self._rows.get(key)


_POOL_CACHE: OrderedDict[tuple, PoolStatistics] = OrderedDict()
_POOL_CACHE_SIZE = 4


def pool_statistics(pool_predictions: Sequence[str], pool_references: Sequence[str] | Sequence[Sequence[str]],
                    pool_sources: Sequence[str] | None = None) -> PoolStatistics:
    """The pool from a small LRU cache keyed by its content: scoring many configs of one dataset
    against one system output passes the same pool each time; only the first call does the work.
    Hashing the strings is cheap (Python caches string hashes) next to tokenizing them; a hit is
    confirmed by comparing the contents."""
    preds = tuple(pool_predictions)
    refs = tuple((r,) if isinstance(r, str) else tuple(r) for r in pool_references)
    sources = None if pool_sources is None else tuple(pool_sources)
    key = (len(preds), hash(preds), hash(refs), hash(sources))
    cached = _POOL_CACHE.get(key)
    if cached is not None and (cached.predictions, cached.references, cached.sources) == (preds, refs, sources):
        _POOL_CACHE.move_to_end(key)
        return cached
    pool = PoolStatistics(preds, refs, sources)
    _POOL_CACHE[key] = pool
    while len(_POOL_CACHE) > _POOL_CACHE_SIZE:
        _POOL_CACHE.popitem(last=False)
    return pool


def clear_pool_cache() -> None:
    """Forget every cached pool (benchmarks time the first computation)."""
    _POOL_CACHE.clear()
