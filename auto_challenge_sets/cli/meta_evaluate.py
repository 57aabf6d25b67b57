"""``acs meta-evaluate``: agreement with humans pooled over several runs of ``acs evaluate --human``
(the work is :mod:`auto_challenge_sets.evaluation.stats.meta_runs`'s; this module parses flags and prints)."""

from __future__ import annotations

import argparse

from auto_challenge_sets.cli.help import HelpFormatter, int_at_least, non_empty

DESCRIPTION = """\
Does a challenge set rank MT systems as humans do, and better than BLEU on the full test set?
Reads the results.json of several `acs evaluate --human ... --out DIR` runs, each with its own human
system scores, and reports per measure (every metric on every config, targeted accuracy, every
metric on the full test set) its pairwise accuracy (WMT's system-level meta-evaluation) and its
Kendall τ pooled within run, each with a 95% bootstrap interval over systems and a permutation p;
its difference to full-test BLEU on the same systems (the two measures' ranks swapped per system),
Benjamini–Hochberg corrected per metric across the configs; the verdict, better than, no different
from or worse than full-test BLEU; and the power: the τ the pool needs, the Δτ it detects.

Systems are never compared across runs. Configs are matched by name; a measure some run does not
score on at least 3 human-scored systems is left out and listed. The same run given twice is
refused; runs that differ in metrics, settings or how their sets were made are pooled as given,
with a note naming each field that differs. Same files and seed, same numbers. Choosing a config
on these runs and reporting it on them is in-sample: confirm it on another run."""

EPILOG = """\
examples:
  acs evaluate --dataset sets --config all --hyp out/*.en --human ad-sys-scores-2021.csv --out run2021
  acs evaluate --dataset sets22 --config all --hyp out22/*.en --human ad-sys-scores-2022.csv --out run2022
  acs meta-evaluate run2021/results.json run2022/results.json
  acs meta-evaluate run2021/results.json run2022/results.json --markdown > meta.md"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "meta-evaluate",
        help="pool several runs' agreement with human scores; compare each config with full-test BLEU",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("results", nargs="+", metavar="RESULTS_JSON",
                        help="results.json of `acs evaluate --human ... --out DIR` (one per run; one run is allowed)")
    parser.add_argument("--reference", default="bleu", type=non_empty, metavar="METRIC",
                        help="the metric whose full-test scores every measure is compared with")
    parser.add_argument("--seed", type=int_at_least(0), default=1, help="seed of the bootstrap and the permutations")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="print Markdown tables")
    output.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from auto_challenge_sets.evaluation.report.meta_report import render, to_json
    from auto_challenge_sets.evaluation.stats.meta_runs import meta_evaluate

    found = meta_evaluate(args.results, reference=args.reference, seed=args.seed, label_of=_registry_label)
    print(json.dumps(to_json(found), indent=2, ensure_ascii=False) if args.json else render(found, args.markdown))
    return 0


def _registry_label(metric: str) -> str:
    """A metric's label where a run does not carry it (results.json before schema 4): the
    registry's, else its name (a metric of a package not installed here)."""
    from auto_challenge_sets.scoring.metrics import metric_class

    try:
        return metric_class(metric).label
    except Exception:  # noqa: BLE001 - an unknown name or a broken plug-in: the name is all the file says
        return metric
