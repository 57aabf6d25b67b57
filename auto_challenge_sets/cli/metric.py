"""``acs metric install``: make ``evaluate.load("ldd_challenge")`` load the packaged module;
``acs metric list``: the registered metrics and the options each declares."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "metric",
        help="list the registered metrics and their options, or install the ldd_challenge evaluate module so "
        "that evaluate.load(\"ldd_challenge\") works",
        description="The evaluate module ldd_challenge ships inside the package "
        "(auto_challenge_sets.METRIC_PATH). `acs metric install` copies it into evaluate's module "
        "cache (HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--ldd_challenge/HASH/), "
        "where evaluate.load(\"ldd_challenge\") finds it when the Hub has no such module or cannot "
        "be reached: online and offline, from any folder.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    install = actions.add_parser(
        "install", help="copy the packaged module into evaluate's module cache (again: no change)",
        description="Copy the packaged ldd_challenge module into evaluate's module cache; --uninstall removes it.")
    install.add_argument("--uninstall", action="store_true", help="remove the installed module instead")
    install.add_argument("--modules-cache", type=Path, metavar="DIR",
                         help="evaluate's module cache (default: $HF_MODULES_CACHE, else $HF_HOME/modules)")
    install.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    install.set_defaults(func=run_install)
    listing = actions.add_parser(
        "list", help="the registered metrics (built-in and from installed packages) and the options each declares",
        description="Every metric `acs evaluate --metrics` takes: its name, label and direction, and the options it "
        "declares (`--metric-option KEY=VALUE`), with type, default and help.")
    listing.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    from auto_challenge_sets.scoring.metrics import metric_class, metric_names

    for name in metric_names():
        cls = metric_class(name)
        direction = "higher is better" if cls.higher_is_better else "lower is better"
        print(f"{name}: {cls.label}, {direction}{', reads the sources' if cls.needs_sources else ''}")
        for option in cls.options:
            print(f"  {option.describe()}")
        if not cls.options:
            print("  (no options)")
    return 0


def run_install(args: argparse.Namespace) -> int:
    from auto_challenge_sets.metrics.install import install, uninstall

    if args.uninstall:
        removed = uninstall(args.modules_cache)
        print(f"removed {removed}" if removed else "ldd_challenge was not installed in evaluate's module cache")
        return 0
    done = install(cache=args.modules_cache)
    state = "installed" if done.changed else "already installed"
    print(f"{state}: {done.script}\nevaluate.load(\"ldd_challenge\") now loads it (online and offline)\n"
          "(its warning \"Using the latest cached version of the module ... couldn't be found ... on the Hugging "
          "Face Hub\" is expected: that cached module is this one)")
    return 0
