"""``acs demo``: build every config from the packaged sample corpus and load one, offline."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="build challenge sets from the packaged 29-pair sample and load one (offline, seconds)",
        description="Build every config of both directions (de-en with the German trees, en-de with the English "
        "trees, reordering from the hand alignment) of the sample corpus that ships with the package, load one "
        "config with datasets.load_dataset, and print the size table. Then install the ldd_challenge metric into "
        "evaluate's module cache (`acs metric install`), so that evaluate.load(\"ldd_challenge\") works.",
    )
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="keep the dataset folder here (default: a temporary folder, removed)")
    parser.add_argument("--config", default="de-en.particle.d3", help="the config to load and show")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import tempfile

    from auto_challenge_sets.dataset.demo_folder import SAMPLE, build_demo
    from auto_challenge_sets.tables import distance_table

    with tempfile.TemporaryDirectory(prefix="acs-demo-") as temporary:
        out = args.out or Path(temporary) / "challenge_sets"
        print(f"Building every config of the sample corpus (de-en and en-de) into {out} ...")
        sizes = build_demo(out)
        print()
        print(distance_table(sizes))
        from auto_challenge_sets.configs import parse_config_name
        from auto_challenge_sets.errors import InputError

        if sizes.get(str(parse_config_name(args.config)), {}).get(SAMPLE, 0) == 0:
            shown = ", ".join(name for name in sizes if sizes[name].get(SAMPLE))
            raise InputError(f"--config {args.config!r} is not a config of the sample with rows (configs: {shown})")

        from datasets import load_dataset

        dataset = load_dataset(str(out), args.config, split=SAMPLE, cache_dir=str(Path(temporary) / "hf-cache"))
        print(f"\nload_dataset({str(out)!r}, {args.config!r}, split={SAMPLE!r}) → {dataset.num_rows} rows")
        for row in dataset.select(range(min(3, dataset.num_rows))):
            print(f"\n  {row['id']}  distance {row['distance']}")
            print(f"  source:    {row['source']}")
            print(f"  reference: {row['reference']}")
            for instance in row["instances"]:
                if "dependent" in instance:
                    print(f"  {instance['dependent_form']}({instance['dependent']}) → "
                          f"{instance['head_form']}({instance['head']}), {instance['distance']} words between")
                else:
                    print(f"  {instance['source_form']}({instance['source_index']}) ↔ "
                          f"{instance['target_form']}({instance['target_index']}), moved {instance['distance']}")
        if args.out is None:
            print("\n(The folder was temporary; pass --out DIR to keep it, then `acs stats DIR`.)")
    # the design card's usage, literally: evaluate.load("ldd_challenge") from any folder, offline too
    from auto_challenge_sets.metrics.install import install

    metric = install()
    state = "installed" if metric.changed else "already installed"
    print(f"\nThe metric: evaluate.load(\"ldd_challenge\") loads {metric.script} ({state}; "
          "`acs metric install --uninstall` removes it)")
    return 0
