"""Command-line flags generated from the backends' declared options, and read back into specs.

Each backend declares its options once (``auto_challenge_sets.builder.backends.Option``); here
every command-line option of every backend of a kind becomes one flag (an option several backends
declare, like ``pretokenized``, is one flag), with the declared type, choices and default in its
help. Flags default to ``None``, so a flag that was given can be told from one that was not: the
chosen backend gets the given ones, and a given flag that only another backend takes is an error
naming that backend, never silently ignored.

The pre-computed inputs are offered where a backend is chosen, as the command line always did:
``--parser conllu`` reads a CoNLL-U file, ``--aligner pharaoh`` a Pharaoh file, and ``acs build``
has ``--aligner none`` (no reorder configs).
"""

from __future__ import annotations

import argparse
from typing import Any

from auto_challenge_sets.builder.backends import ALIGNER, PARSER, BackendError, Option, declared_options
from auto_challenge_sets.builder.backends.aligners import AlignerError
from auto_challenge_sets.builder.backends.parsers import ParserError
from auto_challenge_sets.builder.pipeline.defaults import (
    AUTO_ALIGNER,
    DEFAULT_ALIGNER,
    DEFAULT_PARSER,
    FALLBACK_ALIGNER,
    NO_ALIGNER,
    default_aligner,
)
from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.builder.pipeline.stage_cache import PARSE_SHARD_SIZE
from auto_challenge_sets.cli.help import int_at_least

CONLLU = "conllu"  # --parser conllu: a pre-parsed source
PHARAOH = "pharaoh"  # --aligner pharaoh: a precomputed alignment
_ERRORS: dict[str, type[BackendError]] = {PARSER: ParserError, ALIGNER: AlignerError}


def _dest(kind: str, option: Option) -> str:
    return f"{kind}_{option.name}"


def _flags_by_option(kind: str) -> dict[str, tuple[Option, list[str]]]:
    """Each command-line option of the kind's backends, with the backends that declare it."""
    seen: dict[str, tuple[Option, list[str]]] = {}
    for backend, options in declared_options(kind).items():
        for option in options:
            if option.cli:
                seen.setdefault(option.name, (option, []))[1].append(backend)
    return seen


def _help(option: Option) -> str:
    if option.default in (None, False, "") or "default" in option.help.lower():
        return option.help
    return f"{option.help} (default: {option.default})"


def add_backend_flags(group: argparse._ArgumentGroup, kind: str, *, in_build: bool = False,
                      taken: frozenset[str] = frozenset()) -> None:
    """One flag per declared command-line option of the kind's backends (``--align-NAME`` for one
    whose flag the command already uses for something else, ``taken``)."""
    for option, _owners in _flags_by_option(kind).values():
        flag = option.cli_flag(in_build)
        if flag in taken:
            flag = "--align-" + option.name.replace("_", "-")
        if option.is_switch:
            group.add_argument(flag, dest=_dest(kind, option), action="store_true", default=None,
                               help=_help(option))
        else:
            group.add_argument(flag, dest=_dest(kind, option), type=option.type, choices=option.choices,
                               metavar=option.metavar, default=None, help=_help(option))


def backend_options(args: argparse.Namespace, kind: str, name: str, *,
                    also_used: tuple[str, ...] = ()) -> dict[str, Any]:
    """The given flags of the chosen ``name`` (a pre-computed input such as ``conllu`` takes none).

    A given flag that ``name`` does not take is an error naming the backend that does, unless it
    is in ``also_used`` (a flag the command uses elsewhere too, like ``acs build --device``).
    """
    declared = declared_options(kind)
    chosen = {option.name for option in declared.get(name, ()) if option.cli}
    options: dict[str, Any] = {}
    for option, owners in _flags_by_option(kind).values():
        value = getattr(args, _dest(kind, option), None)
        if value is None:
            continue
        if option.name in chosen:
            options[option.name] = value
        elif option.name not in also_used:
            raise _ERRORS[kind](f"the {owners[0]} option {option.name.replace('_', ' ')} ({value}) "
                                f"does not apply to --{kind} {name}")
    return options


def given_backend_options(args: argparse.Namespace, kind: str) -> dict[str, Any]:
    """Every given flag of the kind's backends, by option name, for a backend chosen later (the
    backend then refuses an option it does not declare, naming the ones it does)."""
    return {option.name: value for option, _owners in _flags_by_option(kind).values()
            if (value := getattr(args, _dest(kind, option), None)) is not None}


# -- parsing: `acs parse` and `acs build` ---------------------------------------------------------


def add_parser_arguments(parser: argparse.ArgumentParser, *, default: str | None = DEFAULT_PARSER) -> None:
    """The parsing options shared by ``acs parse`` and ``acs build``.

    ``default=None`` lets a caller tell "not given" apart (``acs build``: conllu when
    ``--source-conllu`` is given, else trankit).
    """
    from auto_challenge_sets.builder.backends.parsers import available_parsers

    group = parser.add_argument_group("parsing")
    group.add_argument("--parser", choices=[*available_parsers(), CONLLU], default=default,
                       help="trankit (XLM-R, the default), udpipe (UDPipe 1, --udpipe-model), or conllu (a "
                       "pre-parsed file with one sentence per line)")
    add_backend_flags(group, PARSER)
    group.add_argument("--shard-size", type=int_at_least(1), default=None, metavar="N",
                       help=f"lines per cached parse shard: a killed run resumes at the first unfinished shard "
                       f"(default: {PARSE_SHARD_SIZE:,}, or fewer so that each of acs build's --jobs workers gets "
                       "two)")
    group.add_argument("--cache-dir", metavar="DIR", type=_path,
                       help="stage cache (default: $ACS_CACHE_DIR, else ~/.cache/auto_challenge_sets)")


def _path(text: str) -> Any:
    from pathlib import Path

    return Path(text)


def parser_spec_from_args(args: argparse.Namespace, *, also_used: tuple[str, ...] = ()) -> ParserSpec | None:
    """The parser the flags ask for; None for ``--parser conllu`` (the caller reads the file)."""
    name = args.parser
    if name == CONLLU:
        backend_options(args, PARSER, name, also_used=also_used)  # no parser flag applies to a file
        return None
    return ParserSpec(name, backend_options(args, PARSER, name, also_used=also_used))


# -- alignment: `acs align` and `acs build` -------------------------------------------------------


def add_aligner_arguments(parser: argparse.ArgumentParser, *, standalone: bool = False) -> None:
    """Add the aligner options to ``parser``.

    ``standalone=False`` (for ``acs build``): ``--aligner`` (simalign, eflomal, pharaoh or none),
    ``--alignment FILE``, and the backends' flags, with ``--align-`` where a bare name would be
    ambiguous beside the parser's (``--align-model``, ``--align-batch-size``, ``--align-device``).
    ``standalone=True`` (for ``acs align``): the bare flags, no Pharaoh file.
    Read them back with :func:`aligner_spec_from_args`.
    """
    from auto_challenge_sets.builder.backends.aligners import available_aligners

    group = parser.add_argument_group("alignment")
    names = available_aligners()
    if standalone:
        group.add_argument("--aligner", choices=names, default=DEFAULT_ALIGNER,
                           help="simalign: contextual embeddings (best with a GPU); eflomal: a fast "
                           "statistical aligner for CPUs, learnt on the input itself (give it thousands of pairs)")
    else:
        group.add_argument("--aligner", choices=[*names, PHARAOH, NO_ALIGNER, AUTO_ALIGNER], default=None,
                           help="how to word-align source and target for the reorder configs: simalign "
                           "(contextual embeddings, best with a GPU), eflomal (statistical, CPU), pharaoh "
                           "(read --alignment FILE), none (no reorder configs), auto (the default): pharaoh "
                           f"when --alignment is given, else {DEFAULT_ALIGNER} when its model is here or the "
                           f"Hub can be reached, else {FALLBACK_ALIGNER}")
        group.add_argument("--alignment", type=_path, metavar="FILE",
                           help="precomputed Pharaoh alignment (0-based i-j, one line per corpus line) from "
                           "the parse's words to the white-space tokens of the target (fast_align, "
                           "awesome-align, `acs align` ...)")
    add_backend_flags(group, ALIGNER, in_build=not standalone)


def _default_aligner(args: argparse.Namespace) -> str:
    """The default-aligner policy (:func:`~auto_challenge_sets.builder.pipeline.defaults.default_aligner`,
    shared with the Python API and the recipes) on the given flags: simalign's flags count as
    asking for simalign, another aligner's are an error naming it. Its note, if any, is kept in
    ``args.aligner_note``, which `acs build` passes on to its BuildSpec."""
    name, note = default_aligner(backend_options(args, ALIGNER, DEFAULT_ALIGNER))
    if note:
        args.aligner_note = note
    return name


def aligner_choice(args: argparse.Namespace) -> str:
    """``--aligner`` as given, or its default: pharaoh when ``--alignment`` is given, else simalign
    when its model can be had, else eflomal (decided once, then kept in ``args.aligner``)."""
    name = args.aligner
    if name in (None, AUTO_ALIGNER):
        name = PHARAOH if getattr(args, "alignment", None) is not None else _default_aligner(args)
        args.aligner = name
    if getattr(args, "alignment", None) is not None and name != PHARAOH:
        raise AlignerError(f"--alignment FILE is read by --aligner pharaoh, not --aligner {name}")
    if name == PHARAOH and getattr(args, "alignment", None) is None:
        raise AlignerError("--aligner pharaoh needs --alignment FILE")
    return name


def aligner_spec_from_args(args: argparse.Namespace, *, default_device: str | None = None) -> AlignerSpec | None:
    """The aligner the flags ask for; None for ``--aligner none`` and ``--aligner pharaoh`` (the
    caller reads ``--alignment``). Flags of another backend than the chosen one are an error.

    ``default_device``: the aligner's device when its own device flag is not given (a build passes
    its parser's ``--device``, so one flag puts both models on the GPU).
    """
    name = aligner_choice(args)
    if name in (NO_ALIGNER, PHARAOH):
        backend_options(args, ALIGNER, name)
        return None
    options = backend_options(args, ALIGNER, name)
    takes_device = any(option.name == "device" for option in declared_options(ALIGNER)[name])
    if takes_device and default_device is not None:
        options.setdefault("device", default_device)
    return AlignerSpec(name, options)
