"""Segment-level intervals and p-values on WMT21 de-en before and after issue 34 (item 4): whole
sentences as the unit instead of instances.

Through the evaluation engine (all 19 systems, ``--targeted``, the human segment scores), per
lexical config: targeted accuracy's mean z of instances judged correct minus wrong with

- *before*: the instance bootstrap the engine used until issue 34 (``scipy.stats.bootstrap`` over
  the instances, the correct and wrong groups resampled independently, seed [seed, 3]);
- *after*: the engine's cluster bootstrap (whole sentences resampled, each with every system's
  instances), its p and that p corrected by BH over the run's family (its size beside it);

and the targeted τ's p as scipy's ``kendalltau`` gives it over the instances (before) and the
engine's permutation over sentences (after), with chrF's sentence-level τ the same way.

    .venv/bin/python studies/segment_intervals.py --dataset DIR [--wmt21 DIR] [--seed 1] [--jobs N]

prints a markdown table, and with ``--write`` writes its summary (how many intervals exclude 0 before
and after, the widening, the differences that survive BH) into its block of docs/method.md
(``--check``: exit 1 when that block differs); DIR is a WMT21 de-en folder built with an aligner, e.g.
``acs build --pair de-en --corpus newstest2021 --source …src.de --target …ref.A.en --parser udpipe
--udpipe-model german.udpipe --aligner eflomal --seed 1 --out DIR`` (as tests/conftest.py builds it).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import sacrebleu
from scipy.stats import bootstrap, kendalltau
from stored_table import store_block_or_check

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.segments import read_human_seg
from auto_challenge_sets.formats.corpus import read_lines

SPLIT = "newstest2021"
ALIASES = {"Nemo.7": "NVIDIA-NeMo"}  # WMT's segment table names one system differently
NAME, SCRIPT = "segment-intervals", "segment_intervals.py"


def _instances(verdicts: dict[str, list[list[str]]], lines: list[int], seg) -> tuple[list[float], list[float]]:
    right, wrong = [], []
    for system, rows in verdicts.items():
        for line, judged in zip(lines, rows, strict=True):
            z = seg.scores.get(system, {}).get(int(line))
            if z is None:
                continue
            right += [z for v in judged if v == "correct"]
            wrong += [z for v in judged if v == "wrong"]
    return right, wrong


def _cell(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def _p(p) -> str:
    return "-" if p is None else ("<0.001" if p < 0.001 else f"{p:.3f}")


def measure(dataset: Path, wmt21: Path, seed: int, jobs: int = 1) -> tuple[str, list[dict]]:
    """The per-config table, and per config its two intervals, their width ratio and the BH p."""
    outputs = wmt21 / "system-outputs"
    hyps = {path.name.split(".hyp.")[1][: -len(".en")]: path for path in sorted(outputs.glob("newstest2021.de-en.hyp.*.en"))}
    seg = read_human_seg(wmt21 / "humaneval" / "ad-seg-scores-de-en.csv", list(hyps), ALIASES)
    request = EvaluationRequest(dataset, hyps, split=SPLIT, pair="de-en", metrics=("chrf",), n_samples=20,
                                paired_samples=20, seed=seed, targeted=TargetedRequest(), jobs=jobs)
    start = time.perf_counter()
    evaluation = evaluate(request, human_seg=seg)
    seconds = time.perf_counter() - start
    folder = DatasetFolder(dataset)
    sentence_chrf = _sentence_chrf(hyps, wmt21 / "references" / "newstest2021.de-en.ref.A.en")
    head = ["config", "rows", "judged c/w", "z c − w", "CI instances (before)", "CI sentences (after)", "width ×",
            "p (BH) of the difference", "targeted τ p before", "after", "chrF τ p before", "after"]
    table = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    rows: list[dict] = []
    for name, config in evaluation.configs.items():
        found = config.segment_targeted
        if found is None or found.ci is None:
            continue
        lines = [int(x) for x in folder.read(name, SPLIT, ["line"])["line"]]
        right, wrong = _instances(evaluation.verdicts[name], lines, seg)
        before = bootstrap((np.array(right), np.array(wrong)), lambda a, b, axis: a.mean(axis) - b.mean(axis),
                           n_resamples=1000, method="percentile", vectorized=True,
                           rng=np.random.default_rng([seed, 3])).confidence_interval
        ratio = (found.ci[1] - found.ci[0]) / (before.high - before.low)
        tau_before = kendalltau([1.0] * len(right) + [0.0] * len(wrong), right + wrong).pvalue
        chrf = config.segment["chrf"]
        flags = [f for f, on in (("small", config.small), (f"= {config.same_rows_as}", config.same_rows_as)) if on]
        corrected = "-" if found.difference_p_corrected is None else (
            f"{_p(found.difference_p_corrected)} (of {found.difference_family_size})")
        rows.append({"config": name, "before": (before.low, before.high), "after": found.ci, "ratio": ratio,
                     "p_corrected": found.difference_p_corrected, "family": found.difference_family_size})
        if found.difference_exploratory:
            corrected += " exploratory"
        table.append("| " + " | ".join([
            name + (f" ({', '.join(flags)})" if flags else ""), str(config.n), f"{found.correct}/{found.wrong}",
            f"{found.z_correct_minus_wrong:+.3f}", _cell((before.low, before.high)), _cell(found.ci), f"{ratio:.2f}",
            corrected, _p(tau_before), _p(found.p_value), _p(_independent_pairs_p(sentence_chrf, lines, seg)), _p(chrf.p_value)]) + " |")
    ratios = [float(r.split(" | ")[6]) for r in table[2:]]
    return "\n".join(table) + (f"\n\nwidth ratio after/before: {min(ratios):.2f}–{max(ratios):.2f} (median "
                               f"{np.median(ratios):.2f}); evaluate() with the segment level took {seconds:.0f} s\n"), rows


def summary(rows: list[dict]) -> str:
    """docs/method.md's table: the intervals before (instances) and after (whole sentences)."""
    def excluding(key: str) -> str:
        names = [r["config"].split(".", 1)[1] for r in rows if r[key][0] > 0 or r[key][1] < 0]
        return f"{len(names)}" + (f": {', '.join(names)}" if names else "")

    ratios = [r["ratio"] for r in rows]
    tested = [r for r in rows if r["p_corrected"] is not None]
    families = sorted({r["family"] for r in tested})
    return "\n".join([
        f"| WMT21 de-en, {len(rows)} configs | instances resampled (before) | whole sentences resampled (after) |",
        "|---|---|---|",
        f"| intervals that exclude 0 | {excluding('before')} | {excluding('after')} |",
        f"| width, after ÷ before | – | {min(ratios):.2f}–{max(ratios):.2f} (median {np.median(ratios):.2f}) |",
        f"| differences with a BH-corrected p < 0.05 | – | {sum(r['p_corrected'] < 0.05 for r in tested)} of "
        f"{', '.join(map(str, families)) or 0} |"]) + "\n"


def _sentence_chrf(hyps: dict[str, Path], reference: Path) -> dict[str, list[float]]:
    """Every system's sentence chrF against reference A, per corpus line (sacrebleu)."""
    refs = read_lines(reference)
    chrf = sacrebleu.CHRF()
    return {system: [chrf.sentence_score(h, [r]).score for h, r in zip(read_lines(path), refs, strict=True)]
            for system, path in hyps.items()}


def _independent_pairs_p(sentence_chrf: dict[str, list[float]], lines: list[int], seg) -> float:
    """The p scipy's kendalltau gives chrF's sentence τ when every (system, sentence) pair counts as
    independent: the engine's p until issue 34."""
    xs, zs = [], []
    for system, scores in sentence_chrf.items():
        for line in lines:
            z = seg.scores.get(system, {}).get(line)
            if z is not None:
                xs.append(scores[line - 1])
                zs.append(z)
    return float(kendalltau(xs, zs).pvalue)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, default=Path("/tmp/wmt21_sets/sets"),
                        help="a WMT21 de-en dataset folder built with an aligner (read only)")
    parser.add_argument("--wmt21", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt21")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the numbers do not depend on it)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the summary into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's summary differs")
    args = parser.parse_args(argv)
    table, rows = measure(args.dataset, args.wmt21, args.seed, args.jobs)
    print(table)
    return store_block_or_check(summary(rows), NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
