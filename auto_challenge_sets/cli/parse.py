"""``acs parse``: raw text (one sentence per line) → CoNLL-U, one sentence per non-empty line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from auto_challenge_sets.cli.help import HelpFormatter


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.cli.backend_flags import add_parser_arguments

    parser = subparsers.add_parser(
        "parse",
        help="parse a text file (one sentence per line) into CoNLL-U with trankit or UDPipe",
        description="Parse the source side of a corpus: every non-empty input line becomes exactly one UD sentence "
        "with '# sent_id = LINE NUMBER' and '# text = LINE' (a line the parser splits into several sentences is "
        "merged into one tree, the later roots attached to the first as 'parataxis'; a line too long for trankit's "
        "encoder is parsed in chunks joined the same way). Run again after an interruption, it resumes from its "
        "cached shards, writing the same bytes. trankit's missing models are fetched from the Hub repository "
        "uonlp/trankit into --trankit-cache; offline, the command names them before parsing.",
        formatter_class=HelpFormatter,
        epilog="examples:\n  acs parse --lang de --input newstest2013.de --output newstest2013.de.conllu\n"
        "  acs parse --lang de --parser udpipe --udpipe-model german.udpipe --input src.de --output src.conllu",
    )
    parser.add_argument("--lang", required=True, help="language of the text: an ISO code (de, en) or a trankit "
                        "language name")
    parser.add_argument("--input", required=True, type=Path, metavar="FILE", help="UTF-8 text, one sentence per line")
    parser.add_argument("--output", required=True, metavar="FILE", help="CoNLL-U file to write ('-': stdout)")
    parser.add_argument("--conllu", type=Path, metavar="FILE",
                        help="with --parser conllu: the pre-parsed file to check against the input and renumber")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_parser_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.backends.parsers import ParserError
    from auto_challenge_sets.cli.backend_flags import parser_spec_from_args
    from auto_challenge_sets.pipeline.corpus_inputs import PreParsedSource
    from auto_challenge_sets.pipeline.parse_stage import parse_file
    from auto_challenge_sets.pipeline.stage_cache import PARSE_SHARD_SIZE

    spec = parser_spec_from_args(args)
    if spec is None:  # --parser conllu
        if args.conllu is None:
            raise ParserError("--parser conllu needs the CoNLL-U file (--conllu FILE)")
        source = PreParsedSource(args.conllu)
    elif args.conllu is not None:
        raise ParserError(f"--conllu FILE is read by --parser conllu, not --parser {args.parser}")
    else:
        source = spec
    summary = parse_file(args.input, args.output, lang=args.lang, parser=source, cache_dir=args.cache_dir,
                         shard_size=args.shard_size or PARSE_SHARD_SIZE, progress=not args.quiet and sys.stderr.isatty())
    where = "stdout" if args.output == "-" else args.output
    messages = summary.messages()
    print(f"{messages[0]} → {where}", file=sys.stderr)
    for message in messages[1:]:
        print(f"note: {message}", file=sys.stderr)
    return 0
