"""The reordering-measure tables every dataset card includes are a fresh measurement (eflomal, seeded):
the parallel-PUD part is re-measured here (studies/reorder_measures.py --check-pud)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import shared_path

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # eflomal aligns three languages of parallel PUD: about a minute
def test_the_stored_pud_table_equals_a_fresh_measurement() -> None:
    shared = shared_path("data", "pud", "fr_pud-ud-test.conllu").parent.parent.parent
    done = subprocess.run([sys.executable, str(REPO / "studies" / "reorder_measures.py"), "--check-pud",
                           "--shared", str(shared)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split("|")[1].strip(): line for line in done.stdout.splitlines() if line.startswith("| `")}
    assert set(rows) == {"`reorder`", "`reorder_norm`", "`crossing`"}


def test_the_card_includes_both_measured_tables(tmp_path: Path) -> None:
    from auto_challenge_sets.dataset.demo_folder import build_demo

    build_demo(tmp_path / "sets")
    card = (tmp_path / "sets" / "README.md").read_text(encoding="utf-8")
    stored = (REPO / "auto_challenge_sets" / "dataset" / "reorder_quality.md").read_text(encoding="utf-8")
    assert "## Reordering measures and their aligner" in card and stored.strip() in card
    assert "Jaccard seed 1 vs 2" in stored and "de→en above fr→en" in stored
