"""acs meta-evaluate's reading and pooling of results.json files (evaluation/stats/meta_runs.py) on two
hand-written runs: which measures are pooled, their numbers against hand counts and scipy, the
flags and the BH family, and the errors that name the file."""

from __future__ import annotations

import json

import numpy as np
import pytest
from meta_runs_data import HUMAN_1, RUN_1, results, write_runs
from scipy.stats import false_discovery_control, kendalltau

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.results import DIAGNOSTIC
from auto_challenge_sets.evaluation.stats.meta_runs import FULL, TARGETED, meta_evaluate, read_run


@pytest.fixture
def two_runs(tmp_path):
    return write_runs(tmp_path)


def _row(found, config, metric):
    return next(r for r in found.rows if (r.config, r.metric) == (config, metric))


def test_the_shared_measures_are_pooled_and_the_others_listed(two_runs):
    found = meta_evaluate(two_runs)
    keys = [(r.config, r.metric) for r in found.rows]
    assert keys == [(FULL, "bleu"), (FULL, "ter"),
                    ("de-en.particle.d1", "bleu"), ("de-en.particle.d1", "ter"), ("de-en.particle.d1", TARGETED),
                    ("de-en.particle.d2", "bleu"), ("de-en.particle.d2", "ter"),
                    ("de-en.particle.d3", "bleu"), ("de-en.particle.d3", "ter")]
    assert set(found.left_out) == {"de-en.reflexive.d1 bleu", "de-en.reflexive.d1 ter",
                                   "de-en.prep_stranding.d1 bleu", "de-en.prep_stranding.d1 ter"}
    assert found.systems == (4, 3) and found.reference == "bleu"


def test_pairwise_accuracy_and_tau_are_the_hand_counts(two_runs):
    found = meta_evaluate(two_runs)
    # particle.d1 BLEU: run 1 orders a>b>d>c against humans a>b>c>d: 5 of 6 pairs; run 2: 3 of 3
    row = _row(found, "de-en.particle.d1", "bleu").found
    assert row.accuracy.value == 8 / 9
    assert row.kendall.value == pytest.approx((6 * 4 / 6 + 3 * 1.0) / 9)  # pair-weighted: τ 4/6 and 1
    # full-test BLEU: run 1 swaps a and b (5 of 6), run 2 swaps q and r (2 of 3)
    full = _row(found, FULL, "bleu").found
    assert full.accuracy.value == 7 / 9 and full.accuracy_difference is None and full.kendall_difference is None
    assert row.accuracy_difference.value == pytest.approx(8 / 9 - 7 / 9)
    tau_full = (6 * kendalltau([30, 31, 20, 10], [0.9, 0.5, 0.1, -0.3]).statistic
                + 3 * kendalltau([25, 20, 22], [80, 75, 60]).statistic) / 9
    assert row.kendall_difference.value == pytest.approx(row.kendall.value - tau_full)
    # TER is lower-is-better: run 1's particle.d1 TER orders as humans do (6 of 6); run 2 ties p and q (2 of 3)
    ter = _row(found, "de-en.particle.d1", "ter").found
    assert ter.accuracy.value == 8 / 9
    assert ter.kendall.value == pytest.approx((6 * 1.0 + 3 * kendalltau([-1, -1, -2], [80, 75, 60]).statistic) / 9)
    # targeted accuracy: run 1 swaps b and c (5 of 6), run 2 all 3
    assert _row(found, "de-en.particle.d1", TARGETED).found.accuracy.value == 8 / 9


def test_small_and_duplicate_configs_are_marked_and_left_out_of_the_family(two_runs):
    found = meta_evaluate(two_runs)
    assert _row(found, "de-en.particle.d2", "bleu").flags == ("small",)
    assert _row(found, "de-en.particle.d3", "bleu").flags == ("small", "same rows as de-en.particle.d2")
    assert [r.config for r in found.rows if r.in_family and r.metric == "bleu"] == ["de-en.particle.d1"]
    assert found.power["bleu"].family == 1 and found.power["bleu"].systems == (4, 3)
    assert all(r.corrected == (None,) * 4 for r in found.rows if not r.in_family)


def test_bh_corrects_each_kind_of_p_across_the_family(tmp_path):
    configs = {f"de-en.particle.d{d}": {s: float((d * 7 + k * 3) % 5) for k, s in enumerate(HUMAN_1)}
               for d in range(4)}
    paths = []
    for k in range(2):
        path = tmp_path / f"r{k}.json"
        human = {s: v * (k + 1) for s, v in HUMAN_1.items()}  # two runs, not one given twice (refused)
        path.write_text(json.dumps(results(human, {"a": 4.0, "b": 3.0, "c": 1.0, "d": 2.0}, configs)))
        paths.append(str(path))
    found = meta_evaluate(paths)
    family = [r for r in found.rows if r.in_family]
    assert len(family) == 4
    for k, pick in enumerate((lambda a: a.accuracy, lambda a: a.kendall, lambda a: a.accuracy_difference,
                              lambda a: a.kendall_difference)):
        expected = false_discovery_control([pick(r.found).p_value for r in family], method="bh")
        assert [r.corrected[k] for r in family] == pytest.approx(list(expected))


def test_the_seed_makes_the_numbers_repeatable(two_runs):
    assert meta_evaluate(two_runs).rows == meta_evaluate(two_runs).rows
    assert _row(meta_evaluate(two_runs, seed=2), FULL, "ter").found.kendall.p_value != \
        _row(meta_evaluate(two_runs), FULL, "ter").found.kendall.p_value  # 9999 other permutations


def test_bad_files_are_errors_naming_them(tmp_path, two_runs):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "acs-evaluation/2",\n  "x": }', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json:2: is not JSON"):
        read_run(bad)
    other = tmp_path / "other.json"
    other.write_text('{"rows": []}', encoding="utf-8")
    with pytest.raises(InputError, match=r"other\.json: is not a results\.json of `acs evaluate`"):
        read_run(other)
    no_human = tmp_path / "no_human.json"
    no_human.write_text(json.dumps({**RUN_1, "human_scores": None}), encoding="utf-8")
    with pytest.raises(InputError, match=r"no_human\.json: has no human_scores: run `acs evaluate --human"):
        read_run(no_human)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**RUN_1, "configs": {"de-en.particle.d1": {"systems": {"a": {}}}}}), encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.json: is not a complete results\.json .*KeyError"):
        read_run(broken)
    with pytest.raises(InputError, match=r"run1\.json: has no full-test chrf scores \(metrics: bleu, ter\)") as error:
        meta_evaluate(two_runs, reference="chrf")
    assert error.value.field == "reference"


def test_without_a_reference_score_a_system_is_left_out_of_the_measure(tmp_path):
    document = results(HUMAN_1, {"a": 3.0, "b": 2.0, "c": 1.0, "d": None},  # d: no full-test score (NaN as null)
                       {"de-en.particle.d1": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0}})
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    found = meta_evaluate([str(path)])
    assert found.systems == (3,) and _row(found, "de-en.particle.d1", "bleu").found.systems == (3,)
    assert np.isclose(_row(found, "de-en.particle.d1", "bleu").found.kendall.value, 1.0)


def test_a_metric_is_named_as_its_run_names_it(tmp_path):
    """A results.json of schema 4 carries each metric's label (metric_info): the report names a
    plug-in's metric by it without the plug-in installed; an older run's metric takes what
    ``label_of`` gives (acs meta-evaluate: the registry's label), by default its name."""
    labelled = results(HUMAN_1, {"a": 30.0, "b": 31.0, "c": 20.0, "d": 10.0},
                       {"de-en.particle.d1": {"a": 9.0, "b": 8.0, "c": 2.0, "d": 5.0}})
    labelled["metric_info"] = {"bleu": {"label": "BLEU (plug-in)", "digits": 2, "signature": "x"}}
    (tmp_path / "new.json").write_text(json.dumps(labelled), encoding="utf-8")
    (tmp_path / "old.json").write_text(json.dumps(RUN_1), encoding="utf-8")
    assert read_run(tmp_path / "new.json").labels == {"bleu": "BLEU (plug-in)"}
    assert read_run(tmp_path / "old.json").labels == {"bleu": "bleu", "ter": "ter"}
    assert read_run(tmp_path / "old.json", str.upper).labels == {"bleu": "BLEU", "ter": "TER"}
    found = meta_evaluate([tmp_path / "new.json", tmp_path / "old.json"])
    assert found.label("bleu") == "BLEU (plug-in)" and found.label(TARGETED) == f"targeted accuracy ({DIAGNOSTIC})"
    assert found.label("nothing-registered") == "nothing-registered"
