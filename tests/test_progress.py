"""Progress bars of the evaluation (evaluation/progress.py): on a terminal's stderr, never in a
pipe or a log, and never with ``acs evaluate --quiet``."""

from __future__ import annotations

import io
import sys

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.evaluation.progress import progress_bar

from toy_dataset import make


class _Terminal(io.StringIO):
    """stderr as a terminal would be (a pseudo-terminal cannot be had in every test runner)."""

    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_only(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert list(progress_bar(range(3), True, "counting", unit="thing")) == [0, 1, 2]
    assert "counting" in terminal.getvalue() and "thing" in terminal.getvalue()
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert list(progress_bar(range(3), True, "counting")) == [0, 1, 2] and pipe.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", terminal := _Terminal())
    assert list(progress_bar(range(3), False, "counting")) == [0, 1, 2] and terminal.getvalue() == ""


def _evaluate_on_a_terminal(toy, tmp_path, monkeypatch, *flags: str) -> str:
    """`acs evaluate` of the toy (5 random corpora, 20 paired samples) with stderr a terminal:
    what it drew there."""
    terminal = _Terminal()
    argv = ["evaluate", "--dataset", str(toy["root"]), "--n-samples", "5", "--paired-samples", "20",
            "--out", str(tmp_path / "report"), "--hyp", *(f"{n}={p}" for n, p in toy["hyps"].items()), *flags]
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stderr", terminal)
        assert main(argv) == 0
    return terminal.getvalue()


@pytest.mark.parametrize("quiet", [False, True])
def test_acs_evaluate_shows_its_stages_unless_quiet(tmp_path, monkeypatch, capsys, quiet):
    shown = _evaluate_on_a_terminal(make(tmp_path), tmp_path, monkeypatch, "--config", "all", "--jobs", "1",
                                    *(["--quiet"] if quiet else []))
    for stage in ("statistics per system", "configs (random baseline, paired tests)", "plots per metric"):
        assert (stage in shown) != quiet, stage
    capsys.readouterr()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_statistics_bar_counts_the_systems_in_this_process_or_in_workers(tmp_path, monkeypatch, capsys, jobs):
    """With --jobs 2 the systems' statistics come from worker processes: the bar still says its
    stage and counts the systems out of their total, as with one process (a bar that leaves no
    trace is drawn at its start and seldom after, so the count read is that of the start)."""
    toy = make(tmp_path)
    shown = _evaluate_on_a_terminal(toy, tmp_path, monkeypatch, "--config", "de-en.particle.d1", "--jobs", jobs)
    n = len(toy["hyps"])
    lines = [line for line in shown.replace("\r", "\n").splitlines() if "statistics per system" in line]
    assert any(f"/{n} [" in line and " system/s]" in line for line in lines), lines  # e.g. "0/5 [00:00<?, ? system/s]"
    capsys.readouterr()


def test_the_engine_called_as_a_library_draws_no_bar_unless_asked(tmp_path, monkeypatch):
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.request import EvaluationRequest

    toy = make(tmp_path)
    request = EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d1", metrics=("bleu",), n_samples=5,
                                paired_samples=20)
    for asked in (False, True):
        monkeypatch.setattr(sys, "stderr", terminal := _Terminal())
        evaluate(request, **({"progress": True} if asked else {}))
        assert ("statistics per system" in terminal.getvalue()) == asked
