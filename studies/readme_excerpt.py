"""README.md's excerpt of what `acs evaluate` prints on the WMT21 study: the command run on the
shared WMT21 build (studies/wmt21.py: UDPipe + eflomal seed 1, as the README's `acs build`), its 19
systems, every config, and the lines the README shows kept (full-test BLEU's ranking, four
phenomena of the summary table, the count of flagged configs).

    python studies/readme_excerpt.py [--shared ../shared] [--dataset DIR] [--write | --check]

``--dataset``: the build (made first in a temporary folder when not given). ``--write`` writes the
excerpt into its block of README.md; ``--check`` exits 1 when that block differs. Minutes: the
evaluation draws 100 random corpora per config and runs the paired tests.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from stored_table import REPO, store_block_or_check
from wmt21 import PAIR, SPLIT, build, systems

NAME, SCRIPT = "readme-excerpt", "readme_excerpt.py"
PHENOMENA = ("aux_bracket", "particle", "reorder", "verb_final")


def excerpt(printed: str) -> str:
    lines = printed.splitlines()
    full = lines.index("full test set, per metric:")
    table = next(k for k, line in enumerate(lines) if line.startswith("phenomenon "))
    rows = [line for line in lines[table + 2:] if line.split(" ", 1)[0] in {f"{PAIR}.{p}" for p in PHENOMENA}]
    configs = next(line for line in lines if line.startswith("configs: "))
    return "\n".join(["```", *lines[full:full + 2], *lines[table:table + 2], *rows, "", configs, "```"]) + "\n"


def measure(dataset: Path, wmt21: Path, out: Path) -> str:
    command = [sys.executable, "-m", "auto_challenge_sets.cli", "evaluate", "--dataset", str(dataset), "--pair", PAIR,
               "--split", SPLIT, "--config", "all", "--hyp", *map(str, systems(wmt21).values()), "--out", str(out),
               "--quiet"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return excerpt(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--dataset", type=Path, help="the WMT21 build (studies/wmt21.py)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the excerpt into README.md")
    action.add_argument("--check", action="store_true", help="exit 1 if README.md's excerpt differs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        dataset = args.dataset or build(args.shared, Path(work) / "sets")
        table = measure(dataset, args.shared / "data" / "wmt21", Path(work) / "report")
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check, path=REPO / "README.md")


if __name__ == "__main__":
    sys.exit(main())
