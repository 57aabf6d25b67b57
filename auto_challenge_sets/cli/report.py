"""``acs report``: render a saved run again, from its ``results.json`` alone."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="render report.md, the figures and index.html again from a saved results.json",
        description="Render the report of a saved run again: report.md, the figures and index.html (with the "
        "sentences behind each config, where the run saved them in sentences.json.gz) from DIR/results.json alone, "
        "the very bytes `acs evaluate --out DIR` wrote. Nothing is scored again and neither the dataset folder nor "
        "the system outputs are read. DIR must hold a results.json of this version (schema acs-evaluation/4).",
    )
    parser.add_argument("dir", metavar="DIR", help="a folder written by `acs evaluate --out`")
    parser.add_argument("--out", metavar="OUT",
                        help="write the report into OUT (absent, empty, or an earlier report, which it replaces "
                        "whole) instead of DIR itself")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from auto_challenge_sets.evaluation.report.report_folder import prepare_report_folder, report_folder
    from auto_challenge_sets.evaluation.report.report_writer import write_report
    from auto_challenge_sets.evaluation.report.saved_report import read_report
    from auto_challenge_sets.evaluation.report.terminal_summary import wrote_line

    evaluation, sentences = read_report(args.dir)  # whole, before the folder is replaced
    out = args.out or args.dir
    prepare_report_folder(out)
    with report_folder(out) as work:
        written = write_report(work, evaluation, sentences, progress=not args.quiet)
        wrote = wrote_line(out, written, work)
    print(wrote)
    return 0
