"""The integrity check's cost as a folder grows: `acs stats` and `acs publish --dry-run` of a folder
built with many `--rule`s (each rule adds six configs, d0..d5), against the same commands on a
folder built with few, in one run.

    python benchmarks/bench_integrity.py [--many 1000] [--few 10] [--folders DIR] [--repeat N] [--no-publish]

Prints the wall and CPU time of each command on both folders and the ratio many / few (target of
issue 38: `acs stats` within 2x), cold (a new footer cache for every run: what a folder's first
command costs) and warm (the footers and the card check's key kept by an earlier command:
dataset/footers.py). Every command checks the folder's Parquet files against its build record and
the card's data_files first (auto_challenge_sets/dataset/integrity.py); with the check grouped once
per config the ratio stays near the ratio of the work that must grow with the files (listing
data/, one stat per file). Both folders' commands pay the same start (about 0.25 s: the CLI
imports the evaluation engine), which is in the ratio. Uses the bundled
demo sample (gold CoNLL-U, hand alignment): no ../shared needed.

``--folders DIR`` keeps the two folders in DIR (``sets-few``, ``sets-many``) and times the ones
already there instead of building them again (the build of 1,000 rules takes minutes on a busy
machine): before and after a change, the same folders. ``--repeat N`` runs each command N times,
the two folders in turn, and keeps the fastest (wall and CPU apart), which a loaded machine
disturbs least.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import auto_challenge_sets

BIN = Path(sys.executable).parent
DEMO = Path(auto_challenge_sets.__file__).resolve().parent / "demo_data"
UPOS = ("NOUN", "VERB", "ADJ", "ADV", "PRON", "DET", "ADP", "AUX", "PROPN", "NUM")


def build(out: Path, rules: int) -> float:
    argv = [str(BIN / "acs"), "build", "--pair", "de-en", "--corpus", "sample", "--quiet",
            "--source", str(DEMO / "sample.de"), "--target", str(DEMO / "sample.en"),
            "--source-conllu", str(DEMO / "sample.de.conllu"), "--parser", "conllu",
            "--alignment", str(DEMO / "sample.de-en.pharaoh"), "--out", str(out)]
    for i in range(rules):
        argv += ["--rule", f"name=rule{i} upos={UPOS[i % len(UPOS)]}"]
    return timed(argv, out.parent)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], cwd: Path, cpu: dict[str, float] | None = None, key: str = "",
          cache: Path | None = None) -> float:
    """The command's wall time; its CPU time (user + system) into ``cpu[key]``, which a loaded
    machine inflates less than the wall time. ``cache``: its ACS_CACHE_DIR (default: a new one)."""
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as new:
        env = {**os.environ, "ACS_CACHE_DIR": str(cache or new)}
        started, cpu_before = time.perf_counter(), _children_cpu()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
        took = time.perf_counter() - started
        if cpu is not None:
            cpu[key] = _children_cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return took


def _keep_fastest(row: dict[str, float], key: str, command: list[str], root: Path, cache: Path | None) -> None:
    """One run of the command; its wall and CPU time kept in ``row`` where less than those kept."""
    cpu: dict[str, float] = {}
    wall = timed(command, root, cpu, "cpu", cache)
    row[key] = min(wall, row.get(key, wall))
    row[f"{key} (CPU)"] = min(cpu["cpu"], row.get(f"{key} (CPU)", cpu["cpu"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--many", type=int, default=1000, help="rules of the large folder")
    parser.add_argument("--few", type=int, default=10, help="rules of the small folder")
    parser.add_argument("--folders", type=Path, help="keep the folders here, and time those already built here")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command; the fastest is kept")
    parser.add_argument("--no-publish", action="store_true", help="time `acs stats` alone")
    args = parser.parse_args()
    root = args.folders or Path(tempfile.mkdtemp(prefix="bench-integrity-"))
    root.mkdir(parents=True, exist_ok=True)
    commands = {"acs stats": ["stats", "{out}"]}
    if not args.no_publish:
        commands["acs publish --dry-run"] = ["publish", "{out}", "--repo-id", "x/y", "--dry-run"]
    try:
        times: dict[str, dict[str, float]] = {}
        folders = {}
        for label, rules in (("few", args.few), ("many", args.many)):
            out = folders[label] = root / f"sets-{label}"
            times[label] = {"build": float("nan") if args.folders and out.is_dir() else build(out, rules),
                            "configs": sum(1 for _ in (out / "data").iterdir())}
        with tempfile.TemporaryDirectory(prefix="bench-cache-") as warm:
            # the two folders in turn within each round, the fastest of the rounds kept: a machine
            # whose speed drifts (shared, or its clock scaled) then slows both alike
            for _ in range(args.repeat):
                for label, out in folders.items():
                    for key, argv in commands.items():
                        command = [str(BIN / "acs"), *(a.format(out=out) for a in argv)]
                        _keep_fastest(times[label], f"{key}, cold", command, root, None)
                        cache = Path(warm) / label
                        if not cache.is_dir():
                            cache.mkdir()
                            timed(command, root, cache=cache)  # keeps the footers
                        _keep_fastest(times[label], f"{key}, warm", command, root, cache)
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'':30} {'few':>9} {'many':>9} {'ratio':>7}")
        for key in ("configs", "build", *[f"{c}, {t}{cpu}" for c in commands for t in ("cold", "warm")
                                          for cpu in ("", " (CPU)")]):
            few, many = times["few"][key], times["many"][key]
            unit = "" if key == "configs" else " s"
            print(f"{key:30} {few:9.2f}{unit} {many:9.2f}{unit} {many / few:7.2f}")
    finally:
        if not args.folders:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
