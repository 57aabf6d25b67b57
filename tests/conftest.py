"""Shared fixtures. Real corpora live in ../shared (read in place, never copied into the repo);
tests that need them skip with a reason when it is absent (a user's fresh clone has no shared/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Set before anything imports huggingface_hub or transformers: they read these at import time,
# and without them a load that has every file on disk still asks the Hub (minutes of time-outs).
for _flag in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(_flag, "1")

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ACS_SHARED_DIR", REPO.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or a skip naming what is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the team's shared data, absent in a fresh clone)")
    return path


@pytest.fixture
def shared_data() -> Path:
    return shared_path("data")


@pytest.fixture
def shared_models() -> Path:
    return shared_path("models")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may reach the Hub; caches go to the test's own folder."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path / "acs-cache"))


@pytest.fixture(scope="session")
def tiny_cache() -> Path:
    """A random-weight trankit model (German, English) in trankit's cache layout, built once and
    cached by tests/tiny_models.py; its vocabulary comes from newstest2013, else the demo sample."""
    from tiny_models import DEMO, tiny_trankit_cache

    def lines(path: Path) -> list[str]:
        return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]

    newstest = SHARED / "data" / "newstest2013"
    if newstest.exists():
        return tiny_trankit_cache(lines(newstest / "newstest2013.de") + lines(newstest / "newstest2013.en"))
    return tiny_trankit_cache(lines(DEMO / "sample.de") * 20 + lines(DEMO / "sample.en") * 20)
