"""The help formatter every ``acs`` command shares."""

from __future__ import annotations

import argparse

from auto_challenge_sets.formats.text import ascii_float, ascii_int

VERIFY_HELP = ("also check every data file's sha256 against acs_build.json (reads every file; sizes and row counts "
               "are always checked)")


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the description's line breaks, and shows a default where there is one to show and the
    help text does not already name it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False) or "default" in text or action.default is argparse.SUPPRESS:
            return text
        return super()._get_help_string(action) or text


def int_at_least(minimum: int, maximum: int | None = None):
    """An argparse type: an integer in ``[minimum, maximum]``, else argparse's own one-line error."""

    def parse(text: str) -> int:
        value = ascii_int(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"expected an integer in ASCII digits, got {text!r}")
        if value < minimum or (maximum is not None and value > maximum):
            bound = f">= {minimum}" if maximum is None else f"between {minimum} and {maximum}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {value}")
        return value

    return parse


def ascii_real(text: str) -> float:
    """An argparse type: a finite number in ASCII (``0.5``, ``-1e-3``), as the files are read."""
    value = ascii_float(text)
    if value is None or value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number in ASCII, got {text!r}")
    return value


def non_empty(text: str) -> str:
    """An argparse type: a string that is not empty or only white space."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text
