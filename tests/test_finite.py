"""The checks of what a metric hands the engine (auto_challenge_sets.scoring.finite.py): the
first non-finite statistic named by file and line, a non-finite score by metric, system and where,
a plug-in's exception by metric and system. The command line's view: tests/test_hostile_values.py."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.scoring.finite import (
    MetricFailure,
    check_statistics,
    corpus_score,
    run_metric,
    sample_scores,
)
from auto_challenge_sets.scoring.metrics import AveragedMetric

LINES = [3, 5, 8, 13]  # the corpus lines of the pool's four rows


@pytest.mark.parametrize("rows, line, shown", [
    ([1.0, 2.0, float("nan"), float("inf")], 8, "nan"),  # the first bad row, not the last
    ([[1, 2], [3, -np.inf], [5, 6], [7, 8]], 5, "[3.0, -inf]"),  # a summed metric's row, whole
    ([0.5, None, 0.5, 0.5], 5, "nan"),  # None, as numpy reads it in a float array
])
def test_the_first_non_finite_statistic_names_the_file_and_line(rows, line, shown):
    stats = {"A": {"bleu": np.zeros((4, 2))}, "B": {"bleu": np.zeros((4, 2)), "mine": rows}}
    with pytest.raises(InputError) as error:
        check_statistics(stats, {"A": "a.txt", "B": "b.txt"}, LINES)
    assert str(error.value) == (f"b.txt:{line}: metric mine gave the non-finite statistic {shown} for system B on "
                                "this line: a metric's statistics must be finite numbers")


def test_finite_statistics_and_stdin():
    check_statistics({"A": {"m": [1.0, 2.0, 3.0, 4.0]}}, {"A": "a.txt"}, LINES)
    with pytest.raises(InputError, match=r"^<stdin>:13: metric m gave"):
        check_statistics({"A": {"m": [1.0, 2.0, 3.0, np.nan]}}, {"A": "-"}, LINES)
    with pytest.raises(InputError, match=r"^a\.txt: metric m returned statistics that are not numbers for system A"):
        check_statistics({"A": {"m": ["x", 1.0, 2.0, 3.0]}}, {"A": "a.txt"}, LINES)


class _Given(AveragedMetric):
    """A plug-in whose corpus score and random corpora's scores are the value it is given."""

    name, label = "m", "M"

    def __init__(self, value) -> None:
        super().__init__()
        self.value = value

    def sentence_scores(self, hypotheses, references, sources=None):
        return [0.0] * len(hypotheses)

    def signature(self, nrefs: int) -> str:
        return "given"

    def corpus_score(self, stats):
        return self.value

    def sample_scores(self, stats, index):
        return self.value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), None, "1.0"])
def test_a_non_finite_score_names_metric_system_and_where(value):
    shown = repr(value) if value is None or isinstance(value, str) else repr(float(value))
    with pytest.raises(MetricFailure, match=rf"^metric m scored system A {re.escape(shown)} on config c\.d1: "
                                            "a corpus score must be a finite number$"):
        corpus_score(_Given(value), "A", np.zeros(2), "config c.d1")
    assert corpus_score(_Given(np.float64(2.5)), "A", np.zeros(2), "config c.d1") == 2.5


def test_a_non_finite_random_corpus_names_the_config():
    index = np.zeros((2, 2), dtype=int)
    assert sample_scores(_Given(np.array([1.0, 2.0])), "A", np.zeros(2), index, "config c.d1").tolist() == [1.0, 2.0]
    with pytest.raises(MetricFailure, match=r"^metric m scored system A nan on a random corpus of "
                                            r"config c\.d1: a corpus score must be a finite number$"):
        sample_scores(_Given(np.array([1.0, np.nan])), "A", np.zeros(2), index, "config c.d1")


def test_a_plugins_exception_names_the_metric_and_crosses_processes():
    with pytest.raises(MetricFailure) as error:
        run_metric("m", "A", lambda: [][1])
    assert str(error.value) == "metric m failed on the output of system A: IndexError: list index out of range"
    assert str(pickle.loads(pickle.dumps(error.value))) == str(error.value)  # from a worker, intact
    with pytest.raises(ValueError, match=r"^metric m: bad shape$"):
        run_metric("m", "A", lambda: (_ for _ in ()).throw(ValueError("bad shape")))
    with pytest.raises(ValueError, match=r"^metric m: shape \(3,\)$"):  # named already: not twice
        run_metric("m", "A", lambda: (_ for _ in ()).throw(ValueError("metric m: shape (3,)")))
    assert run_metric("m", "A", lambda: 7) == 7
    for raised in (ValueError("no"), KeyError("no")):  # scoring a corpus: every failure is the metric's, named
        with pytest.raises(MetricFailure, match=rf"^metric m failed on config c\.d1 for system A: "
                                                rf"{type(raised).__name__}: "):
            run_metric("m", "A", lambda raised=raised: (_ for _ in ()).throw(raised), "config c.d1")
