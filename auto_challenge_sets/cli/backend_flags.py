"""Command-line flags generated from the backends' declared options, and read back into specs.

Each command-line option of a kind's backends (``auto_challenge_sets.backends.Option``)
is one flag, even where several backends declare it (``pretokenized``). Flags default to ``None``:
the chosen backend gets the given ones, and a given flag that only another backend takes is an
error naming that backend, never silently ignored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from auto_challenge_sets.backends import ALIGNER, PARSER, Option, available_backends, declared_options
from auto_challenge_sets.backends.aligners import AlignerError
from auto_challenge_sets.backends.parsers import ParserError
from auto_challenge_sets.cli.help import int_at_least
from auto_challenge_sets.pipeline.defaults import (
    AUTO_ALIGNER,
    DEFAULT_ALIGNER,
    DEFAULT_PARSER,
    FALLBACK_ALIGNER,
    NO_ALIGNER,
    default_aligner,
)
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.pipeline.stage_cache import PARSE_SHARD_SIZE

CONLLU = "conllu"  # --parser conllu: a pre-parsed source
PHARAOH = "pharaoh"  # --aligner pharaoh: a precomputed alignment


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


def add_backend_flags(group: argparse._ArgumentGroup, kind: str, *, in_build: bool = False,
                      taken: frozenset[str] = frozenset()) -> None:
    """One flag per declared command-line option of the kind's backends (``--align-NAME`` for one
    whose flag the command already uses for something else, ``taken``)."""
    for option, _owners in _flags_by_option(kind).values():
        flag = option.cli_flag(in_build)
        if flag in taken:
            flag = "--align-" + option.name.replace("_", "-")
        shown = option.default in (None, False, "") or "default" in option.help.lower()
        text = option.help if shown else f"{option.help} (default: {option.default})"
        if option.type is bool:  # a switch
            group.add_argument(flag, dest=_dest(kind, option), action="store_true", default=None, help=text)
        else:
            group.add_argument(flag, dest=_dest(kind, option), type=option.type, choices=option.choices,
                               metavar=option.metavar, default=None, help=text)


def backend_options(args: argparse.Namespace, kind: str, name: str, *,
                    also_used: tuple[str, ...] = ()) -> dict[str, Any]:
    """The given flags of the chosen backend ``name``; a given flag that it does not take is an error
    naming the backend that does, unless it is in ``also_used`` (used elsewhere too: ``acs build --device``)."""
    chosen = {option.name for option in declared_options(kind).get(name, ()) if option.cli}
    given = given_backend_options(args, kind)
    for key, value in given.items():
        if key not in chosen and key not in also_used:
            error = ParserError if kind == PARSER else AlignerError
            raise error(f"the {_flags_by_option(kind)[key][1][0]} option {key.replace('_', ' ')} ({value}) "
                        f"does not apply to --{kind} {name}")
    return {key: value for key, value in given.items() if key in chosen}


def given_backend_options(args: argparse.Namespace, kind: str) -> dict[str, Any]:
    """Every given flag of the kind's backends, by option name, for a backend chosen later (which
    refuses an option it does not declare)."""
    return {option.name: value for option, _owners in _flags_by_option(kind).values()
            if (value := getattr(args, _dest(kind, option), None)) is not None}


def add_parser_arguments(parser: argparse.ArgumentParser, *, default: str | None = DEFAULT_PARSER) -> None:
    """The parsing options of ``acs parse`` and ``acs build`` (``default=None``: the build tells
    "not given" apart, conllu with ``--source-conllu``)."""
    group = parser.add_argument_group("parsing")
    group.add_argument("--parser", choices=[*available_backends(PARSER), CONLLU], default=default,
                       help="trankit (XLM-R, the default), udpipe (UDPipe 1, --udpipe-model), or conllu (a "
                       "pre-parsed file with one sentence per line)")
    add_backend_flags(group, PARSER)
    group.add_argument("--shard-size", type=int_at_least(1), default=None, metavar="N",
                       help=f"lines per cached parse shard: a killed run resumes at the first unfinished shard "
                       f"(default: {PARSE_SHARD_SIZE:,}, or fewer so that each of acs build's --jobs workers gets "
                       "two)")
    group.add_argument("--cache-dir", metavar="DIR", type=Path,
                       help="stage cache (default: $ACS_CACHE_DIR, else ~/.cache/auto_challenge_sets)")


def parser_spec_from_args(args: argparse.Namespace, *, also_used: tuple[str, ...] = ()) -> ParserSpec | None:
    """The parser the flags ask for; None for ``--parser conllu`` (the caller reads the file). UDPipe
    without ``--udpipe-model`` gets the first of its models for the language, with a note naming the
    others."""
    options = backend_options(args, PARSER, args.parser, also_used=also_used)
    if args.parser == "udpipe" and "udpipe_model" not in options:
        from auto_challenge_sets.backends.parsers.udpipe import udpipe_models

        lang = getattr(args, "lang", None) or args.pair.split("-")[0]
        if found := udpipe_models(lang):  # else the backend's error says where to put one
            options["udpipe_model"] = found[0]
        if len(found) > 1:
            print(f"note: --parser udpipe: {found[0]} of {len(found)} models for {lang} (not "
                  f"{', '.join(path.name for path in found[1:])}; --udpipe-model FILE picks one)", file=sys.stderr)
    return None if args.parser == CONLLU else ParserSpec(args.parser, options)


def add_aligner_arguments(parser: argparse.ArgumentParser, *, standalone: bool = False) -> None:
    """The aligner options: for ``acs build``, ``--aligner`` (a backend, pharaoh, none or auto),
    ``--alignment FILE`` and the backends' flags, ``--align-`` where a bare name would clash with the
    parser's; for ``acs align`` (``standalone``), the bare flags and no Pharaoh file."""
    group = parser.add_argument_group("alignment")
    names = available_backends(ALIGNER)
    if standalone:
        group.add_argument("--aligner", choices=names, default=DEFAULT_ALIGNER,
                           help="simalign: contextual embeddings (best with a GPU); eflomal: a fast "
                           "statistical aligner for CPUs, learnt on the input itself (give it thousands of pairs)")
    else:
        group.add_argument("--aligner", choices=[*names, PHARAOH, NO_ALIGNER, AUTO_ALIGNER], default=None,
                           help="the reorder configs' word alignment: simalign (contextual embeddings, best with "
                           "a GPU), eflomal (statistical, CPU), pharaoh (read --alignment FILE), none (no reorder "
                           f"configs), auto (the default): pharaoh with --alignment, else {DEFAULT_ALIGNER} when its "
                           f"model is here or the Hub reachable, else {FALLBACK_ALIGNER}")
        group.add_argument("--alignment", type=Path, metavar="FILE",
                           help="precomputed Pharaoh alignment (0-based i-j, one line per corpus line) from "
                           "the parse's words to the white-space tokens of the target (fast_align, "
                           "awesome-align, `acs align` ...)")
    add_backend_flags(group, ALIGNER, in_build=not standalone)


def aligner_spec_from_args(args: argparse.Namespace, *, default_device: str | None = None) -> AlignerSpec | None:
    """The aligner the flags ask for: ``--aligner`` as given, or by the default-aligner policy
    (pharaoh with ``--alignment``, else :func:`~auto_challenge_sets.pipeline.defaults.default_aligner`,
    for which simalign's flags ask for simalign; kept in ``args.aligner``, its note in
    ``args.aligner_note``). None for ``none`` and ``pharaoh`` (the caller reads ``--alignment``).
    ``default_device``: its device where its own flag is not given (a build passes its parser's
    ``--device``, so one flag puts both models on the GPU)."""
    alignment = getattr(args, "alignment", None)
    if args.aligner in (None, AUTO_ALIGNER):
        if alignment is not None:
            args.aligner = PHARAOH
        else:
            args.aligner, note = default_aligner(backend_options(args, ALIGNER, DEFAULT_ALIGNER))
            if note:
                args.aligner_note = note
    if alignment is not None and args.aligner != PHARAOH:
        raise AlignerError(f"--alignment FILE is read by --aligner pharaoh, not --aligner {args.aligner}")
    if args.aligner == PHARAOH and alignment is None:
        raise AlignerError("--aligner pharaoh needs --alignment FILE")
    name = args.aligner
    options = backend_options(args, ALIGNER, name)
    if name in (NO_ALIGNER, PHARAOH):
        return None
    if default_device is not None and any(option.name == "device" for option in declared_options(ALIGNER)[name]):
        options.setdefault("device", default_device)
    return AlignerSpec(name, options)
