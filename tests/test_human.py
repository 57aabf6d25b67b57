"""Human scores and correlations (evaluation/human.py): the table reader, and the Kendall τ of many
rows at once against scipy's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.human import correlate, kendall_taus, read_human


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
    assert correlate({"A": 1.0, "B": 2.0}, human) is None
    found = correlate({"A": 3.0, "B": 1.0, "C": 2.0}, human)
    assert found["kendall"] == pytest.approx(1.0) and found["systems"] == 3
