"""The pooled statistics of evaluation/stats/meta_evaluation.py on hand-made runs: pairwise accuracy
against a hand count, τ against scipy.stats.kendalltau, the intervals and p-values against
hand-written resampling loops drawing from the documented seeds, the critical τ against
scipy's exact p and the issue's 10-system figures."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import kendalltau, rankdata

from auto_challenge_sets.evaluation.stats.meta_evaluation import (
    RunScores,
    agreement,
    chance,
    difference,
    pooled,
    swap_masks,
    swap_sums,
)
from auto_challenge_sets.evaluation.stats.power import critical_tau, power, power_note


def pooled_accuracy(runs):
    return pooled(runs)[0]


def pooled_kendall(runs):
    tau = pooled(runs)[1]
    return None if np.isnan(tau) else tau


# run A: 5 systems, humans a > b > c > d > e; the measure swaps b/c and ties d with e
A = RunScores(np.array([9.0, 7.0, 8.0, 3.0, 3.0]), np.array([5.0, 4.0, 3.0, 2.0, 1.0]))
# run B: 4 systems, the measure reverses the last two
B = RunScores(np.array([0.4, 0.3, 0.1, 0.2]), np.array([0.9, 0.5, 0.2, 0.1]))


def test_pairwise_accuracy_is_the_hand_count_over_both_runs():
    # A: 10 pairs; wrong: (b, c) swapped and (d, e) tied where humans differ -> 8 agree.
    # B: 6 pairs; wrong: (c, d) -> 5 agree. Pooled: 13 of 16.
    assert pooled_accuracy([A]) == 8 / 10
    assert pooled_accuracy([B]) == 5 / 6
    assert pooled_accuracy([A, B]) == 13 / 16


def test_pooled_tau_is_the_pair_weighted_mean_of_scipys_within_run_tau():
    tau_a, tau_b = kendalltau(A.measure, A.human).statistic, kendalltau(B.measure, B.human).statistic
    assert pooled_kendall([A]) == pytest.approx(tau_a, abs=1e-15)
    assert pooled_kendall([A, B]) == pytest.approx((10 * tau_a + 6 * tau_b) / 16, abs=1e-15)
    # without ties, accuracy = (τ + 1) / 2: B alone has no ties
    assert pooled_accuracy([B]) == pytest.approx((pooled_kendall([B]) + 1) / 2)


def test_chance_counts_human_ties():
    # humans tie 1 of 3 pairs: a tied measure pair agrees with probability 1/3, another with 1/3
    run = RunScores(np.array([1.0, 1.0, 2.0]), np.array([5.0, 5.0, 6.0]))
    assert chance([run]) == pytest.approx((1 / 3 + 2 * (1 - 1 / 3) / 2) / 3)
    orders = [RunScores(run.measure, np.array(h)) for h in itertools.permutations(run.human)]
    assert chance([run]) == pytest.approx(np.mean([pooled_accuracy([o]) for o in orders]))


def test_a_constant_measure_has_no_tau():
    assert pooled_kendall([RunScores(np.ones(4), B.human)]) is None


def _hand_bootstrap(runs, references, seed=1, resamples=200):
    """The module's bootstrap written out: each run resampled on its own from stream [seed, 5],
    resamples with fewer than 3 distinct systems in a run dropped, self-pairs left out."""
    rng = np.random.default_rng([seed, 5])
    picks = [rng.integers(0, len(r.human), (resamples, len(r.human))) for r in runs]
    values = {"acc": [], "tau": [], "dacc": [], "dtau": []}
    for b in range(resamples):
        rows = [p[b] for p in picks]
        if any(len(set(row)) < 3 for row in rows):
            continue
        found = {}
        for side, measures in (("mine", runs), ("ref", references)):
            agree = total = 0
            tau_sum = weight = 0.0
            for run, row in zip(measures, rows):
                x, h = run.measure[row], run.human[row]
                for i, j in itertools.combinations(range(len(row)), 2):
                    if row[i] != row[j]:
                        total += 1
                        agree += np.sign(x[i] - x[j]) == np.sign(h[i] - h[j])
                n = len(row)
                tau_sum += n * (n - 1) / 2 * kendalltau(x, h).statistic
                weight += n * (n - 1) / 2
            found[side] = (agree / total, tau_sum / weight)
        values["acc"].append(found["mine"][0])
        values["tau"].append(found["mine"][1])
        values["dacc"].append(found["mine"][0] - found["ref"][0])
        values["dtau"].append(found["mine"][1] - found["ref"][1])
    return {k: (np.percentile(v, 2.5), np.percentile(v, 97.5)) for k, v in values.items()}


REF_A = RunScores(np.array([1.0, 5.0, 4.0, 3.0, 2.0]), A.human)  # full-test BLEU of run A's systems
REF_B = RunScores(np.array([30.0, 31.0, 29.0, 28.0]), B.human)


def test_the_intervals_are_a_within_run_bootstrap_written_by_hand():
    found = agreement([A, B], [REF_A, REF_B], resamples=200, permutations=99)
    hand = _hand_bootstrap([A, B], [REF_A, REF_B])
    assert found.accuracy.ci == pytest.approx(hand["acc"])
    assert found.kendall.ci == pytest.approx(hand["tau"])
    assert found.accuracy_difference.ci == pytest.approx(hand["dacc"])
    assert found.kendall_difference.ci == pytest.approx(hand["dtau"])
    assert found.systems == (5, 4)


def test_the_agreement_p_permutes_human_scores_within_each_run():
    found = agreement([A, B], resamples=50, permutations=199)
    rng = np.random.default_rng([1, 6])
    shuffled = [rng.permuted(np.broadcast_to(r.human, (199, len(r.human))), axis=1) for r in (A, B)]
    taus, accs = [], []
    for k in range(199):
        runs = [RunScores(r.measure, s[k]) for r, s in zip((A, B), shuffled)]
        taus.append(pooled_kendall(runs))
        accs.append(pooled_accuracy(runs))
    tau, acc = pooled_kendall([A, B]), pooled_accuracy([A, B])
    assert found.kendall.value == tau and found.accuracy.value == acc
    assert found.kendall.p_value == (1 + sum(abs(t) >= abs(tau) - 1e-12 for t in taus)) / 200
    # the centre: run A's measure ties d and e, which never agrees with untied humans: 4.5 of 10
    # pairs by chance, run B 3 of 6
    centre = (4.5 + 3) / 16
    assert chance([A, B]) == centre and np.mean(accs) == pytest.approx(centre, abs=0.01)
    assert found.accuracy.p_value == (1 + sum(abs(a - centre) >= abs(acc - centre) - 1e-12 for a in accs)) / 200
    assert found.accuracy_difference is None and found.kendall_difference is None


def _hand_swaps(runs, references, masks):
    deltas = []
    for mask in masks:
        start, swapped, kept = 0, [], []
        for run, ref in zip(runs, references):
            n = len(run.human)
            m = mask[start:start + n]
            start += n
            a, b = rankdata(run.measure), rankdata(ref.measure)
            swapped.append(RunScores(np.where(m, b, a), run.human))
            kept.append(RunScores(np.where(m, a, b), run.human))
        deltas.append((pooled_accuracy(swapped) - pooled_accuracy(kept), pooled_kendall(swapped) - pooled_kendall(kept)))
    return np.asarray(deltas)


def test_the_difference_p_enumerates_every_swap_of_a_small_pool():
    # 9 systems: 512 swaps, fewer than 9999 + 1, so every one (and the p has no +1)
    acc, tau = difference([A, B], [REF_A, REF_B], resamples=20)
    masks = list(itertools.product([False, True], repeat=9))
    null = _hand_swaps([A, B], [REF_A, REF_B], masks)
    observed = (pooled_accuracy([A, B]) - pooled_accuracy([REF_A, REF_B]),
                pooled_kendall([A, B]) - pooled_kendall([REF_A, REF_B]))
    assert (acc.value, tau.value) == pytest.approx(observed)
    assert acc.p_value == pytest.approx(np.mean(np.abs(null[:, 0]) >= abs(observed[0]) - 1e-12))
    assert tau.p_value == pytest.approx(np.mean(np.abs(null[:, 1]) >= abs(observed[1]) - 1e-12))
    assert 0 < tau.p_value < 1


def test_the_difference_p_draws_random_swaps_of_a_large_pool():
    rng = np.random.default_rng(7)
    human = rng.normal(size=12)
    run = RunScores(human + rng.normal(size=12) * 0.3, human)
    ref = RunScores(human + rng.normal(size=12), human)
    _, tau = difference([run], [ref], resamples=20, permutations=99)  # 4096 swaps > 100: 99 drawn
    masks = np.random.default_rng([1, 7]).random((99, 12)) < 0.5
    null = _hand_swaps([run], [ref], masks)
    observed = pooled_kendall([run]) - pooled_kendall([ref])
    assert tau.value == pytest.approx(observed)
    assert tau.p_value == pytest.approx((1 + np.sum(np.abs(null[:, 1]) >= abs(observed) - 1e-12)) / 100)
    every, exact = swap_masks(3)
    assert exact and sorted(map(tuple, every.tolist())) == sorted(itertools.product([False, True], repeat=3))


def test_swap_sums_are_each_rows_sum_over_the_pairs_counted_by_hand():
    rng = np.random.default_rng(3)
    mask = rng.random((40, 6)) < 0.5
    values = rng.integers(-3, 4, (4, 15, 2))  # 6 systems: 15 pairs, two quantities
    hand = [[sum(values[2 * row[i] + row[j], p, k] for p, (i, j) in enumerate(itertools.combinations(range(6), 2)))
             for k in range(2)] for row in mask.tolist()]
    found = swap_sums(mask, values)
    assert found.dtype == np.int64 and found.tolist() == hand


REF_B_LIKE_A = RunScores(np.array([1.0, 5.0, 4.0, 2.0, 3.0]), A.human)  # REF_A with its last two systems swapped


def test_a_reference_compared_again_gives_the_hand_bootstrap_of_each_measure():
    # a second measure against the same reference, and the same measure against another reference
    other = [RunScores(A.human + np.array([0.0, 0.5, -0.5, 0.2, 0.1]), A.human), RunScores(B.human[::-1].copy(), B.human)]
    for runs, references in (([A, B], [REF_A, REF_B]), (other, [REF_A, REF_B]), ([A, B], [REF_B_LIKE_A, REF_B])):
        acc, tau = difference(runs, references, resamples=200, permutations=99)
        hand = _hand_bootstrap(runs, references)
        assert acc.ci == pytest.approx(hand["dacc"]) and tau.ci == pytest.approx(hand["dtau"])
    assert difference([A, B], [REF_A, REF_B], resamples=200) == difference([A, B], [REF_A, REF_B], resamples=200)


def test_the_same_seed_gives_the_same_numbers_and_another_seed_other_intervals():
    assert agreement([A, B], [REF_A, REF_B], permutations=99) == agreement([A, B], [REF_A, REF_B], permutations=99)
    assert agreement([A, B], permutations=99, seed=2).kendall.ci != agreement([A, B], permutations=99).kendall.ci


def _order_with(n: int, inversions: int) -> np.ndarray:
    """An order of n items with the given number of inversions (a Lehmer code filled greedily)."""
    code, left = [], inversions
    for k in range(n - 1, -1, -1):
        code.append(min(k, left))
        left -= code[-1]
    items, order = list(range(n)), []
    for c in code:
        order.append(items.pop(c))
    return np.asarray(order, dtype=float)


@pytest.mark.parametrize("n", [5, 10, 13])
def test_the_critical_tau_is_the_edge_of_scipys_exact_p(n):
    pairs = n * (n - 1) // 2
    inversions = round((1 - critical_tau([n])) * pairs / 2)  # τ = (pairs − 2 k) / pairs

    def p(k: int) -> float:
        return kendalltau(np.arange(n, dtype=float), _order_with(n, k), method="exact").pvalue

    assert p(inversions) < 0.05 <= p(inversions + 1)


def test_ten_systems_need_the_issues_taus():
    # issue 34: 0.51 for p < 0.05; 0.69-0.78 to survive BH over 30 configs
    assert critical_tau([10]) == pytest.approx(23 / 45)
    found = power([10], 30)
    assert (found.single, found.alone, found.with_tenth) == pytest.approx((23 / 45, 35 / 45, 31 / 45))
    # the edges, by scipy's exact p: k inversions give τ = (45 − 2k) / 45
    def p(k: int) -> float:
        return kendalltau(np.arange(10), _order_with(10, k), method="exact").pvalue

    assert p(11) < 0.05 < p(12)  # τ = 23/45 passes, 21/45 does not
    assert p(5) < 0.05 / 30 < p(6)  # alone: 35/45 survives, 33/45 does not
    assert p(7) < 0.05 * 3 / 30 < p(8)  # with 3 of 30: 31/45 survives, 29/45 does not
    assert power_note(found) == (
        "Power: with 10 systems, a τ of 0.51 is needed for p < 0.05; a τ of 0.78 is needed to survive "
        "Benjamini–Hochberg over 30 configs alone (0.69 when a tenth of them pass together) (exact null "
        "distribution of Kendall's τ, no ties).")


def test_a_pool_needs_less_than_either_run_and_three_systems_never_reach_005():
    assert critical_tau([10, 9]) < critical_tau([9]) and critical_tau([10, 9]) < critical_tau([10])
    assert critical_tau([3]) is None  # the smallest two-sided p of 3 systems is 1/3
    assert "no τ is enough for p < 0.05" in power_note(power([3], 1))
    # the pooled null is the runs' nulls convolved: two runs of 4 systems, every pair of orders counted
    orders = list(itertools.permutations(range(4)))
    counts = [sum(a[i] < a[j] for i in range(4) for j in range(i + 1, 4)) * 2 - 6 for a in orders]
    pooled = [(s + t) / 12 for s in counts for t in counts]
    found = critical_tau([4, 4])
    assert np.mean(np.abs(pooled) >= found - 1e-12) < 0.05 <= np.mean(np.abs(pooled) >= found - 2 / 12 - 1e-12)
