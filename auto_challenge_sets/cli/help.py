"""The help formatter every ``acs`` command shares."""

from __future__ import annotations

import argparse


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Keeps the description's line breaks, and shows a default where there is one to show and the
    help text does not already name it."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False) or "default" in text or action.default is argparse.SUPPRESS:
            return text
        return super()._get_help_string(action) or text
