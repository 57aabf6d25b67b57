"""Whether `acs stats` stays linear in a folder's files: the command on folders built with few, a
middle number of and many `--rule`s (each rule adds six configs, d0..d5), in one run.

    python benchmarks/bench_integrity.py [--few 10] [--many 1000] [--folders DIR] [--repeat N]

Every `acs stats` checks each data file against the build record (a stat and the Parquet footer)
and the card's data_files against the recorded files, grouped by config and split
(auto_challenge_sets/dataset/integrity.py). Prints, per folder, its configs and files, the wall and
CPU time of the command and the CPU time per file; then the marginal CPU time per file from few to
middle and from middle to many, and their ratio: about 1 where the cost is linear in the files
(a cost in configs × files would make it about 3, the middle folder being halfway). The fixed
start of the command (imports) is in every folder's time and out of the marginal ones. Uses the
bundled demo sample (gold CoNLL-U, hand alignment): no ../shared needed.

``--folders DIR`` keeps the folders in DIR (``sets-<rules>``) and times those already there
instead of building them again. ``--repeat N`` runs the command N times per folder, the folders in
turn, and keeps the fastest, which a loaded machine disturbs least.
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


def run(argv: list[str], cwd: Path) -> tuple[float, float]:
    """The command's wall and CPU time (user + system, which a loaded machine inflates less)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def build(out: Path, rules: int) -> None:
    argv = [str(BIN / "acs"), "build", "--pair", "de-en", "--corpus", "sample", "--quiet",
            "--source", str(DEMO / "sample.de"), "--target", str(DEMO / "sample.en"),
            "--source-conllu", str(DEMO / "sample.de.conllu"), "--parser", "conllu",
            "--alignment", str(DEMO / "sample.de-en.pharaoh"), "--out", str(out)]
    for i in range(rules):
        argv += ["--rule", f"name=rule{i} upos={UPOS[i % len(UPOS)]}"]
    run(argv, out.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--few", type=int, default=10, help="rules of the small folder")
    parser.add_argument("--many", type=int, default=1000, help="rules of the large folder (the middle one: half)")
    parser.add_argument("--folders", type=Path, help="keep the folders here, and time those already built here")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the command per folder; the fastest is kept")
    args = parser.parse_args()
    root = args.folders or Path(tempfile.mkdtemp(prefix="bench-integrity-"))
    root.mkdir(parents=True, exist_ok=True)
    sizes = (args.few, (args.few + args.many) // 2, args.many)
    try:
        folders = {rules: root / f"sets-{rules}" for rules in sizes}
        for rules, out in folders.items():
            if not out.is_dir():
                build(out, rules)
        best: dict[int, tuple[float, float]] = {}
        for _ in range(args.repeat):  # the folders in turn: a machine whose speed drifts slows all alike
            for rules, out in folders.items():
                wall, cpu = run([str(BIN / "acs"), "stats", str(out)], root)
                kept = best.get(rules, (wall, cpu))
                best[rules] = (min(wall, kept[0]), min(cpu, kept[1]))
        files = {rules: sum(1 for _ in (out / "data").glob("*/*.parquet")) for rules, out in folders.items()}
        print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())} ({os.cpu_count()} CPUs)")
        print(f"{'rules':>6} {'configs':>8} {'files':>7} {'wall s':>8} {'CPU s':>8} {'CPU ms/file':>12}")
        for rules, out in folders.items():
            wall, cpu = best[rules]
            configs = sum(1 for _ in (out / "data").iterdir())
            print(f"{rules:6d} {configs:8d} {files[rules]:7d} {wall:8.2f} {cpu:8.2f} {1000 * cpu / files[rules]:12.2f}")
        few, middle, many = sizes
        first = (best[middle][1] - best[few][1]) / (files[middle] - files[few])
        second = (best[many][1] - best[middle][1]) / (files[many] - files[middle])
        print(f"marginal CPU per file: {1000 * first:.3f} ms ({few}->{middle} rules), {1000 * second:.3f} ms "
              f"({middle}->{many} rules); ratio {second / first:.2f} (linear: about 1)")
    finally:
        if not args.folders:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
