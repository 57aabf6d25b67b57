"""Benchmark of the evaluation engine on many systems against the least it could cost.

Job: every WMT21 de→en system (19) on every config of a newstest2021 build (UDPipe + eflomal, all
phenomena: ``--config all``), BLEU + chrF + RIBES, 100 length-matched random samples per (system,
config), sacrebleu's paired approximate randomization of every system against the baseline on
every config and metric, trends, summary and the human correlation — ``evaluate``, exactly what
``acs evaluate --hyp ...`` runs; then what ``--out`` writes, the HTML page timed apart.

Reference, measured in the same run: ``sacrebleu.corpus_bleu`` + ``sacrebleu.corpus_chrf`` once per
system on the full test set (the least any evaluation of these systems must do). Prints the ratio
and where the time goes.

    python benchmarks/bench_many.py [--shared ../shared] [--dataset DIR] [--metrics bleu,chrf,ribes]
                                    [--paired-samples 1000] [--n-samples 100] [--jobs N] [--targeted]

It also times one system on every config against that system's own floor.

``--dataset DIR`` scores a folder built already (the build takes minutes); without it the
benchmark builds one in a temporary folder first (not timed).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import sacrebleu

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.corpus import read_lines
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation import engine
from auto_challenge_sets.evaluation.human import read_human
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.targeted import TargetedRequest


def _build(wmt: Path, shared: Path, out: Path) -> None:
    build_into_folder(BuildSpec(
        pair="de-en", corpus="newstest2021", source=wmt / "sources" / "newstest2021.de-en.src.de",
        target=wmt / "references" / "newstest2021.de-en.ref.A.en",
        parser=ParserSpec("udpipe", {"udpipe_model": shared / "models" / "german.udpipe"}),
        aligner=AlignerSpec("eflomal", {"seed": 1})), out, progress=False)


def _floor(outputs: list[Path], reference: list[str]) -> float:
    start = time.perf_counter()
    for path in outputs:
        hyp = read_lines(path)
        sacrebleu.corpus_bleu(hyp, [reference])
        sacrebleu.corpus_chrf(hyp, [reference])
    return time.perf_counter() - start


def _one_system(args: argparse.Namespace, folder: Path, path: Path, reference: list[str]) -> None:
    """One system on every config against its own floor (the target: <= 1.5x)."""
    floor = _floor([path], reference)
    request = EvaluationRequest(dataset=folder, hypotheses={"one": path}, split="newstest2021", pair="de-en",
                                metrics=tuple(args.metrics.split(",")), n_samples=args.n_samples,
                                paired_samples=args.paired_samples, jobs=1)
    start = time.perf_counter()
    engine.evaluate(request)
    total = time.perf_counter() - start
    print(f"one system ({path.name}): floor {floor:.2f} s, evaluate {total:.2f} s, ratio {total / floor:.1f}x "
          "(target <= 1.5x)")


def _run(args: argparse.Namespace, folder: Path, wmt: Path) -> None:
    import resource

    outputs = sorted((wmt / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    hyps = {p.name.split(".")[3]: p for p in outputs}
    reference = read_lines(wmt / "references" / "newstest2021.de-en.ref.A.en")
    floor = _floor(outputs, reference)

    request = EvaluationRequest(dataset=folder, hypotheses=hyps, split="newstest2021", pair="de-en",
                                metrics=tuple(args.metrics.split(",")), n_samples=args.n_samples,
                                paired_samples=args.paired_samples, jobs=args.jobs,
                                targeted=TargetedRequest() if args.targeted else None)
    human = read_human(wmt / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    parts: dict[str, float] = {}
    original = engine.paired_tests

    def timed_paired_tests(*a, **k):
        t0 = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            parts["paired tests"] = parts.get("paired tests", 0.0) + time.perf_counter() - t0

    engine.paired_tests = timed_paired_tests
    start = time.perf_counter()
    evaluation = engine.evaluate(request, human)
    total = time.perf_counter() - start
    engine.paired_tests = original
    paired = parts.get("paired tests", 0.0)
    print(f"{len(hyps)} systems x {len(evaluation.configs)} configs x {len(request.metrics)} metrics "
          f"({args.metrics}), {args.n_samples} random samples, paired AR with {args.paired_samples} trials")
    print(f"corpus_bleu + corpus_chrf once per system (full test set): {floor:.2f} s")
    print(f"evaluate: {total:.2f} s (paired tests {paired:.2f} s, everything else {total - paired:.2f} s)")
    print(f"ratio: {total / floor:.1f}x (target <= {5 if args.targeted else 3}x); peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
          f"(target <= 1 GB), {args.jobs} job(s)")
    _page_cost(evaluation, request, human.scores, total)
    if not args.targeted:
        _one_system(args, folder, outputs[0], reference)


def _page_cost(evaluation, request: EvaluationRequest, human: dict[str, float], evaluate_s: float) -> None:
    """What ``acs evaluate --out`` writes after the evaluation, and what the HTML page adds (the
    issue's target: the page <= 20% of the evaluation's time)."""
    from auto_challenge_sets.evaluation import plots
    from auto_challenge_sets.evaluation.html_report import write_html
    from auto_challenge_sets.evaluation.report import markdown_report

    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        start = time.perf_counter()
        (out / "results.json").write_text(json.dumps(evaluation.to_json(), indent=2), encoding="utf-8")
        pngs = plots.all_plots(evaluation, out, human)
        (out / "report.md").write_text(markdown_report(evaluation, pngs), encoding="utf-8")
        files = time.perf_counter() - start
        start = time.perf_counter()
        written = write_html(out, evaluation, human, request)
        page = time.perf_counter() - start
        size = sum(p.stat().st_size for p in written) / 1e6
    print(f"report: results.json + report.md + {len(pngs)} PNG plots {files:.2f} s; the HTML page (index.html + "
          f"{len(written) - 1} sidecars, {size:.1f} MB) {page:.2f} s = {page / evaluate_s:.0%} of evaluate "
          f"(target <= 20%), {page / (evaluate_s + files):.0%} of evaluate + the other report files")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--dataset", type=Path, help="a newstest2021 de-en folder built already")
    parser.add_argument("--metrics", default="bleu,chrf,ribes")
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--paired-samples", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--targeted", action="store_true", help="with targeted accuracy (target: <= 5x)")
    args = parser.parse_args()
    wmt = args.shared / "data" / "wmt21"
    if args.dataset is not None:
        _run(args, args.dataset, wmt)
        return
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "sets"
        _build(wmt, args.shared, out)
        _run(args, out, wmt)


if __name__ == "__main__":
    main()
