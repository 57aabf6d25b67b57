"""``acs build``: a parallel corpus with its source-side parse → every challenge config, exported."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from auto_challenge_sets.cli.help import HelpFormatter, int_at_least

if TYPE_CHECKING:
    from auto_challenge_sets.phenomena.rule_query import RuleQuery

DEFAULT_OUT = "auto_challenge_sets"


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.phenomena.registry import lexical_phenomena

    parser = subparsers.add_parser(
        "build",
        help="build every challenge config of one language pair and corpus into a dataset folder",
        description="Select the sentence pairs of a parallel corpus with each long-distance phenomenon at every "
        "minimum distance D (lexical: 0-5 on the source-side UD parse; on a word alignment, reorder and "
        "reorder_norm: 5, 10, 15, 20 positions, crossing: 5, 10, 20, 30 percent) into a Hugging Face dataset "
        "folder: data/{config}/{split}-00000-of-00001.parquet (a file per 50,000 rows) and a README.md with the "
        "YAML configs. Another --pair or --corpus with the same --out adds to the folder.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--pair", required=True, help="language pair, source first: de-en")
    parser.add_argument("--testset", metavar="NAME",
                        help="take source and reference from sacrebleu's test set NAME (e.g. wmt21; wmt24 for en-cs, en-hi, en-zh, ...), "
                        "downloaded once into sacrebleu's cache; instead of --source/--target")
    parser.add_argument("--corpus", help="corpus name, used as the split name (\\w+); default with --testset: "
                        "the test set's name (wmt21)")
    parser.add_argument("--source", type=Path, metavar="FILE", help="source text, one sentence per line")
    parser.add_argument("--target", type=Path, metavar="FILE", help="target text (the reference), line by line")
    parser.add_argument("--source-conllu", type=Path, metavar="FILE",
                        help="a UD parse of the source (implies --parser conllu): one sentence per non-empty "
                        "source line, in order")
    parser.add_argument("--out", type=Path, metavar="DIR", default=Path(DEFAULT_OUT),
                        help="dataset folder to write; the default name makes "
                        "load_dataset(\"auto_challenge_sets\", CONFIG) work in this working folder")
    parser.add_argument("--license", help="license of the corpus, for the dataset card (e.g. cc-by-sa-4.0); "
                        "default: keep the folder's, else 'other'")
    parser.add_argument("--phenomena", nargs="+", choices=sorted(lexical_phenomena()), metavar="NAME",
                        help="lexical phenomena to build (default: those of the source language's profile, "
                        f"auto_challenge_sets/phenomena/profiles.py; known: {', '.join(sorted(lexical_phenomena()))})")
    parser.add_argument("--rule", action="append", default=[], metavar="QUERY",
                        help="add a phenomenon of your own (repeatable): 'name=light_verb deprel=compound:lvc "
                        "head.upos=VERB'; all terms, FIELD=VALUE or FIELD~PREFIX on the word's form, lemma, upos, "
                        "xpos, feats, deprel, misc, or head.FIELD on its head's, must hold; lang=cs,sk limits it to "
                        "those source languages. The name, not baseline nor a built-in's, means one rule in a folder: "
                        "another definition recorded for another split is an error, unless --replace-rule")
    parser.add_argument("--replace-rule", action="append", default=[], metavar="NAME",
                        help="the --rule named NAME replaces the folder's other definition of NAME for other splits "
                        "of this pair: their configs' files are removed (build those corpora again to have them)")
    parser.add_argument("--allow-token-mismatch", action="store_true",
                        help="with --alignment: its source indices refer to the parse's words though the source's "
                        "white-space tokens differ (`acs align` on `acs parse`'s tokens): warn, not refuse")
    parser.add_argument("--quiet", action="store_true", help="no progress bars (they show only on a terminal)")
    parser.add_argument("--timings", action="store_true",
                        help="print on standard error each stage's wall and CPU seconds (workers and eflomal "
                        "included) and what it handled (read, parse, align, select and write, record and card)")
    scale = parser.add_argument_group("executor")
    scale.add_argument("--executor", choices=("local", "ray"), default="local",
                       help="where the parse and alignment shards run: on this machine (--jobs processes), or "
                       "on a Ray cluster (Ray Data actors, each loading the model once; pip install "
                       "\"auto-challenge-sets[ray]\"); the folder is the same either way")
    scale.add_argument("--jobs", type=int_at_least(1, 4096), default=None, metavar="N",
                       help="with --executor local: worker processes for the parse shards (each loading the parser "
                       "once) and the row selection (default: the cores this process may use; 1: this process "
                       "alone); eflomal runs its two directions as two processes; the folder is the same for any N")
    scale.add_argument("--ray-address", metavar="ADDR",
                       help="with --executor ray: auto (the cluster `ray start` runs here) or ray://HOST:10001; "
                       "default: a local cluster started for this build")
    scale.add_argument("--workers", type=int_at_least(1, 4096), default=2, metavar="N",
                       help="with --executor ray: actors, each holding a model (default: 2)")
    from auto_challenge_sets.cli.backend_flags import add_aligner_arguments, add_parser_arguments

    add_parser_arguments(parser, default=None)
    add_aligner_arguments(parser)  # --aligner, --alignment FILE, --align-model, --layer, --seed ...
    parser.set_defaults(func=run)


def _resolve_inputs(args: argparse.Namespace) -> None:
    """--source/--target/--corpus from --testset, or as given; one way or the other."""
    from auto_challenge_sets.errors import AcsError

    if args.testset:
        if args.source or args.target:
            raise AcsError("--testset gives the source and the reference: drop --source/--target")
        from auto_challenge_sets.pipeline.testsets import resolve_testset

        files = resolve_testset(args.testset, args.pair)
        args.source, args.target = files.source, files.reference
        args.corpus = args.corpus or files.split
        return
    missing = [flag for flag, value in (("--source", args.source), ("--target", args.target),
                                        ("--corpus", args.corpus)) if value is None]
    if missing:
        raise AcsError(f"give {', '.join(missing)} (or --testset NAME for a sacrebleu test set)")


def _rule_queries(queries: list[str], replace: list[str]) -> list[RuleQuery]:
    """The --rule queries read, once every name is checked (none reserved, none given twice, each
    --replace-rule a --rule's or an installed rule's), before any is registered: a refused command
    leaves the registry as it was."""
    from auto_challenge_sets.configs import reserved_name
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.phenomena.registry import PHENOMENA
    from auto_challenge_sets.phenomena.rule_query import parse_rule_query

    given: dict[str, str] = {}  # name -> the --rule that gave it first
    parsed = []
    for text in queries:
        query = parse_rule_query(text)
        if (reserved := reserved_name(query.name)) is not None:
            raise AcsError(f"--rule {text!r}: {query.name!r} is {reserved}; choose another name")
        if query.name in given:
            raise AcsError(f"--rule {text!r}: the name {query.name!r} is given twice (also by {given[query.name]})")
        known = PHENOMENA.get(query.name)
        if known is not None and known.description != query.description():  # an installed package's
            raise AcsError(f"--rule {text!r}: {query.name!r} is a phenomenon already; choose another name")
        given[query.name] = f"--rule {text!r}"
        parsed.append(query)
    for name in replace:
        if name not in given and (name not in PHENOMENA or reserved_name(name) is not None):
            raise AcsError(f"--replace-rule {name!r}: no --rule of this build nor installed rule is named so; give "
                           "the rule that replaces it, --rule 'name=NAME ...'")
    return parsed


def _tune_process() -> None:
    """For this command's process only (not for library users of the writer): Arrow's system
    allocator, as its default pool (mimalloc) keeps what a streaming build frees and grows with the
    corpus; and the cyclic collector kept off the imports' objects, never garbage, and run rarely, as
    a build makes millions of small objects and few reference cycles."""
    import gc

    import pyarrow as pa

    import auto_challenge_sets.dataset.features  # noqa: F401 - datasets' objects, frozen below

    pa.set_memory_pool(pa.system_memory_pool())
    gc.freeze()
    gc.set_threshold(50_000, 10, 10)


def _executor(args: argparse.Namespace):
    """--executor ray: a RayExecutor, a GPU per actor when the parser or aligner runs on CUDA; else
    --jobs worker processes (ProcessExecutor; one: this process)."""
    from auto_challenge_sets.errors import AcsError

    if args.executor != "ray":
        if args.ray_address:
            raise AcsError("--ray-address goes with --executor ray")
        from auto_challenge_sets.pipeline.executors import ProcessExecutor
        from auto_challenge_sets.workers import cores

        return ProcessExecutor(jobs=args.jobs or cores())
    if args.jobs is not None:
        raise AcsError("--jobs goes with --executor local (Ray's are --workers)")
    from auto_challenge_sets.pipeline.executors import RayExecutor

    devices = [getattr(args, name, None) or "" for name in ("parser_device", "aligner_device")]
    gpus = 1.0 if any(device.startswith("cuda") for device in devices) else 0.0
    return RayExecutor(address=args.ray_address, workers=args.workers, gpus_per_worker=gpus)


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.cli.backend_flags import (
        CONLLU,
        DEFAULT_PARSER,
        aligner_spec_from_args,
        parser_spec_from_args,
    )
    from auto_challenge_sets.configs import parse_pair
    from auto_challenge_sets.dataset.writer import build_into_folder
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.phenomena.profiles import profile_note, source_phenomena
    from auto_challenge_sets.phenomena.registry import PHENOMENA, register_phenomenon
    from auto_challenge_sets.pipeline.run_build import BuildSpec
    from auto_challenge_sets.pipeline.timings import recording
    from auto_challenge_sets.tables import distance_table

    queries = _rule_queries(args.rule, args.replace_rule)
    source = parse_pair(args.pair)[0]
    _resolve_inputs(args)
    for query in queries:  # a phenomenon of this run (the same query again is the same phenomenon)
        if query.name not in PHENOMENA:
            register_phenomenon(query.name, query.description(), query.word_test(), query.languages)(query.rule())
    if not args.phenomena:  # the source's profile and the rules for it choose the phenomena: say when they cannot
        built = source_phenomena(source)
        for note in [profile_note(source)] + [
                f"--rule {query.text!r} is for lang={','.join(sorted(query.languages or ()))}, not this build's "
                f"source {source!r}: it makes no configs" for query in queries if query.name not in built]:
            if note:
                print(f"note: {note}", file=sys.stderr)
    args.parser = args.parser or (CONLLU if args.source_conllu else DEFAULT_PARSER)
    if args.parser == CONLLU and args.source_conllu is None:
        raise AcsError("--parser conllu needs --source-conllu FILE")
    if args.parser != CONLLU and args.source_conllu is not None:
        raise AcsError(f"--source-conllu is a parse already: it goes with --parser conllu, not --parser {args.parser}")
    # --device places the parser, and the aligner too unless --align-device says otherwise
    aligner = aligner_spec_from_args(args, default_device=args.parser_device)
    spec = BuildSpec(
        pair=args.pair, corpus=args.corpus, source=args.source, target=args.target,
        parser=parser_spec_from_args(args, also_used=("device",) if aligner is not None else ()),
        source_conllu=args.source_conllu, aligner=aligner, alignment=args.alignment,  # aligner_spec_from_args checked it
        cache_dir=args.cache_dir, shard_size=args.shard_size,
        phenomena=tuple(args.phenomena + [query.name for query in queries]) if args.phenomena else (),
        allow_token_mismatch=args.allow_token_mismatch, executor=_executor(args),
        aligner_note=getattr(args, "aligner_note", None),  # the default-aligner policy's, reported by the build
        replace_rules=tuple(args.replace_rule))
    _tune_process()
    with recording() as timings:
        result = build_into_folder(spec, args.out, license=args.license, progress=not args.quiet and sys.stderr.isatty())
    print(f"\n{args.pair} {args.corpus}: {result.pairs} sentence pairs of {result.lines} lines → {args.out}")
    for message in result.report.messages() + result.warnings:
        print(f"note: {message}", file=sys.stderr)
    print(distance_table({name: {args.corpus: rows} for name, rows in result.sizes.items()}))
    if args.timings:
        for line in timings.lines():
            print(f"timing: {line}", file=sys.stderr)
    return 0
