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

    python studies/paragraph_baseline.py --work /tmp/paragraphs [--systems 4] [--n-samples 100]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

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


def report(label: str, evaluation: Evaluation) -> None:
    rows = sum(c.n for c in evaluation.configs.values() if c.systems and not c.random_unavailable)
    widened = sum(c.widened for c in evaluation.configs.values())
    reasons = degenerate_by_reason(evaluation)
    print(f"{label} ({evaluation.signature.split('+')[-2]}): {len(evaluation.configs)} configs, {widened} of {rows} "
          f"challenge rows widened ({widened / max(rows, 1):.1%}); "
          f"{sum(len(v) for v in reasons.values())} degenerate: "
          + "; ".join(f"{len(names)} {reason} {names}" for reason, names in reasons.items()))


def compare(before: Evaluation, after: Evaluation) -> None:
    moved, largest, flipped = [], 0.0, []
    for name, config in after.configs.items():
        for system, result in config.systems.items():
            new, old = result.scores["bleu"], before.configs[name].systems[system].scores["bleu"]
            assert new.score == old.score  # the rule moves the random corpora only
            if new.random != old.random:
                moved.append(name)
                largest = max(largest, abs(new.random.mean - old.random.mean))
            if new.worse_than_random_band(True) != old.worse_than_random_band(True):
                flipped.append(f"{name}/{system}")
    print(f"  the rule moved the random baseline of {len(set(moved))} of {len(after.configs)} configs (largest move "
          f"of a random mean: {largest:.3f} BLEU); stars flipped: {len(flipped)} {flipped}; every score unchanged")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--n-samples", type=int, default=100)
    args = parser.parse_args(argv)
    data = SHARED / "data" / "wmt21"
    source = data / "sources" / "newstest2021.de-en.src.de"
    reference = data / "references" / "newstest2021.de-en.ref.A.en"
    outputs = {p.name.split(".")[3]: p for p in sorted((data / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))}
    outputs = dict(list(outputs.items())[:args.systems])
    joined = write_joined({"source": source, "reference": reference, **outputs}, args.work / "joined-text")
    corpora = (("WMT21 de-en, sentences", _build(source, reference, args.work / "sentences"), outputs),
               ("WMT21 de-en joined 3-6, paragraphs", _build(joined["source"], joined["reference"],
                                                             args.work / "paragraphs"),
                {name: joined[name] for name in outputs}))
    for label, folder, systems in corpora:
        runs = []
        for rule, relative in (("before", 0.0), ("after", DEFAULT_LENGTH_RELATIVE)):
            runs.append(evaluate(EvaluationRequest(folder, systems, metrics=("bleu",), n_samples=args.n_samples,
                                                   length_relative=relative, paired_samples=10)))
            report(f"{label}, {rule}", runs[-1])
        compare(*runs)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
