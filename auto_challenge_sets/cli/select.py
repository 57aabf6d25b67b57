"""``acs select``: print the sent_id of every sentence of a CoNLL-U file that a phenomenon selects."""

from __future__ import annotations

import argparse
import sys

from auto_challenge_sets.cli.help import HelpFormatter, int_at_least


def register(subparsers: argparse._SubParsersAction) -> None:
    from auto_challenge_sets.phenomena.registry import lexical_phenomena

    parser = subparsers.add_parser(
        "select",
        help="grep a CoNLL-U file for a long-distance phenomenon",
        description="Print the sent_id of every sentence with an instance of PHENOMENON at distance >= D (the number "
        "of words between the word and its head), one per line. A sentence without '# sent_id' is printed as its "
        "1-based position in the file, one with an empty '# sent_id =' as that comment.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--conllu", required=True, metavar="FILE", help="CoNLL-U file to search ('-' for stdin)")
    parser.add_argument("--phenomenon", required=True, choices=sorted(lexical_phenomena()), help="the rule to apply")
    parser.add_argument("--min-distance", type=int_at_least(0), default=1, metavar="D",
                        help="least number of words between dependent and head (0 = every instance)")
    parser.add_argument("--exact", action="store_true", help="select instances at distance exactly D")
    parser.add_argument("--lang", metavar="CODE", help="the treebank's language: a phenomenon with a rule of its "
                        "own for the language (auto_challenge_sets/phenomena/profiles.py) is found with it "
                        "(default: the generic rule)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.formats.conllu import iter_sentences, read_conllu
    from auto_challenge_sets.phenomena.registry import find_instances, phenomenon_for

    if args.conllu == "-":
        sentences = iter_sentences(((n, line.rstrip("\n").removesuffix("\r")) for n, line in enumerate(sys.stdin, 1)),
                                   "<stdin>")
    else:
        sentences = read_conllu(args.conllu)
    rule = phenomenon_for(args.phenomenon, args.lang)  # the language's own rule where it has one
    for position, sentence in enumerate(sentences, start=1):
        distances = [instance.distance for instance in find_instances(sentence, rule)]
        if args.min_distance in distances if args.exact else any(d >= args.min_distance for d in distances):
            # no id: its position; an empty id as its comment (a blank line would read as no sentence at all)
            sys.stdout.write(f"{position if sentence.sent_id is None else sentence.sent_id or '# sent_id ='}\n")
    return 0
