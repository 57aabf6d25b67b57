"""The one report (evaluation/report.py, plots.py): tables, report.md with its legend, results.json
and the plots, for whatever metrics the run has; on the hand-made toy folder."""

from __future__ import annotations

import json

import numpy as np
import pytest
from matplotlib.image import imread

from auto_challenge_sets.evaluation.report import (
    config_table,
    summary_table,
    targeted_human_table,
    targeted_tables,
    text_report,
    write_report,
)

from mutation_scope import per_test_under_mutmut
from toy_dataset import evaluated


@pytest.fixture(scope=per_test_under_mutmut)
def evaluation(tmp_path_factory):
    _, _, result, human = evaluated(tmp_path_factory.mktemp("toy"))
    return result, human


def test_the_text_report_has_every_config_and_metric(evaluation):
    result, _ = evaluation
    text = text_report(result)
    for config in result.configs:
        assert f"{config} (n = {result.configs[config].n})" in text
    for label in ("BLEU", "TER", "RIBES", "ΔTER (p)", "summary, TER", "correlation with human scores, RIBES"):
        assert label in text
    assert "targeted accuracy" in text and "de-en.particle: targeted accuracy (%) by distance d" in text
    assert "[small: fewer than 20 rows" in text and "the same rows as de-en.particle.d4" in text


def test_a_star_marks_worse_than_the_random_band_in_each_direction(evaluation):
    result, _ = evaluation
    for config, entry in result.configs.items():
        table = config_table(result, config).splitlines()[2:]
        for line, (system, scores) in zip(table, entry.systems.items()):
            cells = line.split()
            bleu, ter = scores.scores["bleu"], scores.scores["ter"]
            offset = 2 if system == result.baseline_system else 1  # "(baseline)" is a cell of its own
            assert cells[offset].endswith("*") == (bleu.score < bleu.random.p5), (config, system)
            assert cells[offset + 3].endswith("*") == (ter.score > ter.random.p95), (config, system)


def test_the_summary_table_prints_the_shares(evaluation):
    result, _ = evaluation
    table = summary_table(result, "ter")
    summary = result.summary["ter"]["de-en.particle"]
    row = next(line for line in table.splitlines() if line.startswith("de-en.particle"))
    assert f"{summary.worse_than_random_p5:.0%}" in row
    assert summary.worsening_trend is None and row.endswith("n/a")  # two usable configs: no trend, not "0/5"


def test_the_folder_holds_results_report_and_readable_plots(evaluation, tmp_path):
    result, human = evaluation
    written = write_report(tmp_path, result, human.scores)
    assert written[0].name == "results.json" and written[1].name == "report.md"
    assert json.loads(written[0].read_text(encoding="utf-8")) == json.loads(json.dumps(result.to_json()))
    report = written[1].read_text(encoding="utf-8")
    for explained in ("`*` after a score", "*random* / *p5*", "*Δ (p)*", "*small*", "*random τ pct*", "*< random p5*"):
        assert explained in report
    for png in (p for p in written[2:] if p.suffix == ".png"):
        assert png.name in report
        image = imread(png)
        assert image.shape[0] > 200 and image.shape[1] > 300 and np.ptp(image[..., :3]) > 0.5, png
    names = {p.name for p in written[2:]}
    assert {"de-en.bleu.heatmap.png", "de-en.ter.heatmap.png", "de-en.ribes.human.png", "de-en.targeted.png",
            "de-en.particle.ter.trend.png"} <= names
    scatter = imread(tmp_path / "de-en.bleu.human.png")
    height, width = scatter.shape[:2]
    assert 0.3 < height / width < 1.5  # a readable aspect, not a strip


def _markdown_cells(table: str) -> list[list[str]]:
    lines = table.splitlines()
    assert lines[1].startswith("|---|---:|")
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in [lines[0], *lines[2:]]]


def _corrected(p: float | None, exploratory: bool | None) -> str:
    return "-" if p is None else f"{p:.3f}" + (" (exploratory)" if exploratory else "")


def test_the_targeted_human_table_puts_each_tau_in_its_column(evaluation):
    """Every cell of the targeted-vs-human table, from the Evaluation's numbers (which
    test_engine.py checks against scipy): the first metric's τ beside targeted accuracy's."""
    result, _ = evaluation
    full = result.human_full["bleu"]
    expected = [["config", "BLEU τ", "BLEU p", "BLEU p (BH)", "targeted τ", "targeted p", "targeted p (BH)", "systems",
                 "τ pct (random pairs)"],
                ["(full test set)", f"{full.kendall:.3f}", f"{full.p_value:.3f}", "-", "-", "-", "-", str(full.systems),
                 "-"]]
    for name, config in result.configs.items():
        targeted, auto = config.human_targeted, config.human["bleu"]
        if targeted is None:
            continue
        expected.append([name + (" (degenerate baseline)" if config.degenerate_baseline else ""),
                         f"{auto.kendall:.3f}", f"{auto.p_value:.3f}", _corrected(auto.p_corrected, auto.exploratory),
                         f"{targeted.kendall:.3f}", f"{targeted.p_value:.3f}",
                         _corrected(targeted.p_corrected, targeted.exploratory), str(targeted.systems),
                         f"{targeted.random_kendall_percentile:.0f}"])
    assert _markdown_cells(targeted_human_table(result, markdown=True)) == expected
    assert len(expected) == 2 + 6  # header, full corpus, particle d0..d5; reorder.d5 has no targeted accuracy
    plain = targeted_human_table(result).splitlines()
    assert plain[0].split()[:3] == ["config", "BLEU", "τ"] and set(plain[1]) <= {"-", " "}
    assert [line.split()[-1] for line in plain[3:]] == [row[-1] for row in expected[2:]]


def test_the_targeted_tables_count_each_distance_by_hand(evaluation):
    """Accuracy by distance from the full config's own counts (correct / judged, distances 5 and
    up in one bucket), the mean over systems and the judged instances; then each config's accuracy
    beside its random-pair percentile."""
    result, _ = evaluation
    (by_distance, by_distance_table), (control_heading, control_table) = targeted_tables(result, markdown=True)
    source = "de-en.particle.d0"
    assert by_distance == f"de-en.particle: targeted accuracy (%) by distance d (from {source})"
    buckets = ["0", "1", "2", "3", "4", "5+"]
    correct = {s: dict.fromkeys(buckets, 0) for s in result.systems}
    judged = {s: dict.fromkeys(buckets, 0) for s in result.systems}
    for system in result.systems:
        for counts in result.configs[source].systems[system].targeted.by_distance:
            bucket = "5+" if counts.distance >= 5 else str(counts.distance)
            correct[system][bucket] += counts.correct
            judged[system][bucket] += counts.correct + counts.wrong
    expected = [["system", *(f"d={b}" for b in buckets)]]
    accuracies = {b: [] for b in buckets}
    for system in result.systems:
        row = [system]
        for b in buckets:
            if judged[system][b]:
                accuracies[b].append(correct[system][b] / judged[system][b])
                row.append(f"{100 * accuracies[b][-1]:.0f}")
            else:
                row.append("-")
        expected.append(row)
    expected.append(["mean", *(f"{100 * sum(a) / len(a):.0f}" if a else "-" for a in accuracies.values())])
    expected.append(["judged (mean)", *(f"{sum(judged[s][b] for s in result.systems) / 5:.0f}" for b in buckets)])
    assert _markdown_cells(by_distance_table) == expected
    assert expected[-1][5] == "0" and expected[-2][5] == "-"  # no line of the toy has distance 4
    assert control_heading.startswith("de-en.particle: targeted accuracy (%) per config [its percentile")
    particle = [name for name, c in result.configs.items() if c.phenomenon == "de-en.particle"]
    control = [["system", *(n + (" (degenerate baseline)" if result.configs[n].degenerate_baseline else "")
                            for n in particle)]]
    for system in result.systems:
        scores = [result.configs[n].systems[system].targeted for n in particle]
        control.append([system, *(f"{100 * t.accuracy:.0f} [{t.random_pairs.percentile:.0f}]" for t in scores)])
    means = [[result.configs[n].systems[s].targeted.random_pairs.mean for s in result.systems] for n in particle]
    control.append(["random pairs (mean)", *(f"{100 * sum(m) / len(m):.0f}" for m in means)])
    assert _markdown_cells(control_table) == control
    plain = targeted_tables(result)
    assert [heading for heading, _ in plain] == [by_distance, control_heading]
    assert all("|" not in table and table.splitlines()[0].split()[0] == "system" for _, table in plain)


def test_the_targeted_human_table_skips_configs_without_targeted_accuracy_wherever_they_are(evaluation):
    """A reorder config listed first is skipped, not the end of the table; a config whose metric
    has no correlation shows dashes in the metric's columns and still its targeted τ."""
    from dataclasses import replace

    result, _ = evaluation
    configs = dict(result.configs)
    first = {"de-en.reorder.d5": configs.pop("de-en.reorder.d5")}
    configs["de-en.particle.d2"] = replace(configs["de-en.particle.d2"],
                                           human={**configs["de-en.particle.d2"].human, "bleu": None})
    rows = _markdown_cells(targeted_human_table(replace(result, configs={**first, **configs}), markdown=True))
    assert [row[0].split(" (")[0] for row in rows[2:]] == [c for c in configs if configs[c].human_targeted is not None]
    d2 = next(row for row in rows if row[0] == "de-en.particle.d2")
    targeted = configs["de-en.particle.d2"].human_targeted
    assert d2[1:5] == ["-", "-", "-", f"{targeted.kendall:.3f}"]
