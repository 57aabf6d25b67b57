"""evaluation/request.py: the bounds of the request's numbers are inclusive at both ends."""

from __future__ import annotations

import pytest

from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
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
        with pytest.raises(RequestError, match=f"is {high + 1}, above the limit of {high:_}$"):
            _request(**{name: high + 1})


def test_a_numpy_integer_is_taken_as_the_integer_it_holds():
    """compute() is given numbers read from arrays (a dataset's columns): they are plain ints in the request."""
    import numpy as np

    request = _request(n_samples=np.int64(5), seed=np.uint32(7))
    assert (request.n_samples, request.seed) == (5, 7) and type(request.n_samples) is type(request.seed) is int
    with pytest.raises(RequestError, match=r"^n_samples: must be an integer, got np\.True_$"):
        _request(n_samples=np.bool_(True))


@pytest.mark.parametrize("value", [0, 0.05, 1])
def test_the_relative_length_window_is_a_share_from_0_to_1(value):
    assert _request(length_relative=value).length_relative == value


@pytest.mark.parametrize("value", [-0.01, 1.01, float("nan"), True, "0.1"])
def test_a_relative_length_window_outside_0_to_1_is_a_request_error(value):
    with pytest.raises(RequestError, match=r"must be a number from 0 to 1, got ") as error:
        _request(length_relative=value)
    assert error.value.field == "length_relative"


def test_jobs_default_to_the_cores_as_on_the_command_line():
    from auto_challenge_sets.workers import cores

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


@pytest.mark.parametrize(("given", "message"), [
    ({"hypotheses": {}}, "hypotheses: no system output given"),
    ({"hypotheses": {" ": "a.txt"}}, "hypotheses: a system needs a non-blank name, got ' '"),
    ({"hypotheses": {1: "a.txt"}}, "hypotheses: a system needs a non-blank name, got 1"),
    ({"hypotheses": {"a b": "a.txt", "ab": "b.txt"}}, "hypotheses: system names 'a b' and 'ab' differ only in white "
     "space: the page, its filters and the tables could not tell them apart; rename one"),
    ({"config": " , "}, "config: ' , ' is empty: give a name, several separated by commas, or all"),
    ({"metrics": ()}, "metrics: names no metric: ''"),
    ({"metrics": ("bleu", " ")}, "metrics: names no metric: 'bleu,'"),
    ({"metrics": ("bleu", " bleu")}, "metrics: names a metric twice: bleu, bleu"),
    ({"baseline": "z"}, "baseline: 'z' is none of the systems (a)"),
    ({"paired_test": "AR"}, "paired_test: must be ar or bs, not 'AR'"),
    ({"n_samples": True}, "n_samples: must be an integer, got True"),
    ({"seed": 1.0}, "seed: must be an integer, got 1.0"),
    ({"metric_options": {1: "intl"}}, "metric_options: no metric of bleu has an option 1 (their options: tokenize)"),
    ({"length_relative": 2}, "length_relative: must be a number from 0 to 1, got 2"),
    ({"n_samples": 0}, "n_samples: must be from 1 to 100,000, got 0"),
    ({"min_rows": -1}, "min_rows: must be >= 0, got -1"),
    ({"metrics": ("bleu", "blue")}, "metrics: unknown metric 'blue' (known: bleu, chrf, ter, ribes, comet)"),
    ({"targeted": TargetedRequest(hyp_alignments={"z": "z.align", "a": "a.align"})},
     "targeted.hyp_alignments: for z, which is no system (systems: a)"),
    ({"targeted": TargetedRequest(random_pairs=-1)}, "targeted.random_pairs: must be an integer from 0 to 100,000, got -1"),
])
def test_each_refused_value_is_named_by_its_field(given, message):
    with pytest.raises(RequestError) as error:
        EvaluationRequest("ldd", **{"hypotheses": {"a": "a.txt"}, "metrics": ("bleu",), **given})
    assert str(error.value) == message and error.value.field == message.split(":")[0]


def test_the_request_holds_read_only_copies_of_what_it_was_given():
    hypotheses, options, references = {"a": "a.txt"}, {"tokenize": "intl"}, ["r.txt"]
    request = EvaluationRequest("ldd", hypotheses, metrics=" bleu", metric_options=options, references=references)
    hypotheses["b"], options["lowercase"], references[0] = "b.txt", True, "s.txt"
    assert (dict(request.hypotheses), dict(request.metric_options), request.references, request.metrics) == (
        {"a": "a.txt"}, {"tokenize": "intl"}, ("r.txt",), ("bleu",))
    with pytest.raises(TypeError):
        request.hypotheses["b"] = "b.txt"  # type: ignore[index]
    with pytest.raises(TypeError):
        request.metric_options["b"] = 1  # type: ignore[index]


def test_a_metric_label_that_is_blank_or_a_white_space_twin_is_refused(monkeypatch):
    from auto_challenge_sets.scoring import metrics as registry
    from auto_challenge_sets.scoring.metrics.bleu import Bleu

    for name, label in (("twin", "BLEU "), ("blank", " "), ("unlabelled", None)):
        monkeypatch.setitem(registry._REGISTRY, name, type(name, (Bleu,), {"name": name, "label": label}))
    with pytest.raises(RequestError) as error:
        EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("ter", "bleu", "twin"))
    assert str(error.value) == ("metrics: metrics 'bleu' and 'twin' have the labels 'BLEU' and 'BLEU ', which differ "
                                "only in white space: the tables could not tell them apart")
    for name, shown in (("blank", "' '"), ("unlabelled", "None")):
        with pytest.raises(RequestError) as error:
            EvaluationRequest("ldd", {"a": "a.txt"}, metrics=("bleu", name))
        assert str(error.value) == f"metrics: metric {name!r} has no label to show (label {shown})"
