"""The Benjamini–Hochberg families of a run (evaluation/stats/multiple_testing.py) on hand-made results:
one member per distinct row set, small configs left out, the family size carried, "exploratory" at
a corrected p of 0.05 exactly, trends corrected over the metric's every phenomenon, and surviving
trends counted on the corrected p. Expected values from scipy.stats.false_discovery_control or a
hand count."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scipy.stats import false_discovery_control

from auto_challenge_sets.evaluation.report.sections.trends_section import surviving_worsening
from auto_challenge_sets.evaluation.results import (
    ConfigResult,
    Evaluation,
    HumanCorrelation,
    MetricInfo,
    SegmentAgreement,
    Settings,
    Trend,
    VersusFullTest,
)
from auto_challenge_sets.evaluation.stats.multiple_testing import correct_configs, correct_trends


def _human(p: float | None) -> HumanCorrelation:
    return HumanCorrelation(systems=5, spearman=0.5, spearman_p=p, kendall=0.4, p_value=p, ci=(0.0, 0.8))


def _config(p: float | None, small: bool = False, same_rows_as: str | None = None,
            targeted: float | None = None, segment: float | None = None) -> ConfigResult:
    return ConfigResult(n=10 if small else 40, phenomenon="de-en.particle", min_distance=1, small=small,
                        same_rows_as=same_rows_as, widened=0, systems={},
                        human={"bleu": _human(p)}, human_targeted=None if targeted is None else _human(targeted),
                        segment=None if segment is None else {"bleu": SegmentAgreement(100, 0.1, segment)})


# five configs: b repeats a (same rows), d is small
CONFIGS = {"de-en.particle.d0": _config(0.01), "de-en.particle.d1": _config(0.01, same_rows_as="de-en.particle.d0"),
           "de-en.particle.d2": _config(0.04), "de-en.particle.d3": _config(0.001, small=True),
           "de-en.particle.d4": _config(0.03)}


def test_a_family_counts_a_repeat_once_and_leaves_small_configs_out():
    corrected = correct_configs(CONFIGS, ["bleu"])
    expected = false_discovery_control([0.01, 0.04, 0.03], method="bh")  # d0, d2, d4
    found = {name: c.human["bleu"] for name, c in corrected.items()}
    for name, p in zip(["de-en.particle.d0", "de-en.particle.d2", "de-en.particle.d4"], expected):
        assert found[name].p_corrected == pytest.approx(p) and found[name].family_size == 3
        assert found[name].exploratory is bool(p >= 0.05)
    repeat, original = found["de-en.particle.d1"], found["de-en.particle.d0"]
    assert (repeat.p_corrected, repeat.exploratory, repeat.family_size) == (
        original.p_corrected, original.exploratory, 3)
    small = found["de-en.particle.d3"]
    # left out: no corrected p, no family, and never a finding (its raw p of 0.001 would be the smallest)
    assert small.p_corrected is None and small.family_size is None and small.exploratory is True
    assert small.p_value == 0.001
    # with the repeat and the small config counted, as before, every corrected p would differ
    counted_twice = false_discovery_control([0.01, 0.01, 0.04, 0.001, 0.03], method="bh")
    assert found["de-en.particle.d0"].p_corrected != pytest.approx(counted_twice[0])


def test_exploratory_at_a_corrected_p_of_exactly_the_threshold():
    # by hand: BH of (0.025, 0.05) is (min(0.025·2/1, 0.05·2/2), 0.05·2/2) = (0.05, 0.05)
    assert list(false_discovery_control([0.025, 0.05], method="bh")) == [0.05, 0.05]
    corrected = correct_configs({"de-en.particle.d0": _config(0.025), "de-en.particle.d1": _config(0.05)}, ["bleu"])
    assert all(c.human["bleu"].p_corrected == 0.05 and c.human["bleu"].exploratory is True
               for c in corrected.values())
    below = correct_configs({"de-en.particle.d0": _config(0.02), "de-en.particle.d1": _config(0.049)}, ["bleu"])
    assert [c.human["bleu"].exploratory for c in below.values()] == [False, False]  # 0.04 and 0.049


def test_a_targeted_repeat_with_other_instances_is_its_own_member():
    """Same rows, other instances (verb_final d1 drops the distance-0 ones): a different targeted
    τ is a test of its own; the same p is the same test, counted once."""
    configs = {"de-en.particle.d0": _config(0.2, targeted=0.01),
               "de-en.particle.d1": _config(0.2, same_rows_as="de-en.particle.d0", targeted=0.02),
               "de-en.particle.d2": _config(0.3, targeted=0.04),
               "de-en.particle.d3": _config(0.3, same_rows_as="de-en.particle.d2", targeted=0.04)}
    corrected = correct_configs(configs, ["bleu"])
    targeted = [c.human_targeted for c in corrected.values()]
    expected = false_discovery_control([0.01, 0.02, 0.04], method="bh")
    assert [t.p_corrected for t in targeted] == pytest.approx([*expected, expected[2]])
    assert [t.family_size for t in targeted] == [3, 3, 3, 3]
    assert [c.human["bleu"].family_size for c in corrected.values()] == [2, 2, 2, 2]  # d1, d3 repeat d0, d2


def test_segment_families_follow_the_same_rules():
    configs = {"de-en.particle.d0": _config(0.5, segment=0.001),
               "de-en.particle.d1": _config(0.5, same_rows_as="de-en.particle.d0", segment=0.001),
               "de-en.particle.d2": _config(0.5, small=True, segment=0.002),
               "de-en.particle.d3": _config(0.5, segment=0.04)}
    segment = [c.segment["bleu"] for c in correct_configs(configs, ["bleu"]).values()]
    expected = false_discovery_control([0.001, 0.04], method="bh")
    assert [s.p_corrected for s in segment] == pytest.approx([expected[0], expected[0], None, expected[1]])
    assert [s.family_size for s in segment] == [2, 2, None, 2] and segment[2].exploratory is True


def test_untested_results_stay_untested():
    corrected = correct_configs({"de-en.particle.d0": _config(None), "de-en.particle.d1": _config(0.01),
                                 "de-en.particle.d2": replace(_config(0.02), human={"bleu": None})}, ["bleu"])
    untested = corrected["de-en.particle.d0"].human["bleu"]
    assert untested.p_corrected is None and untested.exploratory is None and untested.family_size is None
    assert corrected["de-en.particle.d1"].human["bleu"].family_size == 1
    assert corrected["de-en.particle.d2"].human["bleu"] is None


TRENDS = {"de-en.particle": {"a": Trend(4, -0.9, 0.01), "b": Trend(4, -0.8, 0.04), "c": Trend(4, None, None)},
          "de-en.reflexive": {"a": Trend(4, -0.7, 0.02), "b": Trend(4, 0.4, 0.30)}}


def test_trends_are_corrected_over_the_metrics_every_phenomenon():
    corrected = correct_trends(TRENDS)
    expected = false_discovery_control([0.01, 0.04, 0.02, 0.30], method="bh")  # one family of 4, not 2 + 2
    found = [corrected["de-en.particle"]["a"], corrected["de-en.particle"]["b"], corrected["de-en.reflexive"]["a"],
             corrected["de-en.reflexive"]["b"]]
    assert [t.p_corrected for t in found] == pytest.approx(list(expected))
    assert [t.family_size for t in found] == [4, 4, 4, 4]
    untested = corrected["de-en.particle"]["c"]
    assert untested.p_corrected is None and untested.family_size is None
    per_phenomenon = false_discovery_control([0.01, 0.04], method="bh")
    assert corrected["de-en.particle"]["b"].p_corrected != pytest.approx(per_phenomenon[1])


def _evaluation(trends: dict) -> Evaluation:
    return Evaluation(
        signature="sig", dataset="data", pair="de-en", split="test", full_corpus_config="de-en.baseline",
        full_corpus_rows=90, systems=("a", "b", "c"), baseline_system="a", metrics=("bleu", "ter"),
        higher_is_better={"bleu": True, "ter": False}, settings=Settings(5, 1, 3, "ar", 20, 20, {"bleu": {"tokenize": "13a"}}),
        full={}, configs={}, trends=trends, summary={},
        metric_info={"bleu": MetricInfo("BLEU", 2, "sig"), "ter": MetricInfo("TER", 2, "sig")})


def test_surviving_trends_are_counted_on_the_corrected_p():
    corrected = correct_trends(TRENDS)
    # by hand: particle a (ρ −0.9, raw 0.01, BH 0.04) survives; b (ρ −0.8, raw 0.04, BH 0.053) does not
    assert corrected["de-en.particle"]["b"].p_value < 0.05 <= corrected["de-en.particle"]["b"].p_corrected
    evaluation = _evaluation({"bleu": corrected, "ter": corrected})
    assert surviving_worsening(evaluation, "bleu", "de-en.particle") == 1
    assert surviving_worsening(evaluation, "bleu", "de-en.reflexive") == 1  # a: ρ −0.7, BH 0.04
    assert surviving_worsening(evaluation, "ter", "de-en.particle") == 0  # lower is better: a falling ρ improves


def test_the_targeted_difference_is_a_family_of_its_own():
    """Issue 34: targeted accuracy's segment-level correct − wrong difference (its interval) carries
    its own corrected p, label and family size, by the same rules: a repeat with the same p counted
    once, a small config left out."""

    def config(p: float, small: bool = False, same_rows_as: str | None = None) -> ConfigResult:
        found = SegmentAgreement(100, 0.1, 0.5, difference_p_value=p)
        return replace(_config(0.5, small=small, same_rows_as=same_rows_as), segment_targeted=found)

    configs = {"de-en.particle.d0": config(0.01), "de-en.particle.d1": config(0.01, same_rows_as="de-en.particle.d0"),
               "de-en.particle.d2": config(0.04), "de-en.particle.d3": config(0.001, small=True),
               "de-en.particle.d4": config(0.03)}
    found = {name: c.segment_targeted for name, c in correct_configs(configs, ["bleu"]).items()}
    # by hand: sorted 0.01, 0.03, 0.04 times 3 / rank: 0.03, 0.045, 0.04; running minimum from the top
    for name, p in (("de-en.particle.d0", 0.03), ("de-en.particle.d1", 0.03), ("de-en.particle.d2", 0.04),
                    ("de-en.particle.d4", 0.04)):
        assert found[name].difference_p_corrected == pytest.approx(p) and found[name].difference_family_size == 3
        assert found[name].difference_exploratory is False
    small = found["de-en.particle.d3"]
    assert (small.difference_p_corrected, small.difference_family_size, small.difference_exploratory) == (None, None, True)
    # the τ of the same results is its own family: all five p of 0.5, the repeat's equal to its original's
    assert {t.family_size for t in found.values() if t.family_size} == {3}


def test_the_difference_to_full_test_bleu_is_a_family_per_measure():
    """``vs_full_test`` of a metric's human correlation and of targeted accuracy's: each its own BH
    family with the members of the τ family (a repeat with the same p counted once, a small config
    left out); a correlation without one keeps None."""

    def versus(p: float | None) -> VersusFullTest:
        return VersusFullTest("bleu", 0.1, (0.0, 0.2), p)

    def config(metric: float, targeted: float, small: bool = False, same_rows_as: str | None = None) -> ConfigResult:
        found = _config(0.5, small=small, same_rows_as=same_rows_as, targeted=0.5)
        return replace(found, human={"bleu": replace(found.human["bleu"], vs_full_test=versus(metric))},
                       human_targeted=replace(found.human_targeted, vs_full_test=versus(targeted)))

    configs = {"de-en.particle.d0": config(0.01, 0.02), "de-en.particle.d1": config(0.01, 0.02, same_rows_as="de-en.particle.d0"),
               "de-en.particle.d2": config(0.04, 0.02), "de-en.particle.d3": config(0.001, 0.001, small=True),
               "de-en.particle.d4": config(0.03, 0.5), "de-en.particle.d5": _config(0.5)}
    corrected = correct_configs(configs, ["bleu"])
    metric = {name: c.human["bleu"].vs_full_test for name, c in corrected.items()}
    targeted = {name: c.human_targeted and c.human_targeted.vs_full_test for name, c in corrected.items()}
    # by hand: metric 0.01, 0.03, 0.04 times 3 / rank: 0.03, 0.045, 0.04, running minimum from the top;
    # targeted 0.02, 0.02, 0.5: 0.06, 0.03, 0.5 -> 0.03, 0.03, 0.5
    for name, p_metric, p_targeted in (("de-en.particle.d0", 0.03, 0.03), ("de-en.particle.d1", 0.03, 0.03),
                                       ("de-en.particle.d2", 0.04, 0.03), ("de-en.particle.d4", 0.04, 0.5)):
        assert (metric[name].p_corrected, metric[name].family_size) == (pytest.approx(p_metric), 3)
        assert (targeted[name].p_corrected, targeted[name].family_size) == (pytest.approx(p_targeted), 3)
        assert targeted[name].exploratory is (p_targeted >= 0.05) and metric[name].exploratory is False
        assert metric[name].p_value == configs[name].human["bleu"].vs_full_test.p_value
    for small in (metric["de-en.particle.d3"], targeted["de-en.particle.d3"]):
        assert (small.p_corrected, small.family_size, small.exploratory, small.p_value) == (None, None, True, 0.001)
    assert metric["de-en.particle.d5"] is None and targeted["de-en.particle.d5"] is None


def test_a_small_config_drops_a_correction_it_carried_in():
    """The correction writes every corrected field: a small config's result that arrives with a
    corrected p and family (read back from an earlier run) leaves with neither."""
    carried = replace(_human(0.001), p_corrected=0.004, exploratory=False, family_size=4)
    configs = {"de-en.particle.d0": replace(_config(0.001, small=True), human={"bleu": carried}),
               "de-en.particle.d1": _config(0.02)}
    small = correct_configs(configs, ["bleu"])["de-en.particle.d0"].human["bleu"]
    assert (small.p_corrected, small.exploratory, small.family_size) == (None, True, None)
