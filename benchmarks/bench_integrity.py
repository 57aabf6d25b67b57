"""The integrity check's cost as a folder grows: `acs stats` and `acs publish --dry-run` of a folder
built with many `--rule`s (each rule adds six configs, d0..d5), against the same commands on a
folder built with few, in one run.

    python benchmarks/bench_integrity.py [--many 1000] [--few 10]

Prints the wall and CPU time of each command on both folders and the ratio many / few (target of
issue 38: `acs stats` within 2x). Every command checks
the folder's Parquet files against its build record and the card's data_files first
(auto_challenge_sets/dataset/integrity.py); with the check grouped once per config the ratio stays
near the ratio of the work that must grow with the files (reading each footer). Uses the bundled
demo sample (gold CoNLL-U, hand alignment): no ../shared needed.
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


def timed(argv: list[str], cwd: Path, cpu: dict[str, float] | None = None, key: str = "") -> float:
    """The command's wall time; its CPU time (user + system) into ``cpu[key]``, which a loaded
    machine inflates less than the wall time."""
    started, cpu_before = time.perf_counter(), _children_cpu()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - started
    if cpu is not None:
        cpu[key] = _children_cpu() - cpu_before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--many", type=int, default=1000, help="rules of the large folder")
    parser.add_argument("--few", type=int, default=10, help="rules of the small folder")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-integrity-"))
    try:
        times: dict[str, dict[str, float]] = {}
        for label, rules in (("few", args.few), ("many", args.many)):
            out = root / f"sets-{label}"
            row = times[label] = {"build": build(out, rules)}
            configs = sum(1 for _ in (out / "data").iterdir())
            row["configs"] = configs
            cpu: dict[str, float] = {}
            row["acs stats"] = timed([str(BIN / "acs"), "stats", str(out)], root, cpu, "acs stats (CPU)")
            row["acs publish --dry-run"] = timed([str(BIN / "acs"), "publish", str(out), "--repo-id", "x/y",
                                                  "--dry-run"], root, cpu, "acs publish --dry-run (CPU)")
            row.update(cpu)
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'':30} {'few':>9} {'many':>9} {'ratio':>7}")
        for key in ("configs", "build", "acs stats", "acs stats (CPU)", "acs publish --dry-run",
                    "acs publish --dry-run (CPU)"):
            few, many = times["few"][key], times["many"][key]
            unit = "" if key == "configs" else " s"
            print(f"{key:30} {few:9.2f}{unit} {many:9.2f}{unit} {many / few:7.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
