"""``acs build``: a parallel corpus with its source-side parse → every challenge config, exported."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from auto_challenge_sets.commands import HelpFormatter


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.phenomena import PHENOMENA

    parser = subparsers.add_parser(
        "build",
        help="build every challenge config of one language pair and corpus into a dataset folder",
        description="Select the sentence pairs of a parallel corpus with each long-distance phenomenon "
        "at every minimum distance D (lexical: 0-5 on the source-side UD parse; reorder: 5, 10, 15, "
        "20 on a word alignment) and write them as a Hugging Face dataset folder: "
        "data/{config}/{split}-00000-of-00001.parquet plus a README.md with the YAML configs. "
        "Run it again with another --pair or --corpus and the same --out to add to the folder.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--pair", required=True, help="language pair, source first: de-en")
    parser.add_argument("--corpus", required=True, help="corpus name, used as the split name (\\w+)")
    parser.add_argument("--source", required=True, type=Path, metavar="FILE", help="source text, one sentence per line")
    parser.add_argument("--target", required=True, type=Path, metavar="FILE", help="target text, line by line")
    parser.add_argument("--source-conllu", type=Path, metavar="FILE",
                        help="a UD parse of the source (implies --parser conllu): one sentence per non-empty "
                        "source line, in order")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="dataset folder to write")
    parser.add_argument("--license", help="license of the corpus, for the dataset card (e.g. cc-by-sa-4.0); "
                        "default: keep the folder's, else 'other'")
    parser.add_argument("--phenomena", nargs="+", choices=sorted(PHENOMENA), metavar="NAME",
                        help=f"lexical phenomena to build (default: all: {', '.join(sorted(PHENOMENA))})")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    from auto_challenge_sets.builder.parse_stage import add_parser_arguments

    add_parser_arguments(parser, default=None)
    from auto_challenge_sets.builder.align_stage import add_aligner_arguments

    add_aligner_arguments(parser)  # --aligner, --alignment FILE, --align-model, --layer, --seed ...
    parser.set_defaults(func=run)


PARSE_OPTIONS = ("pretokenized", "trankit_cache", "trankit_embedding", "udpipe_model", "device", "batch_size",
                 "shard_size", "cache_dir")


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.builder.align_stage import aligner_spec_from_args
    from auto_challenge_sets.builder.build import BuildSpec, build_challenge_sets
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.tables import distance_table

    parser = args.parser or ("conllu" if args.source_conllu else "trankit")
    if parser == "conllu" and args.source_conllu is None:
        raise AcsError("--parser conllu needs --source-conllu FILE")
    if parser != "conllu" and args.source_conllu is not None:
        raise AcsError(f"--source-conllu is a parse already: it goes with --parser conllu, not --parser {parser}")
    spec = BuildSpec(
        pair=args.pair,
        corpus=args.corpus,
        source=args.source,
        target=args.target,
        source_conllu=args.source_conllu,
        out=args.out,
        alignment=args.alignment,
        license=args.license,
        parser=parser,
        parse_options={name: getattr(args, name) for name in PARSE_OPTIONS},
        aligner=aligner_spec_from_args(args, default_device=args.device),  # None: --aligner none
        phenomena=tuple(args.phenomena or ()),
    )
    result = build_challenge_sets(spec, progress=not args.quiet)
    print(f"\n{args.pair} {args.corpus}: {result.pairs} sentence pairs of {result.lines} lines → {args.out}")
    for message in result.report.messages() + result.warnings:
        print(f"note: {message}", file=sys.stderr)
    print(distance_table({name: {args.corpus: rows} for name, rows in result.sizes.items()}))
    return 0
