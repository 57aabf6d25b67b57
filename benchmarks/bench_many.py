"""Benchmark of the evaluation engine on many systems against the least it could cost.

Job: every WMT21 de→en system (19) on every config of a newstest2021 build (UDPipe + eflomal, all
phenomena: ``--config all``), BLEU + chrF + RIBES, 100 length-matched random samples per (system,
config), sacrebleu's paired approximate randomization of every system against the baseline on
every config and metric, trends, summary and the human correlation — ``evaluate``, exactly what
``acs evaluate --hyp ...`` runs; then what ``--out`` writes, the HTML page timed apart.

Reference, measured in the same run: ``sacrebleu.corpus_bleu`` + ``sacrebleu.corpus_chrf`` once per
system on the full test set (the least any evaluation of these systems must do). Prints where the
time goes, stage by stage in wall and CPU seconds (the stages of ``acs evaluate --timings``: reading
inputs, statistics, random baselines, paired tests, human, targeted, then each report file), and the
ratios of issue 37: the evaluation against the floor in wall and in CPU time (target <= 1.5x), the
report files against the evaluation (target <= 20%), with the load average beside them. CPU time
is this process's and its children's (the ``--jobs`` workers, counted once they have exited). The
study's numbers are written into docs/timings.md, between its markers, so that none is typed.

    python benchmarks/bench_many.py [--shared ../shared] [--dataset DIR] [--metrics bleu,chrf,ribes]
                                    [--paired-samples N] [--n-samples 100] [--jobs N] [--targeted]

It also times one system on every config against that system's own floor.

``--dataset DIR`` scores a folder built already (the build takes minutes); without it the
benchmark builds one in a temporary folder first (not timed).
"""

from __future__ import annotations

import os
import resource
import time


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


_IMPORTS = (time.perf_counter(), _cpu())  # what importing the evaluation costs, before the first import

import argparse  # noqa: E402 -- timed from here on
import datetime  # noqa: E402
import tempfile  # noqa: E402
import textwrap  # noqa: E402
from pathlib import Path  # noqa: E402

import sacrebleu  # noqa: E402

from auto_challenge_sets.dataset.writer import build_into_folder  # noqa: E402
from auto_challenge_sets.evaluation import engine  # noqa: E402
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest  # noqa: E402
from auto_challenge_sets.evaluation.request import EvaluationRequest  # noqa: E402
from auto_challenge_sets.evaluation.stats.human import read_human  # noqa: E402
from auto_challenge_sets.formats.corpus import read_lines  # noqa: E402
from auto_challenge_sets.pipeline.run_build import BuildSpec  # noqa: E402
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec  # noqa: E402

_IMPORTS = (time.perf_counter() - _IMPORTS[0], _cpu() - _IMPORTS[1])
DOC = Path(__file__).resolve().parents[1] / "docs" / "timings.md"
BEGIN, END = "<!-- begin: written by benchmarks/bench_many.py, which measures it -->", "<!-- end: written by benchmarks/bench_many.py -->"


def _build(wmt: Path, shared: Path, out: Path) -> None:
    build_into_folder(BuildSpec(
        pair="de-en", corpus="newstest2021", source=wmt / "sources" / "newstest2021.de-en.src.de",
        target=wmt / "references" / "newstest2021.de-en.ref.A.en",
        parser=ParserSpec("udpipe", {"udpipe_model": shared / "models" / "german.udpipe"}),
        aligner=AlignerSpec("eflomal", {"seed": 1})), out, progress=False)


def _floor(outputs: list[Path], reference: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of corpus BLEU and chrF once per system."""
    start, cpu = time.perf_counter(), _cpu()
    for path in outputs:
        hyp = read_lines(path)
        sacrebleu.corpus_bleu(hyp, [reference])
        sacrebleu.corpus_chrf(hyp, [reference])
    return time.perf_counter() - start, _cpu() - cpu


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def write_doc(paragraph: str, doc: Path = DOC) -> None:
    """``paragraph`` (wrapped at 100 columns) in place of what ``doc`` holds between the markers."""
    head, rest = doc.read_text(encoding="utf-8").split(BEGIN, 1)
    text = textwrap.fill(paragraph, 100, break_long_words=False, break_on_hyphens=False)
    doc.write_text(f"{head}{BEGIN}\n{text}\n{END}{rest.split(END, 1)[1]}", encoding="utf-8")


def _one_system(args: argparse.Namespace, folder: Path, path: Path, reference: list[str]) -> None:
    """One system on every config against its own floor (the target: <= 1.5x)."""
    floor, _ = _floor([path], reference)
    request = EvaluationRequest(dataset=folder, hypotheses={"one": path}, split="newstest2021", pair="de-en",
                                metrics=tuple(args.metrics.split(",")), n_samples=args.n_samples,
                                paired_samples=args.paired_samples, jobs=1)
    start = time.perf_counter()
    engine.evaluate(request)
    total = time.perf_counter() - start
    print(f"one system ({path.name}): floor {floor:.2f} s, evaluate {total:.2f} s, ratio {total / floor:.1f}x "
          "(target <= 1.5x)")


def _run(args: argparse.Namespace, folder: Path, wmt: Path) -> None:
    from auto_challenge_sets.pipeline.timings import recording

    outputs = sorted((wmt / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    hyps = {p.name.split(".")[3]: p for p in outputs}
    reference = read_lines(wmt / "references" / "newstest2021.de-en.ref.A.en")
    load_before = _load()
    floor, floor_cpu = _floor(outputs, reference)

    request = EvaluationRequest(dataset=folder, hypotheses=hyps, split="newstest2021", pair="de-en",
                                metrics=tuple(args.metrics.split(",")), n_samples=args.n_samples,
                                paired_samples=args.paired_samples, jobs=args.jobs,
                                targeted=TargetedRequest() if args.targeted else None)
    human = read_human(wmt / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    start, cpu = time.perf_counter(), _cpu()
    with recording() as timings:
        evaluation = engine.evaluate(request, human)
    total, total_cpu = time.perf_counter() - start, _cpu() - cpu
    report, report_cpu, report_timings = _report_files(evaluation, request, human.scores)
    print(f"{len(hyps)} systems x {len(evaluation.configs)} configs x {len(request.metrics)} metrics "
          f"({args.metrics}), {args.n_samples} random samples, paired AR with {request.paired_samples} trials, "
          f"human scores, {args.jobs} job(s)")
    print(f"imports (the evaluation's modules)  {_IMPORTS[0]:7.2f} s wall  {_IMPORTS[1]:7.2f} s CPU")
    print(f"floor: corpus_bleu + corpus_chrf once per system (full test set)  {floor:7.2f} s wall  "
          f"{floor_cpu:7.2f} s CPU")
    print("evaluate, stage by stage:")
    for line in timings.lines():
        print(f"  {line}")
    staged = sum(s.wall for s in timings.stages)
    print(f"  (outside the stages: {total - staged:.2f} s wall: the full-corpus scores, summaries, results)")
    print("report files (acs evaluate --out), stage by stage:")
    for line in report_timings.lines():
        print(f"  {line}")
    target = 5 if args.targeted else 1.5
    load_after = _load()
    print(f"ratio evaluate / floor: {total / floor:.2f}x wall, {total_cpu / floor_cpu:.2f}x CPU "
          f"(target <= {target:g}x); {load_before} before, {load_after} after")
    print(f"ratio report files / evaluate: {report / total:.0%} wall, {report_cpu / total_cpu:.0%} CPU "
          f"(target <= 20%); peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
          "(target <= 1 GB)")
    if not args.targeted:
        write_doc(f"The run: `acs evaluate` of the {len(hyps)} WMT21 de→en systems on {len(evaluation.configs)} configs "
                  f"with {args.metrics}, {args.n_samples} random samples, the paired test with "
                  f"{request.paired_samples:,} trials, human scores; then the files of `--out`. The evaluation took "
                  f"{total:.1f} s wall and {total_cpu:.1f} s CPU: {total / floor:.2f}× the wall and "
                  f"{total_cpu / floor_cpu:.2f}× the CPU of `corpus_bleu` + `corpus_chrf` once per system "
                  f"({floor:.1f} s wall, {floor_cpu:.1f} s CPU; target ≤ 1.5× in CPU). The report files took "
                  f"{report:.1f} s more, and the run {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB "
                  f"(`benchmarks/bench_many.py`, {args.jobs} job(s), {datetime.date.today()}, on "
                  f"{len(os.sched_getaffinity(0))} cores with a {load_before} before and {load_after.split(' ', 2)[2]} "
                  "after).")
        _one_system(args, folder, outputs[0], reference)


def _report_files(evaluation, request: EvaluationRequest, human: dict[str, float]):
    """What ``acs evaluate --out`` writes after the evaluation (``write_report``: results.json, the
    figures, report.md, index.html and its sidecars): wall, CPU and the timings of each file kind."""
    from auto_challenge_sets.evaluation.report.report_writer import write_report
    from auto_challenge_sets.evaluation.sentences import collect
    from auto_challenge_sets.pipeline.timings import recording

    with tempfile.TemporaryDirectory() as work, recording() as timings:  # reading the sentences, as acs evaluate does
        start, cpu = time.perf_counter(), _cpu()
        write_report(Path(work), evaluation, collect(request, evaluation))
        return time.perf_counter() - start, _cpu() - cpu, timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--dataset", type=Path, help="a newstest2021 de-en folder built already")
    parser.add_argument("--metrics", default="bleu,chrf,ribes")
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--paired-samples", type=int, help="default: sacrebleu's (10,000 AR trials)")
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
