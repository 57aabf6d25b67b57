"""The length-matched random baseline on a paragraph-level corpus (issue 35 item 6), before and
after the relative length window (``--length-relative``, scoring/length_baseline.py).

WMT's general test sets since 2023 are paragraphs; here one is made from WMT21 de-en by joining
every 3, 4, 5, 6, 3, 4, … consecutive lines (tests/paragraph_corpus.py: the source, reference A
and the system outputs alike). Both corpora, WMT21 as is and joined, are built with UDPipe and
eflomal (seed 1, as tests/conftest.py builds WMT21) into ``--work`` (kept: a second run only
evaluates) and evaluated (BLEU, ``--systems`` systems) under both rules: ``length_relative`` 0
(±1 token alone, the rule before issue 35) and the default. Printed per corpus and rule: the
widened share of the challenge rows and the configs flagged ``degenerate_baseline``, split by
reason (too many rows widened alone, a complement smaller than the config alone, both); then what
the rule changed: configs whose random baseline moved, the largest move of a random mean, and the
cells whose star (worse than the random band) flipped.

    python studies/paragraph_baseline.py [--work DIR] [--dataset DIR] [--systems 4] [--n-samples 100] [--write | --check]

``--dataset``: the sentence-level build, if made already (studies/wmt21.py builds it the same way);
``--work``: where the joined corpus is built (kept; default: a temporary folder). ``--write`` writes
the summary into its block of docs/method.md; ``--check`` exits 1 when that block differs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from stored_table import store_block_or_check

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    DEGENERATE_COMPLEMENT_RATIO,
    DEGENERATE_WIDENED_SHARE,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ACS_SHARED_DIR", REPO.parent / "shared"))  # as tests/conftest.py finds it
sys.path.insert(0, str(REPO / "tests"))
from paragraph_corpus import write_joined  # noqa: E402 - a test helper, shared with the tests

NAME, SCRIPT = "paragraph-baseline", "paragraph_baseline.py"


def _build(source: Path, reference: Path, out: Path) -> Path:
    if not (out / "README.md").is_file():
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=source, target=reference,
            parser=ParserSpec("udpipe", {"udpipe_model": SHARED / "models" / "german.udpipe"}),
            aligner=AlignerSpec("eflomal", {"seed": 1}), cache_dir=out.parent / "cache"), out,
            license="other", progress=False)
    return out


def degenerate_by_reason(evaluation: Evaluation) -> dict[str, list[str]]:
    """The degenerate configs by the reason of ``is_degenerate``: widened alone, complement alone, both."""
    reasons: dict[str, list[str]] = {"widened alone": [], "complement alone": [], "both": []}
    for name, config in evaluation.configs.items():
        if not config.degenerate_baseline:
            continue
        widened = config.widened > DEGENERATE_WIDENED_SHARE * config.n
        small = evaluation.full_corpus_rows - config.n < DEGENERATE_COMPLEMENT_RATIO * config.n
        reasons["both" if widened and small else "widened alone" if widened else "complement alone"].append(name)
    return reasons


def row(label: str, rule: str, evaluation: Evaluation) -> str:
    """One line of the table: the widened challenge rows and the degenerate configs by reason."""
    rows = sum(c.n for c in evaluation.configs.values() if c.systems and not c.random_unavailable)
    widened = sum(c.widened for c in evaluation.configs.values())
    reasons = degenerate_by_reason(evaluation)
    alone = reasons["widened alone"]
    return (f"| {label} | {rule} | {widened:,} of {rows:,} ({widened / max(rows, 1):.1%}) "
            f"| {sum(map(len, reasons.values()))} of {len(evaluation.configs)} "
            f"| {len(alone)}{': ' + ', '.join(name.split('.', 1)[1] for name in alone) if 0 < len(alone) <= 3 else ''} |")


def compare(before: Evaluation, after: Evaluation) -> str:
    """What the relative window changed: configs whose random corpora moved, the largest move of a
    random mean, the cells whose star flipped (every score the same)."""
    moved, largest, flipped, cells = set(), 0.0, 0, 0
    for name, config in after.configs.items():
        for system, result in config.systems.items():
            new, old = result.scores["bleu"], before.configs[name].systems[system].scores["bleu"]
            assert new.score == old.score  # the rule moves the random corpora only
            cells += new.random is not None
            if new.random != old.random:
                moved.add(name)
                largest = max(largest, abs(new.random.mean - old.random.mean))
            flipped += new.worse_than_random_band(True) != old.worse_than_random_band(True)
    return (f"{len(moved)} of {len(after.configs)} configs' random corpora moved, the largest move of a random mean "
            f"{largest:.2f} BLEU, {flipped} of {cells} stars flipped")


def measure(sentences: Path, work: Path, systems: int, n_samples: int) -> str:
    data = SHARED / "data" / "wmt21"
    source = data / "sources" / "newstest2021.de-en.src.de"
    reference = data / "references" / "newstest2021.de-en.ref.A.en"
    outputs = {p.name.split(".")[3]: p for p in sorted((data / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))}
    outputs = dict(list(outputs.items())[:systems])
    joined = write_joined({"source": source, "reference": reference, **outputs}, work / "joined-text")
    paragraphs = _build(joined["source"], joined["reference"], work / "paragraphs")
    lengths = sorted(DatasetFolder(paragraphs).read("de-en.baseline", "newstest2021", ["length"])["length"])
    corpora = (("sentences", sentences, outputs), ("joined 3–6", paragraphs, {name: joined[name] for name in outputs}))
    lines = [f"WMT21 de→en as is and joined 3–6 lines at a time ({len(lengths)} paragraphs, median "
             f"{lengths[len(lengths) // 2]} source tokens, the longest {lengths[-1]}); {systems} systems, BLEU, "
             f"{n_samples} random corpora:", "",
             "| corpus | window | challenge rows widened | degenerate configs | degenerate for widened rows alone |",
             "|---|---|---:|---:|---|"]
    changed = []
    for label, folder, hyps in corpora:
        runs = [evaluate(EvaluationRequest(folder, hyps, metrics=("bleu",), n_samples=n_samples,
                                           length_relative=relative, paired_samples=10))
                for relative in (0.0, DEFAULT_LENGTH_RELATIVE)]
        lines += [row(label, "±1 token", runs[0]), row(label, f"max(±1, {DEFAULT_LENGTH_RELATIVE:.0%})", runs[1])]
        changed.append(f"{label}: {compare(*runs)}")
    return "\n".join([*lines, "", "What the relative window changed (every score the same): " + "; ".join(changed) + "."]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, help="where the joined corpus is built (kept)")
    parser.add_argument("--dataset", type=Path, help="the sentence-level WMT21 build, if made already")
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--n-samples", type=int, default=100)
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the summary into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's summary differs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        data = SHARED / "data" / "wmt21"
        sentences = args.dataset or _build(data / "sources" / "newstest2021.de-en.src.de",
                                           data / "references" / "newstest2021.de-en.ref.A.en", work / "sentences")
        table = measure(sentences, work, args.systems, args.n_samples)
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
