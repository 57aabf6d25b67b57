"""sacrebleu's per-sentence BLEU and chrF statistics, the same integers, with fewer Python loops.

sacrebleu builds every word n-gram in a Python loop (``extract_all_word_ngrams``) and counts
chrF's character n-grams in one Counter per order; here word n-grams come from ``zip`` over
shifted token lists (in C), all character orders share one Counter and one matching loop, and
one reference is taken as the best without scoring it. The definitions are sacrebleu's
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
from itertools import chain


def word_ngrams(tokens: list[str], order: int) -> Counter:
    """One Counter of the n-grams of orders 1..order: unigrams as strings, longer ones as tuples
    (``zip`` over shifted lists builds them in C, and one count takes them all)."""
    longer = chain.from_iterable(zip(*(tokens[k:] for k in range(n)), strict=False) for n in range(2, order + 1))
    return Counter([*tokens, *longer])


def bleu_row(hyp: str, refs: Sequence[str], order: int, closest: Callable[[int, list[int]], int]) -> list[int]:
    """sacrebleu's BLEU statistics row of a tokenized hypothesis against tokenized references."""
    ref_tokens = [ref.split() for ref in refs]
    merged = word_ngrams(ref_tokens[0], order)
    for tokens in ref_tokens[1:]:  # the largest count of each n-gram in any reference
        for gram, count in word_ngrams(tokens, order).items():
            if count > merged[gram]:
                merged[gram] = count
    tokens = hyp.split()
    hyp_len = len(tokens)
    correct = [0] * order
    for gram, count in word_ngrams(tokens, order).items():
        if gram in merged:
            theirs = merged[gram]
            correct[len(gram) - 1 if type(gram) is tuple else 0] += count if count < theirs else theirs
    total = [max(0, hyp_len - n) for n in range(order)]
    return [hyp_len, closest(hyp_len, [len(t) for t in ref_tokens]), *correct, *total]


def char_ngrams(line: str, order: int) -> Counter:
    """One Counter of the character n-grams of orders 1..order of ``line`` (an n-gram's order is
    its length): one count over all orders instead of one per order."""
    size = len(line)
    return Counter([line[i : i + n] for n in range(1, order + 1) for i in range(size - n + 1)])


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


def _chrf_stats(hyp: str, hyp_grams: Counter, ref: str, order: int, whitespace: bool) -> list[int]:
    if not whitespace:
        ref = "".join(ref.split())
    ref_grams = char_ngrams(ref, order)
    matches = [0] * order
    for gram, count in hyp_grams.items():
        if gram in ref_grams:
            theirs = ref_grams[gram]
            matches[len(gram) - 1] += count if count < theirs else theirs
    stats: list[int] = []
    for n in range(order):
        ref_count = max(0, len(ref) - n)
        stats += (max(0, len(hyp) - n) if ref_count else 0, ref_count, matches[n])
    return stats
