"""``acs evaluate``'s defaults and metric options: the flags' defaults are the request's
(:class:`~auto_challenge_sets.evaluation.request.EvaluationRequest`), and the flags that set a
metric's option (``--tokenize``, ``--case-sensitive-ribes``) land in ``metric_options`` beside
``--metric-option KEY=VALUE``."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# the flags that set a metric's option: flag -> the option
SHORTHANDS = {"--tokenize": "tokenize", "--case-sensitive-ribes": "lowercase_ribes"}


def request_defaults() -> dict[str, Any]:
    """The defaults of the request's fields, which the flags take as theirs."""
    from auto_challenge_sets.evaluation.request import EvaluationRequest

    return {f.name: f.default for f in dataclasses.fields(EvaluationRequest) if f.default is not dataclasses.MISSING}


def add_metric_option_flags(group: argparse._ArgumentGroup) -> None:
    """--metric-option (its help lists the built-in metrics' declared options) and the shorthands."""
    from auto_challenge_sets.scoring.metrics import BUILTINS, option_lines
    from auto_challenge_sets.scoring.metrics.bleu import TOKENIZE

    builtin = "; ".join(line.replace("%", "%%") for line in option_lines([cls.name for cls in BUILTINS]))
    group.add_argument("--metric-option", action="append", default=[], metavar="KEY=VALUE",
                       help="an option of the metrics that declare it (repeatable; a key that none of --metrics "
                       f"declares is an error). The built-ins': {builtin}. A package's (COMET's comet_model, "
                       "comet_gpus, ...): `acs metric list`")
    group.add_argument("--tokenize", metavar="NAME",
                       help=f"sacrebleu tokenizer for BLEU and RIBES (default: sacrebleu's for the target "
                       f"language: zh, ja-mecab, ko-mecab for Chinese, Japanese, Korean, {TOKENIZE.default} for the "
                       "others); the same as --metric-option tokenize=NAME")
    group.add_argument("--case-sensitive-ribes", action="store_true",
                       help="do not lowercase before RIBES (RIBES.py's --case); the same as --metric-option "
                       "lowercase_ribes=false")


def _shorthands(args: argparse.Namespace) -> dict[str, Any]:
    """The metric options that their own flags set (absent where the flag is not given)."""
    given = {"tokenize": args.tokenize, "lowercase_ribes": False if args.case_sensitive_ribes else None}
    return {key: value for key, value in given.items() if value is not None}


def metric_options(args: argparse.Namespace) -> dict[str, Any]:
    """--metric-option KEY=VALUE items and the shorthand flags, as the request's ``metric_options``."""
    from auto_challenge_sets.errors import AcsError

    options: dict[str, Any] = {}
    for item in args.metric_option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise AcsError(f"--metric-option expects KEY=VALUE, got {item!r}")
        if key.strip() in options:
            raise AcsError(f"--metric-option {item}: a second value for {key.strip()}")
        options[key.strip()] = value
    for flag, key in SHORTHANDS.items():
        if key in _shorthands(args):
            if key in options:
                raise AcsError(f"{flag} and --metric-option {key}=... both set {key}: give one")
            options[key] = _shorthands(args)[key]
    return options


@contextmanager
def shorthand_flags(args: argparse.Namespace) -> Iterator[None]:
    """An error about an option that ``--tokenize`` (``--case-sensitive-ribes``) gave names that
    flag, not --metric-option."""
    from auto_challenge_sets.errors import AcsError, RequestError

    try:
        yield
    except RequestError as error:
        given = _shorthands(args) if error.field == "metric_options" else {}
        for flag, key in SHORTHANDS.items():
            if key in given and error.detail.startswith(f"{key}="):  # its value: "tokenize=nope: unknown ..."
                raise AcsError(f"{flag}: {error.detail.partition(': ')[2]}") from None
            if key in given and f"option {key!r}" in error.detail:  # no metric of the run has the option
                raise AcsError(f"{flag}: {error.detail}") from None
        raise
