"""Segment-level statistics with whole sentences as the unit (issue 34): the cluster bootstrap
against a resampling written out by hand, a case where clustering must widen the interval, and the
permutation p-values against hand counts. The reader and the engine's use are tests/test_validity.py."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.stats import bootstrap, kendalltau

from auto_challenge_sets.evaluation.stats.segments import (
    ConfigTask,
    cluster_bootstrap,
    config_agreements,
    metric_agreement,
    sentence_permutation_p,
    targeted_agreement,
)

from segments_by_hand import cluster_bootstrap_by_hand, exact_permutation_p, sequential_permutation_p

# two systems, six pool rows; "a" has no z for row 4; row 5 has no judged instance
POOL_Z = {"a": np.array([0.9, -0.2, 0.4, -1.1, np.nan, 0.3]), "b": np.array([0.5, 0.1, -0.6, -0.9, 1.2, 0.0])}
VERDICTS = {"a": [["correct", "correct"], ["wrong"], ["correct", "unaligned"], ["wrong", "wrong"], ["correct"], []],
            "b": [["correct", "wrong"], ["correct"], ["wrong"], ["wrong"], ["correct", "correct"], []]}


def _instances(verdicts, pool_z) -> list[tuple[int, float, bool]]:
    """(sentence, z, correct) of the judged instances with a z; sentences numbered in row order
    among those that have one."""
    found = [(row, float(pool_z[s][row]), verdict == "correct") for s in verdicts
             for row, judged in enumerate(verdicts[s]) for verdict in judged
             if verdict in ("correct", "wrong") and np.isfinite(pool_z[s][row])]
    number = {row: k for k, row in enumerate(sorted({row for row, _, _ in found}))}
    return [(number[row], z, good) for row, z, good in found]


def test_the_cluster_bootstrap_is_the_resampling_written_out_by_hand():
    found = targeted_agreement(VERDICTS, np.arange(6), POOL_Z, seed=7)
    instances = _instances(VERDICTS, POOL_Z)
    right = [z for _, z, good in instances if good]
    wrong = [z for _, z, good in instances if not good]
    assert (found.correct, found.wrong, found.segments) == (len(right), len(wrong), 13)
    assert found.z_correct_minus_wrong == pytest.approx(np.mean(right) - np.mean(wrong))
    ci, p = cluster_bootstrap_by_hand(instances, seed=7)
    assert found.ci == pytest.approx(ci, rel=0, abs=1e-12) and found.difference_p_value == pytest.approx(p)
    assert found.ci[0] > 0 and p < 0.01  # no resample at or below 0
    assert found.ci != pytest.approx(cluster_bootstrap_by_hand(instances, seed=8)[0], rel=0, abs=1e-12)


def _copies(copies: int) -> tuple[dict, dict]:
    """One system, 30 sentences, each with ``copies`` identical instances: the same verdict and z."""
    rng = np.random.default_rng(0)
    good = np.arange(30) % 3 != 0
    z = rng.normal(size=30) + 0.4 * good
    return {"s": [["correct" if g else "wrong"] * copies for g in good]}, {"s": z}


def test_perfectly_correlated_instances_add_nothing_and_the_interval_stays_wide():
    verdicts1, z1 = _copies(1)
    verdicts4, z4 = _copies(4)
    one = targeted_agreement(verdicts1, np.arange(30), z1)
    four = targeted_agreement(verdicts4, np.arange(30), z4)
    assert four.segments == 4 * one.segments
    # four copies of each sentence are one sentence: the very same interval
    assert four.ci == pytest.approx(one.ci, rel=0, abs=1e-12) and four.difference_p_value == one.difference_p_value
    # ... where resampling the 120 instances as independent shrinks it by about sqrt(4)
    right = np.repeat(z4["s"][np.arange(30) % 3 != 0], 4)
    wrong = np.repeat(z4["s"][np.arange(30) % 3 == 0], 4)
    naive = bootstrap((right, wrong), lambda a, b, axis: a.mean(axis) - b.mean(axis), n_resamples=1000,
                      method="percentile", vectorized=True, rng=np.random.default_rng(1)).confidence_interval
    assert four.ci[1] - four.ci[0] > 1.6 * (naive.high - naive.low)


def test_the_permutation_p_of_a_perfect_order_by_hand():
    # one system, x and z in the same order: of the n! orders of the sentences' z only the
    # observed one reaches τ = 1, so p = 2 · 1/n! (3 sentences: 1/3; 4 sentences: 1/12)
    for n, expected in ((3, 1 / 3), (4, 1 / 12)):
        found = metric_agreement({"s": np.arange(n, dtype=float)}, np.arange(n), {"s": np.arange(n, dtype=float)})
        assert found.kendall == 1 and found.p_value == pytest.approx(expected)


def _tau_of(x: dict, z: dict, n: int):
    def tau(order) -> float:  # sentence k takes the z of sentence order[k], system by system
        xs = [x[s][k] for s in x for k in range(n) if np.isfinite(z[s][order[k]])]
        zs = [z[s][order[k]] for s in x for k in range(n) if np.isfinite(z[s][order[k]])]
        return kendalltau(xs, zs).statistic
    return tau


def test_the_metric_p_permutes_whole_sentences_each_system_keeping_its_own_z():
    x = {"a": np.array([3.0, 1.0, 2.0, 5.0, 4.0]), "b": np.array([2.5, 0.5, 4.5, 1.5, 3.5])}
    z = {"a": np.array([0.2, -0.4, 0.1, np.nan, 0.6]), "b": np.array([0.3, -0.8, 0.9, -0.1, 0.0])}
    found = metric_agreement(x, np.arange(5), z)
    tau = _tau_of(x, z, 5)
    assert found.segments == 9 and found.kendall == pytest.approx(tau(range(5)))
    assert found.p_value == pytest.approx(exact_permutation_p(tau, 5))


def test_the_targeted_tau_p_permutes_whole_sentences():
    found = targeted_agreement(VERDICTS, np.arange(6), POOL_Z)
    # rows 0-4 hold judged instances with a z (row 5 none): five sentences, 120 orders
    rows = 5
    judged = [(s, row, verdict == "correct") for s in VERDICTS for row in range(rows)
              for verdict in VERDICTS[s][row] if verdict in ("correct", "wrong")]

    def taken(order):
        pairs = [(POOL_Z[s][order[row]], good) for s, row, good in judged if np.isfinite(POOL_Z[s][order[row]])]
        return [z for z, _ in pairs], [good for _, good in pairs]

    def tau(order) -> float:
        zs, good = taken(order)
        return kendalltau([float(g) for g in good], zs).statistic

    assert found.kendall == pytest.approx(tau(range(rows)))
    assert found.p_value == pytest.approx(exact_permutation_p(tau, rows))


def test_one_sentence_has_no_interval_and_no_p():
    found = targeted_agreement({"s": [["correct", "wrong", "correct", "wrong"]]}, np.arange(1), {"s": np.array([0.3])})
    assert found.segments == 4 and found.ci is None and found.difference_p_value is None and found.p_value is None


def test_configs_spread_over_workers_give_the_same_numbers():
    scores = {"chrf": {"a": np.array([3.0, 1.0, 2.0, 5.0, 4.0, 0.5]), "b": np.array([2.5, 0.5, 4.5, 1.5, 3.5, 1.0])}}
    tasks = [ConfigTask(np.arange(6), VERDICTS), ConfigTask(np.array([0, 2, 3, 4]), None),
             ConfigTask(np.arange(6), VERDICTS, metrics=False)]
    alone = config_agreements(tasks, scores, POOL_Z, seed=3, jobs=1)
    assert config_agreements(tasks, scores, POOL_Z, seed=3, jobs=2) == alone
    assert alone[0][1] == targeted_agreement(VERDICTS, np.arange(6), POOL_Z, seed=3)
    assert alone[1] == ({"chrf": metric_agreement(scores["chrf"], np.array([0, 2, 3, 4]), POOL_Z, seed=3)}, None)
    assert alone[2][0] is None and alone[2][1] == alone[0][1]


@pytest.mark.parametrize("strength", [0.0, 0.3, 3.0])
def test_above_six_sentences_random_orders_stop_once_the_p_is_settled(strength):
    rng = np.random.default_rng(5)
    n = 40
    x = {s: rng.normal(size=n) for s in ("a", "b", "c")}
    z = {s: strength * x[s] + rng.normal(size=n) for s in x}
    found = metric_agreement(x, np.arange(n), z, seed=2)
    expected = sequential_permutation_p(_tau_of(x, z, n), n, seed=2)
    assert found.p_value == pytest.approx(expected)
    if strength == 0:
        assert found.p_value > 0.2  # settled after a few dozen orders
    if strength == 3:
        assert found.p_value == pytest.approx(2 / 1000)  # no order of 999 reaches τ: the smallest p


def test_a_statistic_every_order_reaches_stops_after_ten_orders():
    calls = []

    def constant(order) -> float:
        calls.append(order)
        return 0.5

    assert sentence_permutation_p(constant, 50) == 1.0 and len(calls) == 1 + 10


def _counted(values: dict[int, float], otherwise: float):
    """A statistic by call: call 0 is the observed order, call k the k-th random order."""
    calls = []

    def statistic(order) -> float:
        calls.append(order)
        return values.get(len(calls) - 1, otherwise)
    return statistic, calls


def test_one_sentence_has_no_p_and_two_have_the_exact_one():
    assert sentence_permutation_p(lambda order: 0.5, 1) is None

    def first(order) -> float:
        return float(order[0])
    assert sentence_permutation_p(first, 2) == exact_permutation_p(first, 2) == 1.0


def test_without_a_settled_p_exactly_999_orders_are_drawn_and_counted_plus_one():
    never, calls = _counted({0: 0.0}, 1.0)  # no random order at or below the observed one
    assert sentence_permutation_p(never, 7) == pytest.approx(2 * 1 / 1000) and len(calls) == 1 + 999
    once, calls = _counted({0: 0.0, 500: 0.0}, 1.0)  # one does
    assert sentence_permutation_p(once, 7) == pytest.approx(2 * 2 / 1000) and len(calls) == 1 + 999
    last, calls = _counted({0: 0.0, 999: 0.0, 1000: 0.0}, 1.0)  # the 999th does; a 1000th is never drawn
    assert sentence_permutation_p(last, 7) == pytest.approx(2 * 2 / 1000) and len(calls) == 1 + 999


@pytest.mark.parametrize(("observed", "other", "settled"), [
    (1.0, 1.0 - 1e-12, True),  # exactly the tolerance below: reaches it
    (1.0, 1.0 + 1e-12, True),  # exactly the tolerance above: reaches it
    (0.5, 0.5 + 1.5e-12, False),  # past the tolerance of a value under 1 (1e-12): does not
    (1e13, 1e13 + 1.0, True),  # within the tolerance relative to a large value (10): reaches it
])
def test_a_value_equal_but_for_rounding_reaches_the_observed_one(observed, other, settled):
    statistic, calls = _counted({0: observed}, other)
    found = sentence_permutation_p(statistic, 7)
    assert (found, len(calls)) == ((1.0, 1 + 10) if settled else (pytest.approx(2 / 1000), 1 + 999))


def test_the_random_orders_are_drawn_from_seed_1_unless_another_is_given():
    rng = np.random.default_rng(8)
    x, z = rng.normal(size=9), rng.normal(size=9)

    def tau(order) -> float:
        return kendalltau(x, z[list(order)]).statistic
    assert sentence_permutation_p(tau, 9) == pytest.approx(sequential_permutation_p(tau, 9, seed=1))
    assert sentence_permutation_p(tau, 9, seed=2) == pytest.approx(sequential_permutation_p(tau, 9, seed=2))
    assert sequential_permutation_p(tau, 9, seed=1) != sequential_permutation_p(tau, 9, seed=2)


def test_three_judged_instances_with_a_z_are_enough_and_two_are_not():
    z = {"s": np.array([0.1, 0.5, -0.3])}
    three = targeted_agreement({"s": [["correct"], ["wrong"], ["correct"]]}, np.arange(3), z)
    assert three is not None and three.segments == 3 and (three.correct, three.wrong) == (2, 1)
    assert targeted_agreement({"s": [["correct"], ["wrong"], ["unaligned"]]}, np.arange(3), z) is None
    assert targeted_agreement({"s": [["unaligned"], [], ["absent"]]}, np.arange(3), z) is None


def test_a_sentence_whose_judged_instances_have_no_z_changes_nothing():
    z = {"a": np.array([0.9, np.nan, 0.4, -1.1, 0.2]), "b": np.array([0.5, np.nan, -0.6, -0.9, 1.0])}
    with_it = {"a": [["correct"], ["wrong", "wrong"], ["correct"], ["wrong"], ["correct"]],
               "b": [["wrong"], ["correct"], ["correct"], ["wrong"], ["wrong"]]}
    without = {s: [v if row != 1 else [] for row, v in enumerate(rows)] for s, rows in with_it.items()}
    assert targeted_agreement(with_it, np.arange(5), z) == targeted_agreement(without, np.arange(5), z)


def test_all_correct_has_no_difference_and_no_interval():
    z = {"s": np.array([0.1, 0.5, -0.3, 0.8])}
    found = targeted_agreement({"s": [["correct"], ["correct"], ["correct"], ["correct"]]}, np.arange(4), z)
    assert (found.correct, found.wrong, found.z_correct_minus_wrong, found.ci, found.difference_p_value) == (
        4, 0, None, None, None)
    wrong = targeted_agreement({"s": [["wrong"], ["wrong"], ["wrong"], ["wrong"]]}, np.arange(4), z)
    assert (wrong.correct, wrong.wrong, wrong.z_correct_minus_wrong, wrong.ci) == (0, 4, None, None)


def test_the_targeted_p_over_random_orders_is_drawn_from_the_seed():
    rng = np.random.default_rng(3)
    z = {"a": rng.normal(size=9)}
    verdicts = {"a": [["correct" if value > -0.2 else "wrong"] for value in z["a"] + rng.normal(size=9)]}

    def tau(order) -> float:
        return kendalltau([float(v == ["correct"]) for v in verdicts["a"]], z["a"][list(order)]).statistic
    default, two = targeted_agreement(verdicts, np.arange(9), z), targeted_agreement(verdicts, np.arange(9), z, seed=2)
    assert default == targeted_agreement(verdicts, np.arange(9), z, seed=1)
    assert default.p_value == pytest.approx(sequential_permutation_p(tau, 9, seed=1))
    assert two.p_value == pytest.approx(sequential_permutation_p(tau, 9, seed=2)) and two.p_value != default.p_value


def _bootstrap(instances, seed=None):
    sentence, z, good = (np.array(column) for column in zip(*instances))
    args = (sentence.astype(np.intp), z.astype(float), good.astype(bool), int(sentence.max()) + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a resample without a wrong instance is left out silently
        return cluster_bootstrap(*args) if seed is None else cluster_bootstrap(*args, seed=seed)


@pytest.mark.parametrize("other", [-0.25, 0.25])
def test_two_sentences_resample_and_a_difference_of_exactly_zero_counts_on_both_sides(other):
    # sentence 0 alone: correct − wrong = 0 exactly; sentence 1 alone: ``other``; both: half of it
    instances = [(0, 0.5, True), (0, 0.5, False), (1, other, True), (1, 0.0, False)]
    found = _bootstrap(instances)
    assert found == _bootstrap(instances, seed=1)
    ci, p = cluster_bootstrap_by_hand(instances, seed=1)
    assert found[0] == pytest.approx(ci, rel=0, abs=1e-12) and found[1] == pytest.approx(p) and 0.4 < p < 0.6


def test_a_difference_of_zero_in_every_resample_has_p_1():
    instances = [(0, 0.5, True), (0, 0.5, False), (1, 0.2, True), (1, 0.2, False), (1, 0.9, False), (1, 0.9, True)]
    assert _bootstrap(instances) == ((0.0, 0.0), 1.0)


def test_resamples_without_a_wrong_instance_are_left_out():
    instances = [(0, 0.5, True), (1, 0.1, True), (1, -0.3, False), (2, 0.7, True)]
    found = _bootstrap(instances, seed=4)
    ci, p = cluster_bootstrap_by_hand(instances, seed=4)
    assert found[0] == pytest.approx(ci, rel=0, abs=1e-12) and found[1] == pytest.approx(p)


def test_the_metric_agreement_draws_its_orders_from_seed_1_and_a_workers_from_the_runs_seed():
    rng = np.random.default_rng(11)
    x = {"a": rng.normal(size=9)}
    z = {"a": 0.3 * x["a"] + rng.normal(size=9)}
    default = metric_agreement(x, np.arange(9), z)
    assert default == metric_agreement(x, np.arange(9), z, seed=1)
    two = metric_agreement(x, np.arange(9), z, seed=2)
    assert two.p_value != default.p_value
    task = ConfigTask(np.arange(9), None)
    assert config_agreements([task], {"chrf": x}, z, seed=2) == [({"chrf": two}, None)]
    assert config_agreements([task], {"chrf": x}, z) == [({"chrf": default}, None)]
    assert config_agreements([task, task], {"chrf": x}, z, seed=2, jobs=2) == [({"chrf": two}, None)] * 2


def test_a_constant_side_has_no_tau_and_no_p():
    found = metric_agreement({"a": np.array([1.0, 2.0, 3.0, 4.0])}, np.arange(4), {"a": np.full(4, 0.5)})
    assert (found.segments, found.kendall, found.p_value) == (4, None, None)


def test_an_order_that_leaves_fewer_than_three_pairs_has_no_tau():
    # shuffled, the judged instances take the z of a sentence where their system has none
    z = {"a": np.array([0.1, np.nan]), "b": np.array([np.nan, 0.5])}
    found = targeted_agreement({"a": [["correct", "wrong", "correct"], []], "b": [[], ["wrong"]]}, np.arange(2), z)
    assert found.segments == 4
    assert found.kendall == pytest.approx(kendalltau([1.0, 0.0, 1.0, 0.0], [0.1, 0.1, 0.1, 0.5]).statistic)


def test_a_sentence_without_instances_is_drawn_and_adds_nothing():
    instances = [(0, 0.5, True), (0, -0.1, False), (1, 0.1, True), (1, -0.3, False)]
    sentence, z, good = (np.array(column) for column in zip(*instances))
    found = cluster_bootstrap(sentence.astype(np.intp), z, good.astype(bool), 3, seed=2)
    ci, p = cluster_bootstrap_by_hand(instances, seed=2, sentences=3)
    assert found[0] == pytest.approx(ci, rel=0, abs=1e-12) and found[1] == pytest.approx(p)
