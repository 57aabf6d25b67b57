"""evaluation/result_json.py: the JSON form and back, on hand-made values: what comes back typed,
what comes back as None (NaN, infinities), the document's derived keys skipped, a value out of its
bounds refused naming its field; and the shipped results.schema.json is the one the dataclasses
generate."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np
import pytest

from auto_challenge_sets.evaluation.result_json import ResultError, decode, plain
from auto_challenge_sets.evaluation.results import (
    SCHEMA_PATH,
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

from toy_dataset import N, make


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
    assert decode(HumanCorrelation, {"systems": 3, "spearman": None, "spearman_p": None, "kendall": None,
                                     "p_value": None, "ci": None}) == HumanCorrelation(3, None, None, None, None, None)
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


def test_the_shipped_schema_is_the_one_the_dataclasses_generate():
    from auto_challenge_sets.evaluation.results import schema_text

    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "results.schema.json is stale: python -c 'from auto_challenge_sets.evaluation.results import "
        "SCHEMA_PATH, schema_text; SCHEMA_PATH.write_text(schema_text(), encoding=\"utf-8\")'")


@pytest.mark.parametrize("document, field, message", [
    ({"delta": 1.0, "p_value": 0.0}, "p_value", "0.0 is less than or equal to the minimum of 0"),
    ({"delta": 1.0, "p_value": 1.5}, "p_value", "1.5 is greater than the maximum of 1"),
    ({"delta": "1", "p_value": 0.5}, "delta", "'1' is not of type 'number'"),
    ({"delta": True, "p_value": 0.5}, "delta", "True is not of type 'number'"),
    ({"delta": 1.0}, "p_value", "is missing"),
    ({"delta": 1.0, "p_value": 0.5, "p": 1}, "p", "is not a field of PairedResult"),
])
def test_a_value_the_dataclass_cannot_hold_is_refused_naming_its_field(document, field, message):
    with pytest.raises(ResultError, match=message) as error:
        decode(PairedResult, document)
    assert error.value.field == field


def test_bounds_reach_inside_containers_and_a_missing_default_reads_as_the_default():
    from auto_challenge_sets.evaluation.results import FullTestRanking, Settings, TargetedByDistance

    with pytest.raises(ResultError) as error:
        decode(TargetedByDistance, {"config": "c", "buckets": ["2"], "accuracy": {}, "judged": {"a": {"2": -1}},
                                    "mean": {}})
    assert error.value.field == "judged/a/2"
    with pytest.raises(ResultError, match="has 0 items, not at least 1") as error:
        decode(FullTestRanking, {"systems": [], "pairs": [], "clusters": 1})
    assert error.value.field == "systems"
    with pytest.raises(ResultError, match=r"is not one of \['ar', 'bs'\]"):
        decode(Settings, {"n_samples": 5, "length_tolerance": 1, "seed": 1, "paired_test": "t", "paired_samples": 5,
                          "min_rows": 0, "metric_options": {}})
    settings = decode(Settings, {"n_samples": 5, "length_tolerance": 1, "seed": 1, "paired_test": "ar",
                                 "paired_samples": 5, "min_rows": 0, "metric_options": {}})
    assert settings == Settings(5, 1, 1, "ar", 5, 0, {})  # length_relative and method: their defaults


def _rich_run(tmp_path) -> dict:
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human
    from auto_challenge_sets.evaluation.stats.segments import read_human_seg

    toy = make(tmp_path)
    systems = list(toy["hyps"])
    seg = tmp_path / "seg.txt"
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{s} {line} 70 {0.1 * k + 0.05 * (line % 5)} 1"
                                           for k, s in enumerate(systems) for line in range(1, N + 1)]
    seg.write_text("\n".join(rows) + "\n", encoding="utf-8")
    # min_rows 13: reorder.d5 (12 rows) is small; particle.d4 and d5 hold the same rows
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu", "ter", "chrf"), n_samples=20,
                                paired_samples=20, min_rows=13, references=(toy["hyps"]["better"],),
                                targeted=TargetedRequest("present", random_pairs=20, references=(toy["hyps"]["better"],)))
    evaluation = evaluate(request, read_human(toy["human"], systems), human_seg=read_human_seg(seg, systems))
    return json.loads(json.dumps(evaluation.to_json()))


def test_a_rich_run_reads_back_into_the_result_that_wrote_it(tmp_path):
    """Evaluation.from_json (acs report's reader) on a rich toy run (--human, --human-seg,
    --targeted with its control, a second reference, small and same-rows configs): every field
    decoded and written again is the same document; the typed parts come back typed."""
    from auto_challenge_sets.evaluation.results import Evaluation, TargetedRun

    document = _rich_run(tmp_path)
    found = Evaluation.from_json(document)
    assert found.to_json() == document
    assert type(found.systems) is tuple and isinstance(found.targeted, TargetedRun)
    config = next(c for c in found.configs.values() if c.human is not None)
    correlation = next(h for h in config.human.values() if h is not None and h.ci is not None)
    assert isinstance(correlation, HumanCorrelation) and type(correlation.ci) is tuple
    assert found.metric_info["ter"].label == "TER" and found.higher_is_better["ter"] is False
    assert any(c.segment is not None for c in found.configs.values()) and found.targeted.control
