"""CI's slow tier (`make check-docs`, run by .ci/run after `make test`): every stored measured table
regenerated and compared with the committed text, the expensive ones included: each block of
docs/method.md and README.md (``<!-- table NAME: written by studies/SCRIPT --write -->``) and the
tables every dataset card includes (auto_challenge_sets/dataset/*.md). The WMT21 de-en builds (studies/wmt21.py,
without and with eflomal priors) are made once, into ``--work``, for every check that reads them.

    python studies/check_docs.py [--shared ../shared] [--work DIR] [--only NAME,...] [--write]

Without ../shared there is nothing to measure on: it says so and exits 0. Each check's wall and CPU
seconds (near what a quiet machine takes) and the machine's load (``uptime``) are printed; a table that differs is named, and the exit status is 1.
A stale table is written anew with its script's ``--write`` (the same arguments).

The tables on eflomal's links (WMT21's, newstest2013's reorder counts) are compared exactly: eflomal's
seeded links repeat on one machine but differ from one CPU to another (pip builds it with
``-march=native``; only reorder_targets.py states a spread), so they are written on the machine that
checks them.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stored_table import REPO
from wmt21 import build

# (the table(s) a check compares, its script, its arguments): {shared}, {wmt21}, {sets}, {sets_priors}
CHECKS = [
    ("power", "power_table.py", []),
    ("gold-pud-counts", "gold_counts.py", ["--shared", "{shared}"]),
    ("extraction_quality.md", "extraction_quality.py", ["--shared", "{shared}"]),
    ("extraction_precision.md", "language_precision.py", ["--shared", "{shared}"]),
    ("extraction_recall.md", "language_recall.py", ["--shared", "{shared}"]),
    ("reorder-counts, reorder_quality.md", "reorder_measures.py", ["--shared", "{shared}"]),
    ("reorder-targets", "reorder_targets.py", ["--shared", "{shared}"]),
    ("full-test-clusters", "full_test_clusters.py", ["--shared", "{shared}", "--dataset", "{sets}"]),
    ("segment-intervals", "segment_intervals.py", ["--dataset", "{sets}", "--wmt21", "{wmt21}"]),
    ("targeted-match", "targeted_validity.py", ["--dataset", "{sets}", "--wmt21", "{wmt21}", "--table"]),
    ("targeted-control", "targeted_control.py", ["--shared", "{shared}", "--dataset", "{sets}"]),
    ("human-agreement", "human_agreement.py",
     ["--shared", "{shared}", "--dataset", "{sets}", "--dataset-priors", "{sets_priors}"]),
    ("readme-excerpt", "readme_excerpt.py", ["--shared", "{shared}", "--dataset", "{sets}"]),
    ("paragraph-baseline", "paragraph_baseline.py", ["--dataset", "{sets}"]),  # ../shared: ACS_SHARED_DIR
]
NEEDS_BUILD = {"{sets}", "{sets_priors}"}


def _cpu() -> float:
    """CPU seconds of this process and of its finished children: near the wall time a quiet machine takes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(shared: Path, work: Path, only: set[str] | None, mode: str = "--check") -> int:
    chosen = [c for c in CHECKS if only is None or c[0] in only or c[1] in only]
    places = {"{shared}": shared, "{wmt21}": shared / "data" / "wmt21",
              "{sets}": work / "sets", "{sets_priors}": work / "sets-priors"}
    print(f"load before: {_uptime()}", flush=True)
    timings: list[tuple[str, float, float, str]] = []
    needed = {arg for _, _, args in chosen for arg in args} & NEEDS_BUILD
    for key in sorted(needed):
        start, cpu = time.perf_counter(), _cpu()
        build(shared, places[key], priors=key == "{sets_priors}")
        timings.append((f"WMT21 build ({'priors' if key == '{sets_priors}' else 'no priors'})",
                        time.perf_counter() - start, _cpu() - cpu, "built"))
        print(f"{timings[-1][0]}: {timings[-1][1]:.0f} s", flush=True)
    failed = []
    env = {**os.environ, "ACS_SHARED_DIR": str(shared),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    for name, script, args in chosen:
        command = [sys.executable, str(REPO / "studies" / script), mode,
                   *(str(places.get(arg, arg)) for arg in args)]
        start, cpu = time.perf_counter(), _cpu()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO)
        seconds = time.perf_counter() - start
        status = "ok" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
        timings.append((name, seconds, _cpu() - cpu, status))
        print(f"{name} (studies/{script}): {status}, {seconds:.0f} s", flush=True)
        if done.returncode:
            failed.append(name)
            print(done.stderr[-3000:], file=sys.stderr, flush=True)
    print(f"\nload after: {_uptime()}\n\n| check | wall s | CPU s | result |\n|---|---:|---:|---|")
    for name, seconds, cpu, status in timings:
        print(f"| {name} | {seconds:.0f} | {cpu:.0f} | {status} |")
    print(f"| total | {sum(t[1] for t in timings):.0f} | {sum(t[2] for t in timings):.0f} | |")
    if failed:
        print(f"\ntables that differ from a fresh measurement: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--work", type=Path, help="where the WMT21 builds go (kept; default: a temporary folder)")
    parser.add_argument("--only", help="the checks to run, by table or script name, comma-separated")
    parser.add_argument("--write", action="store_true", help="write the tables anew (each script's --write) instead of comparing")
    args = parser.parse_args()
    if not (args.shared / "data" / "wmt21").is_dir():
        print(f"{args.shared}/data/wmt21 is absent: the measured tables are not checked (the slow tier skips)")
        return 0
    only = None if args.only is None else set(args.only.split(","))
    mode = "--write" if args.write else "--check"
    shared = args.shared.resolve()
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        return run(shared, args.work.resolve(), only, mode)
    with tempfile.TemporaryDirectory() as work:
        return run(shared, Path(work), only, mode)


if __name__ == "__main__":
    sys.exit(main())
