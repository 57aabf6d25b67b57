"""``acs stats``: the size of every config and split of a challenge-set folder."""

from __future__ import annotations

import argparse

from auto_challenge_sets.cli.help import VERIFY_HELP


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
    parser.add_argument("--verify", action="store_true", help=VERIFY_HELP)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from auto_challenge_sets.dataset.hf_cache import datasets_cache, stale_cached_configs
    from auto_challenge_sets.dataset.integrity import checked_sizes
    from auto_challenge_sets.dataset.layout import require_complete
    from auto_challenge_sets.dataset.record import empty_selections, read_build_record
    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.tables import distance_table

    folder = Path(args.dir)
    require_complete(folder)
    # a lost or changed file would read as a smaller config or an empty selection
    sizes = checked_sizes(folder, verify=args.verify)
    if not sizes:
        raise InputError("holds no challenge-set Parquet files (data/{config}/{split}-*.parquet)", args.dir)
    empty = empty_selections(read_build_record(folder))
    print(distance_table({**empty, **sizes}, markdown=args.markdown))
    if empty or any(0 in per_split.values() for per_split in sizes.values()):
        print("\n0: no sentence pair selected, so no config (datasets cannot load an empty split)")
    # datasets' cache may hold an older build of this folder's name, which load_dataset(NAME, ...)
    # returns from any folder that has no ./NAME when the Hub cannot answer
    name = folder.resolve().name
    if stale := stale_cached_configs(name, sizes):
        first, *_ = stale.items()
        print(f"note: datasets' cache ({datasets_cache() / name}) holds another build of {name!r} for "
              f"{len(stale)} config(s) ({first[0]}: {'; '.join(first[1])}): load_dataset({name!r}, ...) "
              f"returns that copy from a folder without ./{name} when the Hub cannot answer; load by path "
              f"(load_dataset('{folder}', ...)) or delete that cache folder", file=sys.stderr)
    return 0
