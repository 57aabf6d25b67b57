"""The ``--out`` folder of ``acs evaluate``: ownership, one writer at a time, all or nothing.

Every run scores one config of the toy folder (tests/toy_dataset.py) with few samples: the
writing, not the numbers, is under test."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from auto_challenge_sets.cli import main
from auto_challenge_sets.evaluation.report import figures
from auto_challenge_sets.evaluation.report.html import html_report
from auto_challenge_sets.evaluation.report.report_folder import check_report_folder

from toy_dataset import SPLIT, Toy

FORK = multiprocessing.get_context("fork")


def _argv(toy: Toy, out: Path, system: str = "good") -> list[str]:
    return ["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT,
            "--hyp", f"{system}={toy['hyps'][system]}", "--n-samples", "5", "--paired-samples", "10",
            "--metrics", "bleu", "--jobs", "1", "--quiet", "--out", str(out)]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _previous(toy: Toy, tmp_path: Path, capsys) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "report"
    assert main(_argv(toy, out)) == 0
    capsys.readouterr()
    return out, _snapshot(out)


def _beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}"))


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("note:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_a_report_of_the_schema_before_this_one_is_still_ours(tmp_path):
    """acs-evaluation/3 added the sets' provenance; a folder of an acs-evaluation/2 run is still
    an earlier report that --out may replace."""
    out = tmp_path / "report"
    out.mkdir()
    (out / "results.json").write_text(json.dumps({"schema": "acs-evaluation/2"}), encoding="utf-8")
    check_report_folder(out)  # no error
    (out / "results.json").unlink()  # not a whole document: conftest validates every results.json left


def test_a_report_is_written_whole_and_named_at_the_users_path(toy, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(_argv(toy, out)) == 0
    wrote = [line for line in capsys.readouterr().out.splitlines() if line.startswith("wrote ")]
    assert wrote and f" files to {out}: " in wrote[0] and f"(open {out}/index.html)" in wrote[0]
    assert ".acs-new" not in wrote[0]
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["systems"] == ["good"]
    assert {"results.json", "report.md", "index.html"} <= set(_snapshot(out))
    # a second run replaces the report whole: nothing of the first one stays
    (out / "results.json").write_text(json.dumps({"schema": "acs-evaluation/1"}), encoding="utf-8")
    (out / "de-en.chrf.heatmap.svg").write_bytes(b"a plot of an older run's metric")
    assert main(_argv(toy, out, "better")) == 0
    assert not (out / "de-en.chrf.heatmap.svg").exists()
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["systems"] == ["better"]
    assert _beside(out) == [".report.lock"]


NO_RESULTS = "is not empty and has no results.json of acs evaluate (schema acs-evaluation/*)"
FOREIGN = "is not a file acs evaluate writes, and a report replaces its folder whole"


@pytest.mark.parametrize("make_foreign, named, message", [
    (lambda out: (out / "README.md").write_text("my notes\n", encoding="utf-8"), "README.md", FOREIGN),
    (lambda out: (out / "results.json").write_text('{"schema": "other/1"}', encoding="utf-8"), "", NO_RESULTS),
    (lambda out: (out / "results.json").write_text("not json", encoding="utf-8"), "", NO_RESULTS),
    (lambda out: (out / "results.json").write_bytes(b'{"schema": "acs-evaluation/2", "x": "\xff"}'), "", NO_RESULTS),
    # a report's names but no results.json: someone's web page, not a report
    (lambda out: (out / "index.html").write_text("<p>my page</p>\n", encoding="utf-8"), "", NO_RESULTS),
])
def test_a_folder_acs_evaluate_did_not_make_is_refused_before_the_scoring(toy, tmp_path, capsys, make_foreign, named,
                                                                          message):
    out = tmp_path / "theirs"
    out.mkdir()
    make_foreign(out)
    before = _snapshot(out)
    assert main(_argv(toy, out)) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"acs evaluate: error: {out / named if named else out}: {message}"), line
    assert capsys.readouterr().out == ""  # refused before the scoring printed its tables
    assert _snapshot(out) == before
    (out / "results.json").unlink(missing_ok=True)  # not ours: conftest validates every results.json left


def test_a_file_as_out_is_refused(toy, tmp_path, capsys):
    out = tmp_path / "a_file"
    out.write_text("x", encoding="utf-8")
    assert main(_argv(toy, out)) == 2
    assert f"{out}: exists and is not a folder" in _one_error_line(capsys)


def test_an_exception_mid_write_leaves_the_previous_report(toy, tmp_path, capsys, monkeypatch):
    out, before = _previous(toy, tmp_path, capsys)

    def broken(*args, **kwargs):
        raise RuntimeError("a plot failed")

    monkeypatch.setattr(figures, "draw", broken)
    assert main(_argv(toy, out, "better")) == 2
    assert "a plot failed" in _one_error_line(capsys)
    assert _snapshot(out) == before
    assert _beside(out) == [".report.lock"]


def test_a_report_renamed_aside_by_a_killed_swap_is_put_back(toy, tmp_path, capsys, monkeypatch):
    """Killed between the swap's two renames: the folder is aside; the next run, even one that
    fails, puts it back."""
    out, before = _previous(toy, tmp_path, capsys)
    out.rename(tmp_path / ".report.acs-old-99999")
    monkeypatch.setattr(figures, "draw", lambda *args, **kwargs: 1 / 0)
    assert main(_argv(toy, out, "better")) == 2
    capsys.readouterr()
    assert _snapshot(out) == before
    assert _beside(out) == [".report.lock"]


def test_a_full_disk_leaves_the_previous_report_and_names_the_users_folder(toy, tmp_path, capsys, monkeypatch):
    out, before = _previous(toy, tmp_path, capsys)
    write_text = Path.write_text

    def full_disk(self, *args, **kwargs):
        if self.name == "report.md":  # after results.json was written: the work folder is half made
            raise OSError(28, "No space left on device")  # a failed write names no file
        return write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert main(_argv(toy, out, "better")) == 2
    line = _one_error_line(capsys)
    assert line == f"acs evaluate: error: {out}: No space left on device"
    assert _snapshot(out) == before
    assert _beside(out) == [".report.lock"]


def test_a_failed_file_is_named_under_the_users_folder(toy, tmp_path, capsys, monkeypatch):
    out, before = _previous(toy, tmp_path, capsys)
    original = html_report.write_html

    def io_error(folder, *args, **kwargs):
        original(folder, *args, **kwargs)
        raise OSError(5, "Input/output error", str(Path(folder) / "index.html"))

    monkeypatch.setattr(html_report, "write_html", io_error)
    assert main(_argv(toy, out, "better")) == 2
    assert _one_error_line(capsys) == f"acs evaluate: error: {out / 'index.html'}: Input/output error"
    assert _snapshot(out) == before


def _evaluate_and_hang(argv: list[str], ready: str) -> None:
    original = html_report.write_html

    def write_then_hang(*args, **kwargs):
        written = original(*args, **kwargs)
        Path(ready).write_text("written", encoding="utf-8")
        time.sleep(600)
        return written

    html_report.write_html = write_then_hang
    main(argv)


def _wait_for(path: Path, child) -> None:
    deadline = time.monotonic() + 120
    while not path.exists() and time.monotonic() < deadline and child.is_alive():
        time.sleep(0.05)


def test_kill_9_while_writing_leaves_the_previous_folder(toy, tmp_path, capsys):
    out, before = _previous(toy, tmp_path, capsys)
    ready = tmp_path / "ready"
    child = FORK.Process(target=_evaluate_and_hang, args=(_argv(toy, out, "better"), str(ready)))
    child.start()
    _wait_for(ready, child)
    assert ready.exists(), "the evaluation never reached its last write"
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    assert _snapshot(out) == before  # the killed run's files are in its own work folder
    assert any(".acs-new-" in name for name in _beside(out))
    # the next run removes what the killed one left and goes through
    assert main(_argv(toy, out, "better")) == 0
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["systems"] == ["better"]
    assert _beside(out) == [".report.lock"]


def _evaluate(argv: list[str]) -> int:
    return main(argv)


def _evaluate_telling_when_it_waits(argv: list[str], waiting: str) -> None:
    original = FileLock.acquire

    def acquire(self, *args, **kwargs):
        Path(waiting).write_text("at the lock", encoding="utf-8")
        return original(self, *args, **kwargs)

    FileLock.acquire = acquire
    sys.exit(main(argv))


def test_the_lock_serializes_writers(toy, tmp_path, capsys):
    out, before = _previous(toy, tmp_path, capsys)
    waiting = tmp_path / "waiting"
    with FileLock(str(tmp_path / ".report.lock")):  # another writer holds the folder
        child = FORK.Process(target=_evaluate_telling_when_it_waits, args=(_argv(toy, out, "better"), str(waiting)))
        child.start()
        _wait_for(waiting, child)
        assert waiting.exists(), "the run never reached the lock"
        time.sleep(0.5)
        assert child.is_alive()  # scored, and waiting for the lock to write
        assert _snapshot(out) == before
    child.join(120)
    assert child.exitcode == 0
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["systems"] == ["better"]


def test_concurrent_runs_leave_one_runs_report(toy, tmp_path, capsys):
    """Two processes, two systems, one folder: each round's files all come from one run."""
    for round_number in range(2):
        out = tmp_path / f"round{round_number}"
        with FORK.Pool(2) as pool:
            assert pool.map(_evaluate, [_argv(toy, out, "good"), _argv(toy, out, "better")]) == [0, 0]
        system = json.loads((out / "results.json").read_text(encoding="utf-8"))["systems"][0]
        other = "better" if system == "good" else "good"
        for name in ("report.md", "index.html"):
            text = (out / name).read_text(encoding="utf-8")
            assert system in text and f"{other}\n" not in text and f"{other} (baseline)" not in text, name
        assert _beside(out) == [f".round{round_number}.lock"]


def test_the_names_a_report_may_hold_are_its_writers_names():
    from auto_challenge_sets.evaluation.report.report_folder import report_globs

    assert report_globs() == {
        "": ["results.json", "report.md", "tables.*.md", "sentences.json.gz", "*.*.heatmap.svg", "*.*.trend.svg", "*.*.human.svg",
             "*.targeted.svg", "index.html"],
        "sentences": ["lines-*.js", "*.js"],
    }


def test_a_file_added_while_the_report_is_written_is_kept_and_named(toy, tmp_path, capsys, monkeypatch):
    """The folder is checked again just before the swap: a file the user saved there meanwhile is not lost."""
    out, before = _previous(toy, tmp_path, capsys)
    original = html_report.write_html

    def user_saves_notes(*args, **kwargs):
        (out / "notes.md").write_text("written while acs evaluate ran\n", encoding="utf-8")
        return original(*args, **kwargs)

    monkeypatch.setattr(html_report, "write_html", user_saves_notes)
    assert main(_argv(toy, out, "better")) == 2
    assert _one_error_line(capsys).startswith(f"acs evaluate: error: {out / 'notes.md'}: is not a file acs evaluate "
                                              "writes")
    assert _snapshot(out) == {**before, "notes.md": b"written while acs evaluate ran\n"}
    assert _beside(out) == [".report.lock"]
