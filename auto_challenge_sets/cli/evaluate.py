"""``acs evaluate``: score one system's output on challenge sets of a dataset folder (the work is
:mod:`auto_challenge_sets.evaluation.service`'s; this module parses flags and prints)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from auto_challenge_sets.cli.help import HelpFormatter, int_at_least, non_empty

MAX_SAMPLES = 100_000  # 10**9 samples would not fit in memory; a run that asks for them is a typo

DESCRIPTION = """\
Score a system's translation of a test corpus on LDD challenge sets: BLEU (sacrebleu) and RIBES
(NTT's definition), each compared with length-matched random corpora drawn from the full corpus
(the {pair}.baseline config), and, with --config all, by minimum distance D per phenomenon with
the Spearman correlation of score with D (the paper's Table 5).

HYP has one line per line of the corpus the split was built from (line N of HYP translates the
row whose `line` is N), so its line count must equal the corpus's line count as `acs build`
recorded it (pairs with an empty side are not rows, but their lines are still in HYP).

Several systems: give several --hyp files (or NAME=FILE; `-` reads one from stdin). Everything is
scored in one process: BLEU, chrF and RIBES of every system on every config, one length-matched
random baseline per (system, config, metric), sacrebleu's paired test of each system against a
baseline system, one trend over D per phenomenon and system over the distinct configs with at
least --min-rows rows, a summary per phenomenon, and with --human the correlation with human
scores. It writes results.json, report.md and plots with --out.

--targeted adds the targeted accuracy of each lexical config: was each dependency's head and
dependent translated as the reference translates them (see "targeted accuracy" below)."""

EPILOG = """\
examples:
  acs evaluate --dataset ldd_sets --config de-en.particle.d3 --split newstest2021 --hyp sys.en
  acs evaluate --dataset ldd_sets --config all --split newstest2021 --hyp sys.en --out report/
  acs evaluate --dataset ldd_sets --config all --hyp sys.en --ref refB.en --json > scores.json
  acs evaluate --dataset ldd_sets --pair de-en --split newstest2021 --config all \
      --hyp wmt21/system-outputs/newstest2021.de-en.hyp.*.en \
      --human wmt21/humaneval/ad-sys-scores-de-en.csv --out report/
  acs evaluate --dataset ldd_sets --pair de-en --split newstest2021 --config all \
      --hyp wmt21/system-outputs/newstest2021.de-en.hyp.*.en --targeted --out report/"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="score MT output on challenge sets against a length-matched random baseline",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--dataset", default="auto_challenge_sets", metavar="DIR",
                        help="a folder written by `acs build` (default: ./auto_challenge_sets, its default --out)")
    parser.add_argument(
        "--config",
        required=True,
        type=non_empty,
        metavar="NAME|all",
        help="config to score (e.g. de-en.particle.d3; several separated by commas), or `all`: "
        "every non-baseline config of the language pair",
    )
    parser.add_argument(
        "--split",
        metavar="NAME",
        help="split (source corpus, e.g. newstest2021); default: the baseline config's only split",
    )
    parser.add_argument("--hyp", nargs="+", metavar="FILE",
                        help="system output, one line per corpus line; several files (NAME=FILE to name one, "
                        "`-` for stdin) for the many-system evaluation")
    parser.add_argument("--testset", metavar="NAME",
                        help="the corpus is sacrebleu's test set NAME, built with `acs build --testset NAME`: "
                        "the split defaults to its name, and --system takes outputs from it (needs --pair)")
    parser.add_argument("--system", nargs="+", metavar="NAME",
                        help="with --testset: system outputs that sacrebleu's registry holds for the test "
                        "set (in it, or in NAME/systems as wmt21/systems), by name, or `all`")
    parser.add_argument(
        "--ref",
        action="append",
        default=[],
        metavar="FILE",
        help="an additional reference file, one line per corpus line (repeatable); the dataset's "
        "`reference` column is always the first reference",
    )
    parser.add_argument(
        "--ref-config",
        metavar="NAME",
        help="config holding the full corpus: the random baseline's pool and the full-corpus "
        "score (default: {pair}.baseline)",
    )
    parser.add_argument("--pair", metavar="SRC-TGT", help="with --config all: the language pair, when the "
                        "folder holds several")
    parser.add_argument("--out", metavar="DIR", help="write report.md, results.json and PNG plots here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--n-samples", type=int_at_least(1, MAX_SAMPLES), default=100, metavar="N",
                        help="random corpora per config (default: 100)")
    parser.add_argument("--length-tolerance", type=int_at_least(0), default=1, metavar="N",
                        help="largest source-length difference of a random replacement (default: 1)")
    parser.add_argument("--seed", type=int_at_least(0), default=1, metavar="N", help="random seed (default: 1)")
    parser.add_argument("--tokenize", default="13a", metavar="NAME",
                        help="sacrebleu tokenizer for BLEU and RIBES (default: 13a)")
    parser.add_argument("--case-sensitive-ribes", action="store_true",
                        help="do not lowercase before RIBES (RIBES.py's --case)")
    many = parser.add_argument_group("several systems")
    many.add_argument("--metrics", default="bleu,chrf,ribes", metavar="LIST",
                      help="comma-separated, of bleu, chrf, ribes")
    many.add_argument("--baseline", metavar="NAME", help="the system the others are tested against "
                      "(default: the best by full-corpus BLEU)")
    many.add_argument("--paired-test", choices=("ar", "bs"), default="ar",
                      help="sacrebleu's approximate randomization or paired bootstrap")
    many.add_argument("--paired-samples", type=int_at_least(1, 100_000), default=1000, metavar="N",
                      help="trials of the paired test")
    many.add_argument("--min-rows", type=int_at_least(0), default=20, metavar="N",
                      help="configs with fewer rows are scored but flagged small and left out of trends and summaries")
    many.add_argument("--human", metavar="FILE", help="human system scores (CSV or white-space table with a header)")
    many.add_argument("--human-system", default="SYS", metavar="COL", help="the column of system names")
    many.add_argument("--human-score", default="Z.SCR", metavar="COL", help="the column of scores")
    many.add_argument("--human-alias", action="append", default=[], metavar="A=B",
                      help="table name A is system B (repeatable)")
    _add_targeted_arguments(parser)
    parser.set_defaults(func=run)


def _add_targeted_arguments(parser: argparse.ArgumentParser) -> None:
    from auto_challenge_sets.builder.backends import ALIGNER
    from auto_challenge_sets.cli.backend_flags import add_backend_flags
    from auto_challenge_sets.evaluation.targeted import ALIGNERS
    from auto_challenge_sets.scoring.targeted import CHRF_THRESHOLD

    group = parser.add_argument_group(
        "targeted accuracy", "was the dependency itself translated? Each lexical instance's head and dependent: "
        "the reference words aligned to them (the expected translation) must be in the output, or, with an "
        "aligner, be the output words aligned to them (lower-cased, punctuation stripped; else sentence chrF "
        ">= --targeted-chrf). Instances whose head has no aligned reference word are counted apart; a "
        "dependent without one is judged with its head")
    group.add_argument("--targeted", action="store_true", help="score the targeted accuracy of lexical configs")
    group.add_argument("--targeted-aligner", choices=ALIGNERS, default="auto",
                       help="eflomal: references and every output aligned in one joint corpus; simalign: each "
                       "pair directly; stored: the dataset's alignment column and --hyp-alignment files; present: no "
                       "output alignment, the expected words (the dataset's alignment column) must be in the output; auto: "
                       "stored with --hyp-alignment, else present (on WMT21 de-en, eflomal's links of a test set were "
                       "too noisy to tell outputs with the expected words removed from real ones)")
    group.add_argument("--hyp-alignment", action="append", default=[], metavar="[NAME=]FILE",
                       help="a system's output aligned to the source (Pharaoh, one line per corpus line, source "
                       "words x white-space tokens of the output); NAME as the system's (repeatable)")
    group.add_argument("--targeted-chrf", type=float, default=CHRF_THRESHOLD, metavar="X",
                       help="a part whose words differ still matches at sentence chrF >= X (inflection; "
                       f"default: {CHRF_THRESHOLD:g})")
    add_backend_flags(group, ALIGNER, in_build=True, taken=frozenset({"--seed"}))


def _targeted_request(args: argparse.Namespace, systems: list[str]):
    """The --targeted flags as a request (None without --targeted)."""
    from auto_challenge_sets.builder.backends import ALIGNER
    from auto_challenge_sets.cli.backend_flags import given_backend_options
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.evaluation.targeted import TargetedRequest

    options = given_backend_options(args, ALIGNER)
    if not args.targeted:
        if args.hyp_alignment or options or args.targeted_aligner != "auto":
            raise AcsError("the targeted-accuracy flags need --targeted")
        return None
    files = {}
    for item in args.hyp_alignment:
        name, sep, path = item.partition("=")
        if not sep or Path(item).exists():
            if len(systems) != 1:
                raise AcsError(f"--hyp-alignment {item}: name the system (NAME=FILE) when there are several")
            name, path = systems[0], item
        files[name] = path
    unknown = sorted(set(files) - set(systems))
    if unknown:
        raise AcsError(f"--hyp-alignment for {', '.join(unknown)}, which is no system (systems: {', '.join(systems)})")
    return TargetedRequest(args.targeted_aligner, options, files, args.targeted_chrf)


def _is_many(args: argparse.Namespace) -> bool:
    return len(args.hyp) > 1 or bool(args.system) or args.human is not None or any("=" in h and not Path(h).exists() for h in args.hyp)


def run_many(args: argparse.Namespace) -> int:
    import json

    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.evaluation.human import read_human
    from auto_challenge_sets.evaluation.many import evaluate_many
    from auto_challenge_sets.evaluation.many_report import text_report, write_many_report
    from auto_challenge_sets.evaluation.systems import SystemsRequest, name_systems

    request = SystemsRequest(
        dataset=args.dataset, hypotheses=name_systems(args.hyp), config=args.config, split=args.split,
        pair=args.pair, references=list(args.ref), ref_config=args.ref_config,
        metrics=tuple(m.strip() for m in args.metrics.split(",") if m.strip()), n_samples=args.n_samples,
        length_tolerance=args.length_tolerance, seed=args.seed, tokenize=args.tokenize,
        lowercase_ribes=not args.case_sensitive_ribes, min_rows=args.min_rows, baseline=args.baseline,
        paired_test=args.paired_test, paired_samples=args.paired_samples)
    request.targeted = _targeted_request(args, list(request.hypotheses))
    human = None
    if args.human:
        aliases = {}
        for item in args.human_alias:
            name, sep, system = item.partition("=")
            if not sep:
                raise InputError(f"--human-alias expects A=B, got {item!r}")
            aliases[name] = system
        human = read_human(args.human, list(request.hypotheses), args.human_system, args.human_score, aliases)
        for label, names in (("table rows matching no system", human.unmatched_table),
                             ("systems without a human score", human.unmatched_systems)):
            if names:
                print(f"note: {label}: {', '.join(names)}", file=sys.stderr)
    results = evaluate_many(request, human)
    for note in results.notes:
        print(f"note: {note}", file=sys.stderr)
    print(json.dumps(results.payload, indent=2, ensure_ascii=False) if args.json else text_report(results.payload))
    if args.out:
        written = write_many_report(args.out, results.payload, results.random_bleu,
                                    None if human is None else human.scores)
        if not args.json:
            print(f"wrote {', '.join(str(p) for p in written)}")
    return 0


def _testset_inputs(args: argparse.Namespace) -> None:
    """--split and the --system outputs from sacrebleu's test set (--testset)."""
    from auto_challenge_sets.errors import AcsError

    if args.system and not args.testset:
        raise AcsError("--system names outputs of a sacrebleu test set: give --testset NAME too")
    if args.testset:
        if not args.pair:
            raise AcsError("--testset needs --pair (sacrebleu keeps each language pair apart)")
        from auto_challenge_sets.builder.pipeline.testsets import resolve_systems, split_name

        args.split = args.split or split_name(args.testset)
        if args.system:
            systems = resolve_systems(args.testset, args.pair)
            wanted = sorted(systems) if args.system == ["all"] else args.system
            unknown = [name for name in wanted if name not in systems]
            if unknown or not wanted:
                raise AcsError(f"sacrebleu's {args.testset} {args.pair} has no system output "
                               f"{', '.join(unknown) or 'at all'} (it has: {', '.join(sorted(systems)) or 'none'})")
            args.hyp = (args.hyp or []) + [f"{name}={systems[name]}" for name in wanted]
    if not args.hyp:
        raise AcsError("give --hyp FILE (or --testset NAME --system NAME|all)")


def run(args: argparse.Namespace) -> int:
    _testset_inputs(args)
    if _is_many(args):
        return run_many(args)
    args.hyp = args.hyp[0]
    import json

    from auto_challenge_sets.evaluation.report import text_table, write_report
    from auto_challenge_sets.evaluation.service import EvaluationRequest, evaluate_system

    evaluation = evaluate_system(EvaluationRequest(
        dataset=args.dataset, hypothesis=args.hyp, config=args.config, split=args.split, pair=args.pair,
        references=list(args.ref), ref_config=args.ref_config, n_samples=args.n_samples,
        length_tolerance=args.length_tolerance, seed=args.seed, tokenize=args.tokenize,
        lowercase_ribes=not args.case_sensitive_ribes, targeted=_targeted_request(args, ["system"]),
    ))
    payload = evaluation.payload()
    for note in evaluation.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(text_table(evaluation.results, evaluation.full))
        for name, item in evaluation.summary.items():
            cells = []
            for metric in ("bleu", "ribes"):
                rho = item["spearman"][metric]["rho"]
                cells.append(f"{metric} rho={'-' if rho is None else f'{rho:.3f}'}")
            print(f"{name}: Spearman with D: {', '.join(cells)}")
    if args.out:
        out = Path(args.out)
        written = write_report(out, evaluation.results, evaluation.full, evaluation.meta, evaluation.breakdowns)
        (out / "results.json").write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
        if not args.json:
            print(f"wrote {written[0]} and {len(written) - 1} plot(s), results.json")
    return 0
