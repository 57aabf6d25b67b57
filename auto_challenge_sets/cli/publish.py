"""``acs publish`` and ``acs publish-metric``: a built folder as a Hub dataset repository, the
evaluate module as a Space (the work is :mod:`auto_challenge_sets.dataset.hub_publish`'s)."""

from __future__ import annotations

import argparse
from pathlib import Path

from auto_challenge_sets.cli.help import VERIFY_HELP, HelpFormatter

CARD_LINES = 20  # of the card, in a dry run without --verbose: the YAML's start, enough to see it is there


def _common(parser: argparse.ArgumentParser, example: str) -> None:
    parser.add_argument("--repo-id", required=True, metavar="ORG/NAME", help=f"the Hub repository, e.g. {example}")
    parser.add_argument("--private", action="store_true", help="create the repository private")
    parser.add_argument("--revision", metavar="BRANCH", help="commit to this branch (created if missing)")
    parser.add_argument("--dry-run", action="store_true",
                        help="check and print the operations and the card; send nothing (works offline)")
    parser.add_argument("--verbose", action="store_true",
                        help="list every file and print the whole card (default: one line per folder, "
                        "the card's first lines)")
    parser.add_argument("--token", metavar="TOKEN", help="a Hub token with write access (default: HF_TOKEN, "
                        "else the one `hf auth login` saved)")


def card_head(card: str, lines: int = CARD_LINES) -> str:
    """The card's YAML header counted, not shown, then its first ``lines`` lines of text."""
    text = [line.strip() for line in card.splitlines()]
    yaml_lines = text[1:].index("---") + 2 if text and text[0] == "---" and "---" in text[1:] else 0
    body = card.splitlines()[yaml_lines:]
    while body and not body[0].strip():
        body = body[1:]
    head = [f"(YAML header: {yaml_lines:,} lines)"] if yaml_lines else []
    if len(body) > lines:
        return "\n".join([*head, *body[:lines], f"... ({len(body) - lines:,} more lines; --verbose prints the "
                           "whole card and every file)"])
    return "\n".join(head + body)


def register(subparsers: argparse._SubParsersAction) -> None:
    dataset = subparsers.add_parser(
        "publish", help="upload a built folder as a Hugging Face Hub dataset repository",
        description="Check a folder written by `acs build` (its card with huggingface_hub's and datasets' "
        "own readers, every data file) and upload it as one commit to a Hub dataset repository, created "
        "when missing; remote data files the folder no longer has are deleted in the same commit. Then "
        "load_dataset(\"ORG/NAME\", CONFIG) works from anywhere.",
        formatter_class=HelpFormatter)
    dataset.add_argument("dir", metavar="DIR", nargs="?", default="auto_challenge_sets",
                         help="the folder (default: ./auto_challenge_sets, acs build's default --out)")
    _common(dataset, "my-org/auto_challenge_sets")
    dataset.add_argument("--verify", action="store_true", help=VERIFY_HELP)
    dataset.set_defaults(func=run_dataset)
    metric = subparsers.add_parser(
        "publish-metric", help="upload the ldd_challenge evaluate module as a Hub Space",
        description="Upload the evaluate module installed with this package (script, card, app.py, "
        "requirements pinned to this release) as a Gradio Space; then evaluate.load(\"ORG/NAME\") works "
        "from anywhere.", formatter_class=HelpFormatter)
    _common(metric, "my-org/ldd_challenge")
    metric.set_defaults(func=run_metric)


def _send(args: argparse.Namespace, plan_of) -> int:
    from auto_challenge_sets.dataset.hub_publish import connect, publish, remote_visibility

    api = None if args.dry_run else connect(args.token)  # offline or no token: fail before any work
    plan = plan_of()
    if api is not None:
        plan.remote = remote_visibility(api, plan)
    print(plan.describe() if args.verbose else plan.summary())
    if args.dry_run:
        print("\n--- the card (README.md) ---\n" + (plan.card if args.verbose else card_head(plan.card)))
        print("dry run: nothing was sent")
        return 0
    print(f"committed: {publish(plan, api)}")
    return 0


def run_dataset(args: argparse.Namespace) -> int:
    from auto_challenge_sets.dataset.hub_publish import dataset_plan

    return _send(args, lambda: dataset_plan(Path(args.dir), args.repo_id, args.revision, args.private,
                                            verify=args.verify))


def run_metric(args: argparse.Namespace) -> int:
    from auto_challenge_sets.evaluation.metric_space import metric_plan

    return _send(args, lambda: metric_plan(args.repo_id, args.revision, args.private))
