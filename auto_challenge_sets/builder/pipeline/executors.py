"""Where the shards of a stage run: here, one after another, on worker processes, or on a Ray cluster.

An executor maps a stage's work over the pending shards and yields ``(shard, result)`` as each
one finishes, in any order; the stage cache writes each result as it comes, so a killed run keeps
every finished shard whichever executor ran it, and the assembled output does not depend on the
order (byte-identical folders from either executor).

- :class:`LocalExecutor`: in this process, in order.
- :class:`ProcessExecutor`, ``acs build``'s default (``--jobs N``, the cores this process may use):
  worker processes started by a fork server, each making the stage's backend once.
- :class:`RayExecutor`: the shards as a Ray Data dataset, mapped by ``workers`` actors
  (``map_batches`` with a callable class), each holding the stage's backend, its model loaded once
  per actor (a GPU each with ``gpus_per_worker``). Ray is the optional extra ``[ray]``.

The work is a :class:`ShardWork`: a way to make the backend and a way to apply it to a shard, so
that an executor can ship it to other processes without the model (which is made again there).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from auto_challenge_sets.builder.pipeline.timings import add_worker_cpu

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        """``(shard number, process(shard))`` for every shard, as each one finishes."""
        ...


class ShardWork:
    """A stage's work on one shard: ``apply(backend, shard)``, with the backend from ``make()``
    (made on first use; ``ready``, the stage's own backend, is used in this process). Pickled for
    another process, it leaves the backend behind, and that process makes its own once; without
    ``make``, the ready backend itself travels."""

    def __init__(self, make: Callable[[], Any] | None, apply: Callable[[Any, list], list], ready: Any = None):
        if make is None and ready is None:
            raise ValueError("ShardWork needs a way to make the backend or a ready one")
        self.make, self.apply, self._backend = make, apply, ready

    def __call__(self, shard: list) -> list:
        if self._backend is None:
            self._backend = self.make()
        return self.apply(self._backend, shard)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_backend": None if self.make is not None else self._backend}


class LocalExecutor:
    """In this process, one shard after another."""

    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        for number, shard in shards:
            yield number, process(shard)


# What the workers of a ProcessExecutor run: the stage's work, sent once to each worker when it starts
# (not with every shard), so each worker makes its backend (loads its model) once.
_INSTALLED: dict[str, Any] = {}


def _install(work: Any) -> None:
    _INSTALLED["process"] = work


def _run_installed(shard: list) -> tuple[list, float]:
    """The shard's result and the CPU seconds this worker used since it last reported (its start,
    the first time: the imports and the backend's model are part of the stage's cost)."""
    import resource

    result = _INSTALLED["process"](shard)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    reported, _INSTALLED["reported"] = _INSTALLED.get("reported", 0.0), used
    return result, used - reported


def _shippable(process: Any) -> bool:
    """Whether the work can go to a fresh process: a :class:`ShardWork` that makes its backend
    there (one whose backend exists only in this process, a test's instance, stays here)."""
    import pickle

    if isinstance(process, ShardWork) and process.make is None:
        return False
    try:
        pickle.dumps(process)
    except Exception:  # noqa: BLE001 - pickle raises TypeError, AttributeError, PicklingError...
        return False
    return True


@dataclass
class ProcessExecutor:
    """The shards on ``jobs`` worker processes (``acs build --jobs N``), each making the stage's
    backend once, on its first shard. The workers are started by a fork server, fresh processes
    that have not imported this one's libraries: a worker forked from a process that ran torch (a
    trankit parse) hung in torch's thread pool. At most two shards per worker are in flight, so the
    inputs are read as the workers need them. One job, one shard, or work that cannot leave this
    process: in this process, as :class:`LocalExecutor`."""

    jobs: int = 2

    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        shards = iter(shards)
        first = next(shards, None)
        if first is None:
            return
        second = next(shards, None)
        if self.jobs <= 1 or second is None or not _shippable(process):
            yield from LocalExecutor().map_shards(process, [first] + ([] if second is None else [second]))
            yield from LocalExecutor().map_shards(process, shards)
            return
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        waiting = _chain(first, second, shards)
        with ProcessPoolExecutor(max_workers=self.jobs, mp_context=context, initializer=_install,
                                 initargs=(process,)) as pool:
            running: dict[Any, int] = {}
            for number, shard in waiting:
                running[pool.submit(_run_installed, shard)] = number
                if len(running) >= 2 * self.jobs:
                    yield from _finished(running, wait(running, return_when=FIRST_COMPLETED).done)
            while running:
                yield from _finished(running, wait(running, return_when=FIRST_COMPLETED).done)


def _chain(first: Any, second: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield second
    yield from rest


def _finished(running: dict[Any, int], done: set[Any]) -> Iterator[tuple[int, Any]]:
    """The finished futures' results in shard order (a worker's error raised here, in this process),
    the worker's CPU counted in the stages now timed (:mod:`.timings`: workers of a fork server are
    not this process's children, which ``getrusage`` would count)."""
    for future in sorted(done, key=running.__getitem__):
        number = running.pop(future)
        result, cpu = future.result()
        add_worker_cpu(cpu)
        yield number, result


def _quiet_ray() -> None:
    """Ray's own INFO logs and its C++ core's notes off: the build prints what a user needs."""
    import logging
    import os

    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
    os.environ.setdefault("RAY_DATA_LOG_LEVEL", "ERROR")
    logging.getLogger("ray").setLevel(logging.ERROR)


RAY_MISSING = 'the ray executor needs Ray, which is not installed: pip install "auto-challenge-sets[ray]"'


@dataclass
class RayExecutor:
    """The shards on a Ray cluster (see the module). ``address``: None starts a local cluster in
    this process (``ray.init()``), ``"auto"`` joins the one ``ray start`` runs on this machine, or
    ``ray://HOST:10001`` a remote one. The stage cache is written by this (the driver) process, so
    only it needs the cache folder; the workers need the models (the same paths, or Hub access)."""

    address: str | None = None
    workers: int = 2
    gpus_per_worker: float = 0.0

    def map_shards(self, process: Callable[[list], list], shards: Iterable[tuple[int, list]]) -> Iterator[tuple[int, list]]:
        items = [{"number": number, "shard": json.dumps(shard, ensure_ascii=False)} for number, shard in shards]
        if not items:
            return
        _quiet_ray()
        try:
            import numpy as np
            import ray
        except ImportError:
            from auto_challenge_sets.errors import AcsError

            raise AcsError(RAY_MISSING) from None
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        ray.data.DataContext.get_current().enable_progress_bars = False  # the stage cache has its own bar
        work = process

        class Worker:  # one per actor: the work (and so its backend's model) is made once per actor
            def __init__(self) -> None:
                self.work = work

            def __call__(self, batch: dict) -> dict:
                outputs = [json.dumps(self.work(json.loads(shard)), ensure_ascii=False) for shard in batch["shard"]]
                return {"number": batch["number"], "output": np.asarray(outputs, dtype=object)}

        dataset = ray.data.from_items(items, override_num_blocks=len(items))
        pool = ray.data.ActorPoolStrategy(min_size=1, max_size=min(self.workers, len(items)))
        mapped = dataset.map_batches(Worker, batch_size=1, compute=pool, batch_format="numpy",
                                     **({"num_gpus": self.gpus_per_worker} if self.gpus_per_worker else {}))
        for row in mapped.iter_rows():
            yield int(row["number"]), json.loads(row["output"])
