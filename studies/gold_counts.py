"""The sentences of gold PUD (../shared/data/pud, 1,000 sentences) that each of the paper's lexical
phenomena selects at every minimum distance D, de→en: what docs/method.md compares with the paper's
Table 3. Seconds: the gold trees only, no parser.

    python studies/gold_counts.py [--shared ../shared] [--write | --check]

``--write`` writes the table into its block of docs/method.md; ``--check`` exits 1 when that block
differs (the test suite runs it where ../shared is present).
"""

from __future__ import annotations

import sys
from pathlib import Path

from stored_table import block_main

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.registry import find_instances

NAME, SCRIPT = "gold-pud-counts", "gold_counts.py"
PHENOMENA = ("particle", "reflexive")
DISTANCES = range(6)


def render(shared: Path) -> str:
    sentences = list(read_conllu(shared / "data" / "pud" / "de_pud-ud-test.conllu"))
    lines = ["| phenomenon | " + " | ".join(f"d{d}" for d in DISTANCES) + " |", "|---" * (len(DISTANCES) + 1) + "|"]
    for phenomenon in PHENOMENA:
        top = [max((i.distance for i in find_instances(s, phenomenon)), default=-1) for s in sentences]
        lines.append(f"| `{phenomenon}` | " + " | ".join(str(sum(t >= d for t in top)) for d in DISTANCES) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    return block_main(__doc__, render, NAME, SCRIPT)


if __name__ == "__main__":
    sys.exit(main())
