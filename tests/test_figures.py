"""Every figure written once (evaluation/report/figures.py): the .svg files report.md links are the SVG
index.html holds, byte for byte the same for the same result, whatever the order of its configs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from auto_challenge_sets.evaluation.report import figures
from auto_challenge_sets.evaluation.report.report_writer import write_report
from tests import toy_dataset

from mutation_scope import per_test_under_mutmut

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope=per_test_under_mutmut)
def run(tmp_path_factory):
    return toy_dataset.evaluated(tmp_path_factory.mktemp("figures"))


def test_the_same_result_gives_the_same_bytes_whatever_its_order(run, tmp_path):
    _, _, evaluation, human = run
    shuffled = replace(evaluation, configs=dict(reversed(evaluation.configs.items())))
    first = write_report(tmp_path / "a", evaluation)  # the result carries its human scores
    again = write_report(tmp_path / "b", shuffled)
    files = [p for p in first if p.suffix == ".svg"]
    assert len(files) >= 4 and [p.name for p in files] == [p.name for p in again if p.suffix == ".svg"]
    for path in files:
        assert path.read_bytes() == (tmp_path / "b" / path.name).read_bytes(), path.name


def test_each_kind_is_drawn_and_named_for_its_file(run):
    _, _, evaluation, human = run
    drawn = figures.draw(evaluation, human.scores)
    kinds = figures.by_kind(drawn)
    assert list(kinds) == ["heatmap", "trend", "human", "targeted"] and all(kinds.values())
    assert [f.file for f in kinds["heatmap"]] == [f"de-en.{m}.heatmap.svg" for m in evaluation.metrics]
    assert kinds["targeted"][0].file == "de-en.targeted.svg"
    for figure in drawn:  # a document on its own: the SVG namespace, its style, its title first
        svg = ET.fromstring(str(figure.svg))
        assert svg.tag == f"{SVG}svg" and svg[0].tag == f"{SVG}title" and svg[0].text == figure.title
        assert svg.find(f"{SVG}style") is not None and f"chart-{figure.kind}" in svg.get("class")
        captions = [t for t in svg.iter(f"{SVG}text") if t.get("class") == "caption"]  # what the page's figcaption says
        assert [t.text for t in captions] == [figure.title] and float(captions[0].get("y")) < float(svg.get("height"))


def test_without_human_scores_there_is_no_scatter(run):
    _, _, evaluation, _ = run
    assert figures.by_kind(figures.draw(evaluation))["human"] == []
