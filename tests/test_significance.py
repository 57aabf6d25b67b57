"""evaluation/stats/significance.py: the paired tests the engine reports, against sacrebleu's own
PairedTest and our approximate randomization, on the toy corpus's hand-made systems."""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from auto_challenge_sets.evaluation.stats.significance import paired_tests
from auto_challenge_sets.scoring.metrics import create_metric
from auto_challenge_sets.scoring.paired import PAIRED_TESTS, approximate_randomization, sacrebleu_seed

from toy_dataset import corpus


def _inputs(names: tuple[str, ...] = ("better", "good", "worse"), metrics: tuple[str, ...] = ("bleu", "ribes")):
    c = corpus()
    systems = [(name, c["outputs"][name][:50]) for name in names]
    refs = [(r,) for r in c["refs"][:50]]
    found = {m: create_metric(m) for m in metrics}
    stats = {s: {m: metric.statistics(hyps, refs) for m, metric in found.items()} for s, hyps in systems}
    return systems, refs, found, stats


@pytest.mark.parametrize("test_type", PAIRED_TESTS)
def test_the_default_trials_are_sacrebleus_for_each_test(test_type):
    theirs = PairedTest([("a", ["x"]), ("b", ["x"])], {"BLEU": sacrebleu.BLEU()}, [["x"]], test_type=test_type)
    assert PAIRED_TESTS[test_type] == theirs.n_samples  # n_samples=0: its default


def test_two_systems_test_the_second_against_the_first():
    systems, refs, metrics, stats = _inputs(("better", "worse"))
    found = paired_tests(systems, refs, metrics, "ar", 100, stats)
    assert list(found) == ["worse"] and set(found["worse"]) == {"bleu", "ribes"}
    assert found["worse"]["bleu"].delta < 0  # "worse" keeps half the reference's words, "better" 85%
    assert paired_tests(systems[:1], refs, metrics, "ar", 100) == {}


@pytest.mark.parametrize("with_statistics", [False, True])
def test_the_bootstrap_is_sacrebleus_with_or_without_the_engines_statistics(with_statistics):
    """BLEU through sacrebleu's own object, RIBES through the adapter (fed the engine's rows when
    given): the same deltas and p-values as sacrebleu's PairedTest on the text."""
    systems, refs, metrics, stats = _inputs()
    found = paired_tests(systems, refs, metrics, "bs", 100, stats if with_statistics else None)
    _, theirs = PairedTest(systems, {"BLEU": sacrebleu.BLEU(), "RIBES": metrics["ribes"].sacrebleu_metric()},
                           [[r for (r,) in refs]], test_type="bs", n_samples=100)()
    for index, (name, _) in enumerate(systems[1:], start=1):
        for metric, key in (("bleu", "BLEU"), ("ribes", "RIBES")):
            assert found[name][metric].p_value == theirs[key][index].p_value, (name, metric)
            assert found[name][metric].delta == pytest.approx(theirs[key][index].score - theirs[key][0].score)


def test_two_metrics_that_sacrebleu_names_alike_are_an_error():
    systems, refs, _, _ = _inputs()
    metrics = {"bleu": create_metric("bleu"), "bleu_again": create_metric("bleu")}
    with pytest.raises(ValueError, match="^two metrics share a name in sacrebleu's paired test: bleu, bleu_again$"):
        paired_tests(systems, refs, metrics, "bs", 20)


def test_no_metric_or_a_single_system_is_no_test():
    """Either missing is enough for no test: two systems without metrics, one system with them."""
    systems, refs, metrics, stats = _inputs(("better", "worse"))
    assert paired_tests(systems, refs, {}, "bs", 20) == {}
    assert paired_tests(systems, refs, {}, "ar", 100, stats) == {}
    assert paired_tests(systems[:1], refs, metrics, "bs", 20, stats) == {}


def test_the_adapter_tests_the_engines_statistics_not_the_text_again():
    """Every system given the baseline's RIBES statistics: RIBES (through the adapter) sees three
    equal systems, a delta of exactly 0, while BLEU (sacrebleu's own, from the text) still differs."""
    systems, refs, metrics, stats = _inputs()
    same = {s: {"bleu": per["bleu"], "ribes": stats["better"]["ribes"]} for s, per in stats.items()}
    found = paired_tests(systems, refs, metrics, "bs", 20, same)
    assert [found[s]["ribes"].delta for s in ("good", "worse")] == [0.0, 0.0]
    assert all(found[s]["bleu"].delta < 0 for s in ("good", "worse"))
    honest = paired_tests(systems, refs, metrics, "bs", 20, stats)
    assert honest["worse"]["ribes"].delta < 0  # the true statistics do differ


def test_sacrebleus_progress_lines_are_silenced_during_the_test_and_its_level_restored():
    import logging

    class Keep(logging.Handler):
        def __init__(self):
            super().__init__(logging.DEBUG)
            self.records = []

        def emit(self, record):
            self.records.append(record)

    systems, refs, metrics, _ = _inputs(("better", "worse"), ("bleu",))
    logger, keep = logging.getLogger("sacrebleu"), Keep()
    level = logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    try:
        PairedTest(systems, {"BLEU": sacrebleu.BLEU()}, [[r for (r,) in refs]], test_type="bs", n_samples=5)()
        assert keep.records  # sacrebleu does report its progress at INFO
        keep.records.clear()
        paired_tests(systems, refs, metrics, "bs", 5)
        assert keep.records == [] and logger.level == logging.INFO
    finally:
        logger.removeHandler(keep)
        logger.setLevel(level)


def test_approximate_randomization_reads_the_engines_statistics_not_the_text():
    """Given the statistics, the text is not scored again: blank hypotheses and references change nothing."""
    systems, refs, metrics, stats = _inputs()
    blank_systems = [(name, [""] * len(hyps)) for name, hyps in systems]
    blank_refs = [("",) for _ in refs]
    found = paired_tests(blank_systems, blank_refs, metrics, "ar", 50, stats)
    expected = approximate_randomization(stats, ["better", "good", "worse"], metrics, 50, sacrebleu_seed(), 1)
    assert {s: {m: (r.delta, r.p_value) for m, r in per.items()} for s, per in found.items()} == \
        {s: {m: tuple(v) for m, v in per.items()} for (_, s), per in expected.items()}


def test_approximate_randomization_without_statistics_is_sacrebleus_on_the_text():
    systems, refs, metrics, _ = _inputs(("better", "good", "worse"), ("bleu",))
    found = paired_tests(systems, refs, metrics, "ar", 50)
    _, theirs = PairedTest(systems, {"BLEU": sacrebleu.BLEU()}, [[r for (r,) in refs]], test_type="ar",
                           n_samples=50)()
    for index, name in enumerate(("good", "worse"), start=1):
        assert found[name]["bleu"].p_value == theirs["BLEU"][index].p_value
        assert found[name]["bleu"].delta == pytest.approx(theirs["BLEU"][index].score - theirs["BLEU"][0].score)
