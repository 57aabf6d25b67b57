"""Challenge sets of a WMT-style test set, every system scored on every config, in both directions.

    python examples/wmt21_challenge_sets.py [--wmt ../shared/data/wmt21] [--models ../shared/models]
                                            [--year 2021] [--out wmt21_sets] [--n-samples 100]

A WMT-style directory holds ``sources/newstest{YEAR}.{pair}.src.{src}``,
``references/newstest{YEAR}.{pair}.ref.A.{tgt}``, ``system-outputs/newstest{YEAR}.{pair}.hyp.{SYSTEM}.{tgt}``
and, optionally, ``humaneval/ad-sys-scores-{pair}.csv``. For each direction found this script

1. builds the challenge sets (UDPipe models for the source, eflomal for the reorder configs; both
   stages cached, so a rerun is quick), and
2. runs the evaluation engine (what ``acs evaluate --hyp FILE ...`` runs): BLEU, chrF, RIBES,
   the length-matched random baseline, paired tests, trends, the summary, and the correlation
   with the human scores where the directory has them; it prints the summary and writes
   ``{out}/report-{pair}/`` (results.json, report.md, heat map, trend and scatter plots).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation import EvaluationRequest, evaluate
from auto_challenge_sets.evaluation.report.report_writer import human_table, summary_table, write_report
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec

MODELS = {"de": "german.udpipe", "en": "english.udpipe"}


def main() -> int:
    shared = Path(__file__).resolve().parents[2] / "shared"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wmt", type=Path, default=shared / "data" / "wmt21")
    parser.add_argument("--models", type=Path, default=shared / "models")
    parser.add_argument("--year", default="2021")
    parser.add_argument("--out", type=Path, default=Path("wmt21_challenge_sets"))
    parser.add_argument("--n-samples", type=int, default=100)
    args = parser.parse_args()
    corpus = f"newstest{args.year}"
    pairs = sorted({p.name.split(".")[1] for p in (args.wmt / "sources").glob(f"{corpus}.*.src.*")})
    if not pairs:
        print(f"no {corpus} sources in {args.wmt}/sources", file=sys.stderr)
        return 1
    for pair in pairs:
        src, tgt = pair.split("-")
        if src not in MODELS:
            continue
        print(f"building {pair} ...", file=sys.stderr)
        build_into_folder(BuildSpec(
            pair=pair, corpus=corpus, source=args.wmt / "sources" / f"{corpus}.{pair}.src.{src}",
            target=args.wmt / "references" / f"{corpus}.{pair}.ref.A.{tgt}",
            parser=ParserSpec("udpipe", {"udpipe_model": args.models / MODELS[src]}),
            aligner=AlignerSpec("eflomal", {"seed": 1})), args.out, license="other")
        outputs = sorted((args.wmt / "system-outputs").glob(f"{corpus}.{pair}.hyp.*.{tgt}"))
        hyps = {path.name.split(".")[3]: path for path in outputs}
        human_file = args.wmt / "humaneval" / f"ad-sys-scores-{pair}.csv"
        human = read_human(human_file, list(hyps)) if human_file.is_file() else None
        evaluation = evaluate(EvaluationRequest(dataset=args.out, hypotheses=hyps, split=corpus, pair=pair,
                                                n_samples=args.n_samples, seed=0), human, progress=True)
        print(f"\n{pair}: {len(hyps)} systems\n{summary_table(evaluation, 'bleu')}")
        if human is not None:
            print(f"\n{pair}: correlation with human scores\n{human_table(evaluation, 'bleu')}")
        write_report(args.out / f"report-{pair}", evaluation)  # the result carries its human scores
    return 0


if __name__ == "__main__":
    sys.exit(main())
