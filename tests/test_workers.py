"""auto_challenge_sets/workers.py: the one pool of worker processes, for the build and the evaluation."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from functools import partial

import pytest

from auto_challenge_sets.workers import imap, reported_cpu


def _pid_and(offset: int, item: int) -> tuple[int, int]:
    return os.getpid(), item + offset


def test_the_results_come_in_the_items_order_from_other_processes():
    found = list(imap(partial(_pid_and, 10), range(9), 2))
    assert [value for _, value in found] == list(range(10, 19))
    assert 1 <= len({pid for pid, _ in found} - {os.getpid()}) <= 2 and os.getpid() not in {p for p, _ in found}


def _slow_first(item: int) -> int:
    time.sleep(1.5 if item == 0 else 0)
    return item


def test_unordered_results_come_as_each_finishes_not_behind_a_slow_one():
    """A build's finished shards are handed back (and cached) while a slow one still runs."""
    found = list(imap(_slow_first, range(6), 2, ordered=False))
    assert sorted(found) == list(range(6)) and found[-1] == 0
    assert list(imap(_slow_first, range(6), 2)) == list(range(6))


def test_forked_workers_inherit_a_function_that_cannot_be_pickled():
    made_here = [5]
    add = lambda item: (os.getpid(), item + made_here[0])  # noqa: E731 - a lambda cannot be pickled
    found = list(imap(add, [1, 2, 3], 2))
    assert [value for _, value in found] == [6, 7, 8] and os.getpid() not in {pid for pid, _ in found}


def test_fresh_workers_take_a_picklable_function_and_report_their_cpu():
    before = reported_cpu()
    found = list(imap(partial(_pid_and, 0), [1, 2, 3], 2, fresh=True))
    assert [value for _, value in found] == [1, 2, 3] and os.getpid() not in {pid for pid, _ in found}
    assert reported_cpu() > before  # their imports at least: not this process's children


def test_what_cannot_go_to_a_fresh_worker_one_job_or_one_item_runs_here():
    here = lambda item: os.getpid()  # noqa: E731
    assert set(imap(here, range(4), 2, fresh=True)) == {os.getpid()}
    assert set(imap(partial(_pid_and, 0), range(4), 1)) == {(os.getpid(), k) for k in range(4)}
    assert list(imap(partial(_pid_and, 0), [7], 2)) == [(os.getpid(), 7)]
    assert list(imap(partial(_pid_and, 0), [], 2)) == []


def _fails_on_3(item: int) -> int:
    if item == 3:
        raise ValueError("three")
    return item


def test_a_workers_error_is_raised_here_in_its_turn():
    seen = []
    with pytest.raises(ValueError, match="three"):
        for value in imap(_fails_on_3, range(8), 2):
            seen.append(value)
    assert seen == [0, 1, 2]


_SLEEPER = r"""
import os, sys, time
from auto_challenge_sets.workers import imap

def sleep(item):
    os.write(1, f"{os.getpid()}\n".encode())  # one write: the two workers' lines do not interleave
    time.sleep(60)

if __name__ == "__main__":
    for _ in imap(sleep, range(4), 2, fresh=sys.argv[1] == "fresh"):
        pass
"""


@pytest.mark.parametrize("kind", ["forked", "fresh"])
def test_a_killed_run_leaves_no_worker_running(tmp_path, kind):
    script = tmp_path / "sleeper.py"
    script.write_text(_SLEEPER, encoding="utf-8")
    process = subprocess.Popen([sys.executable, str(script), kind], stdout=subprocess.PIPE, text=True,
                               cwd=tmp_path, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    workers = [int(process.stdout.readline()) for _ in range(2)]  # both workers are sleeping on an item
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(_running(pid) for pid in workers)


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False
