"""``acs evaluate``: score one or many systems on challenge sets of a dataset folder (the work is
:mod:`auto_challenge_sets.evaluation.engine`'s; this module parses flags into a request and prints)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from auto_challenge_sets.cli.help import VERIFY_HELP, HelpFormatter, ascii_real, int_at_least, non_empty

DESCRIPTION = """\
Score one or many systems' translations of a test corpus on LDD challenge sets: every metric of
--metrics (BLEU, chrF and TER from sacrebleu, RIBES as NTT defines it, or one a package registers)
on every config, against length-matched random corpora drawn from the full corpus ({pair}.baseline);
sacrebleu's paired test of every system against a baseline system; per metric a full-test-set
ranking with WMT's significance clusters (`--config {pair}.baseline` scores the full corpus alone,
without random baseline); per metric and phenomenon the trend of the score with D (Spearman over the
distinct configs with at least --min-rows rows, the paper's Table 5) and a summary; with --human,
each metric's ranking against human scores; with --targeted, whether each dependency's head and
dependent were translated as the reference translates them.

HYP has one line per line of the corpus the split was built from, pairs with an empty side
included (line N translates the row whose `line` is N): the corpus's line count `acs build`
recorded. Give several --hyp files (NAME=FILE names one, `-` reads stdin) to compare systems.

Tables list systems best first by the first metric (ties by name), configs in distance order.
--out DIR writes results.json (schema acs-evaluation/4, JSON Schema
auto_challenge_sets/evaluation/results.schema.json), report.md, SVG figures and index.html, and the
terminal gets a summary (per metric the full test set's best and clusters, the per-phenomenon
summary, the flagged configs); `acs report DIR` renders them again from results.json alone."""

EPILOG = """\
examples:
  acs evaluate --dataset ldd_sets --config de-en.particle.d3 --split newstest2021 --hyp sys.en
  acs evaluate --dataset ldd_sets --config all --split newstest2021 --hyp sys.en --out report/
  acs evaluate --dataset ldd_sets --config all --hyp sys.en --ref refB.en --metrics bleu,ter --json > scores.json
  acs evaluate --dataset ldd_sets --pair de-en --split newstest2021 --config all \\
      --hyp wmt21/system-outputs/newstest2021.de-en.hyp.*.en \\
      --human wmt21/humaneval/ad-sys-scores-de-en.csv --out report/
  acs evaluate --dataset ldd_sets --pair de-en --split newstest2021 --config all \\
      --hyp wmt21/system-outputs/newstest2021.de-en.hyp.*.en --targeted \\
      --judge-ref wmt21/references/newstest2021.de-en.ref.B.en --out report/"""


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.backends import ALIGNER
    from auto_challenge_sets.cli.backend_flags import add_backend_flags
    from auto_challenge_sets.cli.evaluate_options import add_metric_option_flags, request_defaults
    from auto_challenge_sets.evaluation.output_alignment import ALIGNERS, RANDOM_PAIRS
    from auto_challenge_sets.evaluation.request import MAX_JOBS, MAX_PAIRED_SAMPLES, MAX_SAMPLES, PAIRED_TESTS
    from auto_challenge_sets.scoring.targeted import CHRF_THRESHOLD

    default = request_defaults()
    parser = subparsers.add_parser(
        "evaluate", help="score MT output on challenge sets against a length-matched random baseline",
        description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("--dataset", default="auto_challenge_sets", metavar="DIR",
                        help="a folder written by `acs build` (default: ./auto_challenge_sets, its default --out)")
    parser.add_argument("--verify", action="store_true", default=default["verify"], help=VERIFY_HELP)
    parser.add_argument("--config", required=True, type=non_empty, metavar="NAME|all",
                        help="config to score (e.g. de-en.particle.d3; several separated by commas), or `all`: "
                        "every non-baseline config of the language pair")
    parser.add_argument("--split", metavar="NAME",
                        help="split (source corpus, e.g. newstest2021); default: the baseline config's only split")
    parser.add_argument("--hyp", nargs="+", action="extend", metavar="FILE",
                        help="system outputs, one line per corpus line (NAME=FILE names one, `-`: stdin; repeatable)")
    parser.add_argument("--testset", metavar="NAME",
                        help="the corpus is sacrebleu's test set NAME, built with `acs build --testset NAME`: "
                        "the split defaults to its name, and --system takes outputs from it (needs --pair)")
    parser.add_argument("--system", nargs="+", metavar="NAME",
                        help="with --testset: system outputs that sacrebleu's registry holds for the test "
                        "set (in it, or in NAME/systems as wmt21/systems), by name, or `all`")
    parser.add_argument("--ref", action="append", default=[], metavar="FILE",
                        help="a further reference for the metrics, one line per corpus line (repeatable), as "
                        "sacrebleu's several -r files (nrefs:N), after the dataset's `reference`; the judge's: --judge-ref")
    parser.add_argument("--ref-config", metavar="NAME",
                        help="config holding the full corpus: the random baseline's pool and the full-corpus "
                        "score (default: {pair}.baseline)")
    parser.add_argument("--pair", metavar="SRC-TGT", help="with --config all: the language pair, when the "
                        "folder holds several")
    parser.add_argument("--out", metavar="DIR", help="write report.md, results.json, SVG figures and index.html here (a new "
                        "or empty folder, or an earlier report: replaced whole, or not at all if the run fails)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (results.json) instead of tables")
    parser.add_argument("--quiet", action="store_true", help="no progress bars (they show only on a terminal)")
    parser.add_argument("--timings", action="store_true",
                        help="print on standard error each stage's wall and CPU seconds and what it handled "
                        "(inputs, statistics, random baselines, paired tests, human, targeted, each report file)")
    parser.add_argument("--jobs", type=int_at_least(1, MAX_JOBS), default=default["jobs"], metavar="N",
                        help="worker processes for the systems' statistics; the numbers do not depend on it "
                        "(default: the cores this process may use)")
    parser.add_argument("--n-samples", type=int_at_least(1, MAX_SAMPLES), default=default["n_samples"], metavar="N",
                        help="random corpora per config")
    parser.add_argument("--length-tolerance", type=int_at_least(0), default=default["length_tolerance"],
                        metavar="N", help="largest source-length difference of a random replacement")
    parser.add_argument("--length-relative", type=ascii_real, default=default["length_relative"], metavar="F",
                        help="or this share of the row's length where that is wider, for paragraph-level test "
                             "sets (0: the tolerance alone)")
    parser.add_argument("--seed", type=int_at_least(0), default=default["seed"], metavar="N", help="random seed")
    many = parser.add_argument_group("metrics, systems and statistics")
    many.add_argument("--metrics", default=",".join(default["metrics"]), metavar="LIST",
                      help="comma-separated registered metrics: bleu, chrf, ribes, ter, or one a package adds "
                      "(entry-point group auto_challenge_sets.metrics, e.g. comet with the comet extra); the "
                      "first chooses the baseline system")
    add_metric_option_flags(many)
    many.add_argument("--baseline", metavar="NAME", help="the system the others are tested against "
                      "(default: the best on the full corpus by the first metric)")
    many.add_argument("--paired-test", choices=PAIRED_TESTS, default=default["paired_test"],
                      help="sacrebleu's approximate randomization or paired bootstrap")
    many.add_argument("--paired-samples", type=int_at_least(1, MAX_PAIRED_SAMPLES), default=default["paired_samples"],
                      metavar="N", help="trials of the paired test (default: sacrebleu's, "
                      f"{', '.join(f'{n:,} for {t}' for t, n in PAIRED_TESTS.items())})")
    many.add_argument("--findings-by", choices=("phenomenon", "config"), default="phenomenon",
                      help="the findings' rows: each phenomenon's largest usable config, or every usable config")
    many.add_argument("--min-rows", type=int_at_least(0), default=default["min_rows"], metavar="N",
                      help="configs with fewer rows are scored but flagged small and left out of trends and summaries")
    many.add_argument("--human", metavar="FILE", help="human system scores (CSV or white-space table with a header)")
    many.add_argument("--human-system", default="SYS", metavar="COL", help="the column of system names")
    many.add_argument("--human-score", default="Z.SCR", metavar="COL", help="the column of scores")
    many.add_argument("--human-alias", action="append", default=[], metavar="A=B",
                      help="table name A is system B (repeatable; --human and --human-seg)")
    many.add_argument("--human-seg", metavar="FILE",
                      help="human segment scores in WMT's layout (SYS SID RAW.SCR Z.SCR N, SID the 1-based corpus "
                      "line): per config, Kendall's τ-b of each metric's sentence scores with z, and with --targeted "
                      "the mean z of instances judged correct minus wrong (95%% bootstrap interval)")
    group = parser.add_argument_group(
        "targeted accuracy", "was the dependency itself translated? The reference words aligned to each lexical "
        "instance's head and dependent (the expected translation) must be in the output, or, with an aligner, be "
        "the output words aligned to them (lower-cased, punctuation stripped; else sentence chrF >= "
        "--targeted-chrf); a head without aligned reference words is counted apart, a dependent without is judged "
        "with its head. A diagnostic of reference-word recall, not a ranking measure: it credits the reference's "
        "own words, so a second human translation passes only about half the time (46% on WMT21 de-en). Give one "
        "with --judge-ref and the run measures this judge's pass rate on it and prints it beside every targeted "
        "number; without one the report says the judge is unmeasured")
    group.add_argument("--targeted", action="store_true", help="score the targeted accuracy of lexical configs")
    group.add_argument("--targeted-aligner", choices=ALIGNERS, default="auto",
                       help="eflomal: references and outputs aligned in one joint corpus; simalign: each pair "
                       "directly; stored: the dataset's alignment column and --hyp-alignment files; present: the "
                       "expected words (by the alignment column) must be in the output; auto: stored with "
                       "--hyp-alignment, else present (eflomal's test-set links on WMT21 de-en were too noisy to tell "
                       "outputs without the expected words from real ones)")
    group.add_argument("--hyp-alignment", action="append", default=[], metavar="[NAME=]FILE",
                       help="a system's output aligned to the source (Pharaoh, one line per corpus line, source "
                       "words x white-space tokens of the output); NAME as the system's (repeatable)")
    group.add_argument("--targeted-chrf", type=ascii_real, default=CHRF_THRESHOLD, metavar="X",
                       help="a part whose words differ still matches at sentence chrF >= X (inflection; "
                       f"default: {CHRF_THRESHOLD:g})")
    group.add_argument("--targeted-lemma", action=argparse.BooleanOptionalAction, default=True,
                       help="words with the same lemma match (simplemma, the pair's target language): "
                       "\"gave up\" for \"give up\"")
    group.add_argument("--judge-ref", action="append", default=[], metavar="FILE",
                       help="a second human translation, one line per corpus line (repeatable): the judge is "
                       "checked on it as on a system's output; not a metric reference (that is --ref)")
    group.add_argument("--targeted-all-refs", action="store_true",
                       help="an instance is also correct when it matches a --judge-ref translation (each aligned to the "
                       "source with eflomal); off by default: their links let too much through (docs/method.md)")
    group.add_argument("--targeted-random-pairs", type=int_at_least(0, 100_000), default=RANDOM_PAIRS, metavar="N",
                       help="draws of the control: the same judgement on random word pairs at each instance's "
                       "distance in the same sentences, with the instance's head and dependent UPOS where the "
                       "sentence has such a pair (else the head's, else any; the report counts each), seeded by "
                       f"--seed (0: none; default: {RANDOM_PAIRS})")
    add_backend_flags(group, ALIGNER, in_build=True, taken=frozenset({"--seed"}))
    parser.set_defaults(func=run)


def _targeted_request(args: argparse.Namespace, systems: list[str]):
    """The --targeted flags as a request (None without --targeted)."""
    from auto_challenge_sets.backends import ALIGNER
    from auto_challenge_sets.cli.backend_flags import given_backend_options
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.evaluation.output_alignment import RANDOM_PAIRS, TargetedRequest

    options = given_backend_options(args, ALIGNER)
    if not args.targeted:
        if args.hyp_alignment or options or args.targeted_aligner != "auto" or not args.targeted_lemma \
                or args.targeted_random_pairs != RANDOM_PAIRS or args.targeted_all_refs or args.judge_ref:
            raise AcsError("the targeted-accuracy flags need --targeted")
        return None
    files = {}
    for item in args.hyp_alignment:
        name, sep, path = item.partition("=")
        if not sep or _exists(item):
            if len(systems) != 1:
                raise AcsError(f"--hyp-alignment {item}: name the system (NAME=FILE) when there are several")
            name, path = systems[0], item
        if name in files:
            raise AcsError(f"--hyp-alignment {item}: a second alignment file for system {name} (the first: "
                           f"{files[name]}); give one per system")
        files[name] = path
    return TargetedRequest(args.targeted_aligner, options, files, args.targeted_chrf, args.targeted_lemma,
                           args.targeted_random_pairs, tuple(args.judge_ref), args.targeted_all_refs)


def _exists(item: str) -> bool:
    """Whether ``item`` is a path that exists (a NAME=FILE too long to be a file name is not one)."""
    try:
        return Path(item).exists()
    except OSError:
        return False


def name_systems(items: list[str]) -> dict[str, str]:
    """System names for ``--hyp`` items: ``NAME=FILE`` as given, otherwise the part of the file
    names that differs between the files (``newstest2021.de-en.hyp.Facebook-AI.en`` →
    ``Facebook-AI``); one file alone is named by its stem (``-``, standard input: ``stdin``)."""
    from auto_challenge_sets.errors import AcsError

    named: dict[str, str] = {}
    plain = [item for item in items if "=" not in item or _exists(item)]
    for item in items:
        if item not in plain:
            name, _, path = item.partition("=")
            if not name.strip() or not path:
                raise AcsError(f"--hyp {item}: NAME=FILE needs a system name and a file")
            named[name] = path
    parts = [Path(p).name.split(".") for p in plain]
    if len(plain) == 1:
        names = [Path(plain[0]).stem if plain[0] != "-" else "stdin"]
    else:
        same = min(map(len, parts), default=0)
        keep = [i for i in range(same) if len({p[i] for p in parts}) > 1] if len(set(map(len, parts))) == 1 else []
        names = [".".join(p[i] for i in keep) if keep else Path(plain[k]).name for k, p in enumerate(parts)]
    named.update(zip(names, plain))
    if len(named) != len(items):
        raise AcsError("two --hyp files get the same system name; name them with NAME=FILE")
    return named


def _human(args: argparse.Namespace, systems: list[str]):
    """--human and --human-seg read, with --human-alias (None where not given)."""
    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.evaluation.report.name_text import terminal_text
    from auto_challenge_sets.evaluation.stats.human import read_human
    from auto_challenge_sets.evaluation.stats.segments import read_human_seg

    if args.human_alias and not (args.human or args.human_seg):
        raise InputError("--human-alias needs --human or --human-seg")
    aliases = {}
    for item in args.human_alias:
        name, sep, system = item.partition("=")
        if not sep or not name or not system:
            raise InputError(f"--human-alias expects A=B, got {item!r}")
        aliases[name] = system
    human = read_human(args.human, systems, args.human_system, args.human_score, aliases) if args.human else None
    for label, names in (("table rows matching no system", human.unmatched_table if human else ()),
                         ("systems without a human score", human.unmatched_systems if human else ())):
        if names:
            print(f"note: {label}: {', '.join(map(terminal_text, names))}", file=sys.stderr)
    return human, read_human_seg(args.human_seg, systems, aliases) if args.human_seg else None


def _testset_inputs(args: argparse.Namespace) -> None:
    """--split and the --system outputs from sacrebleu's test set (--testset)."""
    from auto_challenge_sets.errors import AcsError

    if args.system and not args.testset:
        raise AcsError("--system names outputs of a sacrebleu test set: give --testset NAME too")
    if args.testset:
        if not args.pair:
            raise AcsError("--testset needs --pair (sacrebleu keeps each language pair apart)")
        from auto_challenge_sets.pipeline.testsets import resolve_systems, split_name

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
    """The flags as one request (its errors name its fields, shown as flags: cli/fields.py), scored and printed."""
    import json
    from dataclasses import replace

    from auto_challenge_sets.cli.evaluate_options import metric_options, shorthand_flags
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.report.report_folder import prepare_report_folder, report_folder
    from auto_challenge_sets.evaluation.report.report_writer import text_report, write_report
    from auto_challenge_sets.evaluation.report.terminal_summary import terminal_summary, wrote_line
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.sentences import collect
    from auto_challenge_sets.pipeline.timings import recording, stage

    _testset_inputs(args)
    with shorthand_flags(args):
        hypotheses = name_systems(args.hyp)
        request = EvaluationRequest(
            dataset=args.dataset, hypotheses=hypotheses, config=args.config, split=args.split,
            pair=args.pair, references=tuple(args.ref), ref_config=args.ref_config,
            metrics=tuple(args.metrics.split(",")), n_samples=args.n_samples,
            length_tolerance=args.length_tolerance, length_relative=args.length_relative, seed=args.seed,
            min_rows=args.min_rows, baseline=args.baseline, paired_test=args.paired_test,
            paired_samples=args.paired_samples, targeted=_targeted_request(args, list(hypotheses)),
            metric_options=metric_options(args), jobs=args.jobs, verify=args.verify)
        human, human_seg = _human(args, list(request.hypotheses))
        if args.out:
            prepare_report_folder(args.out)  # a folder it must not write fails before the scoring
        with recording() as timings:
            evaluation = evaluate(request, human, progress=not args.quiet, human_seg=human_seg)
        evaluation = replace(evaluation, settings=replace(evaluation.settings, findings_by=args.findings_by))
        for note in evaluation.notes:
            print(f"note: {note}", file=sys.stderr)
        if args.json:
            print(json.dumps(evaluation.to_json(), indent=2, ensure_ascii=False))
        else:  # with --out the full tables go to index.html and tables.{metric}.md; the terminal gets a screenful
            print(terminal_summary(evaluation) if args.out else text_report(evaluation))
        if args.out:
            with report_folder(args.out) as work, recording() as report_timings:
                with stage("read sentences", len(evaluation.configs), "configs"):  # the rows behind each config, again
                    sentences = collect(request, evaluation)
                written = write_report(work, evaluation, sentences, progress=not args.quiet)
                wrote = wrote_line(args.out, written, work)
            timings.stages += report_timings.stages
            if not args.json:  # after the swap: the files are in place
                print(wrote)
        if args.timings:
            for line in timings.lines():
                print(f"timing: {line}", file=sys.stderr)
    return 0
