"""What N processes can gain on this machine right now: the speed-up of N copies of one fixed,
CPU-bound piece of pure Python run at once against one copy alone, measured in the benchmark's own
run (``bench_build.py``, ``bench_scale.py``).

Why: issue 37's targets for ``--jobs 2`` (0.6x the wall of ``--jobs 1``, the 100k build within
1.5x of a single-process pass) assume two idle cores. On a shared machine, or where the two vCPUs
are one physical core's two hardware threads, two processes do not get twice the work done, and
no build can do better than the machine does on work that needs no coordination at all. This
prints that ceiling beside the build's ratio, so a reader can tell the build's overhead from the
machine's.

    python benchmarks/parallel_capacity.py [--processes 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time

_STEPS = 4_000_000  # about half a second of one core: long enough to outlast a scheduler tick


def _spin(_: int = 0) -> float:
    """A fixed amount of pure-Python arithmetic (no memory traffic, no GIL shared: one process
    each); its wall seconds."""
    start = time.perf_counter()
    total = 0
    for i in range(_STEPS):
        total += i * i % 7
    return time.perf_counter() - start


def capacity(processes: int = 2, repeats: int = 3) -> float:
    """The speed-up of ``processes`` copies of :func:`_spin` at once over one copy alone: ``processes``
    on ``processes`` idle cores, less where the cores are shared or busy. Each side keeps its fastest
    of ``repeats`` (this machine's speed drifts), alternating."""
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    alone, together = [], []
    with context.Pool(processes) as pool:
        pool.map(_spin, range(processes))  # the workers started and warm before anything is timed
        for _ in range(repeats):
            alone.append(pool.apply(_spin))
            start = time.perf_counter()
            pool.map(_spin, range(processes), chunksize=1)
            together.append(time.perf_counter() - start)
    return processes * min(alone) / min(together)


def describe(processes: int = 2) -> str:
    """One line for a benchmark's output: the measured capacity and the load beside it."""
    return (f"this machine now: {processes} processes of pure CPU work do {capacity(processes):.2f}x the work of one "
            f"(ideal {processes:.2f}x on {processes} idle cores; {len(os.sched_getaffinity(0))} cores usable, "
            f"load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    print(describe(parser.parse_args().processes))
