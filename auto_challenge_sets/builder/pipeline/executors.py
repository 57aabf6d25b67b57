"""Where the shards of a stage run: here, one after another, on worker processes, or on a Ray cluster.

An executor maps a stage's work over the pending shards and yields ``(shard, result)`` as each
one finishes, in any order; the stage cache writes each result as it comes, so a killed run keeps
every finished shard whichever executor ran it, and the assembled output does not depend on the
order (byte-identical folders from either executor).

- :class:`LocalExecutor`: in this process, in order.
- :class:`ProcessExecutor`, ``acs build``'s default (``--jobs N``, the cores this process may use):
  worker processes forked from this one, each making the stage's backend once.
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


# What the workers of a ProcessExecutor run: the stage's work, handed over by fork (scoring.forked)
# rather than pickled with every shard, so each worker makes its backend (loads its model) once.
_INHERITED: dict[str, Any] = {}


def _run_inherited(shard: list) -> list:
    work = _INHERITED["process"]
    if "own" not in _INHERITED:  # this worker's first shard (the dict is the worker's own copy after fork)
        _INHERITED["own"] = True
        if isinstance(work, ShardWork) and work.make is not None:
            # its own backend, not the parent's copied by fork: a model whose library keeps threads
            # (torch's OpenMP pool) may hang in a forked copy
            work._backend = None
    return work(shard)


@dataclass
class ProcessExecutor:
    """The shards on ``jobs`` worker processes forked from this one (``acs build --jobs N``). Each
    worker inherits the stage's work and makes its backend once, on its first shard (a
    :class:`ShardWork` whose backend is ready in this process inherits that one, copied by fork).
    At most two shards per worker are in flight, so the inputs are read as the workers need them.
    One job, one shard, or a platform without fork: in this process, as :class:`LocalExecutor`."""

    jobs: int = 2

    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        from auto_challenge_sets.scoring.forked import can_fork, forked_pool

        shards = iter(shards)
        first = next(shards, None)
        if first is None:
            return
        second = next(shards, None)
        if self.jobs <= 1 or second is None or not can_fork():
            yield from LocalExecutor().map_shards(process, [first] + ([] if second is None else [second]))
            yield from LocalExecutor().map_shards(process, shards)
            return
        waiting = _chain(first, second, shards)
        with forked_pool(self.jobs, _INHERITED, {"process": process}) as pool:
            running: dict[Any, int] = {}
            for number, shard in waiting:
                running[pool.submit(_run_inherited, shard)] = number
                if len(running) >= 2 * self.jobs:
                    yield from _finished(running, wait(running, return_when=FIRST_COMPLETED).done)
            while running:
                yield from _finished(running, wait(running, return_when=FIRST_COMPLETED).done)


def _chain(first: Any, second: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield second
    yield from rest


def _finished(running: dict[Any, int], done: set[Any]) -> Iterator[tuple[int, Any]]:
    """The finished futures' results in shard order (a worker's error raised here, in this process)."""
    for future in sorted(done, key=running.__getitem__):
        number = running.pop(future)
        yield number, future.result()


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
