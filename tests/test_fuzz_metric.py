"""Fuzzing the metric with hypothesis: on any input, ``compute`` (also without a pool, and the
evaluate module) either returns finite scores in range or raises ValueError, never another
exception; on valid input it never refuses, and BLEU equals ``sacrebleu.corpus_bleu``.

The inputs are a valid call (a handful of short sentences, a small pool, n_samples <= 5) with up
to two arguments replaced by junk. ACS_FUZZ_EXAMPLES sets the examples per test (the evaluate
module's test runs half of them).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import auto_challenge_sets
from auto_challenge_sets.metrics.compute import compute

FUZZ = settings(
    max_examples=int(os.environ.get("ACS_FUZZ_EXAMPLES", "400")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MODULE = Path(auto_challenge_sets.METRIC_PATH)

SENTENCES = st.lists(st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ".", "The", "Mat,"]), max_size=6).map(
    " ".join
)
ODD_TEXT = st.sampled_from(["", " ", "\t\n", "\u3000", "Ünïcödé ß İ", "日本語のテキスト。", "a \ud800 b", "\x00"])
TEXT = st.one_of(SENTENCES, SENTENCES, st.text(max_size=8), ODD_TEXT)
NUMBERS = st.one_of(
    st.integers(-3, 6),
    st.sampled_from([2**31, 2**63, 10**30, 10**9, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2.0, 0.5, float("nan"), float("inf")]),
    st.booleans(),
)
ATOMS = st.one_of(st.none(), TEXT, st.binary(max_size=3), NUMBERS)
JUNK = st.one_of(
    ATOMS,
    st.lists(ATOMS, max_size=4),
    st.lists(st.lists(ATOMS, max_size=3), max_size=3),
    st.tuples(TEXT, ATOMS),
    st.frozensets(st.one_of(TEXT, st.integers(0, 5)), max_size=3),
    st.dictionaries(TEXT, ATOMS, max_size=2),
)
ARGUMENTS = ("predictions", "references", "lengths", "distances", "pool_predictions", "pool_references",
             "pool_lengths", "ids", "pool_ids", "n_samples", "length_tolerance", "seed", "tokenize",
             "lowercase_ribes", "min_distances", "exclude_challenge", "return_samples", "bogus")
TOKENIZERS = st.sampled_from(["13a", "intl", "char", "none", "zh"])


def _references(n: int) -> st.SearchStrategy:
    return st.lists(st.one_of(TEXT, st.lists(TEXT, min_size=1, max_size=3)), min_size=n, max_size=n)


@st.composite
def valid_calls(draw: st.DrawFn) -> dict[str, Any]:
    """A valid call of ``compute``: a few rows, maybe a pool, distances, ids and options."""
    n = draw(st.integers(1, 4))
    kwargs: dict[str, Any] = {"predictions": draw(st.lists(TEXT, min_size=n, max_size=n)),
                              "references": draw(_references(n))}
    lengths = st.lists(st.integers(0, 40), min_size=n, max_size=n)
    if draw(st.booleans()):
        m = draw(st.integers(1, 6))
        kwargs.update(pool_predictions=draw(st.lists(TEXT, min_size=m, max_size=m)),
                      pool_references=draw(_references(m)),
                      pool_lengths=draw(st.lists(st.integers(0, 40), min_size=m, max_size=m)),
                      lengths=draw(lengths), n_samples=draw(st.integers(1, 5)))
        if draw(st.booleans()):
            kwargs.update(ids=draw(st.lists(st.integers(0, 9), min_size=n, max_size=n)),
                          pool_ids=draw(st.lists(st.integers(0, 9), min_size=m, max_size=m)))
    elif draw(st.booleans()):
        kwargs["lengths"] = draw(lengths)
    if draw(st.booleans()):
        kwargs["distances"] = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
        if draw(st.booleans()):
            kwargs["min_distances"] = draw(st.lists(st.integers(0, 9), max_size=3))
    options = {"length_tolerance": st.integers(0, 50), "seed": st.one_of(st.none(), st.integers(0, 2**70)),
               "tokenize": TOKENIZERS, "lowercase_ribes": st.booleans(), "exclude_challenge": st.booleans(),
               "return_samples": st.booleans()}
    for name in draw(st.sets(st.sampled_from(sorted(options)), max_size=3)):
        kwargs[name] = draw(options[name])
    for name in draw(st.sets(st.sampled_from(sorted(kwargs)), max_size=3)):  # other sequence types
        value = kwargs[name]
        if isinstance(value, list) and all(isinstance(x, str | int) for x in value):
            kwargs[name] = draw(st.sampled_from([tuple, np.array]))(value)
    return kwargs


@st.composite
def calls(draw: st.DrawFn, module: bool = False) -> tuple[dict[str, Any], bool]:
    """A valid call with up to two arguments replaced by junk (or removed); True if untouched.

    Only the evaluate module (``module``) is called without predictions or references or with an
    unknown argument: calling the function so is a TypeError of Python's, not a bad value.
    """
    kwargs = draw(valid_calls())
    changed = draw(st.sets(st.sampled_from(ARGUMENTS if module else ARGUMENTS[:-1]), max_size=2))
    for name in changed:
        if draw(st.integers(0, 5)) == 0 and (module or name not in ("predictions", "references")):
            kwargs.pop(name, None)
        else:
            kwargs[name] = draw(JUNK)
    return kwargs, not changed


def _in_range(bleu: Any, ribes: Any) -> bool:
    """BLEU in [0, 100] and RIBES in [0, 1], finite. sacrebleu's own BLEU of a perfect match can
    exceed 100 by an ulp (exp of a sum of logs: 100.00000000000004 for "0::0"), and the metric
    equals sacrebleu to the last bit, so BLEU gets a rounding margin."""
    return (isinstance(bleu, float) and math.isfinite(bleu) and 0.0 <= bleu <= 100.0 + 1e-9
            and isinstance(ribes, float) and math.isfinite(ribes) and 0.0 <= ribes <= 1.0)


def _check_scores(result: Any) -> None:
    assert isinstance(result, dict)
    for row in [result, *(result["distance_breakdown"] or [])]:
        if row.get("n"):
            assert _in_range(row["bleu"], row["ribes"]), row
    baseline = result.get("random_baseline")
    if baseline is not None:
        assert _in_range(baseline["bleu"]["mean"], baseline["ribes"]["mean"]), baseline


def _single_reference(references: Any) -> list[str] | None:
    """The references as sacrebleu takes one reference per row, or None where a row has several."""
    flat = [r if isinstance(r, str) else r[0] for r in references if isinstance(r, str) or len(r) == 1]
    return flat if len(flat) == len(references) else None


def _compute_or_none(kwargs: dict[str, Any], valid: bool) -> dict | None:
    """compute(**kwargs), or None when it refuses with a ValueError (allowed unless ``valid``, where
    only a pool left empty by the exclusion of the challenge rows may be refused)."""
    try:
        return compute(**kwargs)
    except ValueError as error:
        assert not valid or "no pool sentence is left" in str(error), (kwargs, error)
        return None


@FUZZ
@given(calls())
def test_compute_returns_scores_in_range_or_raises_value_error(call):
    kwargs, valid = call
    result = _compute_or_none(kwargs, valid)
    if result is None:
        return
    _check_scores(result)
    if valid:
        assert result["n"] == len(kwargs["predictions"])
        single = _single_reference(kwargs["references"])
        if single is not None:
            expected = sacrebleu.corpus_bleu(list(kwargs["predictions"]), [single],
                                             tokenize=kwargs.get("tokenize", "13a"))
            assert result["bleu"] == expected.score


@st.composite
def corpus_calls(draw: st.DrawFn) -> tuple[dict[str, Any], bool]:
    n = draw(st.integers(1, 4))
    kwargs = {"predictions": draw(st.lists(TEXT, min_size=n, max_size=n)), "references": draw(_references(n)),
              "tokenize": draw(TOKENIZERS), "lowercase_ribes": draw(st.booleans())}
    changed = draw(st.sets(st.sampled_from(sorted(kwargs)), max_size=2))
    for name in changed:
        kwargs[name] = draw(JUNK)
    return kwargs, not changed


@FUZZ
@given(corpus_calls())
def test_compute_without_a_pool_returns_scores_in_range_or_raises_value_error(call):
    kwargs, valid = call
    try:
        result = compute(**kwargs)
    except ValueError as error:
        assert not valid, (kwargs, error)
        return
    assert _in_range(result["bleu"], result["ribes"]), result
    assert result["n"] == len(kwargs["predictions"])
    single = _single_reference(kwargs["references"]) if valid else None
    if single is not None:
        expected = sacrebleu.corpus_bleu(kwargs["predictions"], [single], tokenize=kwargs["tokenize"])
        assert result["bleu"] == expected.score


# -- the evaluate module ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def ldd(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
            patch.setenv(name, "1")
        patch.setenv("HF_MODULES_CACHE", str(tmp_path_factory.mktemp("modules")))
        import evaluate

        yield evaluate.load(str(MODULE))


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, np.ndarray):
        return _texts(value.tolist())
    if isinstance(value, list | tuple | frozenset | dict):
        return [t for item in (value.items() if isinstance(value, dict) else value) for t in _texts(item)]
    return []


def _outcome(function, kwargs: dict[str, Any]) -> Any:
    try:
        return function(**kwargs)
    except ValueError:
        return ValueError


@settings(FUZZ, max_examples=max(1, FUZZ.max_examples // 2))
@given(call=calls(module=True))
def test_evaluate_module_equals_compute_or_raises_value_error(ldd, call):
    """The same numbers and the same refusals as compute, except for text evaluate cannot store
    (lone surrogates: compute scores them) and unknown or missing arguments (compute: TypeError)."""
    kwargs, valid = call
    if "seed" not in kwargs or kwargs["seed"] is None:
        kwargs["seed"] = 0  # the same random corpora in both calls
    got = _outcome(ldd.compute, kwargs)
    unstorable = any(t.encode("utf-8", "replace") != t.encode("utf-8", "surrogatepass")
                     for name in ("predictions", "references") for t in _texts(kwargs.get(name)))
    if unstorable or "bogus" in kwargs or not {"predictions", "references"} <= set(kwargs):
        assert got is ValueError
        return
    expected = _outcome(compute, kwargs)
    assert got == expected, kwargs
    if valid and expected is ValueError:
        assert _compute_or_none(kwargs, valid) is None  # the one allowed refusal of a valid call
