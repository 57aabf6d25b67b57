"""The one report (evaluation/report/report.py, figures.py): tables, report.md with its legend, results.json
and the plots, for whatever metrics the run has; on the hand-made toy folder."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from auto_challenge_sets.evaluation.report.report_writer import text_report, write_report
from auto_challenge_sets.evaluation.report.sections.challenge_section import config_heading, config_table
from auto_challenge_sets.evaluation.report.sections.findings_section import text as findings_text
from auto_challenge_sets.evaluation.report.sections.human_section import human_table
from auto_challenge_sets.evaluation.report.sections.targeted_section import (
    targeted_human_table,
    targeted_tables,
)
from auto_challenge_sets.evaluation.report.sections.trends_section import summary_table
from auto_challenge_sets.evaluation.stats.power import delta_power

from mutation_scope import per_test_under_mutmut
from toy_dataset import evaluated

SVG = "{http://www.w3.org/2000/svg}"


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
    n = result.configs["de-en.particle.d5"].n
    assert f"de-en.particle.d5 (n = {n}) [small; same rows as de-en.particle.d4]" in text


def test_a_triangle_marks_worse_than_the_random_band_in_each_direction(evaluation):
    result, _ = evaluation
    for config, entry in result.configs.items():
        table = config_table(result, config).splitlines()[2:]
        for line in table:  # the rows run by score
            cells = line.split()
            system = cells[0]
            scores = entry.systems[system]
            bleu, ter = scores.scores["bleu"], scores.scores["ter"]
            offset = 2 if system == result.baseline_system else 1  # "(baseline)" is a cell of its own
            meaningful = not entry.degenerate_baseline  # no mark where the random band means nothing
            assert cells[offset].endswith("▼") == (meaningful and bleu.score < bleu.random.p5), (config, system)
            assert cells[offset + 3].endswith("▼") == (meaningful and ter.score > ter.random.p95), (config, system)


def test_the_summary_table_prints_the_shares(evaluation):
    result, _ = evaluation
    table = summary_table(result, "ter")
    summary = result.summary["ter"]["de-en.particle"]
    row = next(line for line in table.splitlines() if line.startswith("de-en.particle"))
    assert f"{summary.worse_than_random_p5:.0%}" in row
    # d0 to d3 usable: a trend per system whose scores vary
    assert f" {summary.worsening_trend}/{summary.trends} (" in row and summary.trends >= 4


def test_the_folder_holds_results_report_and_readable_plots(evaluation, tmp_path):
    result, human = evaluation
    written = write_report(tmp_path, result)
    assert written[0].name == "results.json" and written[1].name == "report.md"
    assert json.loads(written[0].read_text(encoding="utf-8")) == json.loads(json.dumps(result.to_json()))
    report = written[1].read_text(encoding="utf-8")
    tables = {m: (tmp_path / f"tables.{m}.md").read_text(encoding="utf-8") for m in result.metrics}
    for explained in ("*small*", "*random τ pct*", "*< random p5*"):
        assert explained in report
    for explained in ("▼ after a score", "`*`\n  after it: p < 0.05", "*random* / *p5*", "*Δ (p)*"):  # the tables' columns
        assert all(explained in text for text in tables.values())
    figures = [p for p in written[2:] if p.suffix == ".svg"]
    for figure in figures:  # a metric's figures in its tables file, the run's own in report.md
        metric = next((m for m in result.metrics if f".{m}." in figure.name), None)
        assert f"]({figure.name})" in (tables[metric] if metric else report)
        svg = ET.parse(figure).getroot()  # well-formed on its own, styled on its own, with a white ground
        assert svg.tag == f"{SVG}svg" and svg.find(f"{SVG}style") is not None, figure
        assert float(svg.get("width")) > 250 and float(svg.get("height")) > 200, figure  # the heat map: 5 rows, short labels
        assert sum(e.tag.rsplit("}", 1)[1] in {"circle", "polyline"} for e in svg.iter()) + sum(
            e.get("class") == "cell" for e in svg.iter()) > 3, figure  # points, lines or cells drawn
    names = {p.name for p in written[2:]}
    assert {"de-en.bleu.heatmap.svg", "de-en.ter.heatmap.svg", "de-en.ribes.human.svg", "de-en.targeted.svg",
            "de-en.particle.ter.trend.svg"} <= names
    scatter = ET.parse(tmp_path / "de-en.bleu.human.svg").getroot()
    assert 0.3 < float(scatter.get("height")) / float(scatter.get("width")) < 1.5  # a readable aspect, not a strip


def _markdown_cells(table: str) -> list[list[str]]:
    lines = table.splitlines()
    assert lines[1].startswith("|---|---:|")
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in [lines[0], *lines[2:]]]


def _corrected(p: float | None, exploratory: bool | None) -> str:
    return ("-" if p is None else f"{p:.3f}") + (" (exploratory)" if exploratory else "")


# the toy's configs with their marks, written by hand (toy_dataset.py: d4 has 12 rows, d5 the rows
# of d4, reorder.d5 12 rows)
LABELS = {"de-en.particle.d0": "de-en.particle.d0", "de-en.particle.d1": "de-en.particle.d1",
          "de-en.particle.d2": "de-en.particle.d2", "de-en.particle.d3": "de-en.particle.d3",
          "de-en.particle.d4": "de-en.particle.d4 (small)",
          "de-en.particle.d5": "de-en.particle.d5 (small, same rows as de-en.particle.d4)",
          "de-en.reorder.d5": "de-en.reorder.d5 (small)"}


def _versus(test) -> list[str]:
    ci = f" [{test.ci[0]:+.2f}, {test.ci[1]:+.2f}]"
    return [f"{test.delta:+.3f}{ci}", f"{test.p_value:.3f}", _corrected(test.p_corrected, test.exploratory)]


def test_the_targeted_human_table_puts_each_tau_in_its_column(evaluation):
    """Every cell of the targeted-vs-human table, from the Evaluation's numbers (which
    test_engine.py checks against scipy): the first metric's τ beside targeted accuracy's."""
    result, _ = evaluation
    full = result.human_full["bleu"]
    bleu_family = sum(not c.small and c.same_rows_as is None for c in result.configs.values())
    targeted_family = sum(not c.small and c.same_rows_as is None and c.human_targeted is not None
                          for c in result.configs.values())
    assert (bleu_family, targeted_family) == (4, 4)  # d0..d3: d4, d5 and reorder.d5 are small
    expected = [["config", "BLEU τ", "BLEU p", f"BLEU p (BH, {bleu_family} tests)", "targeted τ", "targeted p",
                 f"targeted p (BH, {targeted_family} tests)", "systems", "τ pct (random pairs)",
                 "Δ targeted τ vs full BLEU [95% CI]", "p", f"p (BH, {targeted_family} tests)"],
                ["(full test set)", f"{full.kendall:.3f}", f"{full.p_value:.3f}", "-", "-", "-", "-", str(full.systems),
                 "-", "-", "-", "-"]]
    for name, config in result.configs.items():
        targeted, auto = config.human_targeted, config.human["bleu"]
        if targeted is None:
            continue
        expected.append([LABELS[name], f"{auto.kendall:.3f}", f"{auto.p_value:.3f}", _corrected(auto.p_corrected, auto.exploratory),
                         f"{targeted.kendall:.3f}", f"{targeted.p_value:.3f}",
                         _corrected(targeted.p_corrected, targeted.exploratory), str(targeted.systems),
                         f"{targeted.random_kendall_percentile:.0f}", *_versus(targeted.vs_full_test)])
    assert _markdown_cells(targeted_human_table(result, markdown=True)) == expected
    assert len(expected) == 2 + 6  # header, full corpus, particle d0..d5; reorder.d5 has no targeted accuracy
    plain = targeted_human_table(result).splitlines()
    assert plain[0].split()[:3] == ["config", "BLEU", "τ"] and set(plain[1]) <= {"-", " "}
    assert [line.split()[-1] for line in plain[3:]] == [row[-1].split()[-1] for row in expected[2:]]


def test_the_targeted_tables_count_each_distance_by_hand(evaluation):
    """Accuracy by distance from the full config's own counts (correct / judged, distances 5 and
    up in one bucket), the mean over systems and the judged instances; then each config's accuracy
    beside its random-pair percentile."""
    result, _ = evaluation
    (by_distance, by_distance_table), (control_heading, control_table) = targeted_tables(result, markdown=True)
    source = "de-en.particle.d0"
    assert by_distance == f"de-en.particle: targeted accuracy (%) by distance d (from {LABELS[source]})"
    buckets = ["0", "1", "2", "3", "4", "5+"]
    first = result.metrics[0]
    assert result.higher_is_better[first]
    ranked = sorted(result.systems, key=lambda s: (-result.full[s][first], s))  # best first on the full corpus
    assert ranked != sorted(result.systems)  # the toy's ranking is not its alphabetical order
    correct = {s: dict.fromkeys(buckets, 0) for s in result.systems}
    judged = {s: dict.fromkeys(buckets, 0) for s in result.systems}
    for system in result.systems:
        for counts in result.configs[source].systems[system].targeted.by_distance:
            bucket = "5+" if counts.distance >= 5 else str(counts.distance)
            correct[system][bucket] += counts.correct
            judged[system][bucket] += counts.correct + counts.wrong
    expected = [["system", *(f"d={b}" for b in buckets)]]
    accuracies = {b: [] for b in buckets}
    for system in ranked:
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
    assert control_heading == ("de-en.particle: targeted accuracy (%) per config [its percentile among random word "
                               "pairs at the same distances in the same sentences, matched on part of speech where "
                               "the sentence allows]")
    particle = [name for name, c in result.configs.items() if c.phenomenon == "de-en.particle"]
    control = [["system", *(LABELS[n] for n in particle)]]
    for system in ranked:
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


# every cell of the other tables and the whole of both reports

METRICS = (("bleu", "BLEU", 2, True), ("ter", "TER", 2, False), ("ribes", "RIBES", 4, True))
CONFIGS = ["de-en.particle.d0", "de-en.particle.d1", "de-en.particle.d2", "de-en.particle.d3", "de-en.particle.d4",
           "de-en.particle.d5", "de-en.reorder.d5"]  # in config_sort_key's order


def _plain_cells(table: str) -> list[list[str]]:
    """A plain table's cells: columns are two or more spaces apart (no cell of ours holds two)."""
    import re

    lines = table.splitlines()
    assert set(lines[1]) <= {"-", " "} and lines[1].startswith("---")
    return [re.split(r" {2,}", line.strip()) for line in [lines[0], *lines[2:]]]


def _markdown_table(cells: list[list[str]], left: int = 1) -> str:
    header, *rows = cells
    return "\n".join(["| " + " | ".join(header) + " |",
                      "|" + "".join("---|" if i < left else "---:|" for i in range(len(header))),
                      *("| " + " | ".join(row) + " |" for row in rows)])


def _full_cells(result) -> list[list[str]]:
    return [["system", "BLEU", "TER", "RIBES"],
            *([s, *(f"{result.full[s][m]:.{d}f}" for m, _, d, _ in METRICS)]
              for s in sorted(result.systems, key=lambda s: (-result.full[s]["bleu"], s)))]


def test_the_config_table_shows_every_cell(evaluation):
    """Each system's score (▼ outside the random band, in the metric's own direction), its random
    mean and p5 with the metric's digits (dashes on a degenerate baseline), and the signed
    difference and p of the paired test as sacrebleu prints them (4 decimals, * where p < 0.05)."""
    result, _ = evaluation
    stars, significant = dict.fromkeys(("bleu", "ter", "ribes"), 0), 0
    for name in CONFIGS:
        expected = [["system", "BLEU", "random", "p5", "TER", "random", "p5", "RIBES", "random", "p5",
                     "ΔBLEU (p)", "ΔTER (p)", "ΔRIBES (p)"]]
        systems = result.configs[name].systems  # best first by the first metric (BLEU), ties by name
        for system, scores in sorted(systems.items(), key=lambda item: (-item[1].scores["bleu"].score, item[0])):
            row = [system + (" (baseline)" if system == "ref" else "")]
            for metric, _, digits, higher in METRICS:
                score = scores.scores[metric]
                worse = score.score < score.random.p5 if higher else score.score > score.random.p95
                degenerate = result.configs[name].degenerate_baseline  # its band means nothing
                stars[metric] += worse and not degenerate
                row += [f"{score.score:.{digits}f}" + ("▼" if worse and not degenerate else ""),
                        *(["-", "-"] if degenerate else [f"{score.random.mean:.{digits}f}", f"{score.random.p5:.{digits}f}"])]
            for metric, _, digits, _ in METRICS:
                test = scores.scores[metric].vs_baseline
                assert (test is None) == (system == "ref")
                row.append("-" if test is None else f"{test.delta:+.{digits}f} ({test.p_value:.4f})"
                           + ("*" if test.p_value < 0.05 else ""))
                significant += test is not None and test.p_value < 0.05
            expected.append(row)
        assert expected[1][0] == "ref (baseline)" and len(expected) == 6
        assert _markdown_cells(config_table(result, name, markdown=True)) == expected, name
        assert _plain_cells(config_table(result, name)) == expected, name
    assert all(stars.values()) and significant, stars  # each metric marks some cell of the toy
    other = replace(result, baseline_system="good")
    assert [row[0] for row in _plain_cells(config_table(other, "de-en.particle.d2"))[1:]] == [
        "ref", "better", "good (baseline)", "lower", "worse"]


def test_config_headings_name_every_flag(evaluation):
    result, _ = evaluation
    flags = {"de-en.particle.d0": "", "de-en.particle.d1": "",
             "de-en.particle.d2": "", "de-en.particle.d3": "", "de-en.particle.d4": " [small]",
             "de-en.particle.d5": " [small; same rows as de-en.particle.d4]", "de-en.reorder.d5": " [small]"}
    for name, flag in flags.items():
        assert config_heading(result, name) == f"{name} (n = {result.configs[name].n}){flag}"
    everything = replace(result, settings=replace(result.settings, min_rows=33), configs={
        "de-en.particle.d3": replace(result.configs["de-en.particle.d3"], n=7, small=True, same_rows_as="de-en.x.d1",
                                     degenerate_baseline=True, widened=4)})
    assert config_heading(everything, "de-en.particle.d3") == (
        "de-en.particle.d3 (n = 7) [small; degenerate baseline; same rows as de-en.x.d1; widened 4]")
    d3 = result.configs["de-en.particle.d3"]
    widened = replace(result, configs={"de-en.particle.d3": replace(d3, widened=1)})
    assert config_heading(widened, "de-en.particle.d3") == f"de-en.particle.d3 (n = {d3.n}) [widened 1]"


def _with_trends(result):
    """Worsening trends in the summary: for BLEU (higher is better) a falling ρ worsens, for TER a
    rising one; BH survival is p_corrected < 0.05."""
    from auto_challenge_sets.evaluation.results import Trend

    trends = {"ref": Trend(n=4, spearman=-0.9, p_value=0.01, p_corrected=0.02, family_size=4),
              "better": Trend(n=4, spearman=-0.8, p_value=0.03, p_corrected=0.04, family_size=4),
              "good": Trend(n=4, spearman=0.9, p_value=0.01, p_corrected=0.01, family_size=4),
              "lower": Trend(n=4, spearman=-0.5, p_value=0.3, p_corrected=0.3, family_size=4),
              "worse": Trend(n=4, spearman=None, p_value=None, p_corrected=None)}
    summary = {m: {p: replace(s, worsening_trend={"bleu": 3, "ter": 1, "ribes": 0}[m], trends=4)
                   for p, s in per.items()} for m, per in result.summary.items()}
    every = {m: {"de-en.particle": trends} for m in result.metrics}
    return replace(result, summary=summary, trends=every)


def test_the_summary_table_shows_every_cell(evaluation):
    result, _ = evaluation
    for metric, _label, digits, _ in METRICS:
        s = result.summary[metric]["de-en.particle"]
        expected = [["phenomenon", "cells", "< full", "< random mean", "< random p5", "Δ random", "worsening trend"],
                    ["de-en.particle", "20", f"{s.worse_than_full:.0%}", f"{s.worse_than_random_mean:.0%}",
                     f"{s.worse_than_random_p5:.0%}", f"{s.mean_delta_random:+.{digits}f}"]]  # d0 to d3, 5 systems
        assert list(result.summary[metric]) == ["de-en.particle"] and s.cells == 20
        for cells in (_markdown_cells(summary_table(result, metric, markdown=True)),
                      _plain_cells(summary_table(result, metric))):
            assert [cells[0], cells[1][:-1]] == expected and cells[1][-1].startswith(f"{s.worsening_trend}/{s.trends} (")
    trending = _with_trends(result)
    assert _plain_cells(summary_table(trending, "bleu"))[1][-1] == "3/4 (2 BH < 0.05 of 4 trends)"  # ref, better
    assert _markdown_cells(summary_table(trending, "ter", markdown=True))[1][-1] == "1/4 (1 BH < 0.05 of 4 trends)"
    assert _plain_cells(summary_table(trending, "ribes"))[1][-1] == "0/4 (2 BH < 0.05 of 4 trends)"


def _human_row(label: str, n: int, h, percentile: bool = True) -> list[str]:
    """``percentile``: False on a degenerate baseline, whose random τ percentile is a dash."""
    return [label, str(n), str(h.systems), f"{h.spearman:.3f}", f"{h.kendall:.3f}", f"{h.p_value:.3f}",
            _corrected(h.p_corrected, h.exploratory), f"[{h.ci[0]:.2f}, {h.ci[1]:.2f}]",
            "-" if h.random_kendall_percentile is None or not percentile else f"{h.random_kendall_percentile:.0f}",
            *(["-", "-", "-"] if h.vs_full_test is None else _versus(h.vs_full_test))]


HUMAN_HEADER = ["config", "n", "systems", "Spearman", "Kendall", "p", "p (BH, 4 tests)", "95% CI", "random τ pct",
                "Δτ vs full BLEU [95% CI]", "p", "p (BH, 4 tests)"]


def test_the_human_table_shows_every_cell(evaluation):
    result, _ = evaluation
    for metric, _, _, _ in METRICS:
        full = result.human_full[metric]
        expected = [HUMAN_HEADER, _human_row("(full test set)", 90, full)]
        assert expected[1][6] == "-" and expected[1][8] == "-"
        for name, config in result.configs.items():
            expected.append(_human_row(LABELS[name], config.n, config.human[metric], not config.degenerate_baseline))
        assert len(expected) == 2 + 7
        assert _markdown_cells(human_table(result, metric, markdown=True)) == expected
        assert _plain_cells(human_table(result, metric)) == expected
    assert _plain_cells(human_table(result, "bleu"))[3][6] == "0.083 (exploratory)"


def test_the_human_table_leaves_out_what_is_missing(evaluation):
    """No full-corpus row without a full-corpus correlation; a config without one is skipped
    wherever it is; a missing interval is a dash; another full corpus is named."""
    result, _ = evaluation
    configs = dict(result.configs)
    d1 = configs["de-en.particle.d1"]
    configs["de-en.particle.d0"] = replace(configs["de-en.particle.d0"], human=None)
    configs["de-en.particle.d1"] = replace(d1, human={**d1.human, "ter": None})
    d2 = configs["de-en.particle.d2"]
    configs["de-en.particle.d2"] = replace(d2, human={"ter": replace(d2.human["ter"], ci=None)})
    other = replace(result, configs=configs, human_full={"bleu": result.human_full["bleu"], "ter": None})
    ter = _markdown_cells(human_table(other, "ter", markdown=True))
    assert [row[0] for row in ter] == ["config", *(LABELS[n] for n in ("de-en.particle.d2", "de-en.particle.d3",
                                                                        "de-en.particle.d4", "de-en.particle.d5",
                                                                        "de-en.reorder.d5"))]
    assert ter[0][6] == "p (BH, 4 tests)"
    assert ter[1][7] == "-" and ter[1][:7] == _human_row("de-en.particle.d2", 39, d2.human["ter"])[:7]
    bleu = _plain_cells(human_table(other, "bleu"))
    assert [row[0] for row in bleu[:3]] == ["config", "(full test set)", "de-en.particle.d1"]
    no_full = _plain_cells(human_table(replace(other, human_full=None), "bleu"))
    assert no_full[1][0] == "de-en.particle.d1"
    named = replace(result, full_corpus_config="de-en.particle.d2", full_corpus_rows=39)
    assert _markdown_cells(human_table(named, "ribes", markdown=True))[1][:2] == ["(full corpus: de-en.particle.d2)", "39"]


def test_the_full_corpus_label():
    from types import SimpleNamespace

    from auto_challenge_sets.evaluation.report.sections.full_test_section import full_corpus_label

    assert full_corpus_label(SimpleNamespace(pair="de-en", full_corpus_config="de-en.baseline")) == "full test set"
    assert full_corpus_label(SimpleNamespace(pair="fr-en", full_corpus_config="de-en.baseline")) == (
        "full corpus: de-en.baseline")
    assert full_corpus_label(SimpleNamespace(pair="de-en", full_corpus_config="de-en.particle.d0")) == (
        "full corpus: de-en.particle.d0")


def test_a_metric_has_human_rows_from_the_full_corpus_or_any_config(evaluation):
    from auto_challenge_sets.evaluation.report.sections.human_section import human_rows as has_human

    result, _ = evaluation
    none = {name: replace(c, human=None) for name, c in result.configs.items()}
    assert has_human(result, "ter")
    assert not has_human(replace(result, human_full=None, configs=none), "ter")
    assert has_human(replace(result, human_full={"ter": result.human_full["ter"]}, configs=none), "ter")
    assert not has_human(replace(result, human_full={"ter": None, "bleu": result.human_full["bleu"]}, configs=none),
                          "ter")
    last = {**none, "de-en.reorder.d5": result.configs["de-en.reorder.d5"]}
    assert has_human(replace(result, human_full=None, configs=last), "ribes")
    one = {**none, "de-en.reorder.d5": replace(result.configs["de-en.reorder.d5"], human={"bleu": None, "ribes": None})}
    assert not has_human(replace(result, human_full=None, configs=one), "ribes")


# 5 systems: only τ = 1 (p = 2/120) reaches p < 0.05, and BH over 4 configs needs p < 0.05/4 alone
POWER_5_OF_4 = ("Power: with 5 systems, a τ of 1.00 is needed for p < 0.05; no τ is enough to survive Benjamini–Hochberg "
                "over 4 configs alone (exact null distribution of Kendall's τ, no ties).")  # every family: d0..d3


def _power(result, metric: str | None) -> str:
    """POWER_5_OF_4 and the Δτ the family's intervals of ``metric`` (None: targeted accuracy) detect."""
    found = [c.human_targeted if metric is None else (c.human or {}).get(metric) for c in result.configs.values()]
    tests = [f.vs_full_test for f in found if f is not None and f.vs_full_test is not None]
    power = delta_power([t.ci for t in tests if t.ci and t.family_size], 5)
    return POWER_5_OF_4 + ("" if power is None else " " + power.note())


def _body(result) -> str:
    """The text report after its findings block (test_findings reads that block)."""
    return text_report(result).removeprefix("\n".join(findings_text(result)) + "\n")


def test_the_targeted_section_in_both_forms(evaluation):
    from auto_challenge_sets.evaluation.report.sections.targeted_section import text as targeted_section

    result, _ = evaluation
    tables = targeted_tables(result, markdown=True)
    assert len(tables) == 2
    signature = f"alignment: {result.targeted.aligner}; signature: {result.targeted.signature}"
    # what the measure is, its judge unmeasured (no --judge-ref), its control unmatched (no source_upos)
    label = ("targeted accuracy is a diagnostic of reference-word recall, not a ranking measure: it credits the "
             "words of the dataset's reference, and a correct translation in other words fails; this judge is "
             "unmeasured (no second human translation (--judge-ref): the judge's pass rate on one is unknown)")
    control = ("random-pair control: not matched on part of speech (the dataset has no source_upos column; rebuild "
               "it with this acs to match)")
    assert targeted_section(result, markdown=True) == [
        "## Targeted accuracy", "", signature.replace("signature: ", "signature: `") + "`", "", label, "", control, "",
        f"### {tables[0][0]}", "", tables[0][1], "", f"### {tables[1][0]}", "", tables[1][1], "",
        "### Correlation with human scores", "", targeted_human_table(result, markdown=True), "", _power(result, None), ""]
    plain = targeted_tables(result)
    assert targeted_section(result) == [
        "targeted accuracy", "", signature, "", label, "", control, "", plain[0][0], "", plain[0][1], "", plain[1][0], "",
        plain[1][1], "", "correlation with human scores (Kendall τ)", "", targeted_human_table(result), "", _power(result, None), ""]
    assert signature.startswith("alignment: present (") and "; signature: targeted:present|" in signature
    assert targeted_section(replace(result, human_full=None)) == targeted_section(result)[:16]
    assert targeted_section(replace(result, targeted=None), markdown=True) == []
    assert targeted_section(replace(result, targeted=None)) == []


def test_the_text_report_whole(evaluation):
    """Every line of the printed report, configs in config_sort_key's order whatever the run's
    order; each table as its own test above checks it."""
    from auto_challenge_sets.evaluation.report.sections.full_test_section import full_test_section
    from auto_challenge_sets.evaluation.report.sections.targeted_section import text as targeted_section

    result, _ = evaluation
    shuffled = replace(result, configs={name: result.configs[name] for name in reversed(CONFIGS)})
    full = _plain_cells(_body(shuffled).split("\n\n")[1].split("\n", 1)[1])
    assert full == _full_cells(result)
    # the toy folder has no build record: the sets' provenance says so in one line
    assert result.provenance.summary == ("provenance not recorded (the folder's acs_build.json has no build of "
                                         "de-en, split toytest)")
    lines = [f"signature: {result.signature}", "baseline system: ref", f"sets made by: {result.provenance.summary}",
             "", "full corpus",
             _body(shuffled).split("\n\n")[1].split("\n", 1)[1], "", *full_test_section(shuffled)]
    assert full_test_section(shuffled)[0] == "full test set: ranking and significance clusters"
    lines += ["▼ after a score: worse than the random band; * after a p: p < 0.05 against the baseline system "
              "(sacrebleu's paired test)", ""]
    for name in CONFIGS:
        lines += [config_heading(result, name), config_table(result, name), ""]
    for _, label, _, _ in METRICS:
        lines += [f"summary, {label} (distinct configs with enough rows; ▼ in the tables: worse than the random 5th "
                  "percentile)", summary_table(result, label.lower()), ""]
    for _, label, _, _ in METRICS:
        lines += [f"correlation with human scores, {label}", human_table(shuffled, label.lower()), "",
                  _power(result, label.lower()), ""]
    lines += targeted_section(shuffled)
    assert text_report(shuffled) == "\n".join([*findings_text(shuffled), *lines]).rstrip("\n")
    assert text_report(shuffled).endswith(_power(result, None))  # no trailing newline
    # another full corpus is named; without human scores or targeted accuracy their sections go
    bare = replace(result, full_corpus_config="de-en.particle.d0", human_full=None, targeted=None,
                   configs={name: replace(result.configs[name], human=None) for name in CONFIGS})
    text = _body(bare)
    assert text.split("\n")[4] == "full corpus: de-en.particle.d0"
    assert "sets made by" not in text_report(replace(bare, provenance=None))  # a result made without a folder
    assert "correlation with human scores" not in text and "targeted accuracy" not in text
    assert text.endswith(summary_table(result, "ribes"))
    only_ter = replace(bare, human_full={"ter": result.human_full["ter"]})
    assert _body(only_ter) == (text + "\n\ncorrelation with human scores, TER\n" + human_table(only_ter, "ter")
                                     + "\n\n" + POWER_5_OF_4.split(";")[0] + " (exact null distribution of Kendall's "
                                     "τ, no ties).")  # the full test set alone: no family to correct
    assert _headings_in_order(text_report(_with_d10(result))) == [*CONFIGS[:2], *D10_ORDER]


D10_ORDER = ["de-en.particle.d2", "de-en.particle.d10", "de-en.reorder.d5"]  # D as a number, not as text


def _with_d10(result):
    configs = result.configs
    return replace(result, configs={"de-en.reorder.d5": configs["de-en.reorder.d5"],
                                    "de-en.particle.d10": configs["de-en.particle.d5"],
                                    "de-en.particle.d2": configs["de-en.particle.d2"],
                                    "de-en.particle.d1": configs["de-en.particle.d1"],
                                    "de-en.particle.d0": configs["de-en.particle.d0"]})


def _headings_in_order(text: str) -> list[str]:
    return [line.lstrip("# ").split(" (n = ")[0] for line in text.splitlines() if " (n = " in line]


def test_the_markdown_report_whole(evaluation, tmp_path):
    """report.md whole, its per-config tables (scores and human correlations) moved to one file per
    metric, linked from its appendix."""
    from auto_challenge_sets.evaluation.report.name_text import markdown_text
    from auto_challenge_sets.evaluation.report.plots import SvgPlot
    from auto_challenge_sets.evaluation.report.report_writer import LEGEND, markdown_report
    from auto_challenge_sets.evaluation.report.sections.challenge_section import TABLE_LEGEND, write_tables
    from auto_challenge_sets.evaluation.report.sections.full_test_section import full_test_section
    from auto_challenge_sets.evaluation.report.sections.targeted_section import text as targeted_section

    result, _ = evaluation
    shuffled = replace(result, configs={name: result.configs[name] for name in reversed(CONFIGS)},
                       notes=("first note", "Δ second note"))
    plots = [SvgPlot("heatmap-bleu", "", "", "heatmap", 1, 1, file="de-en.bleu.heatmap.svg", metric="bleu"),
             SvgPlot("targeted-plot", "", "", "targeted", 1, 1, file="de-en.targeted.svg")]
    lines = ["# LDD challenge sets: evaluation", "", *findings_text(shuffled, markdown=True), "## The run", "",
             f"- **signature**: `{result.signature}`",
             f"- **dataset / pair / split**: `{result.dataset}` / de-en / toytest (full corpus: de-en.baseline, 90 rows)",
             "- **systems**: ref, better, good, lower, worse (baseline of the paired tests: ref)",
             f"- **sets made by**: {markdown_text(result.provenance.summary)}", "- **note**: first note",
             "- **note**: Δ second note", "", "## How to read this report", "", LEGEND,
             "## Full corpus", "", _markdown_table(_full_cells(result)), "",
             *full_test_section(result, markdown=True, ranked=False)]
    for _, label, _, _ in METRICS:
        lines += [f"## Summary, {label}", "", summary_table(result, label.lower(), markdown=True), ""]
    for _, label, _, _ in METRICS:
        lines += [f"## Correlation with human scores, {label}", "", "Per config: in this metric's tables file (the appendix).",
                  "", _power(result, label.lower()), ""]
    lines += targeted_section(shuffled, markdown=True)
    lines += ["![de-en.targeted](de-en.targeted.svg)", "", "## Appendix: figures and tables per metric", "",
              "Each metric's figures, full-test ranking and per-config tables: [BLEU](tables.bleu.md), "
              "[TER](tables.ter.md), [RIBES](tables.ribes.md).", ""]  # the run's own figure; BLEU's is in its file
    assert markdown_report(shuffled, plots) == "\n".join(lines)
    tables = ["# BLEU: figures and tables per config", "", "The findings and summaries are in [report.md](report.md).",
              "", TABLE_LEGEND, "![de-en.bleu.heatmap](de-en.bleu.heatmap.svg)", "",
              *full_test_section(result, markdown=True, metrics=["bleu"]),
              "## Correlation with human scores, BLEU", "", human_table(shuffled, "bleu", markdown=True), ""]
    for name in CONFIGS:
        tables += [f"## {config_heading(result, name)}", "", config_table(result, name, True, ["bleu"]), ""]
    written = write_tables(shuffled, tmp_path, plots)
    assert written == [tmp_path / f"tables.{m}.md" for m in ("bleu", "ter", "ribes")]
    assert written[0].read_text(encoding="utf-8") == "\n".join(tables)
    assert "![" not in written[1].read_text(encoding="utf-8")  # TER has no figure here
    assert result.dataset and result.split == "toytest"
    bare = replace(result, human_full={"ribes": result.human_full["ribes"]}, targeted=None,
                   configs={name: replace(result.configs[name], human=None) for name in CONFIGS})
    report = markdown_report(bare, [])
    assert "## Correlation with human scores, RIBES" in report and "## Targeted accuracy" not in report
    assert "Correlation with human scores, BLEU" not in report and "Correlation with human scores, TER" not in report
    assert "- **note**" not in report and "\n\n\n## Appendix: " in report  # no plot lines
    d10 = write_tables(_with_d10(result), tmp_path, [])[0].read_text(encoding="utf-8")
    assert _headings_in_order(d10) == [*CONFIGS[:2], *D10_ORDER]


def test_the_folder_in_a_new_nested_directory(evaluation, tmp_path, capsys, monkeypatch):
    """write_report makes the parents; results.json is indented JSON with non-ASCII kept, and every
    file written is returned, results and report first; without human scores no human plot; no
    progress bar unless asked for, even on a terminal."""
    import sys

    result, _ = evaluation
    noted = replace(result, notes=("Δ note",), human_scores=None)  # the scatter plots need the result's
    out = tmp_path / "a" / "b"
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # as on a terminal: bars only when asked for
    written = write_report(out, noted)
    assert capsys.readouterr().err == ""
    assert written[:2] == [out / "results.json", out / "report.md"]
    text = (out / "results.json").read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(json.dumps(noted.to_json())), indent=2, ensure_ascii=False) + "\n"
    assert '\n  "notes": [\n    "Δ note"\n  ],' in text
    assert sorted(written) == sorted(p for p in out.rglob("*") if p.is_file()) and len(set(written)) == len(written)
    assert (out / "index.html") in written and not any(p.name.endswith(".human.svg") for p in written)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# LDD challenge sets: evaluation\n") and "- **note**: Δ note" in report
    linked = [line for name in ("report.md", "tables.bleu.md", "tables.ter.md", "tables.ribes.md")
              for line in (out / name).read_text(encoding="utf-8").splitlines() if line.startswith("![")]
    assert sorted(linked) == sorted(f"![{p.stem}]({p.name})" for p in written if p.suffix == ".svg")  # each once
    small = replace(result, metrics=("bleu",), targeted=None)
    write_report(tmp_path / "bar", small, progress=True)
    assert "plots per metric" in capsys.readouterr().err


def test_both_reports_end_their_sections_with_segment_agreement(evaluation):
    """With segment-level agreement, its tables close the text report and come before the plots in
    report.md, each titled by the metric's label (lower case in the text)."""
    from auto_challenge_sets.evaluation.report.report_writer import markdown_report
    from auto_challenge_sets.evaluation.report.sections.segments_section import segment_table
    from auto_challenge_sets.evaluation.results import SegmentAgreement

    result, _ = evaluation
    seg = replace(result, segment_full={"bleu": SegmentAgreement(segments=450, kendall=0.25, p_value=0.001)})
    tail = []
    for metric, label, _, _ in METRICS:
        tail += ["", f"segment-level agreement with human z, {label.lower()}", "", segment_table(seg, metric)]
    text = text_report(seg)
    assert text == text_report(result) + "\n" + "\n".join(tail)
    assert _plain_cells(segment_table(seg, "bleu")) == [["config", "pairs", "BLEU τ-b", "p", "p (BH)"],
                                                       ["(full test set)", "450", "0.250", "0.001", "-"]]
    section = []
    for metric, label, _, _ in METRICS:
        section += [f"## Segment-level agreement with human z, {label}", "", segment_table(seg, metric, True), ""]
    report, plain = markdown_report(seg, []), markdown_report(result, [])
    cut = plain.index("\n\n\n## Appendix: ") + 2  # the empty plot line, then the appendix
    assert report == plain[:cut] + "\n".join(section) + "\n" + plain[cut:]


def test_every_corrected_p_of_the_segment_table_stands_beside_its_raw_p(evaluation):
    """Targeted accuracy's correct − wrong difference and τ-b: each Benjamini–Hochberg p right after
    the raw p it corrects."""
    from auto_challenge_sets.evaluation.report.sections.segments_section import segment_table
    from auto_challenge_sets.evaluation.results import SegmentAgreement

    result, _ = evaluation
    found = SegmentAgreement(segments=40, kendall=0.2, p_value=0.03, correct=25, wrong=15, z_correct_minus_wrong=0.5,
                             ci=(0.1, 0.9), p_corrected=0.06, exploratory=True, family_size=2,
                             difference_p_value=0.012, difference_p_corrected=0.024, difference_exploratory=False,
                             difference_family_size=2)
    name = "de-en.particle.d2"
    seg = replace(result, configs={**result.configs, name: replace(result.configs[name], segment_targeted=found)})
    header, row = (line.split(" | ") for line in segment_table(seg, "bleu", markdown=True).splitlines()[::2][:2])
    assert header[-7:] == ["z correct − wrong", "95% CI", "p", "p (BH, 2 tests)", "targeted τ-b", "p",
                           "p (BH, 2 tests) |"]
    assert row[-7:] == ["+0.500", "[+0.100, +0.900]", "0.012", "0.024", "0.200", "0.03", "0.060 (exploratory) |"]


def test_the_random_pairs_table_shows_dashes_where_a_system_or_its_control_has_no_number(evaluation):
    """Hand-made gaps: a system without targeted accuracy, one without the control, one whose
    control has no percentile nor mean, a config whose controls all lack a mean, and a config of
    another phenomenon that belongs in its own table only."""
    from dataclasses import replace

    result, _ = evaluation
    configs = dict(result.configs)

    def with_targeted(name: str, changes: dict) -> None:
        systems = dict(configs[name].systems)
        for system, change in changes.items():
            systems[system] = replace(systems[system], targeted=change(systems[system].targeted))
        configs[name] = replace(configs[name], systems=systems)

    no_control = lambda t: replace(t, random_pairs=None)  # noqa: E731
    with_targeted("de-en.particle.d2", {"worse": lambda t: None, "good": no_control,
                                        "lower": lambda t: replace(t, random_pairs=replace(t.random_pairs,
                                                                                           percentile=None,
                                                                                           mean=None))})
    with_targeted("de-en.particle.d3", {s: no_control for s in ("better", "good", "lower", "worse")}
                  | {"ref": lambda t: replace(t, random_pairs=replace(t.random_pairs, mean=None))})
    with_targeted("de-en.particle.d4", {s: no_control for s in result.systems})
    configs["de-en.reflexive.d2"] = replace(configs["de-en.particle.d5"], phenomenon="de-en.reflexive")  # not here
    changed = replace(result, configs=configs)
    tables = dict(targeted_tables(changed, markdown=True))
    table = _markdown_cells(tables["de-en.particle: targeted accuracy (%) per config [its percentile among random "
                                   "word pairs at the same distances in the same sentences, matched on part of "
                                   "speech where the sentence allows]"])
    assert [c.split(" (")[0] for c in table[0][1:]] == [f"de-en.particle.d{d}" for d in (0, 1, 2, 3, 5)]
    d2, d3 = table[0].index("de-en.particle.d2"), table[0].index("de-en.particle.d3")
    rows = {row[0]: row for row in table[1:]}
    accuracy = {s: configs["de-en.particle.d2"].systems[s].targeted for s in ("good", "lower", "better")}
    assert rows["worse"][d2] == "-"
    assert rows["good"][d2] == f"{100 * accuracy['good'].accuracy:.0f}"
    assert rows["lower"][d2] == f"{100 * accuracy['lower'].accuracy:.0f}"
    assert rows["better"][d2] == (f"{100 * accuracy['better'].accuracy:.0f} "
                                  f"[{accuracy['better'].random_pairs.percentile:.0f}]")
    means = [configs["de-en.particle.d2"].systems[s].targeted.random_pairs.mean for s in ("ref", "better")]
    assert rows["random pairs (mean)"][d2] == f"{100 * sum(means) / 2:.0f}"
    assert rows["random pairs (mean)"][d3] == "-" and rows["good"][d3] == (
        f"{100 * configs['de-en.particle.d3'].systems['good'].targeted.accuracy:.0f}")


def test_every_module_of_sections_is_a_section_of_the_report():
    """The text, report.md, the page and the figures read SECTIONS: a module added to sections/
    and left out of it would be in no report; each section keeps the protocol."""
    import pkgutil

    from auto_challenge_sets.evaluation.report import sections

    listed = {section.__name__.rpartition(".")[2] for section in sections.SECTIONS}
    assert {module.name for module in pkgutil.iter_modules(sections.__path__)} == listed
    for section in sections.SECTIONS:
        assert callable(section.text) and callable(section.page)
        assert hasattr(section, "figures") == hasattr(section, "KIND") == hasattr(section, "FILE")
