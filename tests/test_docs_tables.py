"""docs/method.md's measured tables are written by study scripts (``--write``) into blocks between
two markers (studies/stored_table.py): every writer's block is there exactly once, the slow tier
(studies/check_docs.py, `make check-docs`) checks every one of them, and the cheap ones regenerate
to the committed text here (``--check``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import shared_path

REPO = Path(__file__).resolve().parent.parent
METHOD = REPO / "docs" / "method.md"
sys.path.insert(0, str(REPO / "studies"))

from stored_table import markers, spread_sentence, stated_spread, stored_block, with_block, within_spread  # noqa: E402

# (block, script): every script whose --write fills a block of docs/method.md
WRITERS = [
    ("power", "power_table.py"),
    ("gold-pud-counts", "gold_counts.py"),
    ("reorder-counts", "reorder_measures.py"),
    ("full-test-clusters", "full_test_clusters.py"),
    ("targeted-match", "targeted_validity.py"),
    ("segment-intervals", "segment_intervals.py"),
    ("reorder-targets", "reorder_targets.py"),
    ("human-agreement", "human_agreement.py"),
    ("targeted-control", "targeted_control.py"),
    ("paragraph-baseline", "paragraph_baseline.py"),
]


def _check(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO / "studies" / script), "--check", *args],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("name", "script"), WRITERS)
def test_each_writer_has_its_block_in_method_md_once(name: str, script: str) -> None:
    text = METHOD.read_text(encoding="utf-8")
    begin, end = markers(name, script)
    assert text.count(begin) == 1 and text.count(end) == 1 and text.index(begin) < text.index(end)
    assert (REPO / "studies" / script).read_text(encoding="utf-8").count(f'"{name}", "{script}"') == 1


def test_every_block_of_method_md_has_a_writer() -> None:
    text = METHOD.read_text(encoding="utf-8")
    assert text.count("<!-- table ") == len(WRITERS) and text.count("<!-- end of table ") == len(WRITERS)


def test_the_slow_tier_checks_every_block_of_the_docs() -> None:
    """Every marked block of README.md and docs/*.md, by its name and script, is one of the tier's checks."""
    import re

    from check_docs import CHECKS

    checked = {(part, script) for names, script, _ in CHECKS for part in names.split(", ")}
    blocks = {found for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
              for found in re.findall(r"<!-- table (\S+): written by studies/(\S+\.py) --write -->", path.read_text(encoding="utf-8"))}
    assert len(blocks) > len(WRITERS) and blocks <= checked


def test_the_slow_tier_says_it_skips_without_the_shared_data(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(REPO / "studies" / "check_docs.py"), "--shared", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "absent" in done.stdout and "skips" in done.stdout


def test_a_block_is_replaced_between_its_markers_only() -> None:
    begin, end = markers("t", "x.py")
    text = f"before\n{begin}\n\n| old |\n\n{end}\nafter\n"
    assert with_block(text, "t", "x.py", "| new |\n") == f"before\n{begin}\n\n| new |\n\n{end}\nafter\n"
    assert stored_block(with_block(text, "t", "x.py", "| new |"), "t", "x.py") == "\n\n| new |\n\n"


@pytest.mark.parametrize("text", ["no markers", "{b}\n{e}\n{b}\n{e}\n", "{e}\n{b}\n"])
def test_a_missing_repeated_or_reversed_block_is_an_error(text: str) -> None:
    begin, end = markers("t", "x.py")
    with pytest.raises(ValueError, match="expected one"):
        with_block(text.format(b=begin, e=end), "t", "x.py", "| new |")


def test_the_power_table_regenerates() -> None:
    done = _check("power_table.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| 10 | 0.51 | 0.78 | 0.69 |" in done.stdout  # issue 34: 10 systems need τ 0.51, 0.69–0.78 under BH


def test_the_gold_pud_counts_regenerate() -> None:
    shared = shared_path("data", "pud", "de_pud-ud-test.conllu").parents[2]
    done = _check("gold_counts.py", "--shared", str(shared))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| `particle` | 112 | 104 | 94 | 72 |" in done.stdout  # as the build test counts them


def test_a_changed_table_fails_the_check(tmp_path: Path) -> None:
    """--check compares with the file: a stale number there is caught (on a copy of method.md)."""
    from stored_table import store_block_or_check

    copy = tmp_path / "method.md"
    copy.write_text(METHOD.read_text(encoding="utf-8").replace("| 10 | 0.51 |", "| 10 | 0.50 |"), encoding="utf-8")
    from power_table import render

    assert store_block_or_check(render(), "power", "power_table.py", check=True, path=copy) == 1
    assert store_block_or_check(render(), "power", "power_table.py", write=True, path=copy) == 0
    assert copy.read_text(encoding="utf-8") == METHOD.read_text(encoding="utf-8")


def test_an_eflomal_table_is_compared_within_the_spread_it_states() -> None:
    """A share may move by twice the stated points, a mean by twice the stated amount, each plus one
    unit of its printed digit (both sides were rounded); more, or any other change, fails."""
    spread = (0.6, 0.08)
    stored = f"| en→cs | space | 55.0% | 5.78 | 1,000 |\n\nRanks: `reorder`: yes.\n\n{spread_sentence(spread)}"
    assert stated_spread(stored) == spread
    assert within_spread(stored, stored.replace("55.0%", "56.3%").replace("5.78", "5.62"), spread)
    assert not within_spread(stored, stored.replace("55.0%", "56.4%"), spread)
    assert not within_spread(stored, stored.replace("5.78", "5.96"), spread)
    assert not within_spread(stored, stored.replace("1,000", "1,001"), spread)  # a count without decimals
    assert not within_spread(stored, stored.replace("yes", "**no**"), spread)
