"""Targeted accuracy against its control on WMT21 de-en: random word pairs at the instances'
distances in the same sentences (``--targeted-random-pairs``, 100 draws, matched on part of speech
where the sentence allows), and the judge on the second human translation (reference B,
``--judge-ref``). Through the evaluation engine on the shared WMT21 build (studies/wmt21.py,
UDPipe + eflomal seed 1, no priors), 19 systems, every lexical config, `present` match, lemma on:

- how the control drew its pairs, over the distinct instances (each phenomenon's d0 config);
- per phenomenon over its (system, config) cells: the systems' and the control's mean accuracy,
  the cells at the control's 0th percentile and at or above its 95th;
- per phenomenon, the random pairs' targeted τ with human scores (mean of the draws) and the real
  τ's percentile among them (ranges over D);
- the judge's pass rate on reference B.

    python studies/targeted_control.py [--shared ../shared] [--dataset DIR] [--write | --check]

``--dataset``: the build (made first in a temporary folder when not given). ``--write`` writes the
table into its block of docs/method.md; ``--check`` exits 1 when that block differs.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
from stored_table import REPO, store_block_or_check
from wmt21 import ALIASES, PAIR, SPLIT, build, systems

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human

NAME, SCRIPT = "targeted-control", "targeted_control.py"


def measure(dataset: Path, wmt21: Path):
    hyps = systems(wmt21)
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps), aliases=ALIASES)
    reference_b = wmt21 / "references" / "newstest2021.de-en.ref.B.en"
    request = EvaluationRequest(dataset=dataset, hypotheses=hyps, split=SPLIT, pair=PAIR, metrics=("bleu",),
                                n_samples=1, paired_samples=1, targeted=TargetedRequest(references=(reference_b,)),
                                jobs=1)
    return evaluate(request, human)


def _span(values: list[float], digits: str) -> str:
    low, high = min(values), max(values)
    if f"{low:{digits}}" == f"{high:{digits}}":
        return f"{low:{digits}}"
    return f"{low:{digits}}{' to ' if low < 0 else '–'}{high:{digits}}"


def render(evaluation) -> str:
    control = {name: found for name, found in evaluation.targeted.control.items() if name.endswith(".d0")}
    instances = sum(c.instances for c in control.values())
    shares = {key: sum(getattr(c, key) for c in control.values()) / instances
              for key in ("matched", "head_only", "unmatched", "itself")}
    cells: dict[str, list] = defaultdict(list)
    taus: dict[str, list] = defaultdict(list)
    for config in evaluation.configs.values():
        phenomenon = config.phenomenon.split(".", 1)[1]
        scores = [r.targeted for r in config.systems.values() if r.targeted is not None and r.targeted.accuracy is not None]
        if scores:  # a lexical config (an alignment measure has no targeted accuracy)
            cells[phenomenon] += scores
        human = config.human_targeted
        if human is not None and human.random_kendall_percentile is not None:
            taus[phenomenon].append((human.random_kendall_mean, human.random_kendall_percentile))
    lines = ["| phenomenon | cells | systems' mean accuracy | control's mean accuracy | cells at the control's 0th "
             "percentile | at or above its 95th | random pairs' τ (mean of the draws) | the real τ's percentile "
             "among them |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    every = [s for scores in cells.values() for s in scores]
    for phenomenon, scores in [*cells.items(), ("all", every)]:
        drawn = [s for s in scores if s.random_pairs is not None and s.random_pairs.mean is not None]
        pairs = [t for ts in taus.values() for t in ts] if phenomenon == "all" else taus.get(phenomenon, [])
        tau = "–" if not pairs else f"{_span([m for m, _ in pairs], '.2f')} | {_span([p for _, p in pairs], '.0f')}"
        lines.append(f"| {phenomenon} | {len(scores)} | {100 * np.mean([s.accuracy for s in scores]):.1f}% "
                     f"| {100 * np.mean([s.random_pairs.mean for s in drawn]):.1f}% "
                     f"| {sum(s.random_pairs.percentile == 0 for s in drawn)} "
                     f"| {sum(s.random_pairs.percentile >= 95 for s in drawn)} | {tau} |")
    judge = evaluation.targeted.judge
    return (f"WMT21 de→en, {len(evaluation.systems)} systems, every lexical config; the control drew, over the "
            f"{instances:,} distinct instances: {100 * shares['matched']:.0f}% matched, "
            f"{100 * shares['head_only']:.0f}% head only, {100 * shares['unmatched']:.0f}% unmatched, "
            f"{100 * shares['itself']:.0f}% the instance itself.\n\n" + "\n".join(lines)
            + f"\n\nThe judge passes {100 * judge.pass_rate:.1f}% of reference B ({judge.correct:,} of "
            f"{judge.judged:,} instances).\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--dataset", type=Path, help="the WMT21 build (studies/wmt21.py)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        dataset = args.dataset or build(args.shared, Path(work) / "sets")
        table = render(measure(dataset, args.shared / "data" / "wmt21"))
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
