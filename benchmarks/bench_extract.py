"""Extraction throughput: our CoNLL-U reader + phenomenon rules vs the `conllu` package + the same
rules, over the gold PUD German treebank repeated to >= 100k sentences, in one run.

    python benchmarks/bench_extract.py [--copies 100] [--shared ../shared] [--authors-script PATH]

Prints sentences/s for both and their ratio. Needs ../shared/data/pud (read in place).

``--authors-script``: also time the paper authors' own extraction, ``extract_phenomena.py`` of
https://github.com/borgr/auto_challenge_sets (not shipped here: download it), run as the paper ran
it, once per (rule, D): particle, reflexive and preposition stranding at D = 0..5, 18 passes,
against our one pass (every rule at every D) on the same input. Their script imports plotting and
project modules it does not use for extraction (stubbed here when missing), needs integer
``sent_id`` s and stops at multiword-token lines, so that input is the same trees renumbered and
without multiword-token lines.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.registry import get_phenomenon, iter_instances, lexical_phenomena

DISTANCES = range(6)


PAPER_RULES = ("reflexive", "particle", "prep_stranding")  # the rules both readers of the comparison apply


def ours(path: Path, names: tuple[str, ...] | None = None) -> tuple[int, dict]:
    """One pass: every rule in ``names`` (default: every lexical phenomenon) at every D."""
    phenomena = [get_phenomenon(name) for name in (lexical_phenomena() if names is None else names)]
    counts = {(phenomenon.name, d): 0 for phenomenon in phenomena for d in DISTANCES}
    n = 0
    for _, instances in iter_instances(read_conllu(path), phenomena):
        n += 1
        for name, found in instances.items():
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


AUTHORS_RULES = ("particle_condition", "reflexive_condition", "preposition_stranding_condition")


def authors_input(text: str, copies: int, path: Path) -> None:
    """The trees as the authors' script reads them: integer sent_ids, no multiword-token lines."""
    blocks = [block for block in text.strip().split("\n\n") if block]
    with open(path, "w", encoding="utf-8") as out:
        for k in range(copies * len(blocks)):
            lines = blocks[k % len(blocks)].split("\n")
            kept = [f"# sent_id = {k + 1}" if line.startswith("# sent_id") else line for line in lines
                    if not (line and line[0].isdigit() and "-" in line.split("\t", 1)[0])]
            out.write("\n".join(kept) + "\n\n")


def load_authors_script(script: Path) -> types.ModuleType:
    """Their module, with stubs for the imports extraction does not use and this machine lacks."""
    for name in ("evaluate_model", "counts_data", "seaborn", "matplotlib", "matplotlib.pyplot"):
        try:
            importlib.import_module(name)
        except ImportError:
            stub = types.ModuleType(name)
            stub.style = types.SimpleNamespace(use=lambda *args, **kwargs: None)
            sys.modules[name] = stub
    spec = importlib.util.spec_from_file_location("authors_extract_phenomena", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def authors_passes(module: types.ModuleType, path: Path, out: Path, between: Callable[[], None]) -> float:
    """Seconds for their extract_distant_heads once per (rule, D), their output files included;
    ``between`` runs (untimed) after each rule's passes."""
    total = 0.0
    for rule in AUTHORS_RULES:
        start = time.perf_counter()
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # it prints its progress
            for d in DISTANCES:
                module.extract_distant_heads(str(path), str(out / f"{rule}{d}"), getattr(module, rule), d)
        total += time.perf_counter() - start
        between()
    return total


def compare_with_authors(script: Path, text: str, copies: int, folder: Path) -> None:
    """Their 18 passes against our one pass, timed on the same file in the same run. This machine's
    speed drifts over minutes, so our pass is timed before their passes and after each of their
    rules' six (four times, interleaved with theirs), and the median is compared with their total."""
    module = load_authors_script(script)
    path = folder / "authors_input.conllu"
    authors_input(text, copies, path)
    (folder / "authors_out").mkdir()
    rule_sets = (PAPER_RULES, tuple(lexical_phenomena()))
    timings: dict[tuple[str, ...], list[float]] = {names: [] for names in rule_sets}
    sizes = []

    def time_ours() -> None:
        for names in rule_sets:
            start = time.perf_counter()
            n, _ = ours(path, names)
            timings[names].append(time.perf_counter() - start)
            sizes.append(n)

    time_ours()
    theirs = authors_passes(module, path, folder / "authors_out", time_ours)
    print(f"\nthe authors' extract_phenomena.py, {len(AUTHORS_RULES)} rules x {len(DISTANCES)} D = "
          f"{len(AUTHORS_RULES) * len(DISTANCES)} passes over {sizes[0]:,} sentences: {theirs:.1f} s")
    for names, times in timings.items():
        mine = statistics.median(times)
        print(f"our one pass, {len(names)} rules x {len(DISTANCES)} D ({', '.join(names)}), same file: "
              f"{mine:.1f} s (median of {len(times)}: {', '.join(f'{t:.1f}' for t in times)}): "
              f"{theirs / mine:.1f}x faster than the authors' passes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=100, help="times to repeat the 1,000 PUD trees")
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--authors-script", type=Path, help="the authors' extract_phenomena.py, to time it too")
    parser.add_argument("--skip-conllu-package", action="store_true", help="only the comparison with the authors")
    args = parser.parse_args()
    source = args.shared / "data" / "pud" / "de_pud-ud-test.conllu"
    if not source.exists():
        print(f"skipped: needs {source}", file=sys.stderr)
        return 0
    text = source.read_text(encoding="utf-8")
    if args.authors_script:
        with tempfile.TemporaryDirectory() as tmp:
            compare_with_authors(args.authors_script, text, args.copies, Path(tmp))
        if args.skip_conllu_package:
            return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "repeated.conllu"
        path.write_text(text * args.copies, encoding="utf-8")
        results = {}
        for name, run in (("auto_challenge_sets", lambda p: ours(p, PAPER_RULES)),
                          ("conllu package", with_conllu_package)):
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
