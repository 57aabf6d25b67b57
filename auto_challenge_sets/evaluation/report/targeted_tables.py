"""The report's targeted-accuracy tables: each system's accuracy by distance, and per config beside
its random-pair control; systems ranked by the full corpus's first metric."""

from __future__ import annotations

from auto_challenge_sets.evaluation.report.name_text import report_name
from auto_challenge_sets.evaluation.report.system_order import by_full_test
from auto_challenge_sets.evaluation.report.targeted_labels import matched_share
from auto_challenge_sets.evaluation.report.validity_report import config_label
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.tables import render_table

SECOND_REFERENCE = "2nd human translation"  # the judge's pass rate on it, beside the systems'


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}"


def targeted_tables(evaluation: Evaluation, markdown: bool = False) -> list[tuple[str, str]]:
    """Per phenomenon: a heading and a table of each system's accuracy (%) by distance d, with the
    mean over systems and the instances judged (the mean over systems) per d."""
    if evaluation.targeted is None:
        return []
    out = []
    systems = by_full_test(evaluation)  # every table's order, best first on the full corpus
    for phenomenon, summary in evaluation.targeted.by_distance.items():
        buckets = summary.buckets
        rows = [[report_name(system, markdown), *(_pct(summary.accuracy[system][b]) for b in buckets)]
                for system in systems]
        rows.append(["mean", *(_pct(summary.mean[b]) for b in buckets)])
        if summary.second_reference is not None:
            rows.append([SECOND_REFERENCE, *(_pct(summary.second_reference[b]) for b in buckets)])
        judged = [sum(summary.judged[s][b] for s in systems) / len(systems) for b in buckets]
        rows.append(["judged (mean)", *(f"{n:.0f}" for n in judged)])
        heading = (f"{phenomenon}: targeted accuracy (%) by distance d "
                   f"(from {config_label(summary.config, evaluation.configs[summary.config])})")
        out.append((heading, render_table(["system", *(f"d={b}" for b in buckets)], rows, markdown=markdown)))
        control = _random_pairs_table(evaluation, phenomenon, markdown)
        if control is not None:
            out.append((f"{phenomenon}: targeted accuracy (%) per config [its percentile among random word pairs "
                        "at the same distances in the same sentences, matched on part of speech where the sentence allows]", control))
    return out


def _random_pairs_table(evaluation: Evaluation, phenomenon: str, markdown: bool) -> str | None:
    """Each system's accuracy on each config of the phenomenon beside its random-pair control: a
    percentile near 100 means the dependency is matched more often than random pairs are."""
    configs = {name: c for name, c in evaluation.configs.items() if c.phenomenon == phenomenon
               and any(r.targeted is not None and r.targeted.random_pairs is not None for r in c.systems.values())}
    if not configs:
        return None

    def cell(score) -> str:
        if score is None or score.accuracy is None:
            return "-"
        control = score.random_pairs
        return _pct(score.accuracy) + ("" if control is None or control.percentile is None
                                       else f" [{control.percentile:.0f}]")

    rows = [[report_name(system, markdown), *(cell(c.systems[system].targeted) for c in configs.values())]
            for system in by_full_test(evaluation)]
    means = [[r.targeted.random_pairs.mean for r in c.systems.values()
              if r.targeted is not None and r.targeted.random_pairs is not None
              and r.targeted.random_pairs.mean is not None] for c in configs.values()]
    rows.append(["random pairs (mean)", *(_pct(sum(m) / len(m)) if m else "-" for m in means)])
    targeted = evaluation.targeted
    if targeted.control_upos:
        rows.append(["pairs matched on UPOS", *(_pct(matched_share(targeted.control.get(name))) for name in configs)])
    if targeted.judge is not None and targeted.judge.by_config:
        rows.append([SECOND_REFERENCE, *(_pct(getattr(targeted.judge.by_config.get(name), "accuracy", None))
                                         for name in configs)])
    return render_table(["system", *(config_label(name, c) for name, c in configs.items())], rows, markdown=markdown)
