"""The page's plots (evaluation/report/plots.py, each section's layout + templates/charts.svg.j2) on the hand-made toy run:
every system is one named, focusable line; every cell and point carries its numbers; configs left
out of trends are left out of the plots; label spreading checked by hand."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from auto_challenge_sets.evaluation.report import plots
from auto_challenge_sets.evaluation.report.html.environment import environment
from auto_challenge_sets.evaluation.report.sections import challenge_section as challenge
from auto_challenge_sets.evaluation.report.sections import targeted_section as targeted
from auto_challenge_sets.evaluation.report.sections import trends_section as trends
from auto_challenge_sets.evaluation.report.sections.human_section import human_scatter
from tests import toy_dataset

from mutation_scope import per_test_under_mutmut

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope=per_test_under_mutmut)
def run(tmp_path_factory):
    return toy_dataset.evaluated(tmp_path_factory.mktemp("plots"))


def render(plot: plots.SvgPlot) -> ET.Element:
    """The plot as the page writes it, parsed as XML (the SVG must be well-formed on its own)."""
    charts = environment().get_template("charts.svg.j2").module
    return ET.fromstring(str(charts.chart(plot)))


def test_spread_labels_keeps_the_gap_in_order_and_inside_the_frame():
    # by hand: 10 and 12 are 2 apart, so the second goes to 20 (gap 10); 50 stays; order kept
    assert plots.spread_labels([12, 50, 10], top=0, bottom=100, gap=10) == [20, 50, 10]
    # five labels at the bottom edge: pushed down past 100, then the run moves up to end at 100
    assert plots.spread_labels([100] * 5, top=0, bottom=100, gap=10) == [60, 70, 80, 90, 100]
    assert plots.spread_labels([], top=0, bottom=100) == []


def test_nice_scale_covers_the_values_with_round_ends():
    scale, ticks = plots.nice_scale([0.13, 0.87], 0, 100)
    assert ticks[0] <= 0.13 and ticks[-1] >= 0.87 and scale.low == ticks[0] and scale.high == ticks[-1]
    assert scale(scale.low) == 0 and scale(scale.high) == 100
    one, _ = plots.nice_scale([5.0, 5.0], 0, 10)  # a single value still gets a span
    assert one.low < 5 < one.high


def test_the_heatmap_has_a_cell_per_system_and_config_with_its_numbers(run):
    evaluation = toy_dataset.with_failed_matching(run[2])
    plot = challenge.heatmap(evaluation, "bleu")
    svg = render(plot)
    cells = svg.findall(f"{SVG}rect[@class='cell']")
    assert len(cells) == len(evaluation.systems) * len(evaluation.configs)
    score = evaluation.configs["de-en.particle.d2"].systems["worse"].scores["bleu"]
    title = next(c.find(f"{SVG}title").text for c in cells if c.find(f"{SVG}title").text.startswith("worse on de-en.particle.d2:"))
    assert f"BLEU {score.score:.2f}" in title and f"Δ {score.score - score.random.mean:+.2f}" in title
    marks = [t for t in svg.iter(f"{SVG}text") if t.get("class") == "below-band"]
    expected = sum(r.scores["bleu"].worse_than_random_band(True) and not c.degenerate_baseline
                   for c in evaluation.configs.values() for r in c.systems.values())
    assert 0 < len(marks) == expected  # none on a degenerate baseline (particle d0, d1)
    hatched = svg.findall(f"{SVG}rect[@class='cell hatched']")
    degenerate = [n for n, c in evaluation.configs.items() if c.degenerate_baseline]
    assert degenerate == ["de-en.particle.d0", "de-en.particle.d1"]
    assert len(hatched) == len(evaluation.systems) * len(degenerate)
    assert all("degenerate baseline" in c.find(f"{SVG}title").text for c in hatched)
    # worse is red: BLEU below the random mean gets more red than blue, above more blue; a
    # degenerate baseline's cells grey
    for cell in cells:
        text = cell.find(f"{SVG}title").text
        if "degenerate baseline" in text:
            assert cell.get("fill") == "#d9d9d9", text
            continue
        delta = float(text.split("Δ ")[1].split()[0])
        red, blue = int(cell.get("fill")[1:3], 16), int(cell.get("fill")[5:7], 16)
        if abs(delta) >= 0.05:  # near 0 the colour is white and the printed delta rounded
            assert (red > blue) if delta < 0 else (blue > red), text
    # flags as marks the title names, not words: particle.d4 is small, d5 too and holds d4's rows
    columns = [t.text for t in svg.iter(f"{SVG}text") if t.get("transform", "").endswith("rotate(-60)")]
    assert columns[4:6] == ["particle.d4 °", "particle.d5 °="] and not any("(" in c for c in columns)
    assert plot.title.endswith("; ° small; = same rows as an earlier config")


def test_ter_heatmap_reds_the_higher_scores(run):
    _, _, evaluation, _ = run
    for cell in render(challenge.heatmap(evaluation, "ter")).findall(f"{SVG}rect[@class='cell']"):
        if "degenerate baseline" in cell.find(f"{SVG}title").text:
            continue
        delta = float(cell.find(f"{SVG}title").text.split("Δ ")[1].split()[0])
        red, blue = int(cell.get("fill")[1:3], 16), int(cell.get("fill")[5:7], 16)
        if abs(delta) >= 0.05:  # near 0 the colour is white and the printed delta rounded
            assert (red > blue) if delta > 0 else (blue > red)


def test_a_trend_draws_every_system_as_a_named_focusable_line_at_its_scores(run):
    _, _, evaluation, _ = run
    (plot,) = [p for p in trends.trend_plots(evaluation, "bleu") if "particle" in p.key]
    svg = render(plot)
    series = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "series"]
    assert [g.find(f"{SVG}title").text for g in series] == list(evaluation.systems)
    assert all(g.get("tabindex") == "0" for g in series)
    # the points of the trend itself: neither small, nor degenerate, nor the rows of an earlier config
    usable = sorted(c.min_distance for c in evaluation.configs.values()
                    if c.phenomenon == "de-en.particle" and not c.small and not c.degenerate_baseline
                    and c.same_rows_as is None)
    for g in series:
        dots = g.findall(f"{SVG}circle")
        assert len(dots) == len(usable)
        d, value = usable[-1], evaluation.configs[f"de-en.particle.d{usable[-1]}"].systems[
            g.find(f"{SVG}title").text].scores["bleu"].score
        assert dots[-1].find(f"{SVG}title").text.endswith(f"D={d}: BLEU {value:.2f} (n="
                                                          f"{evaluation.configs[f'de-en.particle.d{d}'].n})")
        label = g.find(f"{SVG}text")
        assert label.text == g.find(f"{SVG}title").text  # named at its last point
    counts = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "count"]
    assert counts == [f"n={evaluation.configs[f'de-en.particle.d{d}'].n}" for d in usable]
    # higher scores are drawn higher (y grows downwards)
    best = max(evaluation.systems, key=lambda s: evaluation.configs["de-en.particle.d0"].systems[s].scores["bleu"].score)
    worst = min(evaluation.systems, key=lambda s: evaluation.configs["de-en.particle.d0"].systems[s].scores["bleu"].score)
    first = {g.find(f"{SVG}title").text: float(g.find(f"{SVG}circle").get("cy")) for g in series}
    assert first[best] < first[worst]


def test_small_configs_make_no_trend(run):
    _, _, evaluation, _ = run
    assert [p.key for p in trends.trend_plots(evaluation, "bleu")] == ["trend-de-en.particle-bleu"]


def test_the_human_scatter_names_every_system_with_both_scores(run):
    _, _, evaluation, human = run
    plot = human_scatter(evaluation, "bleu", human.scores)
    points = [g for g in render(plot).iter(f"{SVG}g") if g.get("class") == "point"]
    full_panel = points[: len(evaluation.systems)]
    assert [g.find(f"{SVG}text").text for g in full_panel] == list(evaluation.systems)
    for g in full_panel:
        system = g.find(f"{SVG}text").text
        assert g.find(f"{SVG}title").text == (f"{system}: human {human.scores[system]:.3f}, "
                                               f"BLEU {evaluation.full[system]['bleu']:.2f}")
    titles = [t.text for t in render(plot).iter(f"{SVG}text") if t.get("class") == "panel-title"]
    lowest = min(c.min_distance for c in evaluation.configs.values()
                 if c.phenomenon == "de-en.particle" and not c.small and not c.degenerate_baseline)
    assert titles[0].startswith("full test set (Kendall τ") and titles[1].startswith(f"particle.d{lowest} ")


def test_the_targeted_plot_marks_buckets_resting_on_few_instances(run):
    _, _, evaluation, _ = run
    plot = targeted.targeted_plot(evaluation)
    svg = render(plot)
    summary = evaluation.targeted.by_distance["de-en.particle"]
    judged = [sum(summary.judged[s][b] for s in evaluation.systems) / len(evaluation.systems) for b in summary.buckets]
    counts = [t for t in svg.iter(f"{SVG}text") if (t.text or "").startswith("n=")]
    assert [t.text for t in counts] == [f"n={n:.0f}" for n in judged]
    assert [("few" in t.get("class")) for t in counts] == [n < 10 for n in judged]
    series = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "series"]
    assert [g.find(f"{SVG}title").text for g in series] == [*evaluation.systems, "mean"]
    # a .svg file has no tooltips where report.md shows it as an image: a legend names each line
    legend = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == [*evaluation.systems, "mean", "hollow: fewer than 10 judged"]
    assert [line.get("stroke") for line in legend.iter(f"{SVG}line")] == [
        g.find(f"{SVG}polyline").get("stroke") for g in series]
