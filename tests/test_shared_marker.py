"""The ``shared`` marker is added to every test that reads ../shared, and a read it missed fails.

Runs a small suite with this folder's conftest.py in a subprocess (pytester), once with a shared
folder and once without one (what ``make test-offline`` does to the whole suite).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent

SUITE = '''
import os
from pathlib import Path

import pytest

from conftest import SHARED, shared_path, shared_when_present


@pytest.fixture(scope="module")
def corpus():
    return shared_path("data", "x.txt").read_text()


@pytest.fixture
def via_fixture(corpus):
    return corpus.upper()


def _lines():
    return _path().read_text().splitlines()


def _path():
    return SHARED / "data" / "x.txt"


def test_fixture(shared_data):
    assert (shared_data / "x.txt").read_text() == "x"


def test_module_fixture(corpus):
    assert corpus == "x"


def test_fixture_of_a_fixture(via_fixture):
    assert via_fixture == "X"


def test_helper_of_a_helper():
    assert _lines() == ["x"]


def test_inside_a_lambda():
    read = lambda: shared_path("data", "x.txt").read_text()  # noqa: E731
    assert read() == "x"


@pytest.mark.shared
def test_by_hand():
    assert (Path(os.environ["ACS_SHARED_DIR"]) / "data" / "x.txt").read_text() == "x"


def test_plain(tmp_path):
    (tmp_path / "y.txt").write_text("y")
    assert (tmp_path / "y.txt").read_text() == "y"


def test_prefers_shared_but_needs_none():
    with shared_when_present() as shared:
        found = (shared / "data").exists() and sorted(p.name for p in (shared / "data").iterdir())
    assert found in (False, ["x.txt"])


def test_hidden_read():
    """Reaches the data without naming it: the collection cannot see it, the audit hook does."""
    assert (Path(os.environ["ACS_SHARED_DIR"]) / "data" / "x.txt").read_text() == "x"


def test_hidden_listing():
    assert [p.name for p in (Path(os.environ["ACS_SHARED_DIR"]) / "data").glob("*.txt")] == ["x.txt"]
'''

MARKED = ["test_fixture", "test_module_fixture", "test_fixture_of_a_fixture", "test_helper_of_a_helper",
          "test_inside_a_lambda", "test_by_hand"]


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest((HERE / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(shared_marker=(HERE / "shared_marker.py").read_text(encoding="utf-8"),
                        mutation_scope=(HERE / "mutation_scope.py").read_text(encoding="utf-8"),
                        toy_dataset=(HERE / "toy_dataset.py").read_text(encoding="utf-8"),
                        test_suite=SUITE)
    pytester.makeini("[pytest]\nmarkers =\n    shared: needs ../shared\n")
    shared = pytester.path / "shared"
    (shared / "data").mkdir(parents=True)
    (shared / "data" / "x.txt").write_text("x")
    return pytester


def _selected(result: pytest.RunResult) -> list[str]:
    return sorted(line.split("::")[1] for line in result.outlines if "::" in line)


def test_collection_marks_every_test_that_names_shared_data(suite, monkeypatch):
    monkeypatch.setenv("ACS_SHARED_DIR", str(suite.path / "shared"))
    assert _selected(suite.runpytest_subprocess("--collect-only", "-q", "-m", "shared")) == sorted(MARKED)


def test_a_read_the_collection_missed_fails_the_test_naming_the_path(suite, monkeypatch):
    monkeypatch.setenv("ACS_SHARED_DIR", str(suite.path / "shared"))
    result = suite.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=len(MARKED) + 2, failed=2)
    text = result.stdout.str()
    for name in ("test_hidden_read", "test_hidden_listing"):
        assert f"test_suite.py::{name} reads {suite.path / 'shared' / 'data'}" in text
    assert "is not marked shared" in text


def test_without_shared_what_uses_shared_path_skips(suite, monkeypatch):
    monkeypatch.setenv("ACS_SHARED_DIR", str(suite.path / "absent"))
    result = suite.runpytest_subprocess("-q", "-p", "no:cacheprovider", "-rs")
    # every marked test skips before its fixtures are set up (the by-hand one too); the two hidden
    # reads fail on the missing file; the plain test and the one that prefers shared data pass
    result.assert_outcomes(passed=2, skipped=len(MARKED), failed=2)
    text = result.stdout.str()
    # one line per reason with its count, not one per test
    assert f"{len(MARKED):5d}  needs {suite.path / 'absent'} (the team's shared data" in text
