"""The ``acs`` command line.

Every module in :mod:`auto_challenge_sets.cli` that defines ``register(subparsers)`` is one
subcommand; it adds its own parser and sets ``func``. Command modules import only argparse-level
things at module scope, so ``acs --help`` stays fast; heavy imports happen inside ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from auto_challenge_sets import __version__
from auto_challenge_sets.errors import AcsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acs",
        description="Automatically extracted challenge sets of long-distance dependencies for MT "
        "(Choshen & Abend, CoNLL 2019): select, build, export and score.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):  # __main__ runs the command line when imported
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except AcsError as error:
        # Our own errors already name the file and line: print them, not a traceback.
        print(f"acs {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `acs select ... | head`
        return 0
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
