"""The flags of the fields that errors below the command line name.

An error raised below the command line (builder, dataset, core) names the field a caller of the
Python API sets (``allow_token_mismatch``, ``udpipe_model``) and says which in its ``field``
(:class:`auto_challenge_sets.errors.AcsError`); :func:`with_flags` shows each such word as the flag
that sets it here (``--allow-token-mismatch``, ``--udpipe-model``). A backend's option is looked
up in the backend's own declaration (its flag in this command: ``acs build`` names simalign's
device ``--align-device``, ``acs align`` ``--device``); every other field in :data:`FIELD_FLAGS`.
"""

from __future__ import annotations

import re

from auto_challenge_sets.errors import AcsError, InputError

# fields that are not a backend's declared options -> the flag that sets them
FIELD_FLAGS = {
    "aligner": "--aligner",
    "alignment": "--alignment",
    "allow_token_mismatch": "--allow-token-mismatch",
    "dry_run": "--dry-run",
    "out": "--out",
    "parser": "--parser",
    "phenomena": "--phenomena",
    "pretokenized": "--pretokenized",
    "replace_rules": "--replace-rule",
    "repo_id": "--repo-id",
    "rule": "--rule",
    "shard_size": "--shard-size",
    # acs evaluate's request (auto_challenge_sets.evaluation.request)
    "hypotheses": "--hyp",
    "config": "--config",
    "metrics": "--metrics",
    "metric_options": "--metric-option",
    "baseline": "--baseline",
    "paired_test": "--paired-test",
    "n_samples": "--n-samples",
    "paired_samples": "--paired-samples",
    "min_rows": "--min-rows",
    "length_tolerance": "--length-tolerance",
    "length_relative": "--length-relative",
    "seed": "--seed",
    "tokenize": "--tokenize",
    "split": "--split",
    "jobs": "--jobs",
    "targeted.aligner": "--targeted-aligner",
    "targeted.hyp_alignments": "--hyp-alignment",
    "targeted.chrf_threshold": "--targeted-chrf",
    "targeted.random_pairs": "--targeted-random-pairs",
    "reference": "--reference",  # acs meta-evaluate
}


def _backend_flag(error: AcsError, field: str, command: str | None) -> str | None:
    from auto_challenge_sets.builder.backends import ALIGNER, PARSER, declared_options
    from auto_challenge_sets.builder.backends.aligners import AlignerError
    from auto_challenge_sets.builder.backends.parsers import ParserError

    kind = PARSER if isinstance(error, ParserError) else ALIGNER if isinstance(error, AlignerError) else None
    if kind is None:
        return None
    for options in declared_options(kind).values():
        for option in options:
            if option.name == field and option.cli:
                return option.cli_flag(in_build=command != "align")  # `acs align` alone has the bare flags
    return None


def flag_of(error: AcsError, field: str, command: str | None = None) -> str | None:
    """The flag that sets ``field`` in ``command``; None where none does."""
    return _backend_flag(error, field, command) or FIELD_FLAGS.get(field)


def _fields(error: AcsError) -> tuple[str, ...]:
    field = getattr(error, "field", None)
    if not field:
        return ()
    return (field,) if isinstance(field, str) else tuple(field)


def with_flags(error: AcsError, command: str | None = None) -> str:
    """The error's message, its fields named by their flags (a file name and line before an input
    error's reason are left as they are)."""
    text = str(error)
    reason = getattr(error, "reason", None) if isinstance(error, InputError) else None
    head, body = ("", text) if not reason or not text.endswith(reason) else (text[: len(text) - len(reason)], reason)
    for field in _fields(error):
        flag = flag_of(error, field, command)
        if flag is not None:
            # the field as a word of its own: not inside a value (name=rule), a name (my_rule) or a path
            body = re.sub(rf"(?<![^\s(]){re.escape(field)}(?![^\s):,;.])", lambda _, flag=flag: flag, body)
    return head + body
