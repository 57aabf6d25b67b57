"""The length-matched random baseline of Choshen & Abend (2019) (docs/method.md, "Evaluation").

Challenge sentences differ from the average sentence in length, and length alone moves BLEU and
RIBES. So each random corpus replaces every challenge sentence by a random sentence of the full
corpus (the *pool*) whose source length is within the row's *window*: ``tolerance`` tokens, or
``relative`` × its length where that is wider (:func:`length_window`); the challenge score is
then placed within the distribution of the random corpora's scores.

Choices (documented because they change numbers):

* The window is ``max(tolerance, floor(relative × length))`` tokens (issue 35, paragraph-level
  test sets). Choshen & Abend's ±1 token is about ±5 % of a 20-token sentence; a WMT23+ segment is a
  paragraph (up to 430 tokens), and on a few hundred of them ±1 token around 150 finds no other
  segment (a de→en set of 549 paragraphs: 38 of 42 configs degenerate, aux_bracket.d1 96 of 273
  rows widened), or one or two, drawn again and again, so the random corpora hardly vary. A window
  relative to the length keeps "as long as" meaning the same share of the length at every length.
  The default ``relative`` of 0.05 is that ±5 %: below 40 tokens it is ±1 token, so
  sentence-level corpora keep their ±1-token draws except in their longest rows. Matching on the
  sentence that holds the instance instead was rejected: the random corpus is scored on whole
  segments (system outputs are not split into sentences), so it is the segment's length that BLEU
  and RIBES see and that must match. ``relative`` = 0 is the ±``tolerance`` rule alone, as before.
* Draws are independent and with replacement, within and across samples.
* The challenge sentences themselves are excluded from the pool by default (the caller passes the
  mask), so the baseline is made of *other* sentences.
* When no pool sentence lies within a row's window, the window widens by one token at a time
  until one does (computed at once: the distance to the nearest pool length); ``widened`` counts
  the challenge sentences that needed it.
* Randomness comes from one ``numpy.random.Generator`` seeded by the caller; lengths are visited
  in sorted order, so the same seed gives the same samples.
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
    widened: int  # challenge sentences with no pool sentence within their window
    max_tolerance: int  # the widest window any sentence needed


DEFAULT_LENGTH_RELATIVE = 0.05  # the window's share of a row's length (module docstring)


def length_window(length: int, tolerance: int, relative: float = DEFAULT_LENGTH_RELATIVE) -> int:
    """The window of a row of ``length`` source tokens: ``max(tolerance, floor(relative × length))``
    (rounded to 9 decimals first, so that 0.05 × 60 is 3, not 2.9999…)."""
    return max(tolerance, math.floor(round(relative * length, 9)))


def rule_signature(tolerance: int, relative: float) -> str:
    """The rule in a signature: ``tol:1|rel:0.05`` (``tol:1`` alone for the ±tolerance rule)."""
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


def _nearest_gap(sorted_lengths: np.ndarray, length: int) -> int:
    """Distance from ``length`` to the nearest of ``sorted_lengths`` (not empty): the smallest
    window that finds a candidate, i.e. where widening one token at a time stops."""
    at = int(np.searchsorted(sorted_lengths, length))
    gaps = []
    if at < len(sorted_lengths):
        gaps.append(int(sorted_lengths[at]) - length)
    if at > 0:
        gaps.append(length - int(sorted_lengths[at - 1]))
    return min(gaps)


def sample_length_matched(
    challenge_lengths: Sequence[int] | np.ndarray,
    pool_lengths: Sequence[int] | np.ndarray,
    n_samples: int = 100,
    tolerance: int = 1,
    exclude: np.ndarray | None = None,
    rng: np.random.Generator | int | None = None,
    relative: float = DEFAULT_LENGTH_RELATIVE,
) -> LengthMatchedSamples:
    """Draw ``n_samples`` length-matched corpora from the pool, each row's within
    :func:`length_window` of its length.

    ``exclude`` is a boolean mask over the pool (True = never draw this sentence).
    Raises ValueError when the pool has no candidate at all.
    """
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}")
    if tolerance < 0:
        raise ValueError(f"length_tolerance must be >= 0, got {tolerance}")
    check_relative(relative)
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    challenge = np.asarray(challenge_lengths, dtype=np.int64)
    pool = np.asarray(pool_lengths, dtype=np.int64)
    candidates = np.arange(len(pool), dtype=np.int64)
    if exclude is not None:
        exclude = np.asarray(exclude, dtype=bool)
        if exclude.shape != pool.shape:
            raise ValueError("exclude mask must have one entry per pool sentence")
        candidates = candidates[~exclude]
    if len(candidates) == 0:
        raise ValueError(
            "pool_predictions: no pool sentence is left to sample from once the challenge "
            "sentences are excluded"
        )
    # Candidates sorted by length: a length window is then one contiguous slice.
    order = candidates[np.argsort(pool[candidates], kind="stable")]
    sorted_lengths = pool[order]

    index = np.empty((n_samples, len(challenge)), dtype=np.int64)
    widened = 0
    widest = tolerance
    lengths, inverse = np.unique(challenge, return_inverse=True)
    for group, length in enumerate(lengths.tolist()):
        columns = np.flatnonzero(inverse == group)
        window = allowed = length_window(length, tolerance, relative)
        lo, hi = _window(sorted_lengths, length, window)
        if hi == lo:  # widen to the nearest pool length (the pool is not empty)
            window = _nearest_gap(sorted_lengths, length)
            lo, hi = _window(sorted_lengths, length, window)
        if window > allowed:
            widened += len(columns)
        widest = max(widest, window)
        draws = rng.integers(lo, hi, size=(n_samples, len(columns)))
        index[:, columns] = order[draws]
    return LengthMatchedSamples(index=index, widened=widened, max_tolerance=widest)


# A config's random corpora are drawn from its complement (the rest of the corpus). When the
# complement holds fewer rows than the config, every random corpus reuses each complement sentence
# more than once on average, so the spread is too narrow and the "random" corpus is the few
# sentences without the phenomenon (WMT21 de-en subj_verb.d0: 788 of 1,000 rows, all 19 systems
# "below the 5th percentile" while scoring their full-test BLEU); when many rows needed a wider
# window, the corpora are not length-matched. Either way the comparison means nothing.
DEGENERATE_COMPLEMENT_RATIO = 1.0
DEGENERATE_WIDENED_SHARE = 0.1


def is_degenerate(rows: int, complement: int, widened: int) -> bool:
    """Whether a config of ``rows`` rows cannot get a meaningful length-matched baseline from a
    complement of ``complement`` rows when ``widened`` rows needed a wider window: the complement
    is smaller than :data:`DEGENERATE_COMPLEMENT_RATIO` × the rows, or more than
    :data:`DEGENERATE_WIDENED_SHARE` of the rows were widened."""
    return complement < DEGENERATE_COMPLEMENT_RATIO * rows or widened > DEGENERATE_WIDENED_SHARE * rows


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
    if n == 0:
        raise ValueError("no samples to summarize")
    at_or_worse = int(np.count_nonzero(values <= score if higher_is_better else values >= score))
    return {
        "mean": float(values.mean()),
        "std": float(values.std(ddof=1)) if n > 1 else 0.0,
        "min": float(values.min()),
        "max": float(values.max()),
        "p5": float(np.percentile(values, 5)),
        "p95": float(np.percentile(values, 95)),
        "percentile": 100.0 * at_or_worse / n,
        "p_value": (1 + at_or_worse) / (n + 1),
    }
