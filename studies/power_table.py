"""The power a set of human-scored systems gives a Kendall τ: the τ needed for p < 0.05, and to
survive Benjamini–Hochberg over 30 configs alone (p < 0.05/30) or with a tenth of them
(p < 0.05·3/30), from τ's exact null distribution (``power.power``). No data needed.

    python studies/power_table.py [--write | --check]

``--write`` writes the table into its block of docs/method.md; ``--check`` exits 1 when that block
differs (the test suite runs it).
"""

from __future__ import annotations

import argparse
import sys

from stored_table import store_block_or_check

from auto_challenge_sets.evaluation.stats.power import power

NAME, SCRIPT = "power", "power_table.py"
FAMILY = 30
# one run of 5, 10, 11 (the paragraph-level year) and 19 systems (WMT21), and two pooled runs
SYSTEMS = ((5,), (10,), (11,), (19,), (10, 9), (19, 19))


def _tau(value: float | None) -> str:
    return "none" if value is None else f"{value:.2f}"


def render() -> str:
    lines = [f"| systems | p < 0.05 | BH over {FAMILY}, alone | BH over {FAMILY}, with {max(1, FAMILY // 10)} |",
             "|---|---:|---:|---:|"]
    for systems in SYSTEMS:
        found = power(systems, FAMILY)
        label = str(systems[0]) if len(systems) == 1 else " + ".join(map(str, systems)) + " (pooled)"
        lines.append(f"| {label} | {_tau(found.single)} | {_tau(found.alone)} | {_tau(found.with_tenth)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    return store_block_or_check(render(), NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
