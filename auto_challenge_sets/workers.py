"""Worker processes: the one way this package uses more than one core (``acs build --jobs``,
``acs evaluate --jobs``). :func:`imap` maps a function over items on a ``concurrent.futures``
process pool and hands the results back in the items' order (or, ``ordered=False``, as each finishes);
:func:`one_blas_thread` keeps BLAS's own threads to one where they cost more than they save.

The function, with what it holds (the run's metrics, a build stage's work that makes its model),
goes to each worker once, when the worker starts; each item goes with its task. Workers are

- forked (the default): they inherit the function from this process's memory, so it need not be
  picklable (a plug-in metric registered in this process and its settings);
- or ``fresh``: started by a fork server, processes that have not imported this one's libraries.
  The build's stages use them: a worker forked from a process that ran torch (a trankit parse)
  hung in torch's thread pool. Their function is pickled; one that cannot be runs in this process.

A worker exits when this process dies, even by SIGKILL: a killed run leaves nothing running; the
workers are killed when :func:`imap` ends (a stopped one would never exit).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from itertools import chain, islice
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_FRESH_CPU = [0.0]  # CPU seconds that fresh workers reported: see reported_cpu
_FUNCTION: list[Callable[[Any], Any]] = []  # in a worker: the function it applies
_REPORTED = [0.0]  # in a worker: its CPU seconds when it last reported


def cores() -> int:
    """The cores this process may run on (the default number of workers)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@cache
def _blas():
    """threadpoolctl's controller, found once: finding the libraries reads the process's maps."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread():
    """A context in which BLAS runs on one thread: for thin products (trials or corpora x rows times
    rows x a few statistics), where OpenBLAS's threads over every core wait on each other far longer
    than one thread takes."""
    return _blas().limit(limits=1, user_api="blas")


def reported_cpu() -> float:
    """The CPU seconds that this process's fresh workers have spent so far. A fork server's workers
    are not this process's children, so ``getrusage`` never counts them; each reports its own with
    every result. (Forked workers are children: ``getrusage`` counts them once the pool joins them.)"""
    return _FRESH_CPU[0]


class WorkerLost(BrokenProcessPool):
    """A worker process died, or was killed after its item's time-out: ``items``, those then unfinished."""

    def __init__(self, reason: str, items: list) -> None:
        super().__init__(reason)
        self.items = items


def imap(function: Callable[[T], R], items: Iterable[T], jobs: int, *, fresh: bool = False,
         ordered: bool = True, timeout: Callable[[T], float] | None = None) -> Iterator[R]:
    """``function(item)`` for every item, in order (or as each finishes), on ``jobs`` worker
    processes (see the module). At most two items per worker are in flight, so a long iterable is
    read as the workers need it; a worker's error is raised here when its item's turn comes (or it
    finishes), and the items not yet started are dropped. ``timeout(item)``: the seconds the workers
    may go without a result while the item is in flight; then, as when a worker dies,
    :class:`WorkerLost` is raised. In this process: one job, fewer than two items,
    or a platform without the start method."""
    items = iter(items)
    first = list(islice(items, 2 * jobs)) if jobs > 1 else []  # fewer items than jobs: fewer workers
    method = "forkserver" if fresh else "fork"
    if (len(first) < 2 or method not in multiprocessing.get_all_start_methods()
            or (fresh and not _picklable(function))):
        yield from map(function, chain(first, items))
        return
    if fresh:
        _quiet_tracker()
    pool = ProcessPoolExecutor(min(jobs, len(first)), mp_context=multiprocessing.get_context(method),
                               initializer=_start, initargs=(function,))
    running: dict[Future, T] = {}  # the items in flight, in the order submitted
    try:
        for item in first:
            running[pool.submit(_apply, item)] = item
        while running:
            bound = max(map(timeout, running.values())) if timeout else None
            done, _ = wait([next(iter(running))] if ordered else running, bound, FIRST_COMPLETED)
            if not done:
                raise WorkerLost(f"a worker process gave no result in {bound:.0f} s (stopped? ACS_SHARD_SECONDS "
                                 "sets the bound)", list(running.values()))
            for future in done:
                result, cpu = future.result()
                if fresh:  # a fork server's worker is no child of this process: getrusage misses it
                    _FRESH_CPU[0] += cpu
                del running[future]
                running.update((pool.submit(_apply, item), item) for item in islice(items, 1))
                yield result
    except WorkerLost:
        raise
    except BrokenProcessPool:
        raise WorkerLost("a worker process died (killed?)", list(running.values())) from None
    finally:
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
        if fresh:
            _quiet_tracker()
        pool.shutdown(wait=True, cancel_futures=True)


def _quiet_tracker() -> None:
    """Start multiprocessing's resource tracker, or start it again if it was killed, with its stderr
    and the warning it gives to /dev/null: a tracker started again prints a traceback for each
    semaphore that the pool gives back, having never seen it made."""
    import sys
    import warnings
    from multiprocessing import resource_tracker

    sys.stderr.flush()
    saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _picklable(function: Any) -> bool:
    import pickle

    try:
        pickle.dumps(function)
    except Exception:  # noqa: BLE001 - pickle raises TypeError, AttributeError, PicklingError...
        return False
    return True


def _start(function: Callable[[Any], Any]) -> None:
    """A worker's start: keep the function, and exit when the parent dies."""
    import threading

    _FUNCTION[:] = [function]
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _exit_with(parent: Any) -> None:
    parent.join()  # returns when the parent has exited, however it ended
    os._exit(1)


def _apply(item: Any) -> tuple[Any, float]:
    """The item's result, and the worker's CPU seconds since it last reported (its start and
    imports, the first time)."""
    import resource

    result = _FUNCTION[0](item)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    spent, _REPORTED[0] = usage.ru_utime + usage.ru_stime - _REPORTED[0], usage.ru_utime + usage.ru_stime
    return result, spent
