"""The full test set's significance clusters on WMT21 de→en (../shared/data/wmt21, 19 systems,
1,000 rows): per metric, how many clusters the engine forms (``evaluation/stats/full_test.py``, sacrebleu's
paired approximate randomization, 1,000 trials, sacrebleu's seed) and how many of the other systems
the best one beats significantly, through ``acs evaluate --config de-en.baseline``.

    python studies/full_test_clusters.py [--shared ../shared] [--dataset DIR] [--write | --check]

``--dataset DIR``: a WMT21 de-en folder built already; without it one is built first in a temporary
folder (UDPipe, no aligner: the full test set needs none). ``--write`` writes the table into its
block of docs/method.md; ``--check`` exits 1 when that block differs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from stored_table import REPO, store_block_or_check

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import ParserSpec

NAME, SCRIPT = "full-test-clusters", "full_test_clusters.py"
METRICS = ("bleu", "chrf", "ribes")


def _build(wmt: Path, shared: Path, out: Path) -> Path:
    build_into_folder(BuildSpec(
        pair="de-en", corpus="newstest2021", source=wmt / "sources" / "newstest2021.de-en.src.de",
        target=wmt / "references" / "newstest2021.de-en.ref.A.en",
        parser=ParserSpec("udpipe", {"udpipe_model": shared / "models" / "german.udpipe"}), aligner=None),
        out, progress=False)
    return out


def render(dataset: Path, wmt: Path) -> str:
    outputs = sorted((wmt / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    hyps = {path.name.split(".hyp.")[1][: -len(".en")]: path for path in outputs}
    request = EvaluationRequest(dataset=dataset, hypotheses=hyps, config="de-en.baseline", split="newstest2021",
                                pair="de-en", metrics=METRICS, n_samples=1)
    tested = evaluate(request).full_test
    lines = ["| metric | systems | clusters (sizes, best first) | the best system significantly better than |",
             "|---|---:|---|---:|"]
    for metric, ranking in tested.rankings.items():
        sizes = [sum(s.cluster == c for s in ranking.systems) for c in range(1, ranking.clusters + 1)]
        best = ranking.systems[0].system
        beaten = sum(p.better == best and p.p_value < tested.alpha for p in ranking.pairs)
        lines.append(f"| {metric} | {len(ranking.systems)} | {ranking.clusters} ({', '.join(map(str, sizes))}) "
                     f"| {beaten} of {len(ranking.systems) - 1} |")
    return (f"WMT21 de→en, {tested.rows:,} rows, paired {tested.paired_test.upper()} with {tested.paired_samples:,} "
            f"trials, p < {tested.alpha}, correction: {tested.correction}:\n\n" + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--dataset", type=Path, help="a WMT21 de-en folder built already")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    wmt = args.shared / "data" / "wmt21"
    with tempfile.TemporaryDirectory() as work:
        dataset = args.dataset or _build(wmt, args.shared, Path(work) / "sets")
        table = render(dataset, wmt)
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
