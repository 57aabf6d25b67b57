"""README.md's excerpt of what `acs evaluate` prints on the WMT21 study: the command run on the
shared WMT21 build (studies/wmt21.py: UDPipe + eflomal seed 1, as the README's `acs build`), its 19
systems, every config, and the lines the README shows kept (the findings' table, full-test BLEU's
ranking, the hardest phenomena by BLEU, the count of flagged configs).

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
PHENOMENA = ("particle", "reflexive", "reorder", "verb_final")  # the findings' rows the README keeps


def excerpt(printed: str) -> str:
    """Four rows of the findings' table (best system per phenomenon and whether its lead is significant), the
    full-test BLEU line, the hardest phenomena by BLEU and the count of flagged configs."""
    lines = printed.splitlines()
    table = next(k for k, line in enumerate(lines) if line.startswith("config (rows)"))
    end = lines.index("", table)
    kept = [line for line in lines[end:] if line.startswith(("  full test set, BLEU", "  hardest against the random band, BLEU"))]
    configs = next(line for line in lines if line.startswith("configs: "))
    rows = [line for line in lines[table + 2:end] if line.split(".", 1)[0] in PHENOMENA]
    return "\n".join(["```", *lines[table:table + 2], *rows, *kept, configs, "```"]) + "\n"


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
