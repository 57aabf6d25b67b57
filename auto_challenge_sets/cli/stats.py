"""``acs stats``: the size of every config and split of a challenge-set folder."""

from __future__ import annotations

import argparse

EMPTY_NOTE = "datasets cannot load an empty split"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="print the size of every config and split of a built folder",
        description="Print the number of sentence pairs of every config and split in DIR, one row per "
        "pair, phenomenon and split, one column per minimum distance (the shape of the paper's "
        "Table 3). Reads only the Parquet footers.",
    )
    parser.add_argument("dir", metavar="DIR", help="a folder written by `acs build`")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from auto_challenge_sets.dataset.layout import folder_sizes, require_complete
    from auto_challenge_sets.dataset.record import empty_selections, read_build_record
    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.tables import distance_table

    require_complete(Path(args.dir))
    sizes = folder_sizes(args.dir)
    if not sizes:
        raise InputError("holds no challenge-set Parquet files (data/{config}/{split}-*.parquet)", args.dir)
    empty = empty_selections(read_build_record(args.dir))
    print(distance_table({**empty, **sizes}, markdown=args.markdown))
    if empty or any(0 in per_split.values() for per_split in sizes.values()):
        print(f"\n0: no sentence pair selected, so no config ({EMPTY_NOTE})")
    return 0
