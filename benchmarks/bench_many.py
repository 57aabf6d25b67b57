"""Benchmark of the many-system evaluation (issue 10) against the least it could cost.

Job: every WMT21 de→en system (19) on every config of a newstest2021 build (UDPipe + eflomal),
BLEU + chrF + RIBES, 100 length-matched random samples per (system, config), sacrebleu's paired
approximate randomization of every system against the baseline on every config, trends, summary
and the human correlation — `evaluate_many`, exactly what `acs evaluate --hyp ...` runs.

Reference, measured in the same run: `sacrebleu.corpus_bleu` + `sacrebleu.corpus_chrf` once per
system on the full test set (the least any evaluation of these systems must do). Prints the ratio
and where the time goes (target: <= 20x).

    python benchmarks/bench_many.py [--shared ../shared] [--paired-samples 1000] [--n-samples 100]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import sacrebleu

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.corpus import read_lines
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation import many
from auto_challenge_sets.evaluation.human import read_human
from auto_challenge_sets.evaluation.systems import SystemsRequest
from auto_challenge_sets.scoring.statistics import clear_pool_cache


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--paired-samples", type=int, default=1000)
    args = parser.parse_args()
    wmt = args.shared / "data" / "wmt21"
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "sets"
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=wmt / "sources" / "newstest2021.de-en.src.de",
            target=wmt / "references" / "newstest2021.de-en.ref.A.en",
            parser=ParserSpec("udpipe", {"udpipe_model": args.shared / "models" / "german.udpipe"}),
            aligner=AlignerSpec("eflomal", {"seed": 1})), out, progress=False)
        outputs = sorted((wmt / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
        hyps = {p.name.split(".")[3]: p for p in outputs}
        reference = read_lines(wmt / "references" / "newstest2021.de-en.ref.A.en")

        start = time.perf_counter()
        for path in outputs:
            hyp = read_lines(path)
            sacrebleu.corpus_bleu(hyp, [reference])
            sacrebleu.corpus_chrf(hyp, [reference])
        floor = time.perf_counter() - start

        request = SystemsRequest(dataset=out, hypotheses=hyps, split="newstest2021", pair="de-en",
                                 n_samples=args.n_samples, paired_samples=args.paired_samples)
        human = read_human(wmt / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
        clear_pool_cache()
        parts: dict[str, float] = {}
        original = many.paired_tests

        def timed_paired_tests(*a, **k):
            t0 = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                parts["paired tests"] = parts.get("paired tests", 0.0) + time.perf_counter() - t0

        many.paired_tests = timed_paired_tests
        start = time.perf_counter()
        results = many.evaluate_many(request, human)
        total = time.perf_counter() - start
        many.paired_tests = original
    configs = len(results.payload["configs"])
    print(f"{len(hyps)} systems x {configs} configs, {args.n_samples} random samples, "
          f"paired AR with {args.paired_samples} trials")
    print(f"corpus_bleu + corpus_chrf once per system (full test set): {floor:.2f} s")
    print(f"evaluate_many: {total:.2f} s (paired tests {parts.get('paired tests', 0):.2f} s, "
          f"everything else {total - parts.get('paired tests', 0):.2f} s)")
    print(f"ratio: {total / floor:.1f}x (target <= 20x)")


if __name__ == "__main__":
    main()
