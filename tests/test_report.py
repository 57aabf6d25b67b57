"""Rendering: the text table, report.md and the PNG plot."""

from __future__ import annotations

from pathlib import Path

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
    assert summary["de-en.reorder"]["spearman"]["bleu"]["rho"] is None  # one point
    assert summary["de-en.particle"]["spearman"]["bleu"]["rho"] is not None


def test_markdown_report_and_plots(tmp_path: Path):
    written = write_report(tmp_path, _results(), FULL, {"dataset": "toy"})
    names = sorted(p.name for p in written)
    assert names == ["de-en.particle.png", "de-en.reorder.png", "report.md"]
    for png in tmp_path.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert text.startswith("# LDD challenge-set report")
    assert "| config | n | BLEU |" in text
    assert "![de-en.particle](de-en.particle.png)" in text
    assert "Spearman correlation with D" in text
    assert "nrefs:1" in text


def test_plot_without_baseline_or_full_corpus(tmp_path: Path):
    rows = [{"min_distance": d, "n": 5, "bleu": 30.0 - d, "ribes": 0.8} for d in range(3)]
    path = plot_distance(rows, tmp_path / "sub" / "p.png", "toy")
    assert path.exists() and path.stat().st_size > 1000


def test_markdown_without_results():
    assert markdown_report([], None).startswith("# LDD challenge-set report")
