"""The length-matched random baseline of Choshen & Abend (2019) (docs/method.md, "Evaluation").

Length alone moves BLEU and RIBES, so each random corpus replaces every challenge sentence by a
random sentence of the full corpus (the *pool*, the challenge sentences excluded by the caller's
mask) whose source length is within the row's window, and the challenge score is placed among
the random corpora's scores. Choices that change numbers:

* The window is ``max(tolerance, floor(relative × length))`` tokens: the paper's ±1 token for
  every segment under 100 tokens at the default ``relative`` of 0.02, wider for the long segments
  of paragraph-level test sets (WMT23+, up to 430 tokens: ±8), where ±1 token finds no other
  segment; 0 is the ±``tolerance`` rule alone. The segment's length is matched (not its
  sentence's): the random corpus scores whole segments.
* Draws are independent and with replacement, within and across samples.
* Where fewer than :data:`MIN_CANDIDATES` pool sentences lie within a row's window, the row draws
  from every sentence of the corpus within it (the set's own included, as the paper's baseline
  drew from the full set); ``shared`` counts those rows. A paragraph-level test set has a few
  hundred segments, most of them holding an instance of a common phenomenon: the rest alone holds
  one or two segments of a paragraph's length, drawn again and again. Drawing from the set's own
  rows moves the random corpora towards the set, so it can hide a difference, never make one.
* Where no sentence at all lies within a row's window, the window widens to the nearest length;
  ``widened`` counts those rows: only there does matching fail.
* One ``numpy.random.Generator`` seeded by the caller, lengths visited in sorted order: the same
  seed gives the same samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LengthMatchedSamples:
    """Sampled corpora as pool indices, and how many challenge sentences needed a wider window."""

    index: np.ndarray  # (n_samples, n_challenge) int64: row k = the pool sentences of corpus k
    widened: int  # challenge sentences with no sentence at all within their window
    max_tolerance: int  # the widest window any sentence needed
    pool_size: int  # pool sentences that could be drawn (the excluded ones left out)
    shared: int = 0  # challenge sentences that drew from the whole corpus (fewer than MIN_CANDIDATES in the pool)

    def length_gap(self, challenge_lengths: np.ndarray, pool_lengths: np.ndarray) -> tuple[float, float]:
        """How closely the draws match: the mean |Δlength| of a replacement in tokens, and relative to
        the row's length (a share; a row of length 0 counts its gap in tokens)."""
        gap = np.abs(np.asarray(pool_lengths)[self.index] - np.asarray(challenge_lengths)[None, :])
        return float(gap.mean()), float((gap / np.maximum(challenge_lengths, 1)[None, :]).mean())

    def distinct(self) -> float:
        """The mean number of distinct sentences a row is replaced by over the samples."""
        ordered = np.sort(self.index, axis=0)
        return float((1 + np.count_nonzero(np.diff(ordered, axis=0), axis=0)).mean())


DEFAULT_LENGTH_RELATIVE = 0.02  # the window's share of a row's length (module docstring)
# a row whose window holds fewer pool sentences draws from the whole corpus (module docstring):
# below 3, one or two segments make up every random corpus's replacements of the row
MIN_CANDIDATES = 3


def length_window(length: int, tolerance: int, relative: float = DEFAULT_LENGTH_RELATIVE) -> int:
    """The window of a row of ``length`` source tokens: ``max(tolerance, floor(relative × length))``
    (rounded to 9 decimals first, so that 0.05 × 60 is 3, not 2.9999…)."""
    return max(tolerance, math.floor(round(relative * length, 9)))


def rule_signature(tolerance: int, relative: float) -> str:
    """The rule in a signature: ``tol:1|rel:0.02`` (``tol:1`` alone for the ±tolerance rule)."""
    return f"tol:{tolerance}" + (f"|rel:{relative:g}" if relative else "")


def check_relative(relative: float) -> None:
    """A ValueError unless ``relative`` is a finite number from 0 to 1 (a window of the whole
    length or more would match nothing by length)."""
    if isinstance(relative, bool) or not isinstance(relative, int | float) or not 0 <= relative <= 1:
        raise ValueError(f"length_relative must be a number from 0 to 1, got {relative!r}")


def _window(sorted_lengths: np.ndarray, length: int, window: int) -> tuple[int, int]:
    """The slice of ``sorted_lengths`` within ``window`` tokens of ``length``."""
    lo = int(np.searchsorted(sorted_lengths, length - window, side="left"))
    return lo, int(np.searchsorted(sorted_lengths, length + window, side="right"))


def _source(length: int, window: int, narrow: tuple[np.ndarray, np.ndarray], whole: tuple[np.ndarray, np.ndarray],
            min_candidates: int) -> tuple[tuple[np.ndarray, np.ndarray], tuple[int, int]]:
    """Where a row of ``length`` draws from, (pool indices, their sorted lengths), and its window's
    slice: the pool, or the whole corpus where the pool holds fewer than ``min_candidates`` within
    ``window`` and the corpus more (the row itself aside)."""
    lo, hi = _window(narrow[1], length, window)
    if hi - lo < min_candidates and len(narrow[0]) < len(whole[0]):
        found = _window(whole[1], length, window)
        if found[1] - found[0] - 1 > hi - lo:
            return whole, found
    return narrow, (lo, hi)


def sample_length_matched(
    challenge_lengths: Sequence[int] | np.ndarray,
    pool_lengths: Sequence[int] | np.ndarray,
    n_samples: int = 100,
    tolerance: int = 1,
    exclude: np.ndarray | None = None,
    rng: np.random.Generator | int | None = None,
    relative: float = DEFAULT_LENGTH_RELATIVE,
    min_candidates: int = MIN_CANDIDATES,
) -> LengthMatchedSamples:
    """Draw ``n_samples`` length-matched corpora from the pool, each row's within
    :func:`length_window` of its length.

    ``exclude`` is a boolean mask over the pool (True = do not draw this sentence, unless the row's
    window holds fewer than ``min_candidates`` others: module docstring; 0 never draws it).
    Raises ValueError when the pool has no candidate at all (the request checked the other arguments).
    """
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    challenge = np.asarray(challenge_lengths, dtype=np.int64)
    pool = np.asarray(pool_lengths, dtype=np.int64)
    candidates = np.arange(len(pool), dtype=np.int64)
    if exclude is not None:
        candidates = candidates[~np.asarray(exclude, dtype=bool)]
    if len(candidates) == 0:
        raise ValueError(
            "pool_predictions: no pool sentence is left to sample from once the challenge "
            "sentences are excluded"
        )
    # the pool and the whole corpus sorted by length: a length window is then one contiguous slice
    order = candidates[np.argsort(pool[candidates], kind="stable")]
    everything = np.argsort(pool, kind="stable")
    narrow, whole = (order, pool[order]), (everything, pool[everything])

    index = np.empty((n_samples, len(challenge)), dtype=np.int64)
    widened = shared = 0
    widest = tolerance
    lengths, inverse = np.unique(challenge, return_inverse=True)
    for group, length in enumerate(lengths.tolist()):
        columns = np.flatnonzero(inverse == group)
        window = allowed = length_window(length, tolerance, relative)
        (drawn, sorted_lengths), (lo, hi) = _source(length, window, narrow, whole, min_candidates)
        shared += len(columns) * (drawn is everything)
        if hi == lo:  # widen to the nearest length (the pool is not empty)
            window = min(abs(int(sorted_lengths[k]) - length) for k in (lo - 1, lo) if 0 <= k < len(drawn))
            lo, hi = _window(sorted_lengths, length, window)
        if window > allowed:
            widened += len(columns)
        widest = max(widest, window)
        draws = rng.integers(lo, hi, size=(n_samples, len(columns)))
        index[:, columns] = drawn[draws]
    return LengthMatchedSamples(index=index, widened=widened, max_tolerance=widest, pool_size=len(candidates),
                                shared=shared)


# More than a tenth of the rows had no sentence of the corpus within their window: the random
# corpora are not length-matched, and the comparison means nothing. (Rows the rest of the corpus
# could not match draw from the whole of it: a set holding most of the corpus is matched, and its
# random corpora resemble it, which hides a difference but never makes one.)
DEGENERATE_WIDENED_SHARE = 0.1


def is_degenerate(rows: int, widened: int) -> bool:
    """Whether a config of ``rows`` rows gets no meaningful length-matched baseline when
    ``widened`` rows needed a wider window."""
    return widened > DEGENERATE_WIDENED_SHARE * rows


def summarize(samples: Sequence[float] | np.ndarray, score: float, higher_is_better: bool = True) -> dict[str, float]:
    """Where ``score`` falls among the random corpora's scores.

    * ``std`` is the sample standard deviation (ddof=1; 0 for a single sample).
    * ``p5``/``p95`` are the 5th/95th percentiles (numpy's linear interpolation), for bands.
    * ``percentile`` = 100 · (samples at or worse than score) / n; worse is lower where higher is
      better (scipy's ``percentileofscore(kind="weak")``), higher otherwise (TER).
    * ``p_value`` = (1 + samples at or worse) / (n + 1): the one-sided empirical p-value of "the
      challenge set scores worse than length-matched random sets" (the +1 counts the observed
      value itself, so it is never 0; Davison & Hinkley 1997).
    """
    values = np.asarray(samples, dtype=np.float64)
    n = len(values)
    at_or_worse = int(np.count_nonzero(values <= score if higher_is_better else values >= score))
    p5, p95 = np.percentile(values, [5, 95]).tolist()
    return {
        "mean": float(values.mean()),
        "std": float(values.std(ddof=1)) if n > 1 else 0.0,
        "min": float(values.min()),
        "max": float(values.max()),
        "p5": p5,
        "p95": p95,
        "percentile": 100.0 * at_or_worse / n,
        "p_value": (1 + at_or_worse) / (n + 1),
    }
