"""The length-matched sampler and the summary of where a score falls among random corpora."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import percentileofscore

from auto_challenge_sets.scoring.length_baseline import (
    LengthMatchedSamples,
    length_window,
    rule_signature,
    sample_length_matched,
    summarize,
)

POOL = np.array([3, 4, 5, 5, 6, 7, 10, 10, 11, 20], dtype=np.int64)


def test_every_draw_is_within_the_tolerance():
    challenge = [4, 5, 6, 10, 11]
    samples = sample_length_matched(challenge, POOL, n_samples=50, tolerance=1, rng=1)
    assert samples.index.shape == (50, 5)
    diffs = np.abs(POOL[samples.index] - np.asarray(challenge))
    assert diffs.max() <= 1
    assert samples.widened == 0
    assert samples.max_tolerance == 1


def test_tolerance_zero_draws_exact_lengths():
    samples = sample_length_matched([5, 10], POOL, n_samples=30, tolerance=0, rng=2)
    assert set(POOL[samples.index[:, 0]].tolist()) == {5}
    assert set(POOL[samples.index[:, 1]].tolist()) == {10}


def test_excluded_sentences_are_never_drawn_where_three_others_are_in_the_window():
    exclude = np.zeros(len(POOL), dtype=bool)
    exclude[[2, 3]] = True  # both length-5 sentences
    samples = sample_length_matched([5, 5], POOL, n_samples=200, tolerance=2, exclude=exclude, rng=3, relative=0)
    assert not np.isin(samples.index, [2, 3]).any() and samples.shared == 0
    assert set(POOL[samples.index].ravel().tolist()) == {3, 4, 6, 7}


def test_window_widens_when_no_candidate_and_counts_it():
    # lengths 15 (nearest: 11 and 20, 4 and 5 away) and 30 (nearest 20), plus one normal sentence
    samples = sample_length_matched([15, 30, 4], POOL, n_samples=40, tolerance=1, rng=4)
    assert samples.widened == 2
    assert samples.max_tolerance == 10
    assert set(POOL[samples.index[:, 0]].tolist()) == {11}  # window 4 reaches 11 first
    assert set(POOL[samples.index[:, 1]].tolist()) == {20}


def test_widened_counts_sentences_not_lengths():
    """Three sentences of one length that needs a wider window are three widened sentences."""
    samples = sample_length_matched([15, 15, 15, 30, 30, 4], POOL, n_samples=10, tolerance=1, rng=6)
    assert samples.widened == 5
    assert samples.max_tolerance == 10
    assert set(POOL[samples.index[:, :3]].ravel().tolist()) == {11}
    assert set(POOL[samples.index[:, 3:5]].ravel().tolist()) == {20}
    # a tolerance that reaches every length widens nothing, however often a length repeats
    assert sample_length_matched([15, 15, 30], POOL, n_samples=3, tolerance=10, rng=6).widened == 0
    # the widest window is the largest needed, not the last length's
    assert sample_length_matched([30, 15, 15], POOL, n_samples=3, tolerance=0, rng=6).max_tolerance == 10


def test_same_seed_same_samples_and_other_seed_differs():
    a = sample_length_matched([4, 5, 6, 7] * 10, POOL, n_samples=20, rng=42)
    b = sample_length_matched([4, 5, 6, 7] * 10, POOL, n_samples=20, rng=42)
    c = sample_length_matched([4, 5, 6, 7] * 10, POOL, n_samples=20, rng=43)
    assert np.array_equal(a.index, b.index)
    assert not np.array_equal(a.index, c.index)


def test_draws_cover_the_window_roughly_uniformly():
    pool = np.array([5] * 10 + [6] * 10)
    samples = sample_length_matched([5], pool, n_samples=20000, tolerance=1, rng=5)
    counts = np.bincount(samples.index.ravel(), minlength=20)
    assert counts.min() > 800 and counts.max() < 1200  # expected 1000 each


def test_empty_pool_after_exclusion_is_an_error():
    with pytest.raises(ValueError, match="^pool_predictions: no pool sentence is left to sample from once the "
                                         "challenge sentences are excluded$"):
        sample_length_matched([3], [3, 4], exclude=np.array([True, True]))
    with pytest.raises(ValueError, match="^pool_predictions: no pool sentence is left"):
        sample_length_matched([3], [3], exclude=[True])


def test_defaults_and_the_smallest_sample():
    """100 samples, a window of one token, one sample allowed; a 0/1 mask is a boolean mask."""
    samples = sample_length_matched([4, 8], POOL, rng=1)
    assert samples.index.shape == (100, 2) and samples.widened == 0 and samples.max_tolerance == 1
    assert set(POOL[samples.index[:, 1]].tolist()) == {7}  # 8 ± 1: only 7 is in the pool
    assert set(POOL[samples.index[:, 0]].tolist()) == {3, 4, 5}
    assert sample_length_matched([4], POOL, n_samples=1, rng=1).index.shape == (1, 1)
    mask = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0]  # one length-5 sentence out
    drawn = sample_length_matched([5], POOL, n_samples=300, exclude=mask, rng=2).index
    assert set(drawn.ravel().tolist()) == {1, 2, 4}


def test_summary_numbers():
    samples = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    s = summarize(samples, 3.0)
    assert s["mean"] == 5.5
    assert s["std"] == pytest.approx(np.std(samples, ddof=1))
    assert (s["min"], s["max"]) == (1.0, 10.0)
    assert s["percentile"] == 30.0 == percentileofscore(samples, 3.0, kind="weak")
    assert s["p_value"] == (1 + 3) / 11
    assert s["p5"] == pytest.approx(np.percentile(samples, 5))
    # below every sample: the smallest possible p-value, never 0
    low = summarize(samples, 0.0)
    assert low["percentile"] == 0.0 and low["p_value"] == 1 / 11
    assert summarize([2.0], 1.0)["std"] == 0.0
    assert summarize([1.0, 3.0], 1.0)["std"] == pytest.approx(np.sqrt(2))  # two samples: ddof=1
    assert s["p95"] == pytest.approx(np.percentile(samples, 95)) == pytest.approx(9.55)


def _widening_one_token_at_a_time(challenge, pool, n_samples, tolerance, rng):
    """The sampler as first written (the window grows one token per step), for comparison."""
    order = np.argsort(pool, kind="stable")
    sorted_lengths = pool[order]
    index = np.empty((n_samples, len(challenge)), dtype=np.int64)
    lengths, inverse = np.unique(challenge, return_inverse=True)
    for group, length in enumerate(lengths.tolist()):
        columns = np.flatnonzero(inverse == group)
        window = tolerance
        while True:
            lo = np.searchsorted(sorted_lengths, length - window, side="left")
            hi = np.searchsorted(sorted_lengths, length + window, side="right")
            if hi > lo:
                break
            window += 1
        index[:, columns] = order[rng.integers(lo, hi, size=(n_samples, len(columns)))]
    return index


@pytest.mark.parametrize("seed", range(20))
def test_widening_to_the_nearest_length_draws_what_widening_by_one_token_drew(seed):
    rng = np.random.default_rng(seed)
    pool = rng.integers(0, 60, size=rng.integers(1, 12))
    challenge = rng.integers(0, 80, size=rng.integers(1, 8))
    tolerance = int(rng.integers(0, 4))
    new = sample_length_matched(challenge, pool, n_samples=7, tolerance=tolerance, rng=seed)
    old = _widening_one_token_at_a_time(challenge, pool, 7, tolerance, np.random.default_rng(seed))
    assert np.array_equal(new.index, old)


def test_a_pool_far_from_every_length_is_quick():
    # widening one token at a time took a billion steps here
    samples = sample_length_matched([0, 2**31 - 1], [10**9], n_samples=3, tolerance=0, rng=0)
    assert samples.index.tolist() == [[0, 0]] * 3
    assert samples.widened == 2 and samples.max_tolerance == 2**31 - 1 - 10**9


def test_lengths_in_any_numeric_array_are_whole_token_counts():
    """Lengths are read as int64 token counts whatever array holds them: a float array of whole
    numbers draws what the ints draw, its widest window is an int too, and a fraction is cut off."""
    ints = sample_length_matched([3], [1, 10], n_samples=4, tolerance=1, rng=0)
    floats = sample_length_matched(np.array([3.0]), np.array([1.0, 10.0]), n_samples=4, tolerance=1, rng=0)
    assert floats.index.tolist() == ints.index.tolist() == [[0]] * 4
    assert (floats.widened, floats.max_tolerance) == (ints.widened, ints.max_tolerance) == (1, 2)
    assert type(floats.max_tolerance) is int
    cut = sample_length_matched([2], np.array([2.5, 7.0]), n_samples=2, tolerance=0, rng=0)
    assert cut.index.tolist() == [[0], [0]] and cut.widened == 0


def test_summarize_reads_samples_as_float64():
    """float32 samples are summarized as the float64 numbers they hold: 0.1 in float32 is above
    the float 0.1, so it is not at or below a score of 0.1 (compared in float32 it would be)."""
    samples = np.array([0.1, 0.2, 0.3], dtype=np.float32)
    assert summarize(samples, 0.1) == summarize(samples.astype(np.float64), 0.1)
    assert summarize(samples, 0.1)["percentile"] == 0.0


# the relative window (issue 35, paragraph-level test sets)
PARAGRAPHS = np.array([100, 104, 106, 150, 200], dtype=np.int64)


@pytest.mark.parametrize(("length", "tolerance", "relative", "window"), [
    (10, 1, 0.05, 1), (39, 1, 0.05, 1), (40, 1, 0.05, 2), (60, 1, 0.05, 3),  # 0.05 × 60 is 3.0000000000000004
    (100, 1, 0.0, 1), (100, 8, 0.05, 8), (430, 1, 0.05, 21), (29, 0, 0.29, 8), (100, 0, 0.29, 29),
    (3, 0, 0.3333333333, 1)])  # rounded at 9 decimals: 0.9999999999 is 1
def test_the_window_is_the_tolerance_or_a_share_of_the_length(length, tolerance, relative, window):
    assert length_window(length, tolerance, relative) == window


def test_a_paragraph_draws_within_its_share_of_its_length():
    # 103: ±5 tokens reach 100, 104 and 106; ±1 only 104
    wide = sample_length_matched([103], PARAGRAPHS, n_samples=200, tolerance=1, rng=1, relative=0.05)
    assert set(PARAGRAPHS[wide.index].ravel().tolist()) == {100, 104, 106} and wide.widened == 0
    narrow = sample_length_matched([103], PARAGRAPHS, n_samples=200, tolerance=1, rng=1, relative=0)
    assert set(PARAGRAPHS[narrow.index].ravel().tolist()) == {104} and narrow.widened == 0
    # 120: nothing within ±6, so it widens to the nearest (106, 14 away) and counts as widened
    far = sample_length_matched([120, 103], PARAGRAPHS, n_samples=20, tolerance=1, rng=1, relative=0.05)
    assert set(PARAGRAPHS[far.index[:, 0]].tolist()) == {106} and far.widened == 1 and far.max_tolerance == 14
    # a window within the share of the length is no widening; beyond the tolerance it was
    assert sample_length_matched([110], PARAGRAPHS, n_samples=5, tolerance=1, rng=1, relative=0.05).widened == 0
    assert sample_length_matched([110], PARAGRAPHS, n_samples=5, tolerance=1, rng=1, relative=0).widened == 1


def test_rows_shorter_than_the_relative_reach_draw_as_under_the_tolerance_alone():
    """Lengths are visited in sorted order: rows under 40 tokens (0.05 × 40 = 2) draw exactly what
    they drew under ±1 alone, whatever longer rows come after them."""
    pool = np.arange(1, 80, dtype=np.int64).repeat(3)
    challenge = [5, 12, 30, 39, 41, 64, 12]
    before = sample_length_matched(challenge, pool, n_samples=50, tolerance=1, rng=8, relative=0)
    after = sample_length_matched(challenge, pool, n_samples=50, tolerance=1, rng=8, relative=0.05)
    short = [0, 1, 2, 3, 6]
    assert np.array_equal(before.index[:, short], after.index[:, short])
    assert not np.array_equal(before.index[:, [4, 5]], after.index[:, [4, 5]])
    assert np.abs(pool[after.index[:, 5]] - 64).max() == 3  # floor(0.05 × 64) = 3


def test_the_rule_in_a_signature():
    assert rule_signature(1, 0.05) == "tol:1|rel:0.05" and rule_signature(2, 0.0) == "tol:2"


# rows the rest of the corpus cannot match draw from the whole of it (issue 50 item 4)
def test_a_row_with_fewer_than_three_others_of_its_length_draws_from_the_whole_corpus():
    pool = np.array([10, 10, 11, 20, 20, 20, 21, 30], dtype=np.int64)
    exclude = np.array([True, True, False, True, True, False, False, True])
    # 10: one row outside the set within ±1 (11), three in the corpus; 20: two outside (20, 21), five in all
    samples = sample_length_matched([10, 20, 20], pool, n_samples=300, tolerance=1, exclude=exclude, rng=2, relative=0)
    assert samples.shared == 3 and samples.widened == 0
    assert set(samples.index[:, 0].tolist()) == {0, 1, 2}  # the set's own rows included
    assert set(samples.index[:, 1:].ravel().tolist()) == {3, 4, 5, 6}
    # 30: nothing within ±1 anywhere: widened, in the rest of the corpus (to 21)
    far = sample_length_matched([30], pool, n_samples=20, tolerance=1, exclude=exclude, rng=2, relative=0)
    assert far.widened == 1 and far.shared == 0 and set(far.index.ravel().tolist()) == {6}


def test_a_row_with_three_others_of_its_length_draws_as_before():
    # exactly three outside the set within ±1 (10, 11, 9), five in the corpus: the three
    pool = np.array([10, 10, 10, 11, 9, 40], dtype=np.int64)
    exclude = np.array([True, True, False, False, False, True])
    samples = sample_length_matched([10], pool, n_samples=200, tolerance=1, exclude=exclude, rng=4, relative=0)
    assert samples.shared == 0 and set(samples.index.ravel().tolist()) == {2, 3, 4}
    # without an exclusion every row of the corpus is the pool already
    assert sample_length_matched([40], pool, n_samples=5, tolerance=1, rng=4, relative=0).shared == 0


def test_how_closely_the_draws_match():
    pool = np.array([10, 12, 20, 22], dtype=np.int64)
    samples = LengthMatchedSamples(index=np.array([[0, 2], [1, 2], [1, 3]]), widened=0, max_tolerance=2, pool_size=4)
    gap, share = samples.length_gap(np.array([11, 20]), pool)
    assert gap == pytest.approx((1 + 0 + 1 + 0 + 1 + 2) / 6) and share == pytest.approx((3 / 11 + 2 / 20) / 6)
    assert samples.distinct() == pytest.approx((2 + 2) / 2)
    # distinct per row over the samples: row 0 is always 5, row 1 is 0, 1, 9
    per_row = LengthMatchedSamples(index=np.array([[5, 0], [5, 1], [5, 9]]), widened=0, max_tolerance=1, pool_size=10)
    assert per_row.distinct() == (1 + 3) / 2
    # a row of length 1 or 0 counts its gap in tokens, relative to 1
    short = LengthMatchedSamples(index=np.array([[0, 1]]), widened=0, max_tolerance=1, pool_size=2)
    assert short.length_gap(np.array([1, 0]), np.array([2, 1])) == (1.0, 1.0)


def test_rows_drawn_from_the_whole_corpus_take_ties_in_the_corpus_order():
    # numpy's default sort orders ties by its platform's algorithm (above 16 items): the stable
    # sort keeps a seed's draws the same on every machine. Each length keeps one segment outside
    # the set, so every row draws from the whole corpus: as the sampler draws without a set.
    rng = np.random.default_rng(3)
    pool = rng.integers(0, 5, size=300)
    exclude = np.ones(300, dtype=bool)
    exclude[[int(np.flatnonzero(pool == length)[0]) for length in range(5)]] = False
    challenge = rng.integers(0, 5, size=40)
    samples = sample_length_matched(challenge, pool, n_samples=9, tolerance=0, exclude=exclude, rng=5, relative=0)
    assert samples.shared == 40
    assert np.array_equal(samples.index, _widening_one_token_at_a_time(challenge, pool, 9, 0, np.random.default_rng(5)))
