"""The extraction-quality table every dataset card includes is a fresh measurement: UDPipe parses of
raw PUD against the gold trees (studies/extraction_quality.py --check)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import shared_path

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # UDPipe parses raw PUD in two languages: about a minute
def test_the_stored_table_equals_a_fresh_measurement() -> None:
    shared = shared_path("models", "german.udpipe").parent.parent
    shared_path("data", "pud", "de_pud-ud-test.conllu")
    done = subprocess.run([sys.executable, str(REPO / "studies" / "extraction_quality.py"), "--check",
                           "--shared", str(shared)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| de | aux_bracket | 1 | 321 |" in done.stdout  # gold German PUD, as docs/method.md says


def test_the_card_includes_the_table(tmp_path: Path) -> None:
    from auto_challenge_sets.dataset.demo_folder import build_demo

    build_demo(tmp_path / "sets")
    card = (tmp_path / "sets" / "README.md").read_text(encoding="utf-8")
    table = (REPO / "auto_challenge_sets" / "dataset" / "extraction_quality.md").read_text(encoding="utf-8")
    assert "## Extraction quality" in card and table.strip() in card
