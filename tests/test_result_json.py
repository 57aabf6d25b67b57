"""evaluation/result_json.py: the JSON form and back, on hand-made values: what comes back typed,
what comes back as None (NaN, infinities), and the document's derived keys skipped."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from auto_challenge_sets.evaluation.result_json import decode, plain
from auto_challenge_sets.evaluation.results import (
    AlignerProvenance,
    ConfigResult,
    FileDigest,
    HumanCorrelation,
    MetricScore,
    PairedResult,
    Provenance,
    RandomBaseline,
    SystemResult,
)


def test_plain_turns_numpy_tuples_and_non_finite_numbers_into_json_types():
    found = plain({"a": (np.float64(1.5), np.int64(2)), 3: [float("nan"), -np.inf, np.bool_(True)]})
    assert found == {"a": [1.5, 2], "3": [None, None, True]}
    assert type(found["a"][0]) is float and type(found["a"][1]) is int and type(found["3"][2]) is bool


def test_a_nested_result_comes_back_typed_and_equal():
    score = MetricScore(12.5, RandomBaseline(15.0, 1.0, 10.0, 20.0, 50.0, 0.5), PairedResult(-1.5, 0.25))
    config = ConfigResult(12, "de-en.particle", 3, True, None, 0, {"a": SystemResult({"bleu": score})},
                          human={"bleu": HumanCorrelation(5, 0.5, 0.2, 0.4, 0.3, (-0.2, 0.8)), "ter": None})
    document = plain({**vars(config), "systems": {"a": {"scores": {"bleu": vars(score) | {
        "random": vars(score.random), "vs_baseline": vars(score.vs_baseline)}}, "targeted": None}},
        "human": {"bleu": vars(config.human["bleu"]) | {"vs_full_test": None}, "ter": None},
        "flags": ["small"]})  # flags: derived, written for readers, not a field
    found = decode(ConfigResult, document)
    assert found == config
    assert type(found.human["bleu"].ci) is tuple and isinstance(found.systems["a"].scores["bleu"].random,
                                                                 RandomBaseline)


def test_a_null_comes_back_as_nan_where_the_field_is_never_none_and_as_none_where_it_may_be():
    document = plain({"delta": 1.0, "p_value": float("nan")})
    assert document == {"delta": 1.0, "p_value": None}
    found = decode(PairedResult, document)
    assert found.delta == 1.0 and math.isnan(found.p_value)  # p_value: float
    assert plain(vars(found)) == document
    assert decode(HumanCorrelation, {"systems": 2, "spearman": None, "spearman_p": None, "kendall": None,
                                     "p_value": None, "ci": None}) == HumanCorrelation(2, None, None, None, None, None)
    assert math.isnan(decode(Mapping[str, float], {"bleu": None})["bleu"])


def test_a_subclass_and_a_mapping_of_anything_keep_their_fields():
    aligner = AlignerProvenance("eflomal", "eflomal", "2.0", None, None, None, {"seed": 1, "n": [1, 2]},
                                symmetrization="grow-diag-final", pairs=100, priors=FileDigest("p.priors", "ab"),
                                priors_used=True)
    provenance = Provenance(True, "made by eflomal", aligner=aligner, tokenization={"source": "udpipe"})
    document = plain({**vars(provenance), "aligner": {**vars(aligner), "priors": vars(aligner.priors)}})
    found = decode(Provenance | None, document)
    assert found == provenance and isinstance(found.aligner.priors, FileDigest)
    assert found.aligner.options == {"seed": 1, "n": [1, 2]}  # Mapping[str, Any]: as JSON gave it
    assert decode(Mapping[str, tuple[int, ...]], {"a": [1, 2]}) == {"a": (1, 2)}
    assert decode(Provenance | None, None) is None
