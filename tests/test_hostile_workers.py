"""A `acs build --jobs 2` whose worker is killed or stopped, or whose resource tracker is killed
(issue 49, item 4): one line naming the stage and shards and saying that a rerun resumes, a time-out
instead of a wait forever, no traceback.

Each case runs the real command in a child process with a small UDPipe parse in shards of two lines,
finds a worker (a child of the build's fork server) and stops it first, so that the build cannot
finish before the case does what it does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from auto_challenge_sets.demo_data import demo_file

from tiny_models import tiny_udpipe_model

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def build(tmp_path):
    """Start `acs build` (the sample four times, --jobs 2); stop it, and any stopped worker, at the end."""
    for side in ("de", "en"):
        (tmp_path / f"c.{side}").write_text(demo_file(f"sample.{side}").read_text(encoding="utf-8") * 4,
                                            encoding="utf-8")
    argv = [sys.executable, "-m", "auto_challenge_sets.cli", "build", "--pair", "de-en", "--corpus", "c",
            "--source", str(tmp_path / "c.de"), "--target", str(tmp_path / "c.en"), "--parser", "udpipe",
            "--udpipe-model", str(tiny_udpipe_model()), "--aligner", "none", "--jobs", "2", "--shard-size", "2",
            "--quiet", "--out", str(tmp_path / "out")]
    env = {**os.environ, "ACS_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": os.pathsep.join(sys.path)}
    started: list[subprocess.Popen] = []

    def start(**extra: str) -> subprocess.Popen:
        started.append(subprocess.Popen(argv, cwd=REPO, env={**env, **extra}, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True))
        return started[-1]

    yield start
    for process in started:
        for pid in _descendants(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.kill()
        process.communicate()


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError):
            pass
    return found


def _descendants(pid: int) -> list[int]:
    return [d for child in _children(pid) for d in (child, *_descendants(child))]


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def _stopped_workers(process: subprocess.Popen, count: int = 1) -> list[int]:
    """``count`` workers of the build, each stopped (SIGSTOP) as soon as it is seen."""
    stopped: list[int] = []
    deadline = time.monotonic() + 120  # a hang guard only: a busy machine may take long to start them
    while len(stopped) < count and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[1]
        for server in (c for c in _children(process.pid) if "forkserver" in _command(c)):
            for worker in sorted(set(_children(server)) - set(stopped))[:count - len(stopped)]:
                os.kill(worker, signal.SIGSTOP)
                stopped.append(worker)
        time.sleep(0.005)
    assert len(stopped) == count
    return stopped


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
        time.sleep(0.05)
    return not Path(f"/proc/{pid}").exists()


def _error_line(process: subprocess.Popen) -> str:
    err = process.communicate(timeout=120)[1]
    assert process.returncode == 2 and len(err.splitlines()) == 1, err
    return err.strip()


def test_a_killed_worker_is_one_line_naming_the_stage_and_saying_a_rerun_resumes_and_a_rerun_succeeds(build):
    process = build()
    os.kill(_stopped_workers(process)[0], signal.SIGKILL)
    line = _error_line(process)
    assert line.startswith("acs build: error: parse: a worker process died (killed?) on shard"), line
    assert line.endswith("of 58; the finished shards are kept: run the command again, it resumes at the "
                         "unfinished ones"), line
    rerun = build()
    assert rerun.communicate(timeout=120)[1] == "" and rerun.returncode == 0


def test_a_stopped_worker_times_out_naming_its_shard_and_is_killed(build):
    process = build(ACS_SHARD_SECONDS="2")
    workers = _stopped_workers(process, 2)  # both: the other one cannot take their shards
    line = _error_line(process)  # before: the build waited forever
    assert line.startswith("acs build: error: parse: a worker process gave no result in 2 s (stopped? "
                           "ACS_SHARD_SECONDS sets the bound) on shard"), line
    assert all(_gone(worker) for worker in workers)


def test_a_killed_resource_tracker_prints_no_traceback(build):
    process = build()
    [worker] = _stopped_workers(process)  # the pool is in use until the worker goes on
    trackers = [c for c in _children(process.pid) if "resource_tracker" in _command(c)]
    assert len(trackers) == 1
    os.kill(trackers[0], signal.SIGKILL)
    os.kill(worker, signal.SIGCONT)
    err = process.communicate(timeout=120)[1]
    assert process.returncode == 0 and err == "", err
