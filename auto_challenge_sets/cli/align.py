"""``acs align``: word-align two white-space-tokenized files into Pharaoh ``i-j`` lines."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from auto_challenge_sets.cli.help import HelpFormatter


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.cli.backend_flags import add_aligner_arguments

    parser = subparsers.add_parser(
        "align",
        help="word-align a parallel corpus (white-space tokens) into a Pharaoh file",
        description="Word-align SOURCE and TARGET, two files of white-space-tokenized sentences with line N "
        "of one translating line N of the other (fast_align's input, without the ' ||| '). Writes one line "
        "per input line of 0-based Pharaoh links 'i-j' (source token i, target token j); a pair with an "
        "empty side gets an empty line. Run again after an interruption, it reuses its cached finished "
        "shards. Use the result with `acs build --alignment FILE` (its source tokens must be the words of "
        "the source parse).",
        epilog="examples:\n  acs align --aligner eflomal --source news.de --target news.en --output "
        "news.de-en.pharaoh\n  acs align --source news.de --target news.en --output out.pharaoh --model ./mbert "
        "--device cuda --batch-size 256",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--source", required=True, type=Path, metavar="FILE",
                        help="source sentences, one per line, tokens separated by white space")
    parser.add_argument("--target", required=True, type=Path, metavar="FILE",
                        help="target sentences, line by line with the source")
    output = parser.add_mutually_exclusive_group(required=True)
    output.add_argument("--output", metavar="FILE", help="Pharaoh file to write ('-': stdout)")
    output.add_argument("--make-priors", metavar="FILE", type=Path,
                        help="instead of links, learn eflomal priors from this corpus (as much parallel text of "
                        "the language pair as you have, test sets included) and write them to FILE; then align "
                        "or build with --priors / --eflomal-priors FILE")
    add_aligner_arguments(parser, standalone=True)
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="where finished shards are kept (default: $ACS_CACHE_DIR, else "
                        "~/.cache/auto_challenge_sets)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.cli.backend_flags import aligner_spec_from_args
    from auto_challenge_sets.errors import AcsError, CorpusError, InputError
    from auto_challenge_sets.formats.corpus import ReadReport, read_lines
    from auto_challenge_sets.formats.pharaoh import format_pharaoh
    from auto_challenge_sets.pipeline.align_stage import align_pairs, write_pharaoh

    if args.make_priors is not None and args.aligner != "eflomal":
        raise AcsError("--make-priors learns eflomal's priors: use it with --aligner eflomal")
    for written in (args.output, args.make_priors):  # refused before the aligning, not after it
        if written not in (None, "-") and Path(written).is_dir():
            raise InputError("is a folder: give the name of a file to write", written)
    spec = aligner_spec_from_args(args)
    assert spec is not None  # `none` is not offered here
    aligner = spec.create()  # fails here, before reading or aligning, if e.g. the model is missing
    report = ReadReport()
    sources = read_lines(args.source, report)
    targets = read_lines(args.target, report)
    if len(sources) != len(targets):
        raise CorpusError(f"has {len(sources)} lines but {args.target} has {len(targets)}: the two sides "
                          "must have one sentence per line, line by line", str(args.source))
    pairs = [(source.split(), target.split()) for source, target in zip(sources, targets)]
    if args.make_priors is not None:
        from auto_challenge_sets.backends.aligners.eflomal import make_priors

        learned = make_priors(pairs, args.make_priors, seed=spec.options.get("seed", 1))  # --seed N
        if not args.quiet:
            print(f"learned eflomal priors from {learned} sentence pairs → {args.make_priors}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    links = align_pairs(pairs, aligner=aligner, cache_dir=args.cache_dir, progress=not args.quiet and sys.stderr.isatty())
    elapsed = time.perf_counter() - started
    if args.output == "-":
        sys.stdout.writelines(format_pharaoh(found) + "\n" for found in links)
    else:
        write_pharaoh(args.output, links)
    if not args.quiet:
        empty = sum(1 for source, target in pairs if not source or not target)
        total = sum(map(len, links))
        rate = f", {len(pairs) / elapsed:.1f} pairs/s" if elapsed > 0 and pairs else ""
        where = "stdout" if args.output == "-" else args.output
        print(f"aligned {len(pairs)} sentence pairs with {spec.describe()}: {total} links "
              f"({total / max(1, len(pairs) - empty):.1f} per pair), {empty} pair(s) with an empty side, "
              f"{elapsed:.1f} s{rate} → {where}", file=sys.stderr)
        for message in report.messages():
            print(f"note: {message}", file=sys.stderr)
    return 0
