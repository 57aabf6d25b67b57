"""evaluation/stats/human.py's correlation on hand-made scores where the plausible wrong answers differ
from the right one: Kendall's p-value next to Spearman's (which a perfect ranking makes equal),
and the random-τ control counted from the right side."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau, spearmanr

from auto_challenge_sets.evaluation.stats.human import PERMUTATIONS, SMALL_N, HumanScores, correlation

# an imperfect ranking: Spearman and Kendall give different p-values
AUTO = [3.1, 1.2, 2.5, 4.8, 4.1, 0.7, 5.9, 5.2, 2.2, 6.6, 7.3, 1.9, 8.0, 6.1]
HUMAN = [0.3, 0.1, -0.2, 0.9, 0.2, -0.5, 0.8, 1.1, 0.5, 0.6, 1.4, -0.1, 1.2, 0.4]


def _scores(n: int) -> tuple[dict[str, float], HumanScores]:
    names = [f"s{k}" for k in range(n)]
    return dict(zip(names, AUTO[:n])), HumanScores(dict(zip(names, HUMAN[:n])))


@pytest.mark.parametrize("n", [6, SMALL_N, len(AUTO)])
def test_kendalls_p_value_is_kendalls_not_spearmans(n):
    auto, human = _scores(n)
    found = correlation(auto, human)
    xs, ys = AUTO[:n], HUMAN[:n]
    assert found.kendall == pytest.approx(kendalltau(xs, ys).statistic)
    assert found.spearman == pytest.approx(spearmanr(xs, ys).statistic)
    # few systems: the exact distribution of τ (no ties here); many: scipy's default
    expected = kendalltau(xs, ys, method="exact" if n <= SMALL_N else "auto").pvalue
    assert found.p_value == pytest.approx(expected)
    assert not np.isclose(found.p_value, found.spearman_p)
    if n <= 7:  # Spearman's p over every order of the systems (the human scores held fixed)
        from scipy.stats import permutation_test

        exact = permutation_test((xs,), lambda a: spearmanr(a, ys).statistic, permutation_type="pairings",
                                 vectorized=False, n_resamples=np.inf).pvalue
        assert found.spearman_p == pytest.approx(exact)
    elif n <= SMALL_N:  # PERMUTATIONS random orders: a p-value on the grid k / (PERMUTATIONS + 1)
        assert round(found.spearman_p * (PERMUTATIONS + 1), 6) % 1 == 0
        assert found.spearman_p != pytest.approx(spearmanr(xs, ys).pvalue)  # not the t approximation


def test_a_constant_side_has_no_p_values():
    """Every system scored alike: no ranking, so no correlation and no p-value (not 0, not 1)."""
    auto, human = _scores(6)
    found = correlation(dict.fromkeys(auto, 1.0), human)
    assert found.spearman is None and found.spearman_p is None
    assert found.kendall is None and found.p_value is None


def test_the_random_tau_control_counts_the_random_taus_at_or_below():
    """Eight random corpora whose τ with the human scores spread from -1 to 1 around the set's 0.6:
    the percentile is the share at or below (a random τ equal to the set's counts)."""
    auto, human = _scores(5)
    ys = HUMAN[:5]
    order = np.argsort(ys)
    random_rows = []
    for swaps in range(8):  # from the human order (τ = 1) towards its reverse (τ = -1)
        ranks = np.arange(5, dtype=float)
        for k in range(swaps):
            i = k % 4
            ranks[[i, i + 1]] = ranks[[i + 1, i]]
        row = np.empty(5)
        row[order] = ranks
        random_rows.append(row)
    random_auto = {name: np.array([row[k] for row in random_rows]) for k, name in enumerate(auto)}
    found = correlation(auto, human, random_auto)
    taus = np.array([kendalltau(row, ys).statistic for row in random_rows])
    assert 0 < np.count_nonzero(taus < found.kendall) < np.count_nonzero(taus <= found.kendall) < len(taus)
    assert found.random_kendall_percentile == 100 * np.count_nonzero(taus <= found.kendall) / len(taus)
    assert found.random_kendall_mean == pytest.approx(taus.mean())


@pytest.mark.parametrize("xs", [[1.0, 2.0, 2.0, 3.0, 5.0, 4.0], [1.0, 1.0, 2.0, 1.0, 2.0, 2.0]],
                         ids=["ties", "two values"])
def test_tied_scores_take_kendalls_p_from_every_order_of_the_systems(xs):
    """Ties: no exact distribution of τ, so a permutation test over all 6! orders of the automatic
    scores against the human ones, with Kendall's τ-b as the statistic (two distinct scores are
    enough for a p-value)."""
    from scipy.stats import permutation_test

    ys = [0.1, 0.4, 0.2, 0.2, 0.9, 0.3]
    names = [f"s{k}" for k in range(6)]
    found = correlation(dict(zip(names, xs)), HumanScores(dict(zip(names, ys))))
    exact = permutation_test((xs,), lambda a: kendalltau(a, ys).statistic, permutation_type="pairings",
                             vectorized=False, n_resamples=np.inf).pvalue
    assert found.kendall == pytest.approx(kendalltau(xs, ys).statistic)
    assert found.p_value == pytest.approx(exact)
    assert not np.isclose(exact, kendalltau(xs, ys).pvalue)  # not scipy's asymptotic p


def test_pearson_is_each_rows_correlation() -> None:
    """_pearson on a batch (rows of different means and spreads) is each row's Pearson r."""
    from auto_challenge_sets.evaluation.stats.human import _pearson

    x = np.array([[1.0, 2.0, 4.0, 8.0], [10.0, 30.0, 20.0, 25.0]])
    y = np.array([[3.0, 1.0, 2.0, 5.0], [5.0, 7.0, 9.0, 4.0]])
    expected = [np.corrcoef(a, b)[0, 1] for a, b in zip(x, y)]
    assert _pearson(x, y) == pytest.approx(expected, rel=1e-12)
    assert _pearson(x[1], y[1]) == pytest.approx(expected[1], rel=1e-12)


def test_the_permutation_p_values_default_seed_is_1() -> None:
    """Nine systems: 9! > PERMUTATIONS orders, so the permutation p-value is random and its seed shows."""
    from auto_challenge_sets.evaluation.stats.human import small_sample_p_values

    xs, ys = np.arange(1.0, 10.0), np.array([3.0, 1, 2, 6, 4, 9, 5, 8, 7])
    assert small_sample_p_values(xs, ys) == small_sample_p_values(xs, ys, seed=1)
    assert small_sample_p_values(xs, ys) != small_sample_p_values(xs, ys, seed=2)


def test_the_bootstrap_statistic_is_a_scalar_for_one_sample_and_a_row_per_resample():
    """scipy's bootstrap calls the statistic on the observed sample (1-d: it must give a scalar)
    and on batches of resamples (one τ per row)."""
    from auto_challenge_sets.evaluation.stats.human import _kendall

    x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, 4.0])
    one = _kendall(x, y)
    assert one.shape == () and float(one) == pytest.approx(kendalltau(x, y).statistic)
    batch = _kendall(np.stack([x, x[::-1]]), np.stack([y, y]))
    assert batch.shape == (2,) and batch[1] == pytest.approx(kendalltau(x[::-1], y).statistic)


def test_a_side_with_two_values_gets_a_p_value_counted_by_hand():
    """Human scores in two tied pairs (two distinct values, not one): the p-values are computed, not
    NaN. Of the 4! orders of the metric's scores, the 2! x 2! that keep its two lowest with the
    humans' two lowest give the observed (largest) rho and tau: two-sided, 2 x 4/24 = 1/3 each.
    One distinct value on a side: NaN."""
    from auto_challenge_sets.evaluation.stats.human import small_sample_p_values

    rho_p, tau_p = small_sample_p_values(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.0, 0.0, 1.0, 1.0]))
    assert rho_p == pytest.approx(1 / 3) and tau_p == pytest.approx(1 / 3)
    assert all(np.isnan(small_sample_p_values(np.array([1.0, 2.0, 3.0, 4.0]), np.array([5.0] * 4))))
