"""Worker processes forked from this one, for work whose inputs are large or slow to pickle: the
scorers with their tokenizers (:mod:`.statistics`), a run's metrics (the evaluation engine). A
forked worker inherits them from the parent's memory; only each task's arguments and results are
pickled. ``concurrent.futures`` offers the fork context but not the hand-over of such state; this
module does it once for both callers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def can_fork() -> bool:
    """Whether this process may fork workers: the platform offers fork, and this process is not a
    worker itself (a worker that forks again multiplies the processes on the same cores)."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods() and multiprocessing.parent_process() is None


@contextmanager
def forked_pool(jobs: int, inherited: dict, state: Mapping[str, object]) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` processes forked from this one, in which ``inherited`` (a module-level
    dict that the task functions read) holds ``state``. ``inherited`` is emptied when the pool
    closes, after an error too, so that the parent does not keep a run's inputs alive."""
    import multiprocessing

    inherited.clear()
    inherited.update(state)
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            yield pool
    finally:
        inherited.clear()
