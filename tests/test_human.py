"""Human scores and correlations (evaluation/stats/human.py): the table reader, and the Kendall τ of many
rows at once against scipy's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.stats.human import (
    HumanScores,
    correlation,
    pair_signs,
    read_human,
    tau_b,
)


def kendall_taus(xs, ys):
    return tau_b(pair_signs(xs), pair_signs(ys))


@pytest.mark.parametrize("ties", [False, True])
def test_kendall_taus_equal_scipy_bit_for_bit(ties):
    rng = np.random.default_rng(7 + ties)
    for n in range(2, 22):
        xs = rng.integers(0, 4, (40, n)).astype(float) if ties else rng.normal(size=(40, n))
        ys = rng.integers(0, 3, (40, n)).astype(float) if ties else rng.normal(size=(40, n))
        ys[0] = xs[0]  # a perfect agreement, where rounding can pass 1 unless clipped as scipy does
        ys[1] = 5.0  # a constant row: undefined
        got = kendall_taus(xs, ys)
        for row, tau in zip(range(40), got):
            expected = kendalltau(xs[row], ys[row]).statistic
            assert (np.isnan(tau) and np.isnan(expected)) or tau == expected, (n, row)
    assert kendall_taus(np.array([1.0, 2.0, 3.0]), np.array([3.0, 1.0, 2.0]))[0] == kendalltau([1, 2, 3], [3, 1, 2]).statistic


def test_the_table_matches_names_run_numbers_and_aliases(tmp_path):
    table = tmp_path / "human.csv"
    table.write_text("SYS,Z.SCR\nA.1,0.5\nB,0.1\nOnline-X.7,-0.2\nHUMAN,1.0\n", encoding="utf-8")
    human = read_human(table, ["A", "B", "xsys", "C"], aliases={"Online-X.7": "xsys"})  # table name -> system
    assert human.scores == {"A": 0.5, "B": 0.1, "xsys": -0.2}
    assert human.unmatched_table == ["HUMAN"] and human.unmatched_systems == ["C"]
    with pytest.raises(InputError, match=r"human\.csv:1: has no column 'score'"):
        read_human(table, ["A"], score_column="score")


def test_a_bad_score_names_its_line(tmp_path):
    table = tmp_path / "human.txt"
    table.write_text("SYS Z.SCR\nA 0.5\nB nan\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"human\.txt:3: score 'nan' is not a finite number"):
        read_human(table, ["A", "B"])


def test_fewer_than_three_systems_have_no_correlation(tmp_path):
    table = tmp_path / "human.txt"
    table.write_text("SYS Z.SCR\nA 0.5\nB 0.1\nC 0.3\n", encoding="utf-8")
    human = read_human(table, ["A", "B", "C"])
    assert correlation({"A": 1.0, "B": 2.0}, human) is None
    found = correlation({"A": 3.0, "B": 1.0, "C": 2.0}, human)
    assert found.kendall == pytest.approx(1.0) and found.systems == 3


def _bootstrap_interval(xs, ys, seed: int = 1):
    """The interval as the module describes it, written out with scipy: 1000 resamples of the
    systems (each drawn by its own call of numpy's generator seeded [seed, 2]), those with fewer
    than 3 distinct systems dropped, scipy's τ of each, undefined ones dropped, 2.5 and 97.5 percentiles."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    rng = np.random.default_rng([seed, 2])
    taus = []
    for _ in range(1000):
        pick = rng.integers(0, len(xs), len(xs))
        if len(set(pick.tolist())) >= 3:
            tau = kendalltau(xs[pick], ys[pick]).statistic
            if not np.isnan(tau):
                taus.append(tau)
    return [float(np.percentile(taus, 2.5)), float(np.percentile(taus, 97.5))]


@pytest.mark.parametrize("xs,ys", [
    ([3.0, 1.0, 2.0, 5.0, 4.0], [0.3, 0.1, 0.5, 0.9, 0.2]),
    ([1.0, 1.0, 2.0, 1.0, 3.0, 2.0], [0.2, 0.1, 0.4, 0.3, 0.9, 0.5]),  # ties: some resamples constant
    ([2.0, 7.0, 1.0, 8.0, 3.0, 6.0, 5.0, 4.0, 9.0, 0.0, 11.0, 10.0],
     [0.5, 0.6, 0.1, 0.9, 0.3, 0.2, 0.8, 0.4, 1.0, 0.0, 0.7, 1.2]),
], ids=["five", "ties", "twelve"])
def test_the_bootstrap_interval_is_the_one_the_module_describes(xs, ys):
    names = [f"s{k}" for k in range(len(xs))]
    auto, human = dict(zip(names, xs)), HumanScores(dict(zip(names, ys)))
    expected = _bootstrap_interval(xs, ys)
    assert correlation(auto, human).ci == tuple(expected)  # the default seed is 1
    if len(xs) == 5:
        assert correlation(auto, human, seed=4).ci == tuple(_bootstrap_interval(xs, ys, seed=4))
    typed = correlation(auto, human)
    assert typed.ci == tuple(expected) and typed.systems == len(xs)
    assert typed.kendall == pytest.approx(kendalltau(xs, ys).statistic)
    assert typed.random_kendall_percentile is None and typed.random_kendall_mean is None


def test_every_measure_of_as_many_systems_gets_the_described_interval_from_one_draw():
    ys = [0.3, 0.1, 0.5, 0.9, 0.2, 0.4]
    human = HumanScores({f"s{k}": y for k, y in enumerate(ys)})
    for xs in ([3.0, 1.0, 2.0, 5.0, 4.0, 0.0], [1.0, 1.0, 2.0, 1.0, 3.0, 2.0]):  # the second with ties
        assert correlation({f"s{k}": x for k, x in enumerate(xs)}, human).ci == tuple(_bootstrap_interval(xs, ys))


def test_a_constant_side_has_no_interval_and_no_random_control():
    names = ["a", "b", "c", "d", "e"]
    human = HumanScores(dict(zip(names, [0.3, 0.1, 0.5, 0.9, 0.2])))
    random_auto = {n: np.array([k, 5.0 - k, (k * 3) % 5]) for k, n in enumerate(names)}
    found = correlation(dict.fromkeys(names, 2.0), human, random_auto)
    assert found.ci is None and found.kendall is None and found.random_kendall_percentile is None
    assert found.random_kendall_mean is None
    assert correlation(dict.fromkeys(names, 2.0), human).ci is None
    # the human side constant: no p-values either (not a permutation test of undefined τ)
    flat = correlation(dict(zip(names, [3.0, 1.0, 2.0, 5.0, 4.0])), HumanScores(dict.fromkeys(names, 0.5)))
    assert flat.spearman_p is None and flat.p_value is None and flat.kendall is None


def test_random_corpora_that_rank_nothing_are_left_out_of_the_control():
    """A random corpus scoring every system alike has no τ: it is not counted (neither below nor
    above); when every one is so, there is no percentile and no mean."""
    names = ["a", "b", "c", "d", "e"]
    ys = [0.3, 0.1, 0.5, 0.9, 0.2]
    xs = [3.0, 1.0, 2.0, 5.0, 4.0]
    rows = [[1.0, 2.0, 3.0, 4.0, 5.0], [7.0] * 5, [5.0, 4.0, 3.0, 2.0, 1.0], [3.0, 1.0, 5.0, 9.0, 2.0], [2.0] * 5]
    random_auto = {n: np.array([row[k] for row in rows]) for k, n in enumerate(names)}
    found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))), random_auto)
    taus = [kendalltau(row, ys).statistic for row in (rows[0], rows[2], rows[3])]  # 0.2, -0.2, 1.0
    tau = kendalltau(xs, ys).statistic  # 0.4
    assert found.random_kendall_percentile == 100.0 * sum(t <= tau for t in taus) / 3
    assert found.random_kendall_mean == pytest.approx(np.mean(taus))
    constant = {n: np.array([1.0, 2.0]) for n in names}
    found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))), constant)
    assert found.random_kendall_percentile is None and found.random_kendall_mean is None


def test_ties_on_one_side_only_take_kendalls_p_from_the_permutations():
    """Ties among the automatic scores but none among the human ones (and the other way round):
    no exact distribution of τ, so every order of the systems."""
    from scipy.stats import permutation_test

    tied, distinct = [1.0, 2.0, 2.0, 3.0, 5.0, 4.0], [0.1, 0.4, 0.2, 0.25, 0.9, 0.3]
    names = [f"s{k}" for k in range(6)]
    for xs, ys in ((tied, distinct), (distinct, tied)):
        found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))))
        exact = permutation_test((xs,), lambda a, ys=ys: kendalltau(a, ys).statistic, permutation_type="pairings",
                                 vectorized=False, n_resamples=np.inf).pvalue
        assert found.p_value == pytest.approx(exact)


def test_spearmans_p_for_nine_systems_is_9999_random_orders_seeded():
    """9! orders are more than PERMUTATIONS: 9999 random ones, from numpy's generator seeded
    [seed, its own stream] (no other draw of a run uses that stream)."""
    from scipy.stats import permutation_test, rankdata

    from auto_challenge_sets.evaluation.stats import STREAMS

    xs, ys = np.arange(1.0, 10.0), np.array([3.0, 1, 2, 6, 4, 9, 5, 8, 7])
    ry = rankdata(ys)

    def rho(a, axis):
        a = a - a.mean(axis=-1, keepdims=True)
        b = ry - ry.mean()
        return (a * b).sum(axis=-1) / np.sqrt((a * a).sum(axis=-1) * (b * b).sum())

    names = [f"s{k}" for k in range(9)]
    for seed in (1, 5):
        expected = permutation_test((rankdata(xs),), rho, permutation_type="pairings", vectorized=True,
                                    n_resamples=9999, rng=np.random.default_rng([seed, STREAMS["human_permutations"]])).pvalue
        found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))), seed=seed)
        assert found.spearman_p == pytest.approx(expected, rel=1e-12)
        assert found.p_value == pytest.approx(kendalltau(xs, ys, method="exact").pvalue)


def test_kendall_taus_clip_a_reversed_order_at_minus_one():
    """Three systems in reverse order: -3 / sqrt(3) / sqrt(3) rounds below -1; scipy clips to -1."""
    assert (-3 / np.sqrt(3)) / np.sqrt(3) < -1
    xs = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 1.0, 2.0]])
    ys = np.array([[3.0, 2.0, 1.0], [1.0, 2.0, 3.0], [4.0, 4.0, 4.0]])
    got = kendall_taus(xs, ys)
    assert got[0] == -1.0 == kendalltau(xs[0], ys[0]).statistic and got[1] == 1.0 and np.isnan(got[2])
    assert kendall_taus(ys[2], xs[2]).shape == (1,) and np.isnan(kendall_taus(ys[2], xs[2])[0])


def test_the_table_prefers_an_exact_name_to_one_without_its_run_number(tmp_path):
    table = tmp_path / "human.csv"
    table.write_text(" SYS , Z.SCR \n A.1 , 0.5 \nA,0.25\nB.2,-1\n", encoding="utf-8")  # cells stripped
    human = read_human(table, ["A.1", "A", "B"])
    assert human.scores == {"A.1": 0.5, "A": 0.25, "B": -1.0}
    assert human.unmatched_table == [] and human.unmatched_systems == []


def test_a_table_that_is_not_utf8_is_a_corpus_error(tmp_path):
    from auto_challenge_sets.errors import CorpusError

    table = tmp_path / "human.txt"
    table.write_bytes(b"SYS Z.SCR\n\xff\xfe 0.5\n")
    with pytest.raises(CorpusError):
        read_human(table, ["A"])


def test_kendall_taus_leave_constant_rows_undefined_without_dividing_by_zero():
    """A constant row on either side (or both) is NaN, and is never divided: a thousand bootstrap
    rows would otherwise raise (or warn) once each."""
    xs = np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0], [1.0, 3.0, 2.0, 4.0]])
    ys = np.array([[1.0, 2.0, 4.0, 3.0], [5.0, 5.0, 5.0, 5.0], [3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0]])
    with np.errstate(all="raise"):
        got = kendall_taus(xs, ys)
    assert np.isnan(got[:3]).all() and got[3] == kendalltau(xs[3], ys[3]).statistic


def test_the_typed_correlation_passes_the_random_corpora_and_the_seed():
    xs = [2.0, 7.0, 1.0, 8.0, 3.0, 6.0, 5.0, 4.0, 9.0, 0.0, 11.0, 10.0]
    ys = [0.5, 0.6, 0.1, 0.9, 0.3, 0.2, 0.8, 0.4, 1.0, 0.0, 0.7, 1.2]
    names = [f"s{k}" for k in range(12)]
    rows = [list(range(12)), list(range(12, 0, -1)), ys]  # τ of 1.0 among them, above the set's
    random_auto = {n: np.array([row[k] for row in rows], dtype=float) for k, n in enumerate(names)}
    found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))), random_auto, seed=4)
    taus = [kendalltau(row, ys).statistic for row in rows]
    assert found.random_kendall_percentile == pytest.approx(100 * sum(t <= kendalltau(xs, ys).statistic for t in taus) / 3)
    assert 0 < found.random_kendall_percentile < 100
    assert found.random_kendall_mean == pytest.approx(np.mean(taus))
    assert found.ci == tuple(_bootstrap_interval(xs, ys, seed=4)) != tuple(_bootstrap_interval(xs, ys))


def test_each_kind_of_draw_has_a_stream_no_other_draws_from():
    """The one table of seed streams: two kinds share a value only where the second is told apart
    by a further word (the targeted control adds its config's crc32), kept for the published numbers."""
    from auto_challenge_sets.evaluation.stats import STREAMS

    shared = {value for value in STREAMS.values() if list(STREAMS.values()).count(value) > 1}
    assert {kind for kind, value in STREAMS.items() if value in shared} == {"segment_bootstrap", "targeted_control"}
    assert not set(STREAMS.values()) & {0, 1}  # scoring.kernel's: the random corpora and compute()'s slices
