"""The declared option (auto_challenge_sets/options.py) that backends and metrics share: values
read strictly from text, typed values kept, bounds and choices checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.options import Option, did_you_mean


@pytest.mark.parametrize("text,expected", [("true", True), ("false", False), (True, True), (False, False)])
def test_a_boolean_is_true_or_false(text, expected):
    assert Option("x", bool, True, "").parse(text) is expected


@pytest.mark.parametrize("text", ["False", "0", "1", "no", "yes", "", " false", 0, None])
def test_anything_else_is_no_boolean(text):
    """bool('false') is True: the text's truth value is never what an option means (issue 38, 9)."""
    with pytest.raises(ValueError, match="must be true or false"):
        Option("x", bool, True, "").parse(text)


@pytest.mark.parametrize("text,expected", [("16", 16), ("-3", -3), (7, 7)])
def test_an_integer_in_ascii_digits(text, expected):
    assert Option("x", int, 0, "").parse(text) == expected


@pytest.mark.parametrize("text", ["１６", "٣", "+12", "1_2", "1.5", "", True, 1.0])
def test_other_digits_signs_and_types_are_no_integer(text):
    with pytest.raises(ValueError, match="must be an integer in ASCII digits"):
        Option("x", int, 0, "").parse(text)


def test_a_float_is_finite_ascii_and_the_bounds_and_choices_are_checked():
    assert Option("x", float, 0.0, "").parse("1e-3") == 0.001
    for bad in ("nan", "inf", "０.５"):
        with pytest.raises(ValueError, match="finite number"):
            Option("x", float, 0.0, "").parse(bad)
    with pytest.raises(ValueError, match="must be an integer >= 1 in ASCII digits, got '0'"):
        Option("x", int, 1, "", minimum=1).parse("0")
    with pytest.raises(ValueError, match="must be >= 0.5, got 0.25"):
        Option("x", float, 1.0, "", minimum=0.5).parse("0.25")
    with pytest.raises(ValueError, match="must be one of ar, bs, got 'x'"):
        Option("x", str, "ar", "", choices=("ar", "bs")).parse("x")
    with pytest.raises(ValueError, match="must be text"):
        Option("x", str, "", "").parse(3)
    assert Option("x", Path, None, "").parse("a/b") == Path("a/b")  # a backend's own type reads its text
    assert Option("x", Path, None, "").parse(Path("a")) == Path("a")
    with pytest.raises(ValueError, match="must be text, got 3"):  # a recipe's `udpipe_model = 3`
        Option("x", Path, None, "").parse(3)


def test_describe_and_did_you_mean():
    option = Option("lowercase_ribes", bool, True, "lowercase first")
    assert option.describe() == "lowercase_ribes (bool, default true): lowercase first"
    assert option.describe("ribes") == "lowercase_ribes (bool, default true; ribes): lowercase first"
    assert did_you_mean("comet_gpu", ["comet_model", "comet_gpus"]) == " (did you mean comet_gpus?)"
    assert did_you_mean("zzz", ["tokenize"]) == ""
