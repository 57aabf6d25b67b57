"""RIBES: hand-worked examples and agreement with a brute-force reading of the definition."""

from __future__ import annotations

import math
import random
from itertools import combinations

import pytest

from auto_challenge_sets.scoring.metrics.ribes import align, kendall, sentence_ribes, words

from conftest import shared_path


def ribes1(hyp: str, ref: str) -> float:
    return sentence_ribes(hyp.split(), [ref.split()])


# -- an independent, deliberately naive implementation of the definition --------------------


def brute_force_ribes(hyp: list[str], ref: list[str], alpha: float = 0.25, beta: float = 0.10) -> float:
    """Every count is a scan over every start position; Kendall over every pair."""
    if not hyp or not ref:
        return 0.0

    def count(ngram: list[str], seq: list[str]) -> int:
        return sum(seq[k : k + len(ngram)] == ngram for k in range(len(seq) - len(ngram) + 1))

    def first(ngram: list[str], seq: list[str]) -> int:
        return next(k for k in range(len(seq)) if seq[k : k + len(ngram)] == ngram)

    positions = []
    for i, word in enumerate(hyp):
        if count([word], ref) == 0:
            continue
        if count([word], ref) == 1 and count([word], hyp) == 1:
            positions.append(first([word], ref))
            continue
        for k in range(1, len(hyp) + 1):
            left = hyp[i - k : i + 1] if k <= i else None
            if left and count(left, ref) == 1 and count(left, hyp) == 1:
                positions.append(first(left, ref) + k)
                break
            right = hyp[i : i + k + 1] if i + k < len(hyp) else None
            if right and count(right, ref) == 1 and count(right, hyp) == 1:
                positions.append(first(right, ref))
                break
    n = len(positions)
    bp = min(1.0, math.exp(1.0 - len(ref) / len(hyp)))
    if n == 1 and len(ref) == 1:
        nkt, precision = 1.0, 1.0 / len(hyp)
    elif n < 2:
        return 0.0
    else:
        concordant = sum(positions[a] < positions[b] for a, b in combinations(range(n), 2))
        nkt = float(concordant) / ((n * (n - 1)) / 2)
        precision = 1.0 * n / len(hyp)
    return nkt * precision**alpha * bp**beta


# -- hand-worked examples --------------------------------------------------------------------


def test_identical_sentence_scores_one():
    assert ribes1("a b c d", "a b c d") == 1.0


def test_unique_words_swap():
    # positions [1, 0, 2, 3]: 5 of 6 pairs ascending; P = 1, BP = 1
    assert align("b a c d".split(), "a b c d".split()) == [1, 0, 2, 3]
    assert ribes1("b a c d", "a b c d") == pytest.approx(5 / 6, abs=0)


def test_unaligned_words_lower_precision():
    # positions [0, 1]; NKT = 1; P = 2/4; BP = 1
    assert ribes1("a x b y", "a b c d") == pytest.approx(0.5**0.25, rel=1e-15)


def test_brevity_penalty():
    # NKT = 1, P = 1, BP = exp(1 - 6/3)
    assert ribes1("a b c", "a b c d e f") == pytest.approx(math.exp(-1) ** 0.10, rel=1e-15)


def test_repeated_word_left_context():
    # ref: the0 cat1 saw2 the3 dog4; hyp: the dog saw the cat
    # hyp[0] "the": no left context; right "the dog" unique in both -> 3
    # hyp[3] "the": left "saw the" unique in both -> 2 + 1 = 3 (both map to 3: a tie, discordant)
    hyp, ref = "the dog saw the cat".split(), "the cat saw the dog".split()
    assert align(hyp, ref) == [3, 4, 2, 3, 1]
    assert kendall(hyp, ref) == (2 / 10, 1.0, 1.0)
    assert ribes1("the dog saw the cat", "the cat saw the dog") == pytest.approx(0.2, abs=1e-15)


def test_repeated_words_need_right_context_and_wider_windows():
    # ref: x0 a1 b2 x3 a4 c5; hyp: x0 a1 c2 x3 a4 b5
    # hyp[0] x: right "x a" occurs twice in ref; window 2: right "x a c" -> 3
    # hyp[1] a: left "x a" twice in ref; right "a c" -> 4
    # hyp[3] x: left "c x" not in ref, right "x a" twice; window 2: right "x a b" -> 0
    # hyp[4] a: left "x a" twice; right "a b" -> 1
    hyp, ref = "x a c x a b".split(), "x a b x a c".split()
    assert align(hyp, ref) == [3, 4, 5, 0, 1, 2]
    assert ribes1("x a c x a b", "x a b x a c") == pytest.approx(6 / 15, abs=1e-15)


def test_overlapping_occurrences_count():
    # "a a" occurs twice (overlapping) in "a a a": never unique, nothing aligns -> 0.
    # (A non-overlapping count would see it once and align.)
    assert align("a a".split(), "a a a".split()) == []
    assert ribes1("a a", "a a a") == 0.0
    assert align("a a".split(), "a a".split()) == [0, 1]
    assert ribes1("a a", "a a") == 1.0


def test_single_aligned_word():
    # one aligned word and a one-word reference: NKT = 1, P = 1/len(hyp), BP = 1
    assert kendall(["hello", "world"], ["hello"]) == (1.0, 0.5, 1.0)
    assert ribes1("hello world", "hello") == pytest.approx(0.5**0.25, rel=1e-15)
    assert ribes1("hello", "hello") == 1.0
    # one aligned word, longer reference: fewer than two alignments -> 0
    assert ribes1("hello world", "hello there") == 0.0
    assert kendall(["hello", "world"], ["hello", "there"])[0] == 0.0


def test_empty_hypothesis_and_reference():
    assert ribes1("", "a b c") == 0.0
    assert ribes1("a b c", "") == 0.0
    assert ribes1("", "") == 0.0


def test_example_of_the_ribes_paper():
    # Isozaki et al. (2010): "A because B" translated as "B because A".
    ref = "he was interested in world history because he read the book"
    hyp = "he read the book because he was interested in world history"
    # hyp[0] "he": right "he read" -> 7; hyp[5] "he": the LEFT context "because he" is tried
    # first (RIBES.py's order) and is unique -> 7 (right context "he was" would give 0).
    assert align(hyp.split(), ref.split()) == [7, 8, 9, 10, 6, 7, 1, 2, 3, 4, 5]
    # ascending pairs: 7<8,9,10 (3) + 8<9,10 (2) + 9<10 (1) + 6<7 (1) + 1..5 (10) = 17 of 55
    assert ribes1(hyp, ref) == pytest.approx(17 / 55, abs=1e-15)


def test_lowercasing_and_several_references():
    assert words("The Cat", lowercase=True) == ["the", "cat"]
    assert words("The Cat", lowercase=False) == ["The", "Cat"]
    # best over references
    assert sentence_ribes(words("b a c d"), [words("x y"), words("a b c d"), words("b a c d")]) == 1.0


# -- agreement with the brute force ----------------------------------------------------------


def test_agrees_with_brute_force_on_random_sentences():
    rng = random.Random(20100901)
    for _ in range(3000):
        vocab = [chr(ord("a") + k) for k in range(rng.randint(1, 6))]  # small: many repeats
        hyp = [rng.choice(vocab) for _ in range(rng.randint(0, 14))]
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, 14))]
        assert sentence_ribes(hyp, [ref]) == brute_force_ribes(hyp, ref), (hyp, ref)


def test_agrees_with_brute_force_on_real_sentences():
    base = shared_path("data", "wmt21")
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    refs = (base / "references" / "newstest2021.en-de.ref.A.de").read_text(encoding="utf-8").splitlines()
    hyps = (base / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de").read_text(encoding="utf-8").splitlines()
    for hyp, ref in list(zip(hyps, refs))[:300]:
        h, r = words(tok(hyp)), words(tok(ref))
        assert sentence_ribes(h, [r]) == brute_force_ribes(h, r)


def test_kendall_of_nothing_aligned_is_all_zero_but_the_brevity_penalty():
    assert kendall([], ["a"]) == (0.0, 0.0, 0.0) == kendall(["a"], [])
    assert kendall(["a", "b"], ["c", "a"]) == (0.0, 0.0, 1.0)  # one word aligned: no pair to order
    assert kendall(["a", "x", "y"], ["a"]) == (1.0, 1 / 3, 1.0)
    assert words("The CAT  sat") == ["the", "cat", "sat"] and words("The CAT", lowercase=False) == ["The", "CAT"]


# -- the indexes behind the alignment: two ways to the same context lengths ------------------


def test_suffix_array_and_its_lcp_match_sorting_every_suffix():
    from auto_challenge_sets.scoring.metrics.suffix_array import suffix_array

    rng = random.Random(7)
    for _ in range(300):
        seq = [rng.randrange(rng.randint(1, 4)) for _ in range(rng.randint(0, 40))]
        sa, lcp = suffix_array(seq)
        assert sa.tolist() == sorted(range(len(seq)), key=lambda k: seq[k:])
        for r in range(1, len(seq)):
            a, b = seq[sa[r - 1]:], seq[sa[r]:]
            common = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            assert lcp[r] == common


def test_range_minimum_of_every_range():
    import numpy as np

    from auto_challenge_sets.scoring.metrics.suffix_array import RangeMin

    values = np.array(random.Random(3).choices(range(9), k=37))
    first, last = np.array([(a, b) for a in range(37) for b in range(a, 37)]).T
    assert RangeMin(values).query(first, last).tolist() == [int(values[a:b + 1].min()) for a, b in zip(first, last)]


def test_contexts_by_equal_word_pairs_and_by_suffix_array_agree():
    from auto_challenge_sets.scoring.metrics.ribes import _by_context, _positions

    rng = random.Random(11)
    for _ in range(600):
        vocab = rng.randint(1, 5)
        hyp = [rng.randrange(vocab) for _ in range(rng.randint(1, 30))]
        ref = [rng.randrange(vocab) for _ in range(rng.randint(0, 30))]
        wanted = [i for i, word in enumerate(hyp) if word in ref]
        hyp_pos, ref_pos = _positions(hyp), _positions(ref)
        assert _by_context(hyp, ref, wanted, hyp_pos, ref_pos, dense=False) == _by_context(
            hyp, ref, wanted, hyp_pos, ref_pos, dense=True), (hyp, ref)


def test_long_lines_of_few_words_agree_with_brute_force(monkeypatch):
    # dense repeats take the suffix-array way (made to on these short lines: the brute force is cubic)
    from auto_challenge_sets.scoring.metrics import ribes

    monkeypatch.setattr(ribes, "DENSE_MIN_PAIRS", 0)
    rng = random.Random(5)
    cases = [(["a"] * 60, ["a"] * 50), (["a", "b"] * 30, ["b", "a"] * 31)]
    cases += [([rng.choice("ab") for _ in range(80)], [rng.choice("ab") for _ in range(70)]) for _ in range(8)]
    for hyp, ref in cases:
        assert sentence_ribes(hyp, [ref]) == brute_force_ribes(hyp, ref), (hyp, ref)


def test_ascending_pairs_with_ties():
    import numpy as np

    from auto_challenge_sets.scoring.metrics.ribes import ascending_pairs

    rng = random.Random(2)
    for n in (10, 1024, 3000):
        positions = [rng.randrange(n // 2) for _ in range(n)]  # many ties: a tie is not ascending
        p = np.array(positions)
        assert ascending_pairs(positions) == int(np.triu(p[:, None] < p[None, :], 1).sum())
