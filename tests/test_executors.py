"""The executor seam of the stage cache: shards may finish in any order, the output is the same;
the Ray executor starts a local cluster; worker processes build the folder of one process. The Ray
builds against the local ones are in tests/test_executors_ray_builds.py (a file of their own, so
that two test workers share the slow builds)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.pipeline.executors import (
    RAY_MISSING,
    ProcessExecutor,
    RayExecutor,
    ShardWork,
)
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import ParserSpec
from auto_challenge_sets.pipeline.stage_cache import run_sharded

from conftest import shared_path


class ReversedExecutor:
    """Runs the pending shards last first, as a pool of workers may finish them."""

    def __init__(self):
        self.ran: list[int] = []

    def map_shards(self, process, shards):
        for number, shard in reversed(list(shards)):
            self.ran.append(number)
            yield number, process(shard)


def test_out_of_order_shards_give_the_sequential_output_and_are_cached(tmp_path):
    lines = [f"line {k}" for k in range(23)]
    sequential = run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "a",
                             stage="test", key={"v": 1}, shard_size=5, progress=False)
    executor = ReversedExecutor()
    reordered = run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "b",
                            stage="test", key={"v": 1}, shard_size=5, progress=False, executor=executor)
    assert reordered == sequential == [x.upper() for x in lines]
    assert executor.ran == [4, 3, 2, 1, 0]
    again = ReversedExecutor()
    run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "b", stage="test",
                key={"v": 1}, shard_size=5, progress=False, executor=again)
    assert again.ran == []  # every shard was kept


class _Upper:
    """A stand-in backend that records how often it was made."""

    made = 0

    def __init__(self):
        type(self).made += 1

    def apply(self, batch):
        return [x.upper() for x in batch]


def _apply(backend, batch):
    return backend.apply(batch)


def test_shard_work_makes_its_backend_once_and_travels_without_it():
    import pickle

    _Upper.made = 0
    work = ShardWork(_Upper, _apply)
    assert work(["a"]) == ["A"] and work(["b"]) == ["B"] and _Upper.made == 1
    copy = pickle.loads(pickle.dumps(work))  # what another process gets: no backend
    assert copy._backend is None and copy(["c"]) == ["C"] and _Upper.made == 2
    ready = _Upper()
    assert ShardWork(_Upper, _apply, ready=ready)(["d"]) == ["D"]
    assert _Upper.made == 3  # the ready backend is used, none made


def _pair(backend, batch):
    return [f"{backend}:{x}" for x in batch]


def test_shard_work_without_a_way_to_make_its_backend_carries_the_ready_one():
    import pickle

    work = ShardWork(None, _pair, ready="ready")
    assert work(["a"]) == ["ready:a"]
    copy = pickle.loads(pickle.dumps(work))  # nothing to make it with: the ready backend travels
    assert copy._backend == "ready" and copy(["b"]) == ["ready:b"]


# -- the Ray executor without Ray, or with no shard to run --------------------------------------


def test_the_ray_executors_defaults():
    assert RayExecutor() == RayExecutor(address=None, workers=2, gpus_per_worker=0.0)


def test_no_pending_shard_needs_no_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # any import of ray would fail
    assert list(RayExecutor().map_shards(_pair, [])) == []


def test_without_ray_installed_the_error_says_how_to_install_it(monkeypatch):
    for name in ("RAY_BACKEND_LOG_LEVEL", "RAY_DATA_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    logger = logging.getLogger("ray")
    level = logger.level
    try:
        with pytest.raises(AcsError) as raised:
            list(RayExecutor().map_shards(_pair, [(0, ["a"])]))
        # Ray's logs were quieted first, before its import
        assert logger.level == logging.ERROR
    finally:
        logger.setLevel(level)
    assert type(raised.value) is AcsError and raised.value.__suppress_context__
    assert str(raised.value) == RAY_MISSING == ('the ray executor needs Ray, which is not installed: '
                                                'pip install "auto-challenge-sets[ray]"')
    assert (os.environ["RAY_BACKEND_LOG_LEVEL"], os.environ["RAY_DATA_LOG_LEVEL"]) == ("fatal", "ERROR")


def test_quieting_ray_keeps_a_users_own_log_levels(monkeypatch):
    monkeypatch.setenv("RAY_BACKEND_LOG_LEVEL", "debug")
    monkeypatch.setenv("RAY_DATA_LOG_LEVEL", "INFO")
    monkeypatch.setitem(sys.modules, "ray", None)
    logger = logging.getLogger("ray")
    level = logger.level
    try:
        with pytest.raises(AcsError):
            list(RayExecutor().map_shards(_pair, [(0, ["a"])]))
    finally:
        logger.setLevel(level)
    assert (os.environ["RAY_BACKEND_LOG_LEVEL"], os.environ["RAY_DATA_LOG_LEVEL"]) == ("debug", "INFO")


# -- the Ray executor on a local cluster it starts itself ----------------------------------------


def test_the_ray_executor_starts_a_cluster_and_maps_every_shard_on_its_gpu_actors(monkeypatch):
    """About 10 s: a local cluster with one (declared) GPU, two actors of half a GPU each."""
    ray = pytest.importorskip("ray", reason="the [ray] extra is not installed")
    if ray.is_initialized():
        pytest.skip("a Ray cluster is already running in this process")
    started: list[dict] = []
    real_init = ray.init

    def recorded_init(**kwargs):  # the executor's arguments, plus the declared resources
        started.append(kwargs)
        return real_init(**kwargs, num_cpus=2, num_gpus=1)

    def upper_on_gpus(shard: list) -> list:  # defined here, shipped by value: workers cannot import tests
        import ray

        return [f"{x.upper()}|gpus={len(ray.get_gpu_ids())}" for x in shard]

    monkeypatch.setattr(ray, "init", recorded_init)
    context = ray.data.DataContext.get_current()
    monkeypatch.setattr(context, "enable_progress_bars", True)
    try:
        shards = [(0, ["é", "a"]), (1, ["b"]), (2, ["ü"])]
        executor = RayExecutor(address="local", workers=2, gpus_per_worker=0.5)
        done = sorted(executor.map_shards(upper_on_gpus, shards))
        assert done == [(0, ["É|gpus=1", "A|gpus=1"]), (1, ["B|gpus=1"]), (2, ["Ü|gpus=1"])]
        assert started == [{"address": "local", "include_dashboard": False, "log_to_driver": False,
                             "logging_level": "ERROR"}]
        assert ray.data.DataContext.get_current().enable_progress_bars is False  # the stage cache has its own
        # one shard left: a pool of one actor, on the cluster already started
        assert list(executor.map_shards(upper_on_gpus, [(5, ["c"])])) == [(5, ["C|gpus=1"])]
        assert len(started) == 1
    finally:
        ray.shutdown()


def _folder_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


class CountingBackend:
    """A stand-in backend that says which process ran it and how many it was made there."""

    made = 0

    def __init__(self) -> None:
        CountingBackend.made += 1

    def run(self, shard: list) -> list:
        if "boom" in shard:
            raise ValueError("the backend cannot read 'boom'")
        return [f"{item}:{os.getpid()}:{CountingBackend.made}" for item in shard]


def _run_counting(backend: CountingBackend, shard: list) -> list:
    return backend.run(shard)


def test_worker_processes_give_every_shard_each_worker_making_its_backend_once():
    shards = [(number, [f"s{number}-{i}" for i in range(3)]) for number in range(12)]
    work = ShardWork(CountingBackend, _run_counting, ready=CountingBackend())  # the parent's own backend is ready
    got = dict(ProcessExecutor(jobs=2).map_shards(work, iter(shards)))
    assert sorted(got) == list(range(12))
    items = [item.split(":") for number in range(12) for item in got[number]]
    assert [name for name, _, _ in items] == [name for _, shard in shards for name in shard]
    pids = {pid for _, pid, _ in items}
    assert str(os.getpid()) not in pids and 1 <= len(pids) <= 2
    # made once per worker, not per shard, in a fresh process (nothing of this one's copied by fork)
    assert {made for _, _, made in items} == {"1"}


def test_work_that_cannot_leave_this_process_runs_here():
    work = ShardWork(None, _run_counting, ready=CountingBackend())  # only a ready backend: it stays here
    got = dict(ProcessExecutor(jobs=2).map_shards(work, iter([(0, ["a"]), (1, ["b"])])))
    assert {item.split(":")[1] for items in got.values() for item in items} == {str(os.getpid())}


def test_one_job_or_one_shard_runs_here():
    work = ShardWork(CountingBackend, _run_counting)
    for executor, shards in ((ProcessExecutor(jobs=1), [(0, ["a"]), (1, ["b"])]), (ProcessExecutor(jobs=2), [(0, ["a"])])):
        got = dict(executor.map_shards(work, iter(shards)))
        assert {item.split(":")[1] for items in got.values() for item in items} == {str(os.getpid())}
    assert list(ProcessExecutor(jobs=2).map_shards(work, iter([]))) == []


def test_a_workers_error_is_raised_here_with_its_message():
    work = ShardWork(CountingBackend, _run_counting)
    with pytest.raises(ValueError, match="the backend cannot read 'boom'"):
        list(ProcessExecutor(jobs=2).map_shards(work, iter([(0, ["a"]), (1, ["boom"]), (2, ["c"])])))


def test_a_udpipe_build_on_two_processes_is_the_build_in_this_one(tmp_path):
    """``acs build --jobs 2`` against ``--jobs 1`` without Ray: the same folder, byte for byte."""
    model = shared_path("models", "german.udpipe")
    folders = []
    for name, executor in (("one", None), ("two", ProcessExecutor(jobs=2))):
        out = tmp_path / name
        build_into_folder(BuildSpec(pair="de-en", corpus="sample", source=demo_file("sample.de"),
                                    target=demo_file("sample.en"), shard_size=5, cache_dir=tmp_path / f"cache-{name}",
                                    parser=ParserSpec("udpipe", {"udpipe_model": model}),
                                    alignment=demo_file("sample.de-en.pharaoh"), executor=executor),
                          out, license="other", progress=False)
        folders.append(_folder_bytes(out))
    assert folders[0] == folders[1] and len(folders[0]) > 20


def _burn(seconds: float) -> float:
    """Spend ``seconds`` of this process's CPU time; the CPU time it spent."""
    import time

    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(1_000))
    return time.process_time() - start


def _burn_shard(backend: object, shard: list) -> list:
    return [_burn(seconds) for seconds in shard]


def test_the_cpu_of_worker_processes_is_counted_in_the_stage_that_ran_them():
    """Workers of a fork server are not this process's children: each reports its own CPU time."""
    from auto_challenge_sets.pipeline.timings import recording, stage

    shards = [(number, [0.15]) for number in range(4)]
    spent = {}
    for jobs in (1, 2):
        work = ShardWork(CountingBackend, _burn_shard)
        with recording() as timings, stage("parse"):
            burned = [cpu for _, result in ProcessExecutor(jobs=jobs).map_shards(work, iter(shards)) for cpu in result]
        assert len(burned) == 4 and sum(burned) >= 0.6
        (parse,) = timings.stages
        spent[jobs] = parse.cpu
        assert parse.cpu >= sum(burned)  # the workers' burn (and, with 2 jobs, their start) is the stage's
        assert (parse.worker_cpu > 0) == (jobs == 2)
    assert spent[2] >= 0.9 * spent[1]


@pytest.mark.parametrize("seconds", ["soon", "0", "1.5", "٣"])
def test_a_shard_time_out_that_is_no_whole_number_of_seconds_is_named(monkeypatch, seconds):
    monkeypatch.setenv("ACS_SHARD_SECONDS", seconds)
    work = ShardWork(CountingBackend, _run_counting)
    with pytest.raises(AcsError, match=f"^ACS_SHARD_SECONDS='{seconds}': give a whole number of seconds, at least 1$"):
        list(ProcessExecutor(jobs=2).map_shards(work, iter([(0, ["a"]), (1, ["b"])])))


def test_a_shards_time_out_is_ten_minutes_and_five_seconds_an_item_unless_set(monkeypatch):
    from auto_challenge_sets.pipeline.executors import _shard_seconds

    monkeypatch.delenv("ACS_SHARD_SECONDS", raising=False)
    assert _shard_seconds((3, ["a"] * 4)) == 620
    for value, seconds in (("", 620), ("1", 1), ("90", 90)):
        monkeypatch.setenv("ACS_SHARD_SECONDS", value)
        assert _shard_seconds((3, ["a"] * 4)) == seconds
