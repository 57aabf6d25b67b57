"""Rendering: the text table, report.md and the PNG plot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread
from scipy.stats import spearmanr

from auto_challenge_sets.evaluation.report import (
    ConfigResult,
    breakdown_summary,
    group_by_phenomenon,
    markdown_report,
    plot_distance,
    text_table,
    write_report,
)
from auto_challenge_sets.scoring.challenge import compute

POOL_HYP = [f"w{i} x{i % 3} y z{i % 5} q" + " r" * (i % 4) for i in range(60)]
POOL_REF = [f"w{i} x{i % 3} y z{i % 4} q" + " r" * (i % 3) for i in range(60)]
POOL_LEN = [5 + i % 4 for i in range(60)]


def _result(rows: list[int]) -> dict:
    return compute([POOL_HYP[i] for i in rows], [POOL_REF[i] for i in rows], lengths=[POOL_LEN[i] for i in rows],
                   pool_predictions=POOL_HYP, pool_references=POOL_REF, pool_lengths=POOL_LEN, n_samples=20, seed=1)


def _results() -> list[ConfigResult]:
    return [
        ConfigResult(f"de-en.particle.d{d}", "de-en", "particle", d, _result(list(range(0, 40 - 8 * d, 2))))
        for d in range(4)
    ] + [ConfigResult("de-en.reorder.d5", "de-en", "reorder", 5, _result([1, 3, 5]))]


FULL = {"bleu": 40.0, "ribes": 0.8, "n": 60}
C0 = np.array([0x1F, 0x77, 0xB4]) / 255  # matplotlib's first colour: the challenge-set line


def _panels(png: Path) -> list[np.ndarray]:
    """The PNG read back, split into its two panels (BLEU, RIBES): where each has C0 pixels."""
    image = imread(png)
    assert image.ndim == 3 and image.shape[0] >= 300 and image.shape[1] >= 800, image.shape
    assert np.ptp(image[..., :3]) > 0.5  # not a blank canvas
    drawn = np.abs(image[..., :3] - C0).max(axis=2) < 0.05
    half = drawn.shape[1] // 2
    return [drawn[:, :half], drawn[:, half:]]


def _line_ends(panel: np.ndarray) -> tuple[float, float]:
    """Mean pixel row of the drawn line at its left and right ends (row 0 is the top)."""
    columns = np.flatnonzero(panel.any(axis=0))
    left, right = panel[:, columns[0]:columns[0] + 5], panel[:, columns[-1] - 4:columns[-1] + 1]
    return float(np.nonzero(left)[0].mean()), float(np.nonzero(right)[0].mean())


def test_text_table_lists_every_config():
    table = text_table(_results(), FULL)
    lines = table.splitlines()
    assert lines[0].split()[:3] == ["config", "n", "BLEU"]
    assert lines[2].startswith("(full corpus)")
    assert any(line.startswith("de-en.particle.d3") for line in lines)
    assert "±" in table
    assert len({len(line) for line in lines[:2]}) == 1  # header and rule align


def test_groups_and_spearman():
    groups = group_by_phenomenon(_results())
    assert list(groups) == ["de-en.particle", "de-en.reorder"]
    assert [r["min_distance"] for r in groups["de-en.particle"]] == [0, 1, 2, 3]
    summary = breakdown_summary(_results())
    assert summary["de-en.reorder"]["spearman"]["bleu"] == {"rho": None, "p": None}  # one point
    rows = groups["de-en.particle"]
    for metric in ("bleu", "ribes"):
        expected = spearmanr([r["min_distance"] for r in rows], [r[metric] for r in rows])
        got = summary["de-en.particle"]["spearman"][metric]
        assert got["rho"] == pytest.approx(expected.statistic) and got["p"] == pytest.approx(expected.pvalue)
        assert -1.0 <= got["rho"] <= 1.0


def test_markdown_report_and_plots(tmp_path: Path):
    written = write_report(tmp_path, _results(), FULL, {"dataset": "toy"})
    names = sorted(p.name for p in written)
    assert names == ["de-en.particle.png", "de-en.reorder.png", "report.md"]
    for png in tmp_path.glob("*.png"):
        assert all(panel.sum() > 50 for panel in _panels(png)), png  # both axes have their line
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# LDD challenge-set report")
    assert "| config | n | BLEU |" in text
    assert "![de-en.particle](de-en.particle.png)" in text
    assert "Spearman correlation with D" in text
    assert "nrefs:1" in text


def test_plot_without_baseline_or_full_corpus(tmp_path: Path):
    rows = [{"min_distance": d, "n": 5, "bleu": 30.0 - d, "ribes": 0.8} for d in range(3)]
    path = plot_distance(rows, tmp_path / "sub" / "p.png", "toy")
    bleu, ribes = _panels(path)
    assert bleu.sum() > 50 and ribes.sum() > 50
    start, end = _line_ends(bleu)
    assert start < end - 100  # BLEU falls from 30 to 28 across D: the line goes down the panel
    start, end = _line_ends(ribes)
    assert abs(start - end) < 2  # RIBES is 0.8 at every D: a flat line


def test_markdown_without_results():
    assert markdown_report([], None).startswith("# LDD challenge-set report")
