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


def test_jobs_default_to_the_cores_as_on_the_command_line():
    from auto_challenge_sets.scoring.forked import cores

    assert _request().jobs is None and _request().workers == cores()
    assert _request(jobs=3).workers == 3


def test_metric_options_are_checked_when_the_request_is_made_before_any_file_is_read():
    """The dataset "ldd" does not exist: a typo in an option fails first, naming the options there are."""
    with pytest.raises(RequestError, match=r"^metric_options: no metric of bleu has an option 'tokenise' "
                       r"\(did you mean tokenize\?\) \(their options: tokenize\)$"):
        _request(metric_options={"tokenise": "intl"})
    with pytest.raises(RequestError, match=r"^metric_options: lowercase_ribes=False: must be true or false"):
        EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("ribes",), metric_options={"lowercase_ribes": "False"})
    request = EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("bleu", "ribes", "ter"),
                                metric_options={"tokenize": "intl", "lowercase_ribes": "false"})
    assert request.metric_settings() == {"bleu": {"tokenize": "intl"}, "ter": {},
                                         "ribes": {"tokenize": "intl", "lowercase_ribes": False}}


def test_a_target_language_sacrebleu_tokenizes_otherwise_gets_its_tokenizer() -> None:
    """No tokenizer given: sacrebleu's choice for zh/ja/ko targets (its BLEU's own map), 13a for
    the others; a tokenizer given wins; a run without BLEU or RIBES takes none (no error)."""
    import sacrebleu

    request = EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("bleu", "chrf", "ribes"))
    assert request.metric_settings("zh")["bleu"]["tokenize"] == "zh" == request.metric_settings("zh")["ribes"]["tokenize"]
    assert request.metric_settings("ja")["bleu"]["tokenize"] == "ja-mecab"
    assert request.metric_settings("de")["bleu"]["tokenize"] == "13a" == request.metric_settings()["bleu"]["tokenize"]
    assert sacrebleu.BLEU(trg_lang="zh").tokenizer.signature() == "zh"
    given = EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("bleu",), metric_options={"tokenize": "intl"})
    assert given.metric_settings("zh")["bleu"]["tokenize"] == "intl"
    assert EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("chrf",)).metric_settings("zh") == {"chrf": {}}
