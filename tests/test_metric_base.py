"""The metric interface's declared options (scoring/metrics/base.py): a metric takes the options
it declares, checked and typed, with defaults; and the plug-in example of docs/method.md runs."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics.base import AveragedMetric, option_values

METHOD = Path(__file__).resolve().parents[1] / "docs" / "method.md"


class Lengths(AveragedMetric):
    """Sentence length in words, at most ``cap``: a metric small enough to count by hand."""

    name, label = "lengths", "Lengths"
    options = (Option("cap", int, 100, "the largest length counted", minimum=1),
               Option("words", bool, True, "count words, not characters"))

    def sentence_scores(self, hypotheses, references, sources=None):
        count = (lambda h: len(h.split())) if self.values["words"] else len
        return np.array([min(self.values["cap"], count(h)) for h in hypotheses], dtype=float)

    def signature(self, nrefs):
        return f"cap:{self.values['cap']}|words:{self.values['words']}"


def test_a_metric_takes_its_declared_options_typed_with_defaults():
    assert Lengths().values == {"cap": 100, "words": True}
    metric = Lengths(cap="2", words="false")
    assert metric.values == {"cap": 2, "words": False}
    assert metric.statistics(["a b c", "a"], [("x",), ("x",)]).tolist() == [2.0, 1.0]  # min(2, 5 chars), 1 char
    assert Lengths(cap=None).values["cap"] == 100  # None: the default, as for the backends


def test_an_undeclared_key_or_a_bad_value_is_a_request_error():
    with pytest.raises(RequestError) as error:
        Lengths(caps="3")
    assert str(error.value) == ("metric_options: metric lengths has no option 'caps' (did you mean cap?) "
                                "(its options: cap, words)")
    with pytest.raises(RequestError, match=r"^metric_options: cap=0: must be an integer >= 1 in ASCII digits, got '0'$"):
        Lengths(cap="0")
    with pytest.raises(RequestError, match=r"^metric_options: words=1: must be true or false, got '1'$"):
        Lengths(words="1")
    with pytest.raises(RequestError, match=r"has no option 'x' \(its options: none\)"):
        option_values(type("Bare", (AveragedMetric,), {"name": "bare"}), {"x": 1})


def test_the_plugin_example_of_method_md_runs_as_a_doctest():
    """docs/method.md's plug-in with a declared option: the outputs it shows are what it does."""
    blocks = [b for b in re.findall(r"```python\n(.*?)```", METHOD.read_text(encoding="utf-8"), flags=re.S)
              if "options = (Option(" in b]
    assert len(blocks) == 1
    test = doctest.DocTestParser().get_doctest(blocks[0], {}, "method.md plug-in", str(METHOD), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8
