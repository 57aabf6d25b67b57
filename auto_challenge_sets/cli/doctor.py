"""``acs doctor``: which backends are installed, which models and test sets are on disk, whether
publishing can work; with the command that gets each missing piece. Reads files only: no model
is loaded but the UDPipe files it checks, and nothing is downloaded."""

from __future__ import annotations

import argparse
from pathlib import Path

from auto_challenge_sets.cli.help import HelpFormatter


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="show which parsers, aligners, models and test sets this installation has",
        description="List the parser and aligner backends with their libraries, the models on disk "
        "(trankit's and UDPipe's per language, simalign's model, the eflomal binary), the sacrebleu "
        "test sets already downloaded and the Hub settings `acs publish` needs; for each missing one, "
        "the command that gets it. Nothing is downloaded.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--lang", nargs="+", default=["de", "en"], metavar="LANG",
                        help="languages whose trankit and UDPipe models, build parser and targeted judge's match as a "
                        "target to show ('all': the nine PUD languages, ja and uk)")
    parser.add_argument("--trankit-cache", type=Path, metavar="DIR",
                        help="trankit's model folder (default: $ACS_TRANKIT_CACHE, else CACHE/trankit)")
    parser.add_argument("--align-model", metavar="NAME_OR_PATH", help="simalign model to check (default: its default)")
    parser.add_argument("--udpipe-model", nargs="+", type=Path, metavar="FILE",
                        help="UDPipe 1 model files to check (default: the one --parser udpipe takes for each "
                        "language, from CACHE/udpipe)")
    parser.set_defaults(func=run)


def _hub_lines() -> list[tuple[bool, str, str, str]]:
    from huggingface_hub import constants, get_token

    from auto_challenge_sets.backends.hub import hub_offline_mode, hub_reachable

    # offline mode (a setting) and an unreachable Hub (the network) are fixed in different ways
    if hub_offline_mode():
        hub = (False, "hub", "offline mode (HF_HUB_OFFLINE is set)", "unset HF_HUB_OFFLINE")
    elif hub_reachable():
        hub = (True, "hub", f"reachable at {constants.ENDPOINT}", "")
    else:
        hub = (False, "hub", f"Hub unreachable at {constants.ENDPOINT} (offline mode is off)",
               "check the network or HF_ENDPOINT; offline, set HF_HUB_OFFLINE=1 HF_EVALUATE_OFFLINE=1 (then "
               "load_dataset and evaluate.load read their caches at once instead of retrying the Hub) and pass "
               "local models (see `acs build --help`)")
    token = get_token() is not None
    return [hub, (token, "hub token", "found" if token else "none (needed by acs publish)", "hf auth login, or set HF_TOKEN")]


def _dataset_here_lines() -> list[tuple[bool, str, str, str]]:
    """With a built folder ./auto_challenge_sets here (acs build's default --out): whether datasets'
    cache holds another build of that name, which load_dataset returns from any other folder."""
    from auto_challenge_sets.dataset.hf_cache import datasets_cache, stale_cached_configs
    from auto_challenge_sets.dataset.layout import README, folder_sizes
    from auto_challenge_sets.errors import AcsError

    here = Path("auto_challenge_sets")
    if not (here / README).is_file():
        return []
    try:
        sizes = folder_sizes(here)
    except AcsError as error:
        return [(False, "dataset here", f"./{here}: {error}"[:200], "")]
    if not (stale := stale_cached_configs(here.name, sizes)):
        return [(True, "dataset here", f"./{here}: {len(sizes)} configs; datasets' cache holds no other build", "")]
    return [(False, "dataset here", f"./{here}: datasets' cache holds another build of {len(stale)} config(s) "
             f"(e.g. {next(iter(stale))})", f"load it by path from other folders, or delete {datasets_cache() / here.name}")]


def _language_table(langs: list[str], trankit_cache: Path | None) -> list[str]:
    """Per language: the trankit model a build from it parses with (the checks above say whether it
    and a UDPipe model are on disk), and the judge's matching for it as a target."""
    from auto_challenge_sets.backends.inventory import language_parsers

    lines = ["", "Per language (gold trees in any language: --source-conllu FILE):"]
    for f in (language_parsers(lang, trankit_cache) for lang in langs):
        script = "; PUD's traditional script: traditional-chinese" if f.lang == "zh" else ""
        build = f"trankit {f.trankit_language} ({f.trankit_treebank}{script})" if f.trankit_language else "none by default"
        lines += [f"{f.lang:<4}a build parses with {build}", f"    as a target: {f.as_target}"]
    return lines


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.backends.inventory import (
        LANGUAGES,
        backend_checks,
        eflomal_check,
        simalign_check,
        trankit_check,
        udpipe_checks,
    )
    from auto_challenge_sets.pipeline.testsets import cached_testsets
    from auto_challenge_sets.tables import render_table

    langs = list(LANGUAGES) if args.lang == ["all"] else args.lang
    checks = [*backend_checks(), *(trankit_check(lang, args.trankit_cache) for lang in langs),
              *udpipe_checks(langs, args.udpipe_model), simalign_check(args.align_model), eflomal_check()]
    cached = cached_testsets()
    rows = [(c.ok, c.name, c.detail, c.get) for c in checks]
    rows += [(bool(cached), "sacrebleu test sets", ", ".join(cached) if cached else "none downloaded yet",
              "acs build --testset NAME --pair SRC-TGT (sacrebleu downloads it once)"), *_hub_lines(),
             *_dataset_here_lines()]
    table = render_table(["", "what", "here"], [("ok" if ok else "--", name, detail) for ok, name, detail, _ in rows],
                         left=3).splitlines()
    table[1] = table[1][:100]  # the rule under "here", whose cells wrap
    missing = [f"  {name}: {get}" for ok, name, _, get in rows if not ok and get]
    hints = ["", "To get what is missing:", *missing] if missing else []
    print("\n".join(_fit(table, hang=table[0].index("here")) + _fit(hints + _language_table(langs, args.trankit_cache))))
    return 0


def _fit(lines: list[str], hang: int | None = None) -> list[str]:
    """Lines of at most 100 characters: a longer one wraps at spaces, going on at column ``hang``,
    else 4 past its own indent, else at 0, whichever keeps its words (paths, URLs) whole within 100."""
    import textwrap

    fitted = []
    for line in lines:
        for indent in [*([hang] if hang is not None else []), len(line) - len(line.lstrip()) + 4, 0]:
            parts = textwrap.wrap(line, 100, subsequent_indent=" " * indent, break_long_words=False,
                                  break_on_hyphens=False) or [line]
            if max(map(len, parts)) <= 100:
                break
        fitted += parts
    return fitted
