"""What ``acs evaluate --out DIR`` prints: a screenful, not the full tables (which stay in
report.md and index.html): the signature and provenance, per metric the full test set's top and
cluster count, the per-phenomenon summary, how many configs are flagged, and one line naming
what was written. On WMT21's 19 systems the full text is 1,170 lines; this is under 60."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.tables import render_table

MAX_NAMED = 5  # systems of the top cluster named on its line; the rest counted
FIRST_FILES = ("index.html", "report.md", "results.json")  # named in the "wrote" line, the rest counted


def _top_line(evaluation: Evaluation, metric: str) -> str:
    cls = evaluation.metric_info[metric]
    ranking = None if evaluation.full_test is None else evaluation.full_test.rankings.get(metric)
    if ranking is None or not ranking.systems:
        scored = [(s, evaluation.full[s][metric]) for s in evaluation.systems if evaluation.full[s][metric] is not None]
        if not scored:
            return f"{cls.label}: no score"
        best = (max if evaluation.higher_is_better[metric] else min)(scored, key=lambda item: item[1])
        return f"{cls.label}: best {best[0]} ({best[1]:.{cls.digits}f})"
    top = ranking.systems[0]
    cluster = [entry.system for entry in ranking.systems if entry.cluster == 1]
    shown = ", ".join(cluster[:MAX_NAMED]) + (f", … ({len(cluster)} systems)" if len(cluster) > MAX_NAMED else "")
    return (f"{cls.label}: best {top.system} ({top.score:.{cls.digits}f}); {ranking.clusters} cluster(s) of "
            f"{len(ranking.systems)} systems; top cluster: {shown}")


def _summary_table(evaluation: Evaluation) -> list[str]:
    """One row per phenomenon, per metric the share of cells below the random p5 and the worsening trends."""
    phenomena = list(dict.fromkeys(p for metric in evaluation.metrics for p in evaluation.summary.get(metric, {})))
    if not phenomena:
        return []
    header = ["phenomenon"]
    for metric in evaluation.metrics:
        label = evaluation.label(metric)
        header += [f"{label} < random p5", f"{label} worsening"]
    rows = []
    for phenomenon in phenomena:
        row = [phenomenon]
        for metric in evaluation.metrics:
            found = evaluation.summary.get(metric, {}).get(phenomenon)
            if found is None:
                row += ["-", "-"]
                continue
            trend = "n/a" if found.worsening_trend is None else f"{found.worsening_trend}/{found.trends}"
            row += [f"{found.worse_than_random_p5:.0%} of {found.cells}", trend]
        rows.append(row)
    return ["per phenomenon (distinct configs with enough rows):", render_table(header, rows), ""]


def _flagged_line(evaluation: Evaluation) -> str:
    counts: Counter[str] = Counter()
    for entry in evaluation.configs.values():
        for flag in entry.flags():
            counts[flag.split(" as ")[0] + (" as another" if " as " in flag else "")] += 1
    flagged = sum(1 for entry in evaluation.configs.values() if entry.flags())
    detail = "; ".join(f"{n} {flag}" for flag, n in counts.items())
    return f"configs: {len(evaluation.configs)} scored, {flagged} flagged" + (f" ({detail})" if detail else "")


def wrote_line(out: str | Path, written: list[Path], work: Path) -> str:
    """One short line: how many files, the main ones by name, and which to open."""
    names = [str(p.relative_to(work)) for p in written]
    first = [name for name in FIRST_FILES if name in names]
    rest = len(names) - len(first)
    listed = ", ".join(first) + (f", and {rest} more" if rest else "")
    page = " (open " + str(Path(out) / "index.html") + ")" if "index.html" in names else ""
    return f"wrote {len(names)} files to {out}: {listed}{page}"


def terminal_summary(evaluation: Evaluation) -> str:
    """The run in a screenful (the header as :func:`.report.text_report` prints it)."""
    from auto_challenge_sets.evaluation.report.report import full_corpus_label, made_by

    lines = [f"signature: {evaluation.signature}", f"baseline system: {evaluation.baseline_system}"]
    lines += [f"sets made by: {made_by(evaluation)}"] if made_by(evaluation) else []
    lines += ["", f"{full_corpus_label(evaluation)}, per metric:"]
    lines += [f"  {_top_line(evaluation, metric)}" for metric in evaluation.metrics]
    lines += ["", *_summary_table(evaluation), _flagged_line(evaluation),
              "the full tables: report.md and index.html"]
    return "\n".join(lines)
