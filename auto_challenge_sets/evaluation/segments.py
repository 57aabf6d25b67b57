"""Validity at segment level: does a config's sentence-level judgement agree with the human
segment scores of the same sentences? Nineteen systems give a system-level τ little power;
thousands of scored segments give it plenty.

The table is WMT's segment-score layout (``ad-seg-scores-de-en.csv``: a white-space table with
the header ``SYS SID RAW.SCR Z.SCR N``, SID the 1-based corpus line, one row per system and
segment; a CSV with those columns works too). Names match systems as in :mod:`.human`; table
systems matching none (WMT scores its human reference as ``HUMAN.0``) are notes, never errors.

Per config, over the (system, sentence) pairs of its rows that have a human z:

- every metric: Kendall's τ-b of the metric's sentence score (its score on a corpus of that one
  sentence, :meth:`~auto_challenge_sets.scoring.metric.Metric.sample_scores`; negated where lower is
  better) with z (``scipy.stats.kendalltau``);
- targeted accuracy, over the judged instances of those sentences: τ-b of the verdict (1 correct,
  0 wrong) with z, and the mean z of instances judged correct minus wrong with a 95% percentile
  bootstrap interval (``scipy.stats.bootstrap``, seeded, the two groups resampled independently).
  A sentence with several instances counts once per instance, so the interval is somewhat narrower
  than one resampling sentences would give.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.human import match_system, numbered_table_rows
from auto_challenge_sets.evaluation.results import SegmentAgreement
from auto_challenge_sets.scoring.metric import Metric
from auto_challenge_sets.text_io import ascii_float, ascii_int

BOOTSTRAP = 1000
COLUMNS = ("SYS", "SID", "Z.SCR")
CORRECT, WRONG = "correct", "wrong"


@dataclass
class SegmentScores:
    """Human z per system and corpus line, and where each was read (for errors found later)."""

    path: str
    scores: dict[str, dict[int, float]]  # system -> 1-based corpus line -> z
    read_at: dict[tuple[str, int], int] = field(default_factory=dict)  # (system, line) -> file line
    unmatched_table: list[str] = field(default_factory=list)  # table names matching no system
    unmatched_systems: list[str] = field(default_factory=list)  # systems without a segment score

    def check_lines(self, total_lines: int) -> None:
        """Every SID within the corpus's lines, else the first one outside, by its file line."""
        for (system, line), at in sorted(self.read_at.items(), key=lambda item: item[1]):
            if line > total_lines:
                raise InputError(f"SID {line} ({system}) is past the corpus's {total_lines} lines", self.path, at)

    def z(self, system: str, lines: Sequence[int]) -> np.ndarray:
        """The system's z per corpus line, NaN where the table has none."""
        found = self.scores.get(system, {})
        return np.array([found.get(int(line), np.nan) for line in lines], dtype=np.float64)


def read_human_seg(path: str | os.PathLike[str], systems: Sequence[str],
                   aliases: Mapping[str, str] | None = None) -> SegmentScores:
    """The table's z scores of the given systems; a malformed row is an error naming its line."""
    numbered = numbered_table_rows(path, "is empty: a segment-score table needs the header SYS SID RAW.SCR Z.SCR N",
                                   InputError)
    first, header = numbered[0]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise InputError(f"has no column {', '.join(missing)} (columns: {', '.join(header)}; WMT's layout is "
                         "SYS SID RAW.SCR Z.SCR N)", path, first)
    at = {c: header.index(c) for c in COLUMNS}
    wanted, names = set(systems), dict(aliases or {})
    out = SegmentScores(str(path), {})
    unmatched: dict[str, None] = {}
    for number, row in numbered[1:]:
        if len(row) != len(header):
            raise InputError(f"has {len(row)} columns, the header {len(header)}", path, number)
        sid = ascii_int(row[at["SID"]])
        if sid is None:
            raise InputError(f"SID {row[at['SID']]!r} is not a line number", path, number)
        if sid < 1:
            raise InputError(f"SID {sid} is not a 1-based line number", path, number)
        z = ascii_float(row[at["Z.SCR"]])
        if z is None:
            raise InputError(f"Z.SCR {row[at['Z.SCR']]!r} is not a number", path, number)
        if not np.isfinite(z):
            raise InputError(f"Z.SCR {row[at['Z.SCR']]!r} is not a finite number", path, number)
        name = row[at["SYS"]]
        system = match_system(name, wanted, names)
        if system not in wanted:
            unmatched[name] = None
            continue
        if (system, sid) in out.read_at:
            raise InputError(f"{name} SID {sid} is scored twice (first at line {out.read_at[system, sid]})",
                             path, number)
        out.scores.setdefault(system, {})[sid] = z
        out.read_at[system, sid] = number
    out.unmatched_table = list(unmatched)
    out.unmatched_systems = [s for s in systems if s not in out.scores]
    return out


def _kendall(xs: np.ndarray, ys: np.ndarray) -> tuple[float | None, float | None]:
    from scipy.stats import kendalltau

    if len(xs) < 3:
        return None, None
    result = kendalltau(xs, ys)  # τ-b, scipy's default variant
    tau, p = float(result.statistic), float(result.pvalue)
    return (tau if np.isfinite(tau) else None), (p if np.isfinite(p) else None)


def sentence_scores(metric: Metric, stats: np.ndarray) -> np.ndarray:
    """The metric's score of each pool row alone (a corpus of one sentence), turned so that higher
    is better."""
    scores = metric.sample_scores(stats, np.arange(len(stats))[:, None])
    return scores if metric.higher_is_better else -scores


def metric_agreement(scores: Mapping[str, np.ndarray], positions: np.ndarray,
                     pool_z: Mapping[str, np.ndarray]) -> SegmentAgreement | None:
    """τ-b of sentence scores (``scores``: each system's :func:`sentence_scores`) with z over the
    pool rows ``positions`` of every system (``pool_z``: each system's z per pool row,
    :meth:`SegmentScores.z`); None when fewer than 3 pairs have a human score."""
    xs, zs = [], []
    for system, per_sentence in scores.items():
        z = pool_z[system][positions]
        keep = np.isfinite(z)
        xs.append(per_sentence[positions][keep])
        zs.append(z[keep])
    x, z = np.concatenate(xs), np.concatenate(zs)
    if len(x) < 3:
        return None
    tau, p = _kendall(x, z)
    return SegmentAgreement(segments=len(x), kendall=tau, p_value=p)


def targeted_agreement(verdicts: Mapping[str, Sequence[Sequence[str]]], positions: np.ndarray,
                       pool_z: Mapping[str, np.ndarray], seed: int = 1) -> SegmentAgreement | None:
    """Over the judged instances (``verdicts``: system -> per pool row of ``positions`` the
    instances' verdicts) with a human z: τ-b of verdict with z, and correct − wrong in mean z with
    its bootstrap interval. None when fewer than 3 judged instances have a human score."""
    from scipy.stats import bootstrap

    judged, zs = [], []
    for system, rows in verdicts.items():
        z = pool_z[system][positions]
        for row, z_row in zip(rows, z, strict=True):
            if not np.isfinite(z_row):
                continue
            for verdict in row:
                if verdict in (CORRECT, WRONG):
                    judged.append(verdict == CORRECT)
                    zs.append(z_row)
    if len(judged) < 3:
        return None
    good, z = np.asarray(judged), np.asarray(zs)
    tau, p = _kendall(good.astype(np.float64), z)
    right, wrong = z[good], z[~good]
    diff = ci = None
    if len(right) and len(wrong):
        diff = float(right.mean() - wrong.mean())
    if len(right) > 1 and len(wrong) > 1:
        found = bootstrap((right, wrong), _mean_difference, n_resamples=BOOTSTRAP, method="percentile",
                          vectorized=True, rng=np.random.default_rng([seed, 3]))
        ci = (float(found.confidence_interval.low), float(found.confidence_interval.high))
    return SegmentAgreement(segments=len(z), kendall=tau, p_value=p, correct=int(good.sum()),
                            wrong=int((~good).sum()), z_correct_minus_wrong=diff, ci=ci)


def _mean_difference(right: np.ndarray, wrong: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(right, axis=axis) - np.mean(wrong, axis=axis)
