"""Where the shards of a stage run: worker processes on this machine (:class:`ProcessExecutor`,
``--jobs N``) or a Ray cluster (:class:`RayExecutor`, the optional extra ``[ray]``).

An executor yields ``(shard, result)`` in any order; the stage cache writes each result as it
comes, so a killed run keeps every finished shard and the output does not depend on the executor.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.workers import imap

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        """``(shard number, process(shard))`` for every shard, as each one finishes."""
        ...


class ShardWork:
    """A stage's work on one shard: ``apply(backend, shard)``. In this process the backend is
    ``ready``; pickled for another, it travels as ``make``, and that process makes it once."""

    def __init__(self, make: Callable[[], Any] | None, apply: Callable[[Any, list], list], ready: Any = None):
        self.make, self.apply, self._backend = make, apply, ready

    def __call__(self, shard: list) -> list:
        if self._backend is None:
            self._backend = self.make()
        return self.apply(self._backend, shard)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_backend": None if self.make is not None else self._backend}


@dataclass
class ProcessExecutor:
    """The shards on ``jobs`` fresh worker processes (:func:`~auto_challenge_sets.workers.imap`), each
    handed back as it finishes; with one job, or a work with no ``make``, in this process, in order."""

    jobs: int

    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        jobs = 1 if isinstance(process, ShardWork) and process.make is None else self.jobs
        yield from imap(functools.partial(_numbered, process), shards, jobs, fresh=True, ordered=False,
                        timeout=_shard_seconds)


def _shard_seconds(item: tuple[int, list]) -> float:
    """How long the workers may go without a result while a shard is in flight before they count as
    stopped: $ACS_SHARD_SECONDS, else 10 minutes (a fresh worker loads its model first) and 5 s an item."""
    value = os.environ.get("ACS_SHARD_SECONDS", "")
    if not value:
        return 600 + 5 * len(item[1])
    if not value.isdecimal() or not value.isascii() or int(value) < 1:
        raise AcsError(f"ACS_SHARD_SECONDS={value!r}: give a whole number of seconds, at least 1")
    return int(value)


def _numbered(process: Callable[[Any], Any], item: tuple[int, Any]) -> tuple[int, Any]:
    """The shard's number with its result (the results come as each shard finishes)."""
    number, shard = item
    return number, process(shard)


RAY_MISSING = 'the ray executor needs Ray, which is not installed: pip install "auto-challenge-sets[ray]"'


@dataclass
class RayExecutor:
    """The shards as a Ray Data dataset mapped by ``workers`` actors, each making the backend once (a
    GPU each with ``gpus_per_worker``). ``address``: None starts a local cluster, ``"auto"`` joins
    this machine's, ``ray://HOST:10001`` a remote one. Only this (the driver) process writes the
    stage cache; the workers need the models."""

    address: str | None = None
    workers: int = 2
    gpus_per_worker: float = 0.0

    def map_shards(self, process: Callable[[list], list], shards: Iterable[tuple[int, list]]) -> Iterator[tuple[int, list]]:
        items = [{"number": number, "shard": json.dumps(shard, ensure_ascii=False)} for number, shard in shards]
        if not items:
            return
        # Ray's own INFO logs and its C++ core's notes off: the build prints what a user needs
        os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
        os.environ.setdefault("RAY_DATA_LOG_LEVEL", "ERROR")
        logging.getLogger("ray").setLevel(logging.ERROR)
        try:
            import numpy as np
            import ray
        except ImportError:
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
