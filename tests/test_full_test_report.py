"""evaluation/report/sections/full_test.py: the full test set's ranking tables, cell by cell, on a hand-made
FullTest (BLEU higher is better, TER lower)."""

from __future__ import annotations

from types import SimpleNamespace

from auto_challenge_sets.evaluation.report.sections.full_test_section import full_test_section, ranking_table
from auto_challenge_sets.evaluation.results import (
    FullTest,
    FullTestRanking,
    MetricInfo,
    PairedResult,
    PairwiseResult,
    RankedSystem,
)

INFO = {"bleu": MetricInfo("BLEU", 2, "bleu-sig"), "ter": MetricInfo("TER", 2, "ter-sig")}


def _full_test() -> FullTest:
    bleu = FullTestRanking(systems=(RankedSystem("b", 31.25, 1, 1, PairedResult(1.25, 0.0123)),
                                    RankedSystem("a", 30.0, 2, 1, None),
                                    RankedSystem("c", 20.0, 3, 2, PairedResult(-10.0, 0.001))),
                           pairs=(PairwiseResult("b", "a", 1.25, 0.0123), PairwiseResult("b", "c", 11.25, 0.001),
                                  PairwiseResult("a", "c", 10.0, 0.001)), clusters=2)
    ter = FullTestRanking(systems=(RankedSystem("a", 50.0, 1, 1, None), RankedSystem("b", 50.0, 1, 1,
                                                                                       PairedResult(0.0, 1.0))),
                          pairs=(PairwiseResult("a", "b", 0.0, 1.0),), clusters=1)
    return FullTest(rows=90, baseline_system="a", paired_test="ar", paired_samples=1000, alpha=0.05,
                    correction="none", cluster_rule="rule", random_unavailable="no sentence lies outside",
                    rankings={"bleu": bleu, "ter": ter})


def _cells(table: str) -> list[list[str]]:
    return [line.split() for line in table.splitlines()]


def test_the_ranking_table_cell_by_cell():
    found = _full_test()
    cells = _cells(ranking_table(found, "bleu", INFO["bleu"]))
    assert cells[0] == ["rank", "cluster", "system", "BLEU", "Δ", "baseline", "(p)"]
    assert cells[2:] == [
        ["1", "1", "b", "31.25", "+1.25", "(0.0123)*"], ["2", "1", "a", "(baseline)", "30.00", "-"],
        ["3", "2", "c", "20.00", "-10.00", "(0.0010)*"]]
    markdown = ranking_table(found, "ter", INFO["ter"], markdown=True).splitlines()
    assert markdown[0].startswith("| rank | cluster | system") and "TER" in markdown[0]
    assert [line.split("|")[1:-1] for line in markdown[2:]] == [
        [" 1 ", " 1 ", " a (baseline) ", " 50.00 ", " - "], [" 1 ", " 1 ", " b ", " 50.00 ", " +0.00 (1.0000) "]]


def test_the_section_in_both_forms():
    evaluation = SimpleNamespace(full_test=_full_test(), pair="de-en", full_corpus_config="de-en.baseline",
                                 metric_info=INFO, label=lambda metric: INFO[metric].label)
    plain = full_test_section(evaluation)
    assert plain[0] == "full test set: ranking and significance clusters"
    assert plain[2] == ("90 rows; sacrebleu's paired approximate randomization (1000 samples) against a and between "
                        "every pair; clusters at p < 0.05 (correction: none, as WMT); random baseline: n/a (no sentence "
                        "lies outside)")
    assert plain[4:] == ["BLEU: 2 cluster(s) of 3 systems", "", ranking_table(evaluation.full_test, "bleu", INFO["bleu"]), "",
                         "TER: 1 cluster(s) of 2 systems", "", ranking_table(evaluation.full_test, "ter", INFO["ter"]), ""]
    markdown = full_test_section(evaluation, markdown=True)
    assert markdown[0] == "## Full test set: ranking and significance clusters"
    assert markdown[4] == "### BLEU: 2 cluster(s) of 3 systems"
    assert markdown[6] == ranking_table(evaluation.full_test, "bleu", INFO["bleu"], markdown=True)
    assert full_test_section(SimpleNamespace(full_test=None)) == []


def test_the_section_names_a_reference_config_that_stands_for_the_full_corpus() -> None:
    evaluation = SimpleNamespace(full_test=_full_test(), pair="de-en", full_corpus_config="de-en.reorder.d0",
                                 metric_info=INFO, label=lambda metric: INFO[metric].label)
    assert full_test_section(evaluation)[0] == "full corpus: de-en.reorder.d0: ranking and significance clusters"
    assert full_test_section(evaluation, markdown=True)[0] == (
        "## Full corpus: de-en.reorder.d0: ranking and significance clusters")
