"""RIBES (Isozaki et al., EMNLP 2010) as NTT's reference scorer RIBES.py 1.03.1 defines it
(docs/method.md, "RIBES").

Written from the definition, not from NTT's GPL code; not NLTK's ``ribes_score`` (which aligns
words differently).

Definition, for one hypothesis ``hyp`` and one reference ``ref`` (lists of words):

* **Word alignment.** Hypothesis words are visited left to right. A word that does not occur in
  ``ref`` is skipped. A word that occurs exactly once in ``hyp`` and exactly once in ``ref`` is
  aligned to that reference position. Otherwise its context is grown, window ``k = 1, 2, ...``:
  first the left n-gram ``hyp[i-k .. i]`` (when ``k <= i``), then the right n-gram
  ``hyp[i .. i+k]`` (when ``i+k < len(hyp)``); the first n-gram that occurs exactly once in
  ``ref`` and exactly once in ``hyp`` (occurrences may overlap) aligns the word to its position
  inside that reference occurrence. A word for which no window works stays unaligned.
* **NKT**, normalized Kendall's tau of the aligned reference positions ``p_1 .. p_n`` (in
  hypothesis order): the fraction of pairs ``a < b`` with ``p_a < p_b`` (strictly), i.e.
  ``(tau + 1) / 2`` when no two words share a position (a shared position counts as discordant).
* **P** = n / len(hyp), unigram precision of the aligned words.
* **BP** = min(1, exp(1 - len(ref) / len(hyp))).
* **RIBES** = NKT * P**alpha * BP**beta with alpha = 0.25, beta = 0.10.

NTT's conventions for few alignments: with exactly one aligned word and a one-word reference
the sentence gets NKT = 1 and P = 1/len(hyp); with fewer than two aligned words otherwise the
score is 0. An empty hypothesis scores 0. NTT's scorer refuses an empty reference; here it
scores 0 (what its ``--emptyref`` option is for). Several references: the best sentence score
over them. Corpus score: the mean of the sentence scores. Text is lowercased by default, as
RIBES.py does unless ``--case`` is given.

Cost: no window is ever searched for. The first window unique in both sentences follows from
three match lengths per side of a word (:func:`_window`), found from its equal-word pairs on
sentences and from a suffix array on lines of many repeats, O(n log n). Lines beyond
:mod:`auto_challenge_sets.formats.line_limit` are refused before scoring. The float operations
follow the definition's order (``ascending / (n * (n - 1) / 2)``, ``n / len(hyp)``), so that
scores agree with NTT's to the last bit on the same tokens.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics.base import AveragedMetric, References
from auto_challenge_sets.scoring.metrics.bleu import TOKENIZE, _bleu_rows
from auto_challenge_sets.scoring.metrics.suffix_array import RangeMin, suffix_array

ALPHA = 0.25
BETA = 0.10


def _positions(seq: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    """Word -> the positions where it occurs."""
    where: dict[Hashable, list[int]] = {}
    for k, word in enumerate(seq):
        where.setdefault(word, []).append(k)
    return where


# Above this many equal-word pairs per word of the pair (hypothesis x reference and hypothesis x
# hypothesis, summed over words), context lengths come from a suffix array instead of from the
# equal-word pairs themselves: both give the same numbers; the pairs are cheaper on sentences,
# where few words repeat, and the suffix array bounds lines of many repeats at O(n log n). Below
# DENSE_MIN_PAIRS pairs in all, the pairs stay cheaper than numpy's per-call overhead.
DENSE_PAIRS_PER_WORD = 4
DENSE_MIN_PAIRS = 4096

# One context side of ambiguous hypothesis words: word position -> (best, second, at, again):
# ``best`` the longest match of the context from that word on with the reference, ``at`` the
# reference position where it starts; ``second`` the longest match at any other reference
# position; ``again`` the longest match with the hypothesis at any other position.
Matches = dict[int, tuple[int, int, int, int]]


def _matches_by_pairs(hyp: list, ref: list, wanted: Sequence[int], hyp_pos: dict, ref_pos: dict,
                      step: int) -> Matches:
    """Match lengths from the equal-word pairs of each wanted word, reading its context rightwards
    (``step`` 1) or leftwards (-1; ``at`` is then where the match ends in the reference).

    A match is a run of equal words down a diagonal of (hypothesis, other) positions; each run
    is walked once and remembered cell by cell, so overlapping runs cost nothing twice (at most
    one step per equal-word pair, and on sentences little more than the runs themselves)."""

    def run(other: list, i: int, j: int, memo: dict[tuple[int, int], int]) -> int:
        path = []
        length = 0
        while True:
            known = memo.get((i, j))
            if known is not None:
                length = known
                break
            if not (0 <= i < len(hyp) and 0 <= j < len(other)) or hyp[i] != other[j]:
                break
            path.append((i, j))
            i += step
            j += step
        for cell in reversed(path):
            length += 1
            memo[cell] = length
        return length

    with_ref: dict[tuple[int, int], int] = {}
    with_hyp: dict[tuple[int, int], int] = {}
    matches: Matches = {}
    n, m = len(hyp), len(ref)
    for i in wanted:
        word = hyp[i]
        best = second = 0
        at = -1
        # (i, s) match by definition; most runs end at the next word, checked here without a call
        nexti = i + step
        inside = 0 <= nexti < n
        for s in ref_pos[word]:
            length = 1 + run(ref, nexti, s + step, with_ref) if inside and 0 <= s + step < m and hyp[
                nexti] == ref[s + step] else 1
            if length > best:
                best, second, at = length, best, s
            elif length > second:
                second = length
        again = 0
        for j in hyp_pos[word]:
            if j != i and inside and 0 <= j + step < n and hyp[nexti] == hyp[j + step]:
                # the run from (i, j) is the run from (j, i): remember one of them
                again = max(again, 1 + run(hyp, min(nexti, j + step), max(nexti, j + step), with_hyp))
            elif j != i:
                again = max(again, 1)
        matches[i] = (best, second, at, again)
    return matches


def _matches_by_suffix_array(hyp: list[int], ref: list[int], wanted: Sequence[int]) -> Matches:
    """Match lengths from the suffix array of ``hyp + [#1] + ref + [#2]``: the match of two
    suffixes is the least LCP between their ranks, so the nearest hypothesis suffix and the two
    nearest reference suffixes on each side of a hypothesis suffix hold the longest matches
    (O(n log n), in numpy). The separators occur once, so no match runs past a sentence's end."""
    n, m = len(hyp), len(ref)
    top = max(max(hyp, default=0), max(ref, default=0))
    sa, lcp = suffix_array([*hyp, top + 1, *ref, top + 2])
    size = len(sa)
    ranges = RangeMin(lcp)
    rank_of = np.empty(size, dtype=np.int64)
    rank_of[sa] = np.arange(size)
    here = rank_of[np.asarray(wanted, dtype=np.int64)]
    hyp_ranks = np.flatnonzero(sa < n)
    ref_ranks = np.flatnonzero((sa > n) & (sa < n + 1 + m))

    def match(other: np.ndarray) -> np.ndarray:
        """Match of each wanted suffix with the suffix at rank ``other`` (0 where other is -1)."""
        valid = other >= 0
        out = np.zeros(len(here), dtype=np.int64)
        lo, hi = np.minimum(here, other)[valid], np.maximum(here, other)[valid]
        out[valid] = ranges.query(lo + 1, hi)
        return out

    def ranked(ranks: np.ndarray, shift: int) -> np.ndarray:
        """Rank of the ``shift``-th of ``ranks`` after each wanted rank (before it when shift < 0),
        or -1 where there is none; no wanted rank is itself one of ``ranks``."""
        k = np.searchsorted(ranks, here) + (shift if shift < 0 else shift - 1)
        inside = (k >= 0) & (k < len(ranks))
        out = np.full(len(here), -1, dtype=np.int64)
        out[inside] = ranks[k[inside]]
        return out

    position = np.searchsorted(hyp_ranks, here)  # each wanted rank's own index among hyp_ranks
    before_hyp = np.where(position > 0, hyp_ranks[np.maximum(position - 1, 0)], -1)
    after_hyp = np.where(position + 1 < len(hyp_ranks), hyp_ranks[np.minimum(position + 1, len(hyp_ranks) - 1)], -1)
    again = np.maximum(match(before_hyp), match(after_hyp))
    near = [ranked(ref_ranks, shift) for shift in (-1, -2, 1, 2)]
    best_above, second_above, best_below, second_below = (match(other) for other in near)
    above = best_above >= best_below
    best = np.where(above, best_above, best_below)
    at = sa[np.where(above, near[0], near[2])] - n - 1
    second = np.maximum.reduce([np.minimum(best_above, best_below), second_above, second_below])
    return {i: (int(b), int(s), int(a), int(g))
            for i, b, s, a, g in zip(wanted, best.tolist(), second.tolist(), at.tolist(), again.tolist())}


def _window(match: tuple[int, int, int, int], room: int) -> tuple[int, int] | None:
    """The smallest window of one side that is unique in both sentences, and the reference
    position it gives; None when there is none.

    A window of k words around the word is the (k + 1)-gram of its context: it occurs in the
    reference at each position whose match is at least k + 1 long, and in the hypothesis once
    plus once per other position matching that long. So the first window unique in both is
    k = max(1, second, again), provided the best match still covers it and the sentence has room.
    """
    best, second, at, again = match
    window = max(1, second, again)
    if window + 1 <= best and window <= room:
        return window, at
    return None


def _by_context(hyp: list, ref: list, wanted: list[int], hyp_pos: dict, ref_pos: dict,
                dense: bool | None = None) -> dict[int, int | None]:
    """Reference positions of the ambiguous words ``wanted`` from their shortest unique
    context: left context first at each window size, then right (RIBES.py's order). ``dense``:
    through the suffix array (None: when the equal-word pairs are many)."""
    n, m = len(hyp), len(ref)
    found: dict[int, int | None] = {}
    if dense is None:  # n * (n + m) bounds the pairs: a sentence never counts them
        dense = n * (n + m) > DENSE_MIN_PAIRS and sum(
            len(where) * (len(where) + len(ref_pos.get(word, ()))) for word, where in hyp_pos.items()
        ) > max(DENSE_MIN_PAIRS, DENSE_PAIRS_PER_WORD * (n + m))
    if dense:
        ids: dict[Hashable, int] = {}  # the suffix array sorts integers
        hyp = [ids.setdefault(word, len(ids)) for word in hyp]
        ref = [ids.setdefault(word, len(ids)) for word in ref]
        right = _matches_by_suffix_array(hyp, ref, wanted)
        # the left context of hyp[i] read backwards is the right context of the reversed sentence
        backwards = _matches_by_suffix_array(hyp[::-1], ref[::-1], [n - 1 - i for i in wanted])
        left = {i: (best, second, m - 1 - at, again)
                for i, (best, second, at, again) in zip(wanted, (backwards[n - 1 - i] for i in wanted))}
    else:
        right = _matches_by_pairs(hyp, ref, wanted, hyp_pos, ref_pos, 1)
        left = _matches_by_pairs(hyp, ref, wanted, hyp_pos, ref_pos, -1)
    for i in wanted:
        left_window = _window(left[i], i)
        right_window = _window(right[i], n - 1 - i)
        if left_window is not None and (right_window is None or left_window[0] <= right_window[0]):
            found[i] = left_window[1]
        else:
            found[i] = None if right_window is None else right_window[1]
    return found


def align(hyp: Sequence[str], ref: Sequence[str]) -> list[int]:
    """Reference positions of the aligned hypothesis words, in hypothesis order."""
    hyp, ref = list(hyp), list(ref)
    hyp_counts, ref_counts = Counter(hyp), Counter(ref)
    ambiguous = [i for i, word in enumerate(hyp)
                 if word in ref_counts and (ref_counts[word] > 1 or hyp_counts[word] > 1)]
    by_context = _by_context(hyp, ref, ambiguous, _positions(hyp), _positions(ref)) if ambiguous else {}
    where = {word: k for k, word in enumerate(ref)}  # the position of each word that occurs once
    aligned: list[int] = []
    for i, word in enumerate(hyp):
        count = ref_counts.get(word)
        if not count:
            continue
        at = where[word] if count == 1 and hyp_counts[word] == 1 else by_context[i]
        if at is not None:
            aligned.append(at)
    return aligned


def ascending_pairs(positions: Sequence[int]) -> int:
    """Number of pairs ``a < b`` with ``positions[a] < positions[b]``: insort's shifts are
    quadratic but in C, a few hundredths of a second at the line limit's 10,000 words."""
    seen: list[int] = []
    count = 0
    for p in positions:
        count += bisect_left(seen, p)  # earlier positions strictly below p
        insort(seen, p)
    return count


def kendall(hyp: Sequence[str], ref: Sequence[str]) -> tuple[float, float, float]:
    """``(nkt, precision, bp)`` of one hypothesis against one reference (word lists)."""
    if len(ref) == 0 or len(hyp) == 0:
        return (0.0, 0.0, 0.0)
    return order_scores(align(hyp, ref), len(hyp), len(ref))


def order_scores(positions: Sequence[int], hyp_len: int, ref_len: int) -> tuple[float, float, float]:
    """``(nkt, precision, bp)`` from the reference positions of the aligned hypothesis words
    (both lengths > 0)."""
    bp = min(1.0, math.exp(1.0 - ref_len / hyp_len))
    n = len(positions)
    if n == 1 and ref_len == 1:
        return (1.0, 1.0 / hyp_len, bp)
    if n < 2:
        return (0.0, 0.0, bp)
    nkt = float(ascending_pairs(positions)) / ((n * (n - 1)) / 2)
    return (nkt, 1.0 * n / hyp_len, bp)


def sentence_ribes(hyp: Sequence[str], refs: Sequence[Sequence[str]], alpha: float = ALPHA, beta: float = BETA) -> float:
    """RIBES of one tokenized hypothesis: the best score over the tokenized references."""
    best = 0.0
    for ref in refs:
        nkt, precision, bp = kendall(hyp, ref)
        best = max(best, nkt * (precision**alpha) * (bp**beta))
    return best


def words(text: str, lowercase: bool = True) -> list[str]:
    """Split already tokenized text on whitespace, lowercasing it first by default."""
    return (text.lower() if lowercase else text).split()


LOWERCASE_RIBES = Option("lowercase_ribes", bool, True,
                         "lowercase before RIBES, as RIBES.py does (false: RIBES.py's --case)")


class Ribes(AveragedMetric):
    """RIBES as NTT's RIBES.py 1.03.1 defines it (:mod:`.ribes`), on sacrebleu's tokenization
    (``tokenize``), lower-cased unless ``lowercase_ribes`` is false; 0-1."""

    name, label, digits = "ribes", "RIBES", 4
    options = (TOKENIZE, LOWERCASE_RIBES)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.tokens = _bleu_rows(self.values["tokenize"])
        self.lowercase = self.values["lowercase_ribes"]

    def sentence_scores(self, hypotheses: Sequence[str], references: References,
                        sources: Sequence[str] | None = None) -> np.ndarray:
        return np.array([_sentence(self, hyp, tuple(refs)) for hyp, refs in zip(hypotheses, references, strict=True)],
                        dtype=np.float64)

    def signature(self, nrefs: int) -> str:
        return (f"nrefs:{nrefs}|case:{'lc' if self.lowercase else 'mixed'}|tok:{self.tokens.tokenize_name}"
                f"|alpha:{ALPHA}|beta:{BETA}|version:ntt-1.03.1")


@lru_cache(maxsize=2**16)  # once per process for a sentence many systems share (sacrebleu_metric._segment)
def _sentence(metric: Ribes, hyp: str, refs: tuple[str, ...]) -> float:
    preprocess, lowercase = metric.tokens.preprocess, metric.lowercase
    return sentence_ribes(words(preprocess(hyp), lowercase), [words(preprocess(r), lowercase) for r in refs])
