"""The mutation score of `make mutate`, per module and overall, from mutmut's results.

    python mutation/score.py [MODULE ...]    # e.g. formats.conllu scoring.metrics.bleu (default: all)

Reads ``mutmut results --all true`` (run where mutmut ran) and ``mutation/equivalent.md``, whose
lines ``- `MUTANT` — reason`` name the surviving mutants that no test can kill because they do
not change what the code does. The score of a module is killed / (mutants − equivalent), a
timeout counting as killed and a mutant no selected test reaches ("no tests") as not killed.
Prints a table, the survivors not listed as equivalent, and listed mutants that no longer
survive; exits 1 when the overall score is under ``--min`` (90 by default).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "auto_challenge_sets."
KILLED = {"killed", "timeout", "segfault", "caught by type check"}
_EQUIVALENT = re.compile(r"^\s*[-*]\s+`([^`]+)`")
_RESULT = re.compile(r"^\s+(\S+): (.+)$")


def equivalents(path: Path = HERE / "equivalent.md") -> set[str]:
    return {m.group(1) for line in path.read_text(encoding="utf-8").splitlines() if (m := _EQUIVALENT.match(line))}


def results() -> dict[str, str]:
    text = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], check=True,
                          capture_output=True, text=True).stdout
    return {m.group(1): m.group(2) for line in text.splitlines() if (m := _RESULT.match(line))}


def module_of(mutant: str) -> str:
    """``auto_challenge_sets.scoring.metrics.ribes.x_align__mutmut_3`` → ``scoring.metrics.ribes``."""
    return re.split(r"\.x[_ǁ]", mutant, maxsplit=1)[0].removeprefix(PACKAGE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to report (default: every mutated one)")
    parser.add_argument("--min", type=float, default=90.0, help="the lowest passing overall score, in %%")
    args = parser.parse_args(argv)
    found = results()
    if args.modules:
        found = {k: v for k, v in found.items() if module_of(k) in args.modules}
    listed = equivalents()
    counts: dict[str, Counter] = defaultdict(Counter)
    unlisted, stale = [], sorted(name for name in listed if found.get(name, "survived") != "survived"
                                 and (not args.modules or module_of(name) in args.modules))
    for name, status in found.items():
        kind = "killed" if status in KILLED else "equivalent" if name in listed else status
        counts[module_of(name)][kind] += 1
        if kind in ("survived", "no tests", "suspicious", "not checked"):
            unlisted.append(f"{name}: {status}")
    print(f"{'module':<40} {'mutants':>7} {'killed':>6} {'equiv.':>6} {'left':>5} {'score':>7}")
    total = Counter()
    for module in sorted(counts):
        total.update(counts[module])
        print(_row(module, counts[module]))
    print(_row("all", total))
    if unlisted:
        print(f"\n{len(unlisted)} mutants neither killed nor listed in mutation/equivalent.md "
              "(`mutmut show NAME` prints one):")
        print("\n".join(f"  {line}" for line in sorted(unlisted)))
    if stale:
        print("\nlisted as equivalent but not surviving (remove them from mutation/equivalent.md):")
        print("\n".join(f"  {name}: {found.get(name, 'not found')}" for name in stale))
    return 0 if _score(total) >= args.min else 1


def _score(count: Counter) -> float:
    considered = sum(count.values()) - count["equivalent"] - count["skipped"]
    return 100.0 * count["killed"] / considered if considered else 100.0


def _row(name: str, count: Counter) -> str:
    mutants = sum(count.values())
    left = mutants - count["killed"] - count["equivalent"] - count["skipped"]
    return f"{name:<40} {mutants:>7} {count['killed']:>6} {count['equivalent']:>6} {left:>5} {_score(count):>6.1f}%"


if __name__ == "__main__":
    sys.exit(main())
