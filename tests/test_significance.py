"""evaluation/significance.py: the paired tests the engine reports, against sacrebleu's own
PairedTest and our approximate randomization, on the toy corpus's hand-made systems."""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from auto_challenge_sets.evaluation.significance import paired_tests
from auto_challenge_sets.scoring.metric import create_metric
from auto_challenge_sets.scoring.paired import approximate_randomization, sacrebleu_seed

from toy_dataset import corpus


def _inputs(names: tuple[str, ...] = ("better", "good", "worse"), metrics: tuple[str, ...] = ("bleu", "ribes")):
    c = corpus()
    systems = [(name, c["outputs"][name][:50]) for name in names]
    refs = [(r,) for r in c["refs"][:50]]
    found = {m: create_metric(m) for m in metrics}
    stats = {s: {m: metric.statistics(hyps, refs) for m, metric in found.items()} for s, hyps in systems}
    return systems, refs, found, stats


def test_the_defaults_are_sacrebleus_approximate_randomization_with_1000_trials():
    systems, refs, metrics, stats = _inputs()
    ours = paired_tests(systems, refs, metrics, statistics=stats)
    expected = approximate_randomization(stats["better"], {s: stats[s] for s in ("good", "worse")}, metrics, 1000,
                                         sacrebleu_seed())
    assert {s: {m: (r.delta, r.p_value) for m, r in per.items()} for s, per in ours.items()} == \
        {s: {m: tuple(v) for m, v in per.items()} for s, per in expected.items()}


def test_two_systems_test_the_second_against_the_first():
    systems, refs, metrics, stats = _inputs(("better", "worse"))
    found = paired_tests(systems, refs, metrics, n_samples=100, statistics=stats)
    assert list(found) == ["worse"] and set(found["worse"]) == {"bleu", "ribes"}
    assert found["worse"]["bleu"].delta < 0  # "worse" keeps half the reference's words, "better" 85%
    assert paired_tests(systems[:1], refs, metrics) == {}


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
