"""Does targeted accuracy rank the WMT21 de-en systems as humans do, and better than full-test BLEU?
Per lexical config, Kendall's τ of targeted accuracy with WMT21's system-level human z (19 systems,
../shared/data/wmt21/humaneval), its p corrected by Benjamini–Hochberg over the run's configs, and
τ minus full-test BLEU's τ with the p of the paired swap test, corrected the same way: what
`acs evaluate --targeted --human` reports (`present` match, lemma on, one reference), on the shared
WMT21 build (studies/wmt21.py) without and with eflomal priors, since the build's links decide
which reference words each instance expects.

    python studies/human_agreement.py [--shared ../shared] [--dataset DIR] [--dataset-priors DIR] [--write | --check]

``--dataset``/``--dataset-priors``: the two builds, made first in a temporary folder when not given
(minutes each). ``--write`` writes the table into its block of docs/method.md; ``--check`` exits 1
when that block differs. eflomal's links depend on the CPU (pip builds it with ``-march=native``):
on another machine a τ may move, and the check says so.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from stored_table import REPO, store_block_or_check
from wmt21 import ALIASES, PAIR, SPLIT, build, systems

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human

NAME, SCRIPT = "human-agreement", "human_agreement.py"
ALPHA = 0.05


def measure(dataset: Path, wmt21: Path):
    """The evaluation of the 19 systems with targeted accuracy and human scores (BLEU only; the
    random baseline and the paired tests, which no number here reads, at one draw)."""
    hyps = systems(wmt21)
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps), aliases=ALIASES)
    request = EvaluationRequest(dataset=dataset, hypotheses=hyps, split=SPLIT, pair=PAIR, metrics=("bleu",),
                                n_samples=1, paired_samples=1, targeted=TargetedRequest(random_pairs=0), jobs=1)
    return evaluate(request, human)


def _p(p: float | None) -> str:
    return "–" if p is None else f"{p:.3f}"


def render(runs: dict[str, object]) -> str:
    """One row per lexical config, a column group per build; the configs that survive BH named."""
    labels = list(runs)
    first = runs[labels[0]]
    configs = [name for name, c in first.configs.items() if c.human_targeted is not None and c.human_targeted.kendall is not None]
    head = "| config | " + " | ".join(f"τ {b} | p (BH) | Δτ vs BLEU, p (BH)" for b in labels) + " |"
    lines = [head, "|---|" + "---:|---:|---:|" * len(labels)]
    survive: dict[str, list[str]] = {b: [] for b in labels}
    for name in configs:
        cells = []
        for label in labels:
            found = runs[label].configs.get(name)
            human = found.human_targeted if found is not None else None
            if human is None or human.kendall is None:
                cells.append("– | – | –")
                continue
            if human.p_corrected is not None and human.p_corrected < ALPHA:
                survive[label].append(name.split(".", 1)[1])
            versus = human.vs_full_test
            delta = "–" if versus is None or versus.delta is None else f"{versus.delta:+.2f}, {_p(versus.p_corrected)}"
            cells.append(f"{human.kendall:.2f} | {_p(human.p_corrected)} | {delta}")
        lines.append(f"| {name.split('.', 1)[1]}{' (small)' if first.configs[name].small else ''} | " + " | ".join(cells) + " |")
    bleu = {b: runs[b].human_full["bleu"] for b in labels}
    family = {b: max((c.human_targeted.family_size or 0) for c in runs[b].configs.values() if c.human_targeted) for b in labels}
    out = [f"WMT21 de→en, {bleu[labels[0]].systems} systems; targeted τ's p corrected over the run's "
           f"{family[labels[0]]} distinct configs (BH); full-test BLEU's τ "
           + ", ".join(f"{bleu[b].kendall:.3f} ({b})" for b in labels) + ":", "", *lines]
    for label in labels:
        names = survive[label]
        out += ["", f"Targeted τ with a BH-corrected p < {ALPHA} ({label}): "
                + (f"{len(names)}: {', '.join(names)}" if names else "none") + "."]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    parser.add_argument("--dataset", type=Path, help="the WMT21 build without priors (studies/wmt21.py)")
    parser.add_argument("--dataset-priors", type=Path, help="the WMT21 build with eflomal priors")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the table into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's table differs")
    args = parser.parse_args()
    wmt21 = args.shared / "data" / "wmt21"
    with tempfile.TemporaryDirectory() as work:
        plain = args.dataset or build(args.shared, Path(work) / "sets")
        priors = args.dataset_priors or build(args.shared, Path(work) / "sets-priors", priors=True)
        table = render({"no priors": measure(plain, wmt21), "priors": measure(priors, wmt21)})
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
