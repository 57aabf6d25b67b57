"""The typed results (evaluation/results.py): the long table of ``Evaluation.to_pandas``, cell by
cell against the Evaluation's own fields, on the hand-made toy folder with targeted accuracy."""

from __future__ import annotations

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
