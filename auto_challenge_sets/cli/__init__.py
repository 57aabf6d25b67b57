"""The ``acs`` command line.

Every module here that defines ``register(subparsers)`` is one subcommand; it adds its parser and
sets ``func``. Command modules import only argparse-level things at module scope, so ``acs --help``
stays fast; heavy imports happen inside ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from auto_challenge_sets import __version__
from auto_challenge_sets.errors import AcsError

DEBUG_HELP = "show the full traceback of an error (also: ACS_DEBUG=1)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acs",
        description="Automatically extracted challenge sets of long-distance dependencies for MT "
        "(Choshen & Abend, CoNLL 2019): select, build, export and score.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):  # __main__ runs the command line when imported
            register = getattr(importlib.import_module(f"{__name__}.{info.name}"), "register", None)
            if register is not None:
                register(subparsers)
    for command in subparsers.choices.values():  # `acs build ... --debug` works too
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
    parser.set_defaults(_commands=subparsers.choices)
    return parser


def _refuse_extras(sub: argparse.ArgumentParser, extras: list[str]) -> None:
    """An unknown flag of a subcommand, said as the subcommand (argparse leaves it to the top parser,
    which prints the top-level usage), with the flag it resembles."""
    from auto_challenge_sets.options import did_you_mean

    flags = sorted({flag for action in sub._actions for flag in action.option_strings if flag.startswith("--")})
    unknown = next((extra.split("=", 1)[0] for extra in extras if extra.startswith("-")), None)
    sub.error(f"unrecognized arguments: {' '.join(extras)}{did_you_mean(unknown, flags) if unknown else ''}")


def describe_error(error: BaseException, command: str | None = None) -> str:
    """One line for the user: our errors with the fields they name shown as the flags of
    ``command``, a system error with its file."""
    gone = _deleted_working_folder()
    if isinstance(error, AcsError):
        from auto_challenge_sets.cli.fields import with_flags

        path = getattr(error, "path", None)
        if gone is not None and path is not None and not os.path.isabs(path):
            return with_flags(error, command) + f" (the working folder {gone} no longer exists: cd to a folder that exists)"
        return with_flags(error, command)
    if isinstance(error, OSError):
        where = error.filename if error.filename is not None else ""
        if gone is not None and not os.path.isabs(os.fsdecode(where) if isinstance(where, str | bytes) else ""):
            # a relative path (or none: Path.absolute()) failed because the folder it is relative to is gone
            return (f"{where or '.'}: the working folder {gone} no longer exists (deleted while or before this "
                    "ran): cd to a folder that exists, or give absolute paths")
        reason = error.strerror or type(error).__name__
        return f"{where}: {reason}" if where else reason
    if isinstance(error, MemoryError):
        return "out of memory (try a smaller input or fewer samples)"
    if isinstance(error, ValueError | TypeError | KeyError | IndexError | RuntimeError):
        text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return f"{text} ({type(error).__name__}; run with --debug for the traceback)"
    return f"unexpected {type(error).__name__}: {error} (run with --debug for the traceback, and please report it)"


def _deleted_working_folder() -> str | None:
    """The working folder's former path when it was deleted under this process, else None."""
    try:
        os.getcwd()
        return None
    except FileNotFoundError:
        pass
    try:  # Linux keeps the path: "/tmp/x (deleted)"
        return os.readlink("/proc/self/cwd").removesuffix(" (deleted)")
    except OSError:
        return os.environ.get("PWD") or "(unknown)"


def _show_plugin_warning(shown):  # noqa: ANN001, ANN202 - warnings' hook
    """A plug-in that is not loaded as one line, ``acs: warning: ...``; any other warning as Python shows it."""
    from auto_challenge_sets.plugins import PluginWarning

    def show(message, category, filename, lineno, file=None, line=None):  # noqa: ANN001, ANN202
        if issubclass(category, PluginWarning):
            print(f"acs: warning: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    import warnings

    for stream in (sys.stdout, sys.stderr):  # a character the terminal's encoding lacks: an escape, not a failure
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    with warnings.catch_warnings():  # restores the hook: main() runs inside tests and other programs too
        warnings.showwarning = _show_plugin_warning(warnings.showwarning)
        return _main(argv)


def _flush_stdout() -> None:
    """Flush standard output; where that fails, point it at the null device, so that Python's own
    flush at exit does not fail again and turn the exit status into 120 with a second message."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # no file descriptor (a test's capture)
            pass
        raise


def _main(argv: Sequence[str] | None) -> int:
    args, extras = build_parser().parse_known_args(argv)
    if extras:
        _refuse_extras(args._commands[args.command], extras)
    debugging = getattr(args, "debug", False) or os.environ.get("ACS_DEBUG", "").strip().lower() in (
        "1", "true", "yes", "on")
    try:
        result = args.func(args)
        _flush_stdout()  # a full disk fails here, inside the boundary, not in Python's flush at exit
    except BrokenPipeError:  # `acs select ... | head`
        return 0
    except KeyboardInterrupt:
        if debugging:
            raise
        print(f"acs {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # the boundary: one line, never a traceback unless asked for
        if debugging:
            raise
        print(f"acs {args.command}: error: {describe_error(error, args.command)}", file=sys.stderr)
        return 2
    return int(result or 0)
