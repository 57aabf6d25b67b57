"""A newcomer's first minutes, timed: the steps tests/test_newcomer.py checks (docs/timings.md's
table: `acs demo`, loading by bare name, `acs doctor` and the default `acs build` without models or
network), each in a fresh process in an empty folder with an empty home, against the bare start of
the same interpreter and of `acs --help` measured in the same run.

    python benchmarks/bench_newcomer.py [--repeat 3]

Prints each step's median wall time and its ratio to `acs --help` (a step's own work beyond
starting Python and importing the CLI). The default build's ratio is the one that matters: it must
decide without the network in about the time of a start (no Hub retries). The test asserts only
what each step prints and its exit status; times live here because CI runs on a busy machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_newcomer import BIN, STEPS, newcomer_folders  # noqa: E402  (the same steps the test runs)

BASELINES = [
    ("python -c pass", [sys.executable, "-c", "pass"], 0),
    ("acs --help", [str(BIN / "acs"), "--help"], 0),
]


def _run_all(steps: list, root: Path) -> dict[str, float]:
    work, env = newcomer_folders(root)
    took = {}
    for name, argv, status in steps:
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        took[name] = time.perf_counter() - started
        if done.returncode != status:
            raise SystemExit(f"{name}: exit {done.returncode}, expected {status}\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of every step (median reported)")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        root = Path(tempfile.mkdtemp(prefix="bench-newcomer-"))
        try:
            for name, seconds in _run_all(BASELINES + STEPS, root).items():
                runs.setdefault(name, []).append(seconds)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    median = {name: statistics.median(times) for name, times in runs.items()}
    start = median["acs --help"]
    print(f"load average {os.getloadavg()[0]:.1f}; median of {args.repeat} runs; ratio = step / `acs --help`")
    print(f"{'step':<16} {'seconds':>8} {'ratio':>7}")
    for name, seconds in median.items():
        print(f"{name:<16} {seconds:8.2f} {seconds / start:7.2f}")
    total = sum(median[name] for name, _, _ in STEPS)
    print(f"{'quick start':<16} {total:8.2f} {total / start:7.2f}   (every step above but the baselines)")


if __name__ == "__main__":
    main()
