"""The typed results (evaluation/results.py): the long table of ``Evaluation.to_pandas``, cell by
cell against the Evaluation's own fields, on the hand-made toy folder with targeted accuracy."""

from __future__ import annotations

import json
import math

import pytest

from mutation_scope import per_test_under_mutmut
from toy_dataset import evaluated

SCORE_COLUMNS = ["system", "config", "phenomenon", "min_distance", "n", "metric", "score", "small", "same_rows_as",
                 "degenerate_baseline", "random_mean", "random_std", "random_p5", "random_p95",
                 "random_percentile", "random_p_value", "delta_vs_baseline", "paired_p_value", "targeted_judged"]


@pytest.fixture(scope=per_test_under_mutmut)
def evaluation(tmp_path_factory):
    return evaluated(tmp_path_factory.mktemp("toy"))[2]


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _same(found, expected) -> bool:
    return _missing(found) if expected is None else found == expected


def test_the_long_table_has_a_row_per_system_config_and_metric_with_every_field(evaluation):
    table = evaluation.to_pandas()
    assert list(table.columns) == SCORE_COLUMNS
    rows = [row._asdict() for row in table.itertuples(index=False)]
    full = [r for r in rows if r["config"] == evaluation.full_corpus_config]
    assert [(r["system"], r["metric"]) for r in full] == [(s, m) for s in evaluation.systems for m in evaluation.metrics]
    for r in full:
        assert r["score"] == evaluation.full[r["system"]][r["metric"]]
        assert r["n"] == evaluation.full_corpus_rows and _missing(r["phenomenon"]) and _missing(r["min_distance"])
        assert all(_missing(r[c]) for c in SCORE_COLUMNS[7:])
    expected_keys = []
    for name, config in evaluation.configs.items():
        for system, result in config.systems.items():
            expected_keys += [(system, name, m) for m in result.scores]
            expected_keys += [(system, name, "targeted")] if result.targeted is not None else []
    assert [(r["system"], r["config"], r["metric"]) for r in rows[len(full):]] == expected_keys
    targeted_rows = 0
    for r in rows[len(full):]:
        config = evaluation.configs[r["config"]]
        assert (r["phenomenon"], r["min_distance"], r["n"], r["small"], r["degenerate_baseline"]) == (
            config.phenomenon, config.min_distance, config.n, config.small, config.degenerate_baseline)
        assert _same(r["same_rows_as"], config.same_rows_as)
        result = config.systems[r["system"]]
        if r["metric"] == "targeted":
            targeted_rows += 1
            counts = result.targeted
            assert r["score"] == counts.accuracy and r["targeted_judged"] == counts.correct + counts.wrong
            assert all(_missing(r[c]) for c in SCORE_COLUMNS[10:18])
            continue
        score = result.scores[r["metric"]]
        assert r["score"] == score.score and _missing(r["targeted_judged"])
        random = score.random
        assert [r[f"random_{k}"] for k in ("mean", "std", "p5", "p95", "percentile", "p_value")] == [
            random.mean, random.std, random.p5, random.p95, random.percentile, random.p_value]
        test = score.vs_baseline
        assert _same(r["delta_vs_baseline"], None if test is None else test.delta)
        assert _same(r["paired_p_value"], None if test is None else test.p_value)
    # the toy's particle configs have targeted accuracy for each of its five systems; some rows share
    assert targeted_rows == 6 * 5 and any(r["same_rows_as"] for r in rows if isinstance(r["same_rows_as"], str))
    assert any(r["small"] for r in rows[len(full):]) and not all(r["small"] for r in rows[len(full):])
    baseline = [r for r in rows[len(full):] if r["system"] == evaluation.baseline_system and r["metric"] != "targeted"]
    assert baseline and all(_missing(r["delta_vs_baseline"]) for r in baseline)


def _score(score: float, p5: float = 10.0, p95: float = 20.0):
    from auto_challenge_sets.evaluation.results import MetricScore, RandomBaseline

    return MetricScore(score, RandomBaseline(mean=15.0, std=1.0, p5=p5, p95=p95, percentile=50.0, p_value=0.5))


def test_the_random_band_is_strictly_beyond_the_5th_or_95th_percentile_on_the_worse_side():
    # higher is better: below p5 only; lower is better: above p95 only; the percentiles themselves are inside
    assert [_score(s).worse_than_random_band(True) for s in (9.99, 10.0, 15.0, 20.0, 20.01)] == [
        True, False, False, False, False]
    assert [_score(s).worse_than_random_band(False) for s in (9.99, 10.0, 15.0, 20.0, 20.01)] == [
        False, False, False, False, True]


def test_targeted_counts_from_the_scorers_dict_keep_every_field():
    from auto_challenge_sets.evaluation.result_json import decode
    from auto_challenge_sets.evaluation.results import DistanceCounts, RandomPairs, TargetedScore

    counts = {"instances": 9, "correct": 4, "wrong": 2, "unaligned": 2, "absorbed": 1, "accuracy": 4 / 6}
    near = {"instances": 5, "correct": 3, "wrong": 1, "unaligned": 1, "absorbed": 0, "accuracy": 0.75, "distance": 1}
    far = {"instances": 4, "correct": 1, "wrong": 1, "unaligned": 1, "absorbed": 1, "accuracy": 0.5, "distance": 3}
    control = {"draws": 7, "mean": 0.4, "p5": 0.1, "p95": 0.7, "percentile": 85.0}
    found = decode(TargetedScore, {**counts, "by_distance": [near, far], "random_pairs": control})
    assert found == TargetedScore(9, 4, 2, 2, 1, 4 / 6, by_distance=(DistanceCounts(5, 3, 1, 1, 0, 0.75, distance=1),
                                                                    DistanceCounts(4, 1, 1, 1, 1, 0.5, distance=3)),
                                  random_pairs=RandomPairs(7, 0.4, 0.1, 0.7, 85.0))
    assert type(found.by_distance) is tuple and found.by_distance[1].distance == 3
    bare = decode(TargetedScore, {**counts, "by_distance": []})  # no control drawn
    assert bare == TargetedScore(9, 4, 2, 2, 1, 4 / 6) and bare.random_pairs is None and bare.by_distance == ()
    assert decode(TargetedScore, {**counts, "by_distance": [], "random_pairs": None}).random_pairs is None


def test_the_json_document_is_plain_and_leaves_the_verdicts_out():
    """A hand-made Evaluation with numpy numbers, NaN and infinities, tuples and a None: the whole
    document, written out, with Python's own types (json.dumps refuses numpy's)."""
    import json

    import numpy as np

    from auto_challenge_sets.evaluation.results import (
        SCHEMA,
        ConfigResult,
        Evaluation,
        MetricInfo,
        PairedResult,
        Settings,
        SystemResult,
        Trend,
    )

    score = _score(np.float64(12.5))
    tested = type(score)(np.float32(30.0), score.random, PairedResult(np.float64(-1.5), float("nan")))
    config = ConfigResult(n=np.int64(12), phenomenon="de-en.particle", min_distance=3, small=np.bool_(True),
                          same_rows_as=None, widened=0,
                          systems={"a": SystemResult({"bleu": score}), "b": SystemResult({"bleu": tested})})
    evaluation = Evaluation(
        signature="sig", dataset="data", pair="de-en", split="test", full_corpus_config="de-en.baseline",
        full_corpus_rows=90, systems=("a", "b"), baseline_system="a", metrics=("bleu",),
        higher_is_better={"bleu": True}, settings=Settings(5, 1, 3, "ar", 20, 20, {"bleu": {"tokenize": "13a"}}),
        full={"a": {"bleu": float("inf")}, "b": {"bleu": -np.inf}}, configs={"de-en.particle.d3": config},
        trends={"bleu": {"de-en.particle": {"a": Trend(2, None, None)}}}, summary={"bleu": {}},
        metric_info={"bleu": MetricInfo("BLEU", 2, "nrefs:1|case:mixed")},
        human_unmatched={"table": ("x.1",), "systems": ()}, notes=("a note",),
        verdicts={"de-en.particle.d3": {"a": [["correct"]]}})
    random = {"mean": 15.0, "std": 1.0, "p5": 10.0, "p95": 20.0, "percentile": 50.0, "p_value": 0.5}
    expected = {
        "schema": "acs-evaluation/4", "signature": "sig", "dataset": "data", "pair": "de-en", "split": "test",
        "full_corpus_config": "de-en.baseline", "full_corpus_rows": 90, "systems": ["a", "b"], "baseline_system": "a",
        "metrics": ["bleu"], "higher_is_better": {"bleu": True},
        "settings": {"n_samples": 5, "length_tolerance": 1, "seed": 3, "paired_test": "ar", "paired_samples": 20,
                     "min_rows": 20, "metric_options": {"bleu": {"tokenize": "13a"}},
                     "length_relative": 0.0, "method": {"alpha": 0.05, "bootstrap": 1000, "permutations": 9999,
                                                        "segment_bootstrap": 1000, "segment_permutations": 999},
                     "findings_by": "phenomenon"},
        "full": {"a": {"bleu": None}, "b": {"bleu": None}},
        "configs": {"de-en.particle.d3": {
            "n": 12, "phenomenon": "de-en.particle", "min_distance": 3, "small": True, "same_rows_as": None,
            "widened": 0, "systems": {
                "a": {"scores": {"bleu": {"score": 12.5, "random": random, "vs_baseline": None}}, "targeted": None},
                "b": {"scores": {"bleu": {"score": 30.0, "random": random,
                                          "vs_baseline": {"delta": -1.5, "p_value": None}}}, "targeted": None}},
            "human": None, "human_targeted": None, "degenerate_baseline": False, "shared": 0, "length_gap": None,
            "distinct": None, "segment": None,
            "segment_targeted": None, "flags": ["small"], "random_unavailable": None}},
        "trends": {"bleu": {"de-en.particle": {"a": {"n": 2, "spearman": None, "p_value": None, "p_corrected": None,
                                                     "family_size": None}}}},
        "summary": {"bleu": {}}, "metric_info": {"bleu": {"label": "BLEU", "digits": 2, "signature": "nrefs:1|case:mixed"}},
        "human_full": None, "human_unmatched": {"table": ["x.1"], "systems": []},
        "targeted": None, "notes": ["a note"], "segment_full": None, "full_test": None, "provenance": None,
        "human_scores": None}
    assert SCHEMA == "acs-evaluation/4"
    document = evaluation.to_json()
    assert document == expected and list(document) == list(expected)
    assert json.loads(json.dumps(document, allow_nan=False)) == expected  # plain types only, no NaN
    configs = document["configs"]["de-en.particle.d3"]
    assert type(configs["n"]) is int and type(configs["small"]) is bool
    assert type(configs["systems"]["b"]["scores"]["bleu"]["score"]) is float
    assert evaluation.verdicts == {"de-en.particle.d3": {"a": [["correct"]]}}  # the object keeps them


@pytest.mark.parametrize(("small", "degenerate", "same", "flags"), [
    (False, False, None, ()),
    (True, False, None, ("small",)),
    (False, True, None, ("degenerate baseline",)),
    (False, False, "de-en.verb_final.d0", ("same rows as de-en.verb_final.d0",)),
    (True, True, "de-en.x.d1", ("small", "degenerate baseline", "same rows as de-en.x.d1")),
])
def test_a_configs_flags_in_their_one_order_and_what_they_leave_out(small, degenerate, same, flags):
    from auto_challenge_sets.evaluation.results import ConfigResult

    config = ConfigResult(n=12, phenomenon="de-en.x", min_distance=1, small=small, same_rows_as=same, widened=0,
                          systems={}, degenerate_baseline=degenerate)
    assert config.flags() == flags
    assert config.usable is (flags == ())  # a point of the trends only without any mark
    # the ▼ mark: worse than the band, never on a degenerate baseline
    assert config.below_band(_score(5.0), True) is not degenerate and config.below_band(_score(25.0), False) is not degenerate
    assert not config.below_band(_score(15.0), True)


def test_a_segment_result_carries_its_family_and_the_differences_own_label():
    """Issue 34: a segment-level result records its BH family's size, and the correct − wrong
    difference its own p, corrected p and label; the reader takes them all back, and refuses a
    family of no test, naming the field."""
    import dataclasses

    import numpy as np

    from auto_challenge_sets.evaluation.result_json import ResultError, decode, plain
    from auto_challenge_sets.evaluation.results import SegmentAgreement

    found = SegmentAgreement(segments=40, kendall=0.2, p_value=0.01, correct=30, wrong=10, z_correct_minus_wrong=0.3,
                             ci=(np.float64(-0.1), 0.6), p_corrected=0.04, exploratory=False, family_size=np.int64(12),
                             difference_p_value=0.2, difference_p_corrected=0.4, difference_exploratory=True,
                             difference_family_size=12)
    document = plain(dataclasses.asdict(found))
    assert document["family_size"] == 12 and type(document["family_size"]) is int and document["ci"] == [-0.1, 0.6]
    assert (document["difference_p_corrected"], document["difference_exploratory"]) == (0.4, True)
    assert decode(SegmentAgreement, document) == found
    with pytest.raises(ResultError, match="the minimum of 1") as error:
        decode(SegmentAgreement, {**document, "family_size": 0})
    assert error.value.field == "family_size"


def test_the_targeted_run_writes_its_judge_and_its_controls_matching_and_leaves_the_links_out():
    """TargetedRun's judge (measured or not), control_upos and control, and by_distance's
    second_reference: in results.json as the schema describes them; the output links (the
    page's only) are not in it. A field the schema does not know fails validation, and the reader."""
    import dataclasses

    import jsonschema

    from auto_challenge_sets.evaluation.result_json import ResultError
    from auto_challenge_sets.evaluation.results import (
        SCHEMA_PATH,
        ConfigResult,
        ControlMatching,
        DistanceCounts,
        Evaluation,
        JudgeCheck,
        MetricInfo,
        Settings,
        SystemResult,
        TargetedByDistance,
        TargetedRun,
        TargetedScore,
    )

    counts = {"instances": 12, "correct": 7, "wrong": 3, "unaligned": 2, "absorbed": 1, "accuracy": 0.7}
    score = TargetedScore(**counts, by_distance=(DistanceCounts(**counts, distance=2),))
    judge = JudgeCheck("measured", "1 extra reference judged as a system's output", 1, 10, 7, 0.7, {"c.d2": score})
    by_distance = {"de-en.particle": TargetedByDistance("c.d2", ("2",), {"a": {"2": 0.5}}, {"a": {"2": 4}},
                                                        {"2": 0.5}, {"2": 0.7})}
    run = TargetedRun("present", "targeted:present", by_distance, judge, True, {"c.d2": ControlMatching(12, 2, 5, 4, 1)})
    evaluation = Evaluation(
        signature="sig", dataset="data", pair="de-en", split="test", full_corpus_config="de-en.baseline",
        full_corpus_rows=90, systems=("a",), baseline_system="a", metrics=("bleu",), higher_is_better={"bleu": True},
        settings=Settings(5, 1, 3, "ar", 20, 20, {"bleu": {"tokenize": "13a"}}), full={"a": {"bleu": 1.0}}, trends={},
        configs={"c.d2": ConfigResult(12, "de-en.particle", 2, True, None, 0, {"a": SystemResult({"bleu": _score(3.0)},
                                                                                             score)})},
        summary={}, metric_info={"bleu": MetricInfo("BLEU", 2, "sig")}, targeted=run, output_links={"a": [[(0, 0)]]})
    document = evaluation.to_json()
    targeted = document["targeted"]
    assert targeted["judge"]["pass_rate"] == 0.7 and targeted["judge"]["by_config"]["c.d2"]["accuracy"] == 0.7
    assert targeted["control"] == {"c.d2": {"instances": 12, "matched": 2, "head_only": 5, "unmatched": 4, "itself": 1}}
    assert targeted["control_upos"] is True and targeted["by_distance"]["de-en.particle"]["second_reference"] == {"2": 0.7}
    assert "output_links" not in document and "verdicts" not in document
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    unmeasured = {**targeted, "judge": {**targeted["judge"], "status": "unmeasured", "pass_rate": None}}
    jsonschema.validate({**document, "targeted": unmeasured}, schema, cls=jsonschema.Draft202012Validator)
    assert Evaluation.from_json(document) == dataclasses.replace(evaluation, output_links=None)
    for bad, field in (({**targeted["judge"], "status": "guessed"}, "status"), ({**targeted["judge"], "extra": 1}, "extra")):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**document, "targeted": {**targeted, "judge": bad}}, schema,
                                cls=jsonschema.Draft202012Validator)
        with pytest.raises(ResultError) as error:
            Evaluation.from_json({**document, "targeted": {**targeted, "judge": bad}})
        assert error.value.field == f"targeted/judge/{field}"
