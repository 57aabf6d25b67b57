"""Suffix array, LCP array and range minima of an integer sequence, all in numpy, O(n log n).

RIBES's word alignment asks, for each word of a hypothesis, how far its context matches elsewhere
(:mod:`auto_challenge_sets.scoring.metrics.ribes`); on lines of thousands of repeated words only a suffix
array answers that in better than quadratic time, and only numpy makes it cheap in Python.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def suffix_array(seq: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(sa, lcp)``: the start positions of the suffixes of ``seq`` in lexicographic order (a
    suffix before the longer ones it is a prefix of), and ``lcp[r]``, the length of the common
    prefix of suffixes ``sa[r - 1]`` and ``sa[r]`` (``lcp[0]`` = 0).

    Prefix doubling: round k ranks every suffix by its first 2**k symbols, one numpy lexsort per
    round. The ranks of every round are kept, so the common prefix of neighbours is found by
    binary lifting over them (longest power of two first) instead of symbol by symbol.
    """
    n = len(seq)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    _, rank = np.unique(np.asarray(seq, dtype=np.int64), return_inverse=True)
    rank = rank.astype(np.int64).reshape(-1)
    ranks = [rank]  # ranks[k]: rank by the first 2**k symbols
    sa = np.argsort(rank, kind="stable")
    step = 1
    while int(rank.max()) < n - 1:  # until every suffix has its own rank
        second = np.full(n, -1, dtype=np.int64)
        second[: n - step] = rank[step:]
        sa = np.lexsort((second, rank))
        first_sorted, second_sorted = rank[sa], second[sa]
        changed = np.empty(n, dtype=np.int64)
        changed[0] = 0
        changed[1:] = (first_sorted[1:] != first_sorted[:-1]) | (second_sorted[1:] != second_sorted[:-1])
        rank = np.empty(n, dtype=np.int64)
        rank[sa] = np.cumsum(changed)
        ranks.append(rank)
        step *= 2
    return sa.astype(np.int64), _neighbour_lcp(sa, ranks)


def _neighbour_lcp(sa: np.ndarray, ranks: list[np.ndarray]) -> np.ndarray:
    """Common prefix of each suffix with the one ranked before it: two suffixes agree on 2**k
    symbols from an offset when their round-k ranks there are equal, so try k from the largest
    down and add 2**k wherever they agree. Suffixes of different length never share a rank past
    the shorter one's end, so no offset runs off the sequence."""
    n = len(sa)
    lcp = np.zeros(n, dtype=np.int64)
    a, b = sa[1:].copy(), sa[:-1].copy()
    length = np.zeros(n - 1, dtype=np.int64)
    for k in range(len(ranks) - 1, -1, -1):
        ok = (a < n) & (b < n)
        same = np.zeros(n - 1, dtype=bool)
        same[ok] = ranks[k][a[ok]] == ranks[k][b[ok]]
        grow = 1 << k
        length[same] += grow
        a[same] += grow
        b[same] += grow
    lcp[1:] = length
    return lcp


class RangeMin:
    """Minima of ``values[first .. last]`` (inclusive) for many ranges at once: a sparse table,
    O(n log n) to build, O(1) numpy work per range."""

    def __init__(self, values: np.ndarray) -> None:
        self.levels = [np.asarray(values, dtype=np.int64)]
        width = 1
        while 2 * width <= len(values):
            previous = self.levels[-1]
            self.levels.append(np.minimum(previous[:-width], previous[width:]))
            width *= 2

    def query(self, first: np.ndarray, last: np.ndarray) -> np.ndarray:
        """Minimum over each range ``first[i] .. last[i]``; every range must be non-empty."""
        first, last = np.asarray(first, dtype=np.int64), np.asarray(last, dtype=np.int64)
        out = np.empty(len(first), dtype=np.int64)
        level = np.floor(np.log2(last - first + 1)).astype(np.int64)  # the widest power of two inside
        for k in np.unique(level):
            pick = level == k
            table = self.levels[int(k)]
            out[pick] = np.minimum(table[first[pick]], table[last[pick] - (1 << int(k)) + 1])
        return out
