"""evaluation/request.py: the bounds of the request's numbers are inclusive at both ends."""

from __future__ import annotations

import pytest

from auto_challenge_sets.evaluation.request import (
    MAX_PAIRED_SAMPLES,
    MAX_SAMPLES,
    EvaluationRequest,
    RequestError,
)

BOUNDS = {"n_samples": (1, MAX_SAMPLES), "paired_samples": (1, MAX_PAIRED_SAMPLES), "jobs": (1, 1024),
          "min_rows": (0, None), "length_tolerance": (0, None), "seed": (0, None)}


def _request(**given) -> EvaluationRequest:
    return EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("bleu",), **given)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_value_at_either_bound_is_accepted_and_one_past_it_refused(name):
    low, high = BOUNDS[name]
    assert getattr(_request(**{name: low}), name) == low
    with pytest.raises(RequestError, match=f"must be (>= {low}|from {low} to .*), got {low - 1}$"):
        _request(**{name: low - 1})
    if high is not None:
        assert getattr(_request(**{name: high}), name) == high
        with pytest.raises(RequestError, match=f"must be from {low} to {high:,}, got {high + 1}$"):
            _request(**{name: high + 1})


@pytest.mark.parametrize("value", [0, 0.05, 1])
def test_the_relative_length_window_is_a_share_from_0_to_1(value):
    assert _request(length_relative=value).length_relative == value


@pytest.mark.parametrize("value", [-0.01, 1.01, float("nan"), True, "0.1"])
def test_a_relative_length_window_outside_0_to_1_is_a_request_error(value):
    with pytest.raises(RequestError, match=r"must be a number from 0 to 1, got ") as error:
        _request(length_relative=value)
    assert error.value.field == "length_relative"
