"""Each run's τ(config) − τ(full-test BLEU) (evaluation/stats/versus_full.py) on the hand-made toy
folder: the difference from scipy's kendalltau, the p from every one of the 2^5 rank swaps written
out by hand, the BH correction from scipy's false_discovery_control, and the τ the run needs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import false_discovery_control, kendalltau, rankdata

from mutation_scope import per_test_under_mutmut
from toy_dataset import HUMAN, evaluated


@pytest.fixture(scope=per_test_under_mutmut)
def evaluation(tmp_path_factory):
    return evaluated(tmp_path_factory.mktemp("toy"))[2]


def _swap_p(mine: np.ndarray, reference: np.ndarray, human: np.ndarray) -> float:
    """Every one of the 2^n swaps of the two measures' ranks, with scipy's τ."""
    a, b = rankdata(mine), rankdata(reference)
    observed = kendalltau(mine, human).statistic - kendalltau(reference, human).statistic
    extreme = 0
    masks = list(itertools.product([False, True], repeat=len(human)))
    for mask in masks:
        m = np.asarray(mask)
        delta = kendalltau(np.where(m, b, a), human).statistic - kendalltau(np.where(m, a, b), human).statistic
        extreme += abs(delta) >= abs(observed) - 1e-12
    return extreme / len(masks)


def test_every_correlation_carries_its_difference_to_full_test_bleu(evaluation):
    systems = list(evaluation.systems)
    human = np.asarray([HUMAN[s] for s in systems])
    bleu = np.asarray([evaluation.full[s]["bleu"] for s in systems])
    assert evaluation.human_full["bleu"].vs_full_test is None  # the reference itself
    checked = 0
    for metric in evaluation.metrics:
        sign = 1 if evaluation.higher_is_better[metric] else -1
        full = sign * np.asarray([evaluation.full[s][metric] for s in systems])
        cases = [(evaluation.human_full[metric], full)] if metric != "bleu" else []
        for config in evaluation.configs.values():
            cases.append((config.human[metric],
                          sign * np.asarray([config.systems[s].scores[metric].score for s in systems])))
        for found, scores in cases:
            test = found.vs_full_test
            assert test.reference == "bleu"
            expected = kendalltau(scores, human).statistic - kendalltau(bleu, human).statistic
            assert test.delta == pytest.approx(expected, abs=1e-12)
            assert test.p_value == pytest.approx(_swap_p(scores, bleu, human))
            assert test.ci[0] <= test.delta <= test.ci[1] or test.ci[0] == test.ci[1]
            checked += 1
    assert checked == 2 + 3 * 7  # TER and RIBES on the full test set; three metrics on seven configs
    assert any(c.human["ter"].vs_full_test.delta != 0 for c in evaluation.configs.values())


def test_the_differences_are_corrected_per_metric_across_the_configs(evaluation):
    # the τ's own family: one member per distinct row set, small configs left out (d4, d5 and reorder.d5)
    members = [name for name, c in evaluation.configs.items() if not c.small and c.same_rows_as is None]
    assert members == ["de-en.particle.d0", "de-en.particle.d1", "de-en.particle.d2", "de-en.particle.d3"]
    for metric in evaluation.metrics:
        tests = [evaluation.configs[name].human[metric].vs_full_test for name in members]
        adjusted = false_discovery_control([t.p_value for t in tests], method="bh")
        assert [t.p_corrected for t in tests] == pytest.approx(list(adjusted))
        assert [t.exploratory for t in tests] == [p >= 0.05 for p in adjusted]
        assert {t.family_size for t in tests} == {4}
        for config in evaluation.configs.values():
            if config.small:  # left out: no corrected p, exploratory
                test = config.human[metric].vs_full_test
                assert (test.p_corrected, test.exploratory, test.family_size) == (None, True, None)
        full = evaluation.human_full[metric].vs_full_test
        assert full is None or full.p_corrected is None  # the full test set keeps its raw p
    targeted = [(name, evaluation.configs[name].human_targeted.vs_full_test) for name in members]
    adjusted = false_discovery_control([t.p_value for _, t in targeted], method="bh")
    assert [t.p_corrected for _, t in targeted] == pytest.approx(list(adjusted))
    human = np.asarray([HUMAN[s] for s in evaluation.systems])
    bleu = np.asarray([evaluation.full[s]["bleu"] for s in evaluation.systems])
    for config in evaluation.configs.values():
        if config.human_targeted is None:
            continue
        accuracy = np.asarray([config.systems[s].targeted.accuracy for s in evaluation.systems])
        assert config.human_targeted.vs_full_test.delta == pytest.approx(
            kendalltau(accuracy, human).statistic - kendalltau(bleu, human).statistic)


def test_results_json_carries_the_human_scores_and_the_differences(evaluation):
    document = evaluation.to_json()
    assert document["human_scores"] == HUMAN
    entry = document["configs"]["de-en.particle.d1"]["human"]["ter"]["vs_full_test"]
    assert set(entry) == {"reference", "delta", "ci", "p_value", "p_corrected", "exploratory", "family_size", "verdict"}
    assert entry["verdict"] == ("no different" if entry["p_corrected"] >= 0.05 else "worse" if entry["delta"] < 0 else "better")
    assert document["human_full"]["bleu"]["vs_full_test"] is None


def test_the_run_power_counts_its_systems_and_its_family(evaluation):
    from auto_challenge_sets.evaluation.stats.versus_full import run_power

    found = run_power(evaluation, "bleu")
    assert (found.systems, found.family) == ((5,), 4)  # the family the correction counted: d0..d3
    assert found.single == 1.0 and found.alone is None  # 5 systems: p = 1/60 at best, 0.05/4 is below it
    assert run_power(evaluation, None).family == 4


def test_the_page_and_report_md_show_the_difference_and_the_power(evaluation, tmp_path):
    from markupsafe import escape  # Jinja's own escaping

    from auto_challenge_sets.evaluation.report.html.html_report import write_html
    from auto_challenge_sets.evaluation.report.report_writer import markdown_report
    from auto_challenge_sets.evaluation.stats.versus_full import power_line

    page = write_html(tmp_path, evaluation)[0].read_text(encoding="utf-8")
    power = str(escape(power_line(evaluation, "bleu")))
    # under each metric's human table and the targeted table: every family has the same 4 members here
    assert power_line(evaluation, None) == power_line(evaluation, "bleu")
    assert page.count(power) == len(evaluation.metrics) + 1
    test = evaluation.configs["de-en.particle.d1"].human["ter"].vs_full_test
    assert f'data-value="{test.delta!r}"' in page and f'data-value="{test.p_corrected!r}"' in page
    assert page.count("Δτ vs full BLEU") >= 4  # three metric tables, the targeted table (and the glossary)
    report = markdown_report(evaluation, [])
    assert report.count(power_line(evaluation, "bleu")) == 4  # the per-config tables are in tables.{metric}.md
    from auto_challenge_sets.evaluation.report.sections.challenge_section import write_tables

    assert all("Δτ vs full BLEU [95% CI]" in t.read_text(encoding="utf-8") for t in write_tables(evaluation, tmp_path, []))
