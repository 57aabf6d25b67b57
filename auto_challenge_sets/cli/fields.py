"""The flags of the fields that errors below the command line name.

An error below the command line names the field a caller of the Python API sets (``udpipe_model``)
and says which in its ``field`` (:class:`auto_challenge_sets.errors.AcsError`); :func:`with_flags`
shows each such word as the flag that sets it here (``--udpipe-model``). A backend's option is
looked up in the backend's own declaration (``acs build`` names simalign's device
``--align-device``, ``acs align`` ``--device``).
"""

from __future__ import annotations

import re

from auto_challenge_sets.errors import AcsError, InputError

# fields whose flag is their name in dashes (n_samples: --n-samples); build, publish, evaluate, meta-evaluate
_PLAIN = ("aligner alignment allow_token_mismatch dry_run out parser phenomena pretokenized repo_id rule shard_size "
          "config metrics baseline paired_test n_samples paired_samples min_rows length_tolerance length_relative "
          "seed tokenize split jobs reference").split()
FIELD_FLAGS = {field: "--" + field.replace("_", "-") for field in _PLAIN} | {
    "replace_rules": "--replace-rule",
    "hypotheses": "--hyp",
    "metric_options": "--metric-option",
    "targeted.aligner": "--targeted-aligner",
    "targeted.hyp_alignments": "--hyp-alignment",
    "targeted.chrf_threshold": "--targeted-chrf",
    "targeted.random_pairs": "--targeted-random-pairs",
}


def flag_of(error: AcsError, field: str, command: str | None = None) -> str | None:
    """The flag that sets ``field`` in ``command``; None where none does."""
    from auto_challenge_sets.backends import ALIGNER, PARSER, declared_options
    from auto_challenge_sets.backends.aligners import AlignerError
    from auto_challenge_sets.backends.parsers import ParserError

    kind = PARSER if isinstance(error, ParserError) else ALIGNER if isinstance(error, AlignerError) else None
    for options in declared_options(kind).values() if kind else ():
        for option in options:
            if option.name == field and option.cli:
                return option.cli_flag(in_build=command != "align")  # `acs align` alone has the bare flags
    return FIELD_FLAGS.get(field)


def with_flags(error: AcsError, command: str | None = None) -> str:
    """The error's message, its fields named by their flags (a file name and line before an input
    error's reason are left as they are)."""
    text = str(error)
    reason = getattr(error, "reason", None) if isinstance(error, InputError) else None
    head, body = ("", text) if not reason or not text.endswith(reason) else (text[: len(text) - len(reason)], reason)
    field = getattr(error, "field", None) or ()
    for name in (field,) if isinstance(field, str) else field:
        flag = flag_of(error, name, command)
        if flag is not None:
            # the field as a word of its own: not inside a value (name=rule), a name (my_rule) or a path
            body = re.sub(rf"(?<![^\s(]){re.escape(name)}(?![^\s):,;.])", lambda _, flag=flag: flag, body)
    return head + body
