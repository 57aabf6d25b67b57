"""The findings block (evaluation/report/sections/findings_section.py) opens the terminal summary,
report.md and index.html; the two-sided verdict against full-test BLEU (multiple_testing.verdict)
says "worse" where a config is, on a toy built for it; the Δτ power (power.delta_power)."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from scipy.stats import false_discovery_control, norm

from auto_challenge_sets.evaluation.report.html.html_report import write_html
from auto_challenge_sets.evaluation.report.meta_report import render, to_json
from auto_challenge_sets.evaluation.report.report_writer import markdown_report, write_report
from auto_challenge_sets.evaluation.report.terminal_summary import terminal_summary
from auto_challenge_sets.evaluation.results import DIAGNOSTIC, Evaluation
from auto_challenge_sets.evaluation.stats.meta_runs import meta_evaluate
from auto_challenge_sets.evaluation.stats.multiple_testing import verdict
from auto_challenge_sets.evaluation.stats.power import delta_power

from mutation_scope import per_test_under_mutmut
from toy_dataset import WORDS, corpus, evaluated, write_folder, write_outputs

REVERSED_FROM = 3  # the toy's lines with a particle at distance >= 3 rank the systems the other way round
RANKS = 10  # systems, human score = rank: 2^10 rank swaps, so a p of 2/1024 is reachable


@pytest.fixture(scope=per_test_under_mutmut)
def toy_evaluation(tmp_path_factory):
    return evaluated(tmp_path_factory.mktemp("toy"))[2]


@pytest.fixture(scope=per_test_under_mutmut)
def reversed_run(tmp_path_factory):
    """Ten systems ordered as their human scores on most lines and reversed on particle.d3's, so that
    full-test BLEU agrees with humans and particle.d3 disagrees: its τ is far below BLEU's."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human

    tmp = tmp_path_factory.mktemp("reversed")
    c = corpus()
    outputs = {}
    for k in range(RANKS):
        rng = random.Random(200 + k)
        lines = []
        for ref, distance in zip(c["refs"], c["distances"]):
            keep = 0.3 + 0.07 * (RANKS - 1 - k if distance >= REVERSED_FROM else k)
            lines.append(" ".join(w if rng.random() < keep else rng.choice(WORDS) for w in ref[:-1].lower().split()))
        outputs[f"sys{k}"] = lines
    c["outputs"] = outputs
    human = tmp / "human.txt"
    human.write_text("SYS Z.SCR N\n" + "".join(f"sys{k}.{k} {k} 10\n" for k in range(RANKS)), encoding="utf-8")
    hyps = write_outputs(tmp, c)
    request = EvaluationRequest(write_folder(tmp / "ldd", c), hyps, metrics=("bleu", "chrf"), n_samples=20,
                                paired_samples=50)
    evaluation = evaluate(request, read_human(human, list(hyps)))
    write_report(tmp / "out", evaluation)
    return evaluation, tmp / "out"


def test_the_verdict_is_two_sided_at_alpha():
    assert [verdict(-0.4, 0.01), verdict(0.4, 0.01), verdict(0.4, 0.05), verdict(-0.4, 0.2)] == [
        "worse", "better", "no different", "no different"]
    assert verdict(None, 0.01) is None and verdict(0.4, None) is None


def test_the_detectable_delta_tau_follows_the_intervals_width():
    error = 0.1
    half = norm.ppf(0.975) * error
    found = delta_power([(-half, half), (0.2 - half, 0.2 + half), (0.0, 0.0)], 20)  # a zero width is ignored
    expected = (norm.ppf(0.975) + norm.ppf(0.8)) * error
    assert found.detectable == pytest.approx(expected)
    assert found.needed == math.ceil(20 * (expected / 0.1) ** 2)
    assert delta_power([(0.1, 0.1)], 20) is None


def test_a_config_worse_than_full_test_bleu_is_said_worse_everywhere(reversed_run):
    evaluation, out = reversed_run
    tests = {name: c.human["bleu"].vs_full_test for name, c in evaluation.configs.items() if not c.small}
    family = [n for n, c in evaluation.configs.items() if not c.small and c.same_rows_as is None]
    adjusted = dict(zip(family, false_discovery_control([tests[n].p_value for n in family], method="bh")))
    for name in family:  # the verdict is the sign of Δτ where the BH-corrected p is below 0.05
        test = tests[name]
        expected = "no different" if adjusted[name] >= 0.05 else "worse" if test.delta < 0 else "better"
        assert test.verdict == expected
    assert tests["de-en.particle.d3"].verdict == "worse"
    summary = terminal_summary(evaluation)
    assert re.search(r"worse than full-test BLEU: [^;\n]*BLEU on particle\.d3", summary)
    assert "BLEU on particle.d3" in markdown_report(evaluation, []).split("## The run")[0]
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert saved["configs"]["de-en.particle.d3"]["human"]["bleu"]["vs_full_test"]["verdict"] == "worse"
    assert Evaluation.from_json(saved).configs["de-en.particle.d3"].human["bleu"].vs_full_test.verdict == "worse"
    found = meta_evaluate([out / "results.json"])  # one run, pooled: the same verdict, in words and in JSON
    assert re.search(r"BLEU: of \d+ configs, better than full-test BLEU: none; worse: [^;]*de-en\.particle\.d3",
                     render(found))
    rows = {(r["config"], r["metric"]): r for r in to_json(found)["rows"]}
    assert rows[("de-en.particle.d3", "bleu")]["verdict"] == "worse"


def test_the_findings_come_first_in_every_output(toy_evaluation, tmp_path):
    summary = terminal_summary(toy_evaluation).splitlines()
    assert summary[0] == "findings" and summary.index(next(s for s in summary if s.startswith("signature:"))) > 5
    markdown = markdown_report(toy_evaluation, []).splitlines()
    headings = [line for line in markdown if line.startswith("## ")]
    assert headings[:3] == ["## Findings", "## The run", "## How to read this report"]
    assert "best's lead (p)" in markdown[markdown.index("## Findings") + 4]  # the table's header
    page = (write_html(tmp_path, toy_evaluation)[0]).read_text(encoding="utf-8")
    main = page[page.index("<main>"):]
    assert re.search(r"<section\b[^>]*>", main).group(0) == '<section id="findings">'
    first = next(name for name, c in toy_evaluation.configs.items() if c.usable)  # the table's first row
    assert f"<th scope=\"row\"><bdi>{first.split('.', 1)[1]}</bdi> (" in main[:main.index('<section id="signature">')]


def test_findings_by_config_list_every_usable_config_and_acs_report_renders_them_again(toy_evaluation, tmp_path):
    from dataclasses import replace

    from auto_challenge_sets.cli import main
    from auto_challenge_sets.evaluation.report.cells import ordered_configs
    from auto_challenge_sets.evaluation.report.name_text import terminal_text
    from auto_challenge_sets.evaluation.report.saved_report import read_report
    from auto_challenge_sets.evaluation.report.sections.findings_section import findings

    usable = [name for name in ordered_configs(toy_evaluation) if toy_evaluation.configs[name].usable]
    phenomena = {toy_evaluation.configs[name].phenomenon for name in usable}
    assert len(findings(toy_evaluation, terminal_text).rows) == len(phenomena) < len(usable)  # the default
    write_report(tmp_path / "run", replace(toy_evaluation, settings=replace(toy_evaluation.settings,
                                                                             findings_by="config")))
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "again"), "--quiet"]) == 0
    again, _ = read_report(tmp_path / "again")
    rows = findings(again, terminal_text).rows
    assert [row[0] for row in rows] == [f"{name.split('.', 1)[1]} ({toy_evaluation.configs[name].n})" for name in usable]
    assert "on each usable config (rows)" in (tmp_path / "again" / "report.md").read_text(encoding="utf-8")


def test_targeted_accuracy_is_labelled_a_diagnostic_in_every_output(toy_evaluation, tmp_path):
    assert toy_evaluation.to_json()["targeted"]["role"] == DIAGNOSTIC
    assert f"targeted accuracy is {DIAGNOSTIC}" in terminal_summary(toy_evaluation)
    assert f"targeted accuracy is {DIAGNOSTIC}" in markdown_report(toy_evaluation, []).split("## The run")[0]
    write_report(tmp_path, toy_evaluation)
    found = meta_evaluate([tmp_path / "results.json"])
    assert f"targeted accuracy ({DIAGNOSTIC}): agreement with humans" in render(found)
    (figure,) = tmp_path.glob("*.targeted.svg")  # the figure carries it in its title
    assert f"Targeted accuracy by distance ({DIAGNOSTIC})" in figure.read_text(encoding="utf-8")
