"""Does targeted accuracy pass a correct translation and fail a broken one? (issue 23, item 6)

On a built WMT21 de-en dataset folder (UDPipe + eflomal), through the evaluation engine, per
lexical config, for each matching mode:

- reference B as a system, reference A the dataset's reference (target: >= 80% correct in every
  config with >= 50 instances). B is never its own reference: it is judged against A alone;
- reference A with the instances' words deleted: the reference tokens the dataset's alignment links
  to the head or dependent of any instance of the line (target: <= 10%); judged against A alone,
  and against A and B (B's words were not deleted: what a second reference lets through);
- reference A with a particle verb's words replaced by "forgot" (must stay wrong);
- reference A itself (target: 100%).

    .venv/bin/python studies/targeted_validity.py [--dataset DIR] [--wmt21 DIR] [--table]

prints markdown tables per config; ``--write`` writes their summary (ranges over the configs with
>= 50 instances; with ``--table`` the translation table's row at θ = 0.05) into its block of
docs/method.md ("Targeted accuracy: which match"), ``--check`` exits 1 when that block differs.
Minutes to tens of minutes: every mode evaluates the 19 systems' worth of references.

``--table`` adds the experiment with a lexical translation table (issue 23's source-side match):
eflomal aligns the source with reference A and every WMT21 system output (not reference B, so
that B is never its own reference), link counts give p(target lemma | source lemma), and a part
whose expected words are missing still matches when the output has a word t with p(t | s) >= θ
(and at least 2 links) for the source word s. Not in the tool: see docs/method.md for why.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
from stored_table import store_block_or_check

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.pharaoh import parse_pharaoh
from auto_challenge_sets.scoring.targeted import aligned_words, lemma, part_table, tally

THRESHOLDS = (0.05, 0.1, 0.2)
RANDOM_PAIRS = 100

SPLIT = "newstest2021"
PAIR = "de-en"
MIN_INSTANCES = 50
# (label, lemma step, with reference B for the systems other than B)
MODES = [("exact", False, False), ("lemma", True, False), ("lemma+B", True, True)]
NAME, SCRIPT = "targeted-match", "targeted_validity.py"
SUMMARY_THRESHOLD = 0.05


def _instance_tokens(folder: DatasetFolder) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Per corpus line: reference-A tokens linked to any instance's head or dependent, and those of
    particle instances alone."""
    every: dict[int, set[int]] = {}
    particle: dict[int, set[int]] = {}
    for config in folder.files:
        if not config.endswith(".d0"):  # a phenomenon's d0 config holds all its instances
            continue
        rows = folder.read(config, SPLIT, ["line", "alignment", "instances"])
        if rows["instances"][0] is None:
            continue
        for line, alignment, instances in zip(rows["line"], rows["alignment"], rows["instances"]):
            words = {i for x in instances for i in (x["head"] - 1, x["dependent"] - 1)}
            linked = {j for i, j in parse_pharaoh(alignment) if i in words}
            every.setdefault(line, set()).update(linked)
            if ".particle." in config:
                particle.setdefault(line, set()).update(linked)
    return every, particle


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def edited_references(folder: DatasetFolder, reference: Path, out: Path) -> dict[str, Path]:
    """Reference A with the instances' words deleted, and with particle verbs swapped for "forgot"."""
    every, particle = _instance_tokens(folder)
    lines = read_lines(reference)
    deleted, forgot = [], []
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        drop = every.get(number, set())
        deleted.append(" ".join(t for k, t in enumerate(tokens) if k not in drop))
        swap = particle.get(number, set())
        first = min(swap, default=-1)
        forgot.append(" ".join("forgot" if k == first else t for k, t in enumerate(tokens) if k not in swap or k == first))
    return {"A-deleted": _write(out / "deleted.en", deleted), "forgot": _write(out / "forgot.en", forgot)}


def _accuracy(dataset: Path, systems: dict[str, Path], lemma: bool, references: tuple[Path, ...] = (),
              random_pairs: int = 0):
    request = EvaluationRequest(dataset=dataset, hypotheses=systems, config="all", split=SPLIT, pair=PAIR,
                                n_samples=1, paired_samples=1, metrics=("bleu",),
                                targeted=TargetedRequest(lemma=lemma, random_pairs=random_pairs, references=references,
                                                         all_references=bool(references)), jobs=1)
    evaluation = evaluate(request)
    return {name: {s: r.targeted for s, r in config.systems.items()}
            for name, config in evaluation.configs.items()
            if any(r.targeted is not None for r in config.systems.values())}, evaluation.targeted.signature


def _pct(score) -> str:
    return "–" if score is None or score.accuracy is None else f"{100 * score.accuracy:.0f}"


def measure(dataset: Path, wmt21: Path) -> tuple[dict[str, dict], list[str]]:
    """Per mode, config and system (B, A, A-deleted, forgot) its targeted score; the signatures."""
    folder = DatasetFolder(dataset)
    ref_a = wmt21 / "references" / "newstest2021.de-en.ref.A.en"
    ref_b = wmt21 / "references" / "newstest2021.de-en.ref.B.en"
    found: dict[str, dict] = {}
    signatures = []
    with tempfile.TemporaryDirectory() as tmp:
        edited = edited_references(folder, ref_a, Path(tmp))
        for label, lemma, with_b in MODES:
            start = time.perf_counter()
            others = {"A": ref_a, **edited}
            alone, signature = _accuracy(dataset, {"B": ref_b, **others}, lemma,
                                         random_pairs=RANDOM_PAIRS if label == "lemma" else 0)
            signatures.append(f"{label}: {signature}")
            if with_b:
                both, signature = _accuracy(dataset, others, lemma, (ref_b,))
                signatures.append(f"{label} (A, A-deleted, forgot): {signature}")
                alone = {c: {"B": alone[c]["B"], **both[c]} for c in alone}
            found[label] = alone
            print(f"{label}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return found, signatures


def render(found: dict[str, dict], signatures: list[str]) -> str:
    configs = list(found["exact"])
    labels = [label for label, _, _ in MODES]
    out = ["Reference B as a system (judged against reference A only), % correct; configs with >= "
           f"{MIN_INSTANCES} instances; target >= 80", "",
           "| config | instances | judged | " + " | ".join(f"B {m}" for m in labels if m != "lemma+B")
           + " | random pairs, B lemma (mean) | B lemma's percentile among them |",
           "|---|---:|---:|" + "---:|" * (len(labels) + 1)]
    for config in configs:
        b = found["lemma"][config]["B"]
        if b.instances < MIN_INSTANCES:
            continue
        control = b.random_pairs
        out.append(f"| {config} | {b.instances} | {b.correct + b.wrong} | "
                   + " | ".join(_pct(found[m][config]["B"]) for m in labels if m != "lemma+B")
                   + f" | {100 * control.mean:.0f} | {control.percentile:.0f} |")
    out += ["", "Reference A with the instances' words deleted, % correct (target <= 10); reference A "
            "itself (target 100); particle verbs replaced by \"forgot\" (must stay wrong)", "",
            "| config | " + " | ".join(f"A-deleted {m}" for m in labels) + " | "
            + " | ".join(f"A {m}" for m in labels) + " | forgot (" + ", ".join(labels) + ") |",
            "|---|" + "---:|" * (2 * len(labels) + 1)]
    for config in configs:
        forgot = ", ".join(_pct(found[m][config]["forgot"]) for m in labels) if ".particle." in config else ""
        out.append(f"| {config} | " + " | ".join(_pct(found[m][config]["A-deleted"]) for m in labels) + " | "
                   + " | ".join(_pct(found[m][config]["A"]) for m in labels) + f" | {forgot} |")
    out += ["", "Signatures:", "", *(f"- `{s}`" for s in signatures)]
    return "\n".join(out)


def _lexical_table(base: dict, wmt21: Path) -> tuple[Counter, Counter]:
    """Link counts (source lemma, target lemma) over reference A and every system output."""
    from auto_challenge_sets.pipeline.align_stage import align_pairs
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    outputs = sorted((wmt21 / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    pairs = []
    for path in outputs:
        lines = read_lines(path)
        for line, tokens in zip(base["line"], base["source_tokens"]):
            pairs.append((tokens, lines[line - 1].split()))
    links = align_pairs(pairs, aligner=AlignerSpec("eflomal", {}), progress=False)
    every = [(tokens, target, found) for (tokens, target), found in zip(pairs, links)]
    every += [(tokens, ref.split(), parse_pharaoh(a))
              for tokens, ref, a in zip(base["source_tokens"], base["reference"], base["alignment"])]
    pair_counts: Counter = Counter()
    source_counts: Counter = Counter()
    for tokens, target, found in every:
        for i, word in enumerate(tokens):
            source = lemma(word.lower(), "de")
            for t in set(aligned_words(found, i, target)):
                pair_counts[source, lemma(t, "en")] += 1
                source_counts[source] += 1
    return pair_counts, source_counts


def _span(values: list[float | None]) -> str:
    got = sorted(round(100 * v) for v in values if v is not None)
    if not got:
        return "–"
    return f"{got[0]}%" if got[0] == got[-1] else f"{got[0]}–{got[-1]}%"


def summary(found: dict[str, dict], table: dict[str, dict[str, dict[float, float | None]]] | None) -> str:
    """docs/method.md's table: per mode the range over the configs with >= MIN_INSTANCES instances."""
    configs = [c for c in found["lemma"] if found["lemma"][c]["B"].instances >= MIN_INSTANCES]
    particles = [c for c in configs if ".particle." in c]

    def span(mode: str, system: str, among: list[str]) -> str:
        return _span([found[mode][c][system].accuracy for c in among])

    lines = ["| mode | reference B as a system (target ≥ 80%) | A, instances' words deleted (≤ 10%) | A (100%) "
             "| particle verb → \"forgot\" |", "|---|---:|---:|---:|---:|",
             f"| exact + chrF | {span('exact', 'B', configs)} | {span('exact', 'A-deleted', configs)} "
             f"| {span('exact', 'A', configs)} | {span('exact', 'forgot', particles)} |",
             f"| + lemma (default) | {span('lemma', 'B', configs)} | {span('lemma', 'A-deleted', configs)} "
             f"| {span('lemma', 'A', configs)} | {span('lemma', 'forgot', particles)} |",
             f"| + lemma, references A and B | (B only against A) | {span('lemma+B', 'A-deleted', configs)} "
             f"| {span('lemma+B', 'A', configs)} | {span('lemma+B', 'forgot', particles)} |"]
    if table is not None:
        def tabled(system: str, among: list[str]) -> str:
            return _span([table[c][system][SUMMARY_THRESHOLD] for c in among if c in table])

        lines.append(f"| + lemma + translation table, θ = {SUMMARY_THRESHOLD:g} | {tabled('B', configs)} "
                     f"| {tabled('A-deleted', configs)} | – | {tabled('forgot', particles)} |")
    return "\n".join(lines) + "\n"


def table_experiment(dataset: Path, wmt21: Path, systems: dict[str, Path]) -> dict[str, dict[str, dict[float, float | None]]]:
    """Accuracy of each system per lexical config with lemma + table matching, per θ."""
    folder = DatasetFolder(dataset)
    base = folder.read(f"{PAIR}.baseline", SPLIT, ["line", "source_tokens", "reference", "alignment"])
    pair_counts, source_counts = _lexical_table(base, wmt21)
    row_of = {line: k for k, line in enumerate(base["line"])}
    texts = {name: read_lines(path) for name, path in systems.items()}
    configs = [c for c in folder.files if ".d" in c]
    accuracy: dict[str, dict[str, dict[float, float | None]]] = {}
    for config in configs:
        rows = folder.read(config, SPLIT, ["line", "instances"])
        if not any(instances and "head" in instances[0] for instances in rows["instances"]):
            continue  # not a lexical config
        accuracy[config] = {}
        for name, lines in texts.items():
            tables = []
            for line in rows["line"]:
                k = row_of[line]
                tokens = base["source_tokens"][k]
                output = lines[line - 1].split()
                refs = [(base["reference"][k].split(), parse_pharaoh(base["alignment"][k]))]
                tables.append((part_table(refs, None, output, len(tokens), lang="en"), tokens, output))
            for threshold in THRESHOLDS:
                widened = []
                for table, tokens, output in tables:
                    table = table.copy()
                    have = {lemma(w, "en") for w in (t.lower().strip(".,;:!?\"'’“”") for t in output) if w}
                    for i in np.flatnonzero(table[0, :, 0] & ~table[0, :, 1]):
                        source = lemma(tokens[i].lower(), "de")
                        table[0, i, 1] = any(pair_counts[source, t] >= 2 and
                                             pair_counts[source, t] / source_counts[source] >= threshold for t in have)
                    widened.append(table)
                accuracy[config].setdefault(name, {})[threshold] = tally(rows["instances"], widened)["accuracy"]
    return accuracy


def render_table(accuracy: dict[str, dict[str, dict[float, float | None]]]) -> str:
    systems = list(next(iter(accuracy.values()), {}))
    out = ["| config | " + " | ".join(f"{name} θ={t:g}" for name in systems for t in THRESHOLDS) + " |",
           "|---|" + "---:|" * (len(systems) * len(THRESHOLDS))]
    for config, per_system in accuracy.items():
        out.append(f"| {config} | " + " | ".join("–" if per_system[s][t] is None else f"{100 * per_system[s][t]:.0f}"
                                                 for s in systems for t in THRESHOLDS) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=Path("/tmp/wmt21_sets/sets"),
                        help="a WMT21 de-en dataset folder built with an aligner (read only)")
    parser.add_argument("--wmt21", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt21")
    parser.add_argument("--table", action="store_true", help="also the translation-table experiment")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the summary into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's summary differs")
    args = parser.parse_args(argv)
    found, signatures = measure(args.dataset, args.wmt21)
    print(render(found, signatures))
    table = None
    if args.table:
        ref_a = args.wmt21 / "references" / "newstest2021.de-en.ref.A.en"
        with tempfile.TemporaryDirectory() as tmp:
            systems = {"B": args.wmt21 / "references" / "newstest2021.de-en.ref.B.en",
                       **edited_references(DatasetFolder(args.dataset), ref_a, Path(tmp))}
            table = table_experiment(args.dataset, args.wmt21, systems)
            print("\nlemma + translation table (reference A only), % correct\n")
            print(render_table(table))
    print()
    return store_block_or_check(summary(found, table), NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
