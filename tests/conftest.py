"""Shared fixtures. Real corpora live in ../shared (read in place, never copied into the repo);
tests that need them skip with a reason when it is absent (a user's fresh clone has no shared/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
