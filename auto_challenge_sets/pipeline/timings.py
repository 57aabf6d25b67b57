"""Where a build's or an evaluation's time went (``--timings``): wall and CPU seconds per stage,
and what the stage handled. A stage is timed only while a recording is active (:func:`recording`).
CPU time is this process's and its children's, plus what worker processes report
(:func:`~auto_challenge_sets.workers.reported_cpu`); Ray's workers' is not counted.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from auto_challenge_sets.workers import reported_cpu


@dataclass
class StageTime:
    name: str
    wall: float = 0.0
    cpu: float = 0.0
    count: int | None = None  # what the stage handled, in ``unit``
    unit: str = ""
    worker_cpu: float = 0.0  # what fresh worker processes reported while the stage ran, part of ``cpu``


@dataclass
class Timings:
    stages: list[StageTime] = field(default_factory=list)

    def merged(self) -> list[StageTime]:
        """One entry per stage name, in the order of first use, adding up a stage run several times."""
        by_name: dict[str, StageTime] = {}
        for s in self.stages:
            total = by_name.setdefault(s.name, StageTime(s.name, unit=s.unit))
            total.wall, total.cpu = total.wall + s.wall, total.cpu + s.cpu
            if s.count is not None:
                total.count = (total.count or 0) + s.count
        return list(by_name.values())

    def lines(self) -> list[str]:
        """One line per stage, then the total: ``parse  12.3 s wall  20.1 s CPU  1,000 lines``."""
        stages = self.merged()
        width = max((len(s.name) for s in stages), default=5)
        rows = [*stages, StageTime("total", sum(s.wall for s in stages), sum(s.cpu for s in stages))]
        return [f"{s.name:<{max(width, 5)}}  {s.wall:7.2f} s wall  {s.cpu:7.2f} s CPU"
                + (f"  {s.count:,} {s.unit}" if s.count is not None else "") for s in rows]


_ACTIVE: ContextVar[Timings | None] = ContextVar("acs_build_timings", default=None)


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextmanager
def recording() -> Iterator[Timings]:
    """Record the stages run inside the block."""
    timings = Timings()
    token = _ACTIVE.set(timings)
    try:
        yield timings
    finally:
        _ACTIVE.reset(token)


@contextmanager
def stage(name: str, count: int | None = None, unit: str = "") -> Iterator[StageTime | None]:
    """Time the block as stage ``name`` when a recording is active (the block may set ``count`` on
    what it yields); otherwise yield None."""
    timings = _ACTIVE.get()
    if timings is None:
        yield None
        return
    timed = StageTime(name, count=count, unit=unit)
    wall, cpu, workers = time.perf_counter(), _cpu_seconds(), reported_cpu()
    try:
        yield timed
    finally:
        timed.worker_cpu = reported_cpu() - workers
        timed.wall, timed.cpu = time.perf_counter() - wall, _cpu_seconds() - cpu + timed.worker_cpu
        timings.stages.append(timed)
