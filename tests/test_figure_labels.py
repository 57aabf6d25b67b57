"""No text of a figure over another, none outside its frame (issue 48 item 5), measured on the SVG
as written: each <text> a box of :func:`.plots.text_width` by its font size, turned with its
rotation; on a crowded toy (14 systems, close scores, long names) and on the WMT21 study."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from auto_challenge_sets.evaluation.report import figures, plots
from tests import toy_dataset

SVG = "{http://www.w3.org/2000/svg}"
# the font sizes charts.css gives a text by its class or its group's (11 px otherwise)
FONT_PX = {"point": 9, "series": 10, "legend": 10, "count": 9, "few": 9, "below-band": 10}
Box = list[tuple[float, float]]  # its four corners


def font_px(classes: list[str]) -> float:
    return next((FONT_PX[c] for c in reversed(classes) if c in FONT_PX), 11)


def text_box(text: ET.Element, classes: list[str]) -> Box:
    """The corners of a <text>'s box: its estimated width, one font size tall around its baseline."""
    px, content = font_px(classes), "".join(text.itertext())
    width = plots.text_width(content, px)
    start = {"middle": -width / 2, "end": -width}.get(text.get("text-anchor", "start"), 0.0)
    top = {"middle": -px / 2, "central": -px / 2, "hanging": 0.0}.get(text.get("dominant-baseline", ""), -0.8 * px)
    x, y, angle = float(text.get("x", 0)), float(text.get("y", 0)), 0.0
    if move := re.search(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", text.get("transform", "")):
        x, y = x + float(move[1]), y + float(move[2])
    if turn := re.search(r"rotate\(([-\d.]+)\)", text.get("transform", "")):
        angle = math.radians(float(turn[1]))
    corners = [(start, top), (start + width, top), (start + width, top + px), (start, top + px)]
    return [(x + a * math.cos(angle) - b * math.sin(angle), y + a * math.sin(angle) + b * math.cos(angle))
            for a, b in corners]


def overlap(one: Box, other: Box) -> bool:
    """Whether two boxes overlap by more than half a pixel: no edge's normal separates them."""
    for box in (one, other):
        for (x1, y1), (x2, y2) in zip(box, box[1:] + box[:1]):
            normal = (y1 - y2, x2 - x1)
            length = math.hypot(*normal) or 1.0
            a = [(normal[0] * x + normal[1] * y) / length for x, y in one]
            b = [(normal[0] * x + normal[1] * y) / length for x, y in other]
            if min(max(a), max(b)) - max(min(a), min(b)) < 0.5:
                return False
    return True


def label_boxes(svg: ET.Element) -> list[tuple[str, Box]]:
    def walk(node: ET.Element, classes: list[str]):
        classes = classes + (node.get("class") or "").split()
        if node.tag == f"{SVG}text":
            yield "".join(node.itertext()), text_box(node, classes)
        for child in node:
            yield from walk(child, classes)
    return list(walk(svg, []))


def collisions(svg_text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The pairs of texts that overlap, and the texts that leave the viewBox."""
    svg = ET.fromstring(svg_text)
    left, top, width, height = map(float, svg.get("viewBox").split())
    boxes = label_boxes(svg)
    pairs = [(a, b) for (a, box_a), (b, box_b) in combinations(boxes, 2) if overlap(box_a, box_b)]
    outside = [t for t, box in boxes if not all(left - 0.5 <= x <= left + width + 0.5 and top - 0.5 <= y <= top + height + 0.5
                                                for x, y in box)]
    return pairs, outside


def assert_no_collisions(drawn: list[plots.SvgPlot]) -> None:
    found = {p.file: collisions(str(p.svg)) for p in drawn}
    assert {f: c for f, c in found.items() if c != ([], [])} == {}


def test_the_box_measure_sees_an_overlap_and_a_label_off_the_frame():
    svg = (f'<svg xmlns="{SVG[1:-1]}" viewBox="0 0 100 50"><text x="10" y="20">Online-B</text>'
           '<text x="30" y="24">VolcTrans</text><text x="10" y="45" text-anchor="end">cut</text></svg>')
    assert collisions(svg) == ([("Online-B", "VolcTrans")], ["cut"])


def test_no_figure_of_a_crowded_run_has_a_label_over_another_or_off_its_frame(tmp_path):
    evaluation, human = toy_dataset.crowded(tmp_path)
    drawn = figures.draw(evaluation, human.scores)
    assert {p.kind for p in drawn} >= {"heatmap", "trend", "human"}
    assert_no_collisions(drawn)
    # where a name has no room, its number stands beside the point and the legend names the system
    (scatter,) = [ET.fromstring(str(p.svg)) for p in drawn if p.kind == "human"]
    legend = dict(t.text.split(" ", 1) for t in scatter.iter(f"{SVG}text") if t.get("dominant-baseline") == "hanging")
    points = [g for g in scatter.iter(f"{SVG}g") if g.get("class") == "point"]
    assert all(g.find(f"{SVG}text") is not None for g in points)  # every point labelled
    numbered = [g for g in points if g.find(f"{SVG}text").text.isdigit()]
    assert numbered and legend.pop("numbered") == "points:"
    assert {g.find(f"{SVG}text").text for g in numbered} == set(legend)
    for g in numbered:
        assert g.find(f"{SVG}title").text.startswith(legend[g.find(f"{SVG}text").text] + ": human ")


def test_no_figure_of_the_toy_run_with_targeted_accuracy_has_a_label_over_another(tmp_path):
    _, _, evaluation, human = toy_dataset.evaluated(tmp_path)
    drawn = figures.draw(evaluation, human.scores)
    assert {p.kind for p in drawn} == {"heatmap", "trend", "human", "targeted"}
    assert_no_collisions(drawn)


@pytest.mark.shared
def test_no_figure_of_the_wmt21_study_has_a_label_over_another_or_off_its_frame(wmt21_de_en):
    """All 19 WMT21 de→en systems with their human scores (where Facebook-AI sat on Online-A)."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human

    from conftest import shared_path

    wmt21 = shared_path("data", "wmt21")
    hyps = {p.name.split(".hyp.")[1][:-3]: p for p in sorted((wmt21 / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))}
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    evaluation = evaluate(EvaluationRequest(wmt21_de_en, hyps, split="newstest2021", pair="de-en", n_samples=20,
                                            paired_samples=50), human)
    drawn = figures.draw(evaluation, human.scores)
    assert len(hyps) == 19 and {p.kind for p in drawn} >= {"heatmap", "trend", "human"}
    assert_no_collisions(drawn)
