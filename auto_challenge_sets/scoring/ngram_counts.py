"""sacrebleu's per-sentence BLEU and chrF statistics, the same integers, with fewer Python loops.

sacrebleu builds every word n-gram in a Python loop (``extract_all_word_ngrams``) and counts
chrF's character n-grams in one Counter per order; here word n-grams come from ``zip`` over
shifted token lists (in C), character n-grams are matched as sets (in C) with counts only for
those that repeat, and one reference is taken as the best without scoring it. The definitions are sacrebleu's
2.x, restated:

* BLEU row: ``[hyp_len, ref_len, correct_1..N, total_1..N]``; ``total_n`` = hyp n-grams,
  ``correct_n`` = sum over hyp n-grams of min(hyp count, the largest count in any reference);
  ``ref_len`` by sacrebleu's own ``_get_closest_ref_len``.
* chrF row, per character order n: ``[hyp n-grams (0 when the reference has none), ref n-grams,
  matches]``, whitespace removed unless kept; with several references, the row of the reference
  with the best sentence chrF (sacrebleu's ``_compute_f_score``), the first on a tie.

tests/test_ngram_counts.py compares every row with sacrebleu's own on real and random text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import chain

# The reference side of a row (its n-gram counts) is kept for the last few references: rows
# processed in the order of their references (SegmentStatistics.extract) count each distinct
# reference once, so a pool of several systems' outputs of one test set costs its references once.
# The counts are shared between rows: read, never changed.
_RECENT_REFERENCES = 8


def word_ngrams(tokens: list[str], order: int) -> Counter:
    """One Counter of the n-grams of orders 1..order: unigrams as strings, longer ones as tuples
    (``zip`` over shifted lists builds them in C, and one count takes them all)."""
    longer = chain.from_iterable(zip(*(tokens[k:] for k in range(n)), strict=False) for n in range(2, order + 1))
    return Counter([*tokens, *longer])


def bleu_row(hyp: str, refs: Sequence[str], order: int, closest: Callable[[int, list[int]], int]) -> list[int]:
    """sacrebleu's BLEU statistics row of a tokenized hypothesis against tokenized references."""
    merged, ref_lengths = _reference_ngrams(tuple(refs), order)
    tokens = hyp.split()
    hyp_len = len(tokens)
    correct = [0] * order
    for gram, count in word_ngrams(tokens, order).items():
        if gram in merged:
            theirs = merged[gram]
            correct[len(gram) - 1 if type(gram) is tuple else 0] += count if count < theirs else theirs
    total = [max(0, hyp_len - n) for n in range(order)]
    return [hyp_len, closest(hyp_len, list(ref_lengths)), *correct, *total]


@lru_cache(maxsize=_RECENT_REFERENCES)
def _reference_ngrams(refs: tuple[str, ...], order: int) -> tuple[Counter, tuple[int, ...]]:
    """The largest count of each n-gram in any of the tokenized ``refs``, and their lengths."""
    ref_tokens = [ref.split() for ref in refs]
    merged = word_ngrams(ref_tokens[0], order)
    for tokens in ref_tokens[1:]:
        for gram, count in word_ngrams(tokens, order).items():
            if count > merged[gram]:
                merged[gram] = count
    return merged, tuple(len(t) for t in ref_tokens)


CharGrams = tuple[tuple[set[str], dict[str, int]], ...]


def char_ngrams(line: str, order: int) -> CharGrams:
    """Per order n = 1..order: the set of the character n-grams of ``line``, and the counts of those
    that occur more than once. Most n-grams of a sentence occur once: a set is built in C, and a
    count is kept only for the orders with repeats."""
    size = len(line)
    grams_by_order = []
    for n in range(1, order + 1):
        grams = list(line) if n == 1 else [line[i : i + n] for i in range(size - n + 1)]
        distinct = set(grams)
        repeated = {} if len(distinct) == len(grams) else {g: c for g, c in Counter(grams).items() if c > 1}
        grams_by_order.append((distinct, repeated))
    return tuple(grams_by_order)


def chrf_row(hyp: str, refs: Sequence[str], order: int, whitespace: bool,
             f_score: Callable[[list[int]], float]) -> list[int]:
    """sacrebleu's chrF statistics row (character n-grams only, no word n-grams) of a
    preprocessed hypothesis against the best of its preprocessed references."""
    if not whitespace:
        hyp = "".join(hyp.split())
    hyp_grams = char_ngrams(hyp, order)
    if len(refs) == 1:  # one reference: no sentence chrF to choose by
        return _chrf_stats(hyp, hyp_grams, refs[0], order, whitespace)
    best_stats: list[int] = []
    best = -1.0
    for ref in refs:
        stats = _chrf_stats(hyp, hyp_grams, ref, order, whitespace)
        score = f_score(stats)
        if score > best:
            best, best_stats = score, stats
    return best_stats


@lru_cache(maxsize=_RECENT_REFERENCES)
def _reference_chars(ref: str, order: int, whitespace: bool) -> tuple[str, CharGrams]:
    """A reference as chrF reads it (whitespace removed unless kept), and its character n-grams."""
    if not whitespace:
        ref = "".join(ref.split())
    return ref, char_ngrams(ref, order)


def _chrf_stats(hyp: str, hyp_grams: CharGrams, ref: str, order: int, whitespace: bool) -> list[int]:
    ref, ref_grams = _reference_chars(ref, order, whitespace)
    stats: list[int] = []
    for n, ((ours, ours_repeated), (theirs, theirs_repeated)) in enumerate(zip(hyp_grams, ref_grams, strict=True)):
        # matches = sum over shared n-grams of min(hyp count, ref count): each shared n-gram
        # counts once (a set intersection, in C), and those repeated on both sides add the rest
        matches = len(ours & theirs)
        if ours_repeated and theirs_repeated:
            for gram in ours_repeated.keys() & theirs_repeated.keys():
                a, b = ours_repeated[gram], theirs_repeated[gram]
                matches += (a if a < b else b) - 1
        ref_count = max(0, len(ref) - n)
        stats += (max(0, len(hyp) - n) if ref_count else 0, ref_count, matches)
    return stats
