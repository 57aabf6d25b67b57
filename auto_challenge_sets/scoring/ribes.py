"""RIBES (Isozaki et al., EMNLP 2010) as NTT's reference scorer RIBES.py 1.03.1 defines it
(docs/method.md, "RIBES").

Written from the definition (the paper and the behaviour documented for RIBES.py), not from
NTT's GPL code, and deliberately not NLTK's ``ribes_score`` (which aligns words differently and
so gives different numbers).

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

The float operations below follow the order in which the definition is usually computed
(``ascending / (n * (n - 1) / 2)``, ``n / len(hyp)``), so that scores agree with NTT's to the
last bit on the same tokens.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Sequence

ALPHA = 0.25
BETA = 0.10


def _positions(seq: list[str]) -> dict[str, list[int]]:
    """Word -> the positions where it occurs."""
    where: dict[str, list[int]] = {}
    for k, word in enumerate(seq):
        if word in where:
            where[word].append(k)
        else:
            where[word] = [k]
    return where


NONE = -1  # _unique_start: the n-gram does not occur
MANY = -2  # _unique_start: the n-gram occurs more than once


def _unique_start(seq: list[str], starts: list[int], ngram: list[str]) -> int:
    """Start of the only occurrence of ``ngram`` in ``seq``, or NONE, or MANY.

    Occurrences may overlap. ``starts`` lists the positions of ``ngram[0]`` in ``seq``: only
    those can start a match.
    """
    n = len(ngram)
    found = NONE
    for k in starts:
        if seq[k : k + n] == ngram:
            if found >= 0:
                return MANY
            found = k
    return found


def _by_context(hyp: list[str], ref: list[str], i: int, ref_pos: dict, hyp_pos: dict) -> int | None:
    """Reference position of ambiguous ``hyp[i]`` from the shortest unique context, if any.

    A context that does not occur in the reference cannot occur once it is extended either, so
    that side is dropped then (an exact shortcut: the result is the same as trying every window).
    """
    length = len(hyp)
    word = hyp[i]
    left = right = True
    for window in range(1, max(i, length - 1 - i) + 1):
        if left and window <= i:  # left context first
            ngram = hyp[i - window : i + 1]
            at = _unique_start(ref, ref_pos.get(ngram[0], ()), ngram)
            if at == NONE:
                left = False
            elif at >= 0 and _unique_start(hyp, hyp_pos[ngram[0]], ngram) >= 0:
                return at + window
        if right and i + window < length:
            ngram = hyp[i : i + window + 1]
            at = _unique_start(ref, ref_pos[word], ngram)
            if at == NONE:
                right = False
            elif at >= 0 and _unique_start(hyp, hyp_pos[word], ngram) >= 0:
                return at
        if not left and not right:
            return None
    return None


def align(hyp: Sequence[str], ref: Sequence[str]) -> list[int]:
    """Reference positions of the aligned hypothesis words, in hypothesis order."""
    hyp = list(hyp)
    ref = list(ref)
    ref_counts = Counter(ref)
    hyp_counts = Counter(hyp)
    ref_pos = hyp_pos = None  # built only when some word is ambiguous
    aligned: list[int] = []
    for i, word in enumerate(hyp):
        in_ref = ref_counts.get(word, 0)
        if not in_ref:
            continue
        if in_ref == 1 and hyp_counts[word] == 1:
            aligned.append(ref.index(word))
            continue
        if ref_pos is None:
            ref_pos, hyp_pos = _positions(ref), _positions(hyp)
        at = _by_context(hyp, ref, i, ref_pos, hyp_pos)
        if at is not None:
            aligned.append(at)
    return aligned


def ascending_pairs(positions: Sequence[int]) -> int:
    """Number of pairs ``a < b`` with ``positions[a] < positions[b]`` (O(n log n))."""
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
    bp = min(1.0, math.exp(1.0 - len(ref) / len(hyp)))
    positions = align(hyp, ref)
    n = len(positions)
    if n == 1 and len(ref) == 1:
        return (1.0, 1.0 / len(hyp), bp)
    if n < 2:
        return (0.0, 0.0, bp)
    nkt = float(ascending_pairs(positions)) / ((n * (n - 1)) / 2)
    return (nkt, 1.0 * n / len(hyp), bp)


def sentence_ribes(
    hyp: Sequence[str],
    refs: Sequence[Sequence[str]],
    alpha: float = ALPHA,
    beta: float = BETA,
) -> float:
    """RIBES of one tokenized hypothesis: the best score over the tokenized references."""
    best = 0.0
    for ref in refs:
        nkt, precision, bp = kendall(hyp, ref)
        score = nkt * (precision**alpha) * (bp**beta)
        best = max(best, score)
    return best


def words(text: str, lowercase: bool = True) -> list[str]:
    """Split already tokenized text on whitespace, lowercasing it first by default."""
    return (text.lower() if lowercase else text).split()


def corpus_ribes(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    lowercase: bool = True,
    alpha: float = ALPHA,
    beta: float = BETA,
) -> float:
    """Corpus RIBES of whitespace-tokenized strings: mean of the sentence scores.

    ``references[i]`` is the list of references of hypothesis ``i``. Tokenize first (the metric
    uses the same sacrebleu tokenizer as BLEU); this function only splits on whitespace.
    """
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    if not hypotheses:
        raise ValueError("no hypotheses to score")
    total = 0.0
    for hyp, refs in zip(hypotheses, references):
        total += sentence_ribes(words(hyp, lowercase), [words(r, lowercase) for r in refs], alpha, beta)
    return total / len(hypotheses)
