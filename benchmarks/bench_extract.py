"""Extraction throughput: our CoNLL-U reader + phenomenon rules vs the `conllu` package + the same
rules, over the gold PUD German treebank repeated to >= 100k sentences, in one run.

    python benchmarks/bench_extract.py [--copies 100] [--shared ../shared]

Prints sentences/s for both and their ratio. Needs ../shared/data/pud (read in place).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from auto_challenge_sets.conllu_io import read_conllu
from auto_challenge_sets.phenomena import find_instances, lexical_phenomena

DISTANCES = range(6)


def ours(path: Path) -> tuple[int, dict]:
    counts = {(name, d): 0 for name in lexical_phenomena() for d in DISTANCES}
    n = 0
    for sentence in read_conllu(path):
        n += 1
        for name in lexical_phenomena():
            found = find_instances(sentence, name)
            if found:
                top = max(i.distance for i in found)
                for d in DISTANCES:
                    if top >= d:
                        counts[name, d] += 1
    return n, counts


def with_conllu_package(path: Path) -> tuple[int, dict]:
    import conllu

    rules = {
        "reflexive": lambda t: (t["feats"] or {}).get("Reflex") == "Yes",
        "particle": lambda t: t["deprel"] in ("compound:prt", "prt"),
        "prep_stranding": lambda t: t["upos"] == "ADP" and t["deprel"].split(":")[0] == "obl",
    }
    counts = {(name, d): 0 for name in rules for d in DISTANCES}
    n = 0
    with open(path, encoding="utf-8") as handle:
        for tokenlist in conllu.parse_incr(handle):
            n += 1
            words = [t for t in tokenlist if isinstance(t["id"], int)]
            for name, rule in rules.items():
                distances = [abs(t["id"] - t["head"]) - 1 for t in words if t["head"] and rule(t)]
                if distances:
                    top = max(distances)
                    for d in DISTANCES:
                        if top >= d:
                            counts[name, d] += 1
    return n, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=100, help="times to repeat the 1,000 PUD trees")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    args = parser.parse_args()
    source = args.shared / "data" / "pud" / "de_pud-ud-test.conllu"
    if not source.exists():
        print(f"skipped: needs {source}", file=sys.stderr)
        return 0
    text = source.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "repeated.conllu"
        path.write_text(text * args.copies, encoding="utf-8")
        results = {}
        for name, run in (("auto_challenge_sets", ours), ("conllu package", with_conllu_package)):
            start = time.perf_counter()
            n, counts = run(path)
            results[name] = (n, time.perf_counter() - start, counts)
    (n_ours, t_ours, c_ours), (n_ref, t_ref, c_ref) = results["auto_challenge_sets"], results["conllu package"]
    assert n_ours == n_ref and c_ours == c_ref, "both readings must select the same sentences"
    print(f"sentences: {n_ours:,} (PUD German x {args.copies}); selections agree: "
          f"{sum(c_ours.values()):,} (phenomenon, D) memberships")
    print(f"auto_challenge_sets reader + rules: {n_ours / t_ours:>10,.0f} sentences/s ({t_ours:.1f} s)")
    print(f"conllu package + same rules:        {n_ref / t_ref:>10,.0f} sentences/s ({t_ref:.1f} s)")
    print(f"ratio: {t_ref / t_ours:.1f}x faster than the conllu package")
    return 0


if __name__ == "__main__":
    sys.exit(main())
