"""Validity at segment level: does a config's sentence-level judgement agree with the human
segment scores (WMT's ``SYS SID RAW.SCR Z.SCR N`` table) of the same sentences? The sentence is the
unit: a cluster bootstrap over sentences, and permutations of whole sentences' z. The method:
docs/method.md, "Validity: segment level, corrected p-values, and confirming on another test set".
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.results import Method, SegmentAgreement
from auto_challenge_sets.evaluation.stats import SEED, STREAMS
from auto_challenge_sets.evaluation.stats.human import finite, interval, match_system, numbered_table_rows
from auto_challenge_sets.formats.text import ascii_float, ascii_int
from auto_challenge_sets.scoring.metrics import Metric
from auto_challenge_sets.workers import imap

BOOTSTRAP = Method.segment_bootstrap
PERMUTATIONS = Method.segment_permutations  # random sentence orders of a permutation p-value
# Orders reaching the observed statistic after which a permutation p is settled (Besag & Clifford
# 1991): its p is then at least 2 · 10 / 999 = 0.02 and known to about a third of itself.
STOP_AFTER = 10
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


def _tau(xs: np.ndarray, ys: np.ndarray) -> float:
    """Kendall's τ-b (scipy's default variant); NaN below 3 pairs or where a side is constant."""
    from scipy.stats import kendalltau

    return float(kendalltau(xs, ys).statistic) if len(xs) >= 3 else float("nan")


def sentence_permutation_p(statistic: Callable[[np.ndarray], float], sentences: int, seed: int = SEED) -> float | None:
    """Two-sided permutation p of ``statistic(order)``, where sentence k takes the human z of
    sentence ``order[k]``; None when the observed statistic is undefined. Every order up to 6
    sentences (``scipy.stats.permutation_test``); above, seeded random orders, stopping once
    :data:`STOP_AFTER` reach the observed value in the less extreme tail (scipy cannot stop early)."""
    from scipy.stats import permutation_test

    observed = statistic(np.arange(sentences))
    if sentences < 2 or not np.isfinite(observed):
        return None
    if math.factorial(sentences) <= PERMUTATIONS:
        found = permutation_test((np.arange(sentences),), statistic, permutation_type="pairings", vectorized=False,
                                 n_resamples=PERMUTATIONS, alternative="two-sided")
        return finite(found.pvalue)
    rng = np.random.default_rng([seed, STREAMS["segment_permutations"]])
    slack = 1e-12 * max(1.0, abs(observed))  # a value equal but for rounding reaches the observed one
    at_least = at_most = 0
    for drawn in range(1, PERMUTATIONS + 1):
        value = statistic(rng.permutation(sentences))
        at_least += bool(value >= observed - slack)
        at_most += bool(value <= observed + slack)
        if min(at_least, at_most) >= STOP_AFTER:
            return min(1.0, 2 * STOP_AFTER / drawn)
    return min(1.0, 2 * (min(at_least, at_most) + 1) / (PERMUTATIONS + 1))


def cluster_bootstrap(sentence_of: np.ndarray, z: np.ndarray, good: np.ndarray, sentences: int,
                      seed: int = SEED) -> tuple[tuple[float, float], float] | None:
    """The 95% percentile interval of mean z of correct minus wrong instances over resamples of
    whole sentences (``sentence_of``: each instance's sentence), and the p that inverts it. Not
    ``scipy.stats.bootstrap``, whose interval turns NaN where a resample lacks a correct or a wrong
    instance: such a resample is left out here."""
    if sentences < 2:
        return None
    # per sentence: z summed over its correct instances, their count, the same for wrong ones
    sums = np.column_stack([np.bincount(sentence_of, weights=w, minlength=sentences)
                            for w in (z * good, good, z * ~good, ~good)]).astype(np.float64)
    draws = np.random.default_rng([seed, STREAMS["segment_bootstrap"]]).integers(0, sentences, (BOOTSTRAP, sentences))
    counts = np.zeros((BOOTSTRAP, sentences))
    np.add.at(counts, (np.repeat(np.arange(BOOTSTRAP), sentences), draws.ravel()), 1)
    totals = counts @ sums
    with np.errstate(invalid="ignore", divide="ignore"):
        differences = totals[:, 0] / totals[:, 1] - totals[:, 2] / totals[:, 3]
    differences = differences[np.isfinite(differences)]
    side = min((differences <= 0).sum(), (differences >= 0).sum())
    ci = interval(differences)  # None when no resample holds both a correct and a wrong instance
    return None if ci is None else (ci, min(1.0, 2 * (side + 1) / (len(differences) + 1)))


def sentence_scores(metric: Metric, stats: np.ndarray) -> np.ndarray:
    """The metric's score of each pool row alone (a corpus of one sentence), higher is better."""
    scores = metric.sample_scores(stats, np.arange(len(stats))[:, None])
    return scores if metric.higher_is_better else -scores


def metric_agreement(scores: Mapping[str, np.ndarray], positions: np.ndarray,
                     pool_z: Mapping[str, np.ndarray], seed: int = SEED) -> SegmentAgreement | None:
    """τ-b of sentence scores (``scores``: each system's :func:`sentence_scores`) with z (``pool_z``:
    each system's per pool row) over the pool rows ``positions``, its p over sentence orders; None
    when fewer than 3 pairs have a human score."""
    systems = list(scores)
    x = np.column_stack([scores[s][positions] for s in systems])  # sentences x systems
    z = np.column_stack([pool_z[s][positions] for s in systems])
    scored = np.isfinite(z).any(axis=1)  # the sentences with a human z: the permutation's units
    x, z = x[scored], z[scored]
    pairs = int(np.isfinite(z).sum())
    if pairs < 3:
        return None

    def tau(order: np.ndarray) -> float:
        taken = z[order]
        keep = np.isfinite(taken)
        return _tau(x[keep], taken[keep])

    found = finite(tau(np.arange(len(z))))
    return SegmentAgreement(segments=pairs, kendall=found,
                            p_value=None if found is None else sentence_permutation_p(tau, len(z), seed))


def targeted_agreement(verdicts: Mapping[str, Sequence[Sequence[str]]], positions: np.ndarray,
                       pool_z: Mapping[str, np.ndarray], seed: int = SEED) -> SegmentAgreement | None:
    """Over the judged instances (``verdicts``: system -> per pool row of ``positions`` the
    instances' verdicts) with a human z: τ-b of verdict with z and its p over sentence orders, and
    correct − wrong in mean z with its cluster-bootstrap interval and p. None when fewer than 3
    judged instances have a human score."""
    systems = list(verdicts)
    z = np.column_stack([pool_z[s][positions] for s in systems])  # sentences x systems
    judged = np.array([(row, column, verdict == CORRECT) for column, s in enumerate(systems)
                       for row, kept in enumerate(verdicts[s]) for verdict in kept if verdict in (CORRECT, WRONG)],
                      dtype=np.intp).reshape(-1, 3)  # sentence, system, correct
    at, by, good_all = judged[:, 0], judged[:, 1], judged[:, 2].astype(bool)
    present = np.isfinite(z[at, by])  # empty intp indices take nothing
    if present.sum() < 3:
        return None
    # the units: sentences with a judged instance that has a human z; their instances without one
    # stay, since a shuffled order may give them a z
    units = np.unique(at[present])
    inside = np.isin(at, units)
    at, by, good_all, z = np.searchsorted(units, at[inside]), by[inside], good_all[inside], z[units]

    def taken(order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values = z[order[at], by]
        keep = np.isfinite(values)
        return values[keep], good_all[keep]

    def tau(order: np.ndarray) -> float:
        values, good = taken(order)
        return _tau(good.astype(np.float64), values)

    observed = np.arange(len(units))
    values, good = taken(observed)
    found = finite(tau(observed))
    diff = float(values[good].mean() - values[~good].mean()) if good.any() and not good.all() else None
    keep = np.isfinite(z[at, by])
    ci_and_p = None if diff is None else cluster_bootstrap(at[keep], z[at, by][keep], good_all[keep], len(units), seed)
    return SegmentAgreement(
        segments=len(values), kendall=found, p_value=None if found is None else sentence_permutation_p(tau, len(units), seed),
        correct=int(good.sum()), wrong=int((~good).sum()), z_correct_minus_wrong=diff,
        ci=None if ci_and_p is None else ci_and_p[0], difference_p_value=None if ci_and_p is None else ci_and_p[1])


@dataclass(frozen=True)
class ConfigTask:
    """One config's pool rows, verdicts (system -> per row; None: not judged) and whether it wants the metrics'."""

    positions: np.ndarray
    verdicts: Mapping[str, Sequence[Sequence[str]]] | None
    metrics: bool = True


def _agreements(task: ConfigTask, scores: Mapping[str, Mapping[str, np.ndarray]], pool_z: Mapping[str, np.ndarray],
                seed: int) -> tuple[dict[str, SegmentAgreement | None] | None, SegmentAgreement | None]:
    per_metric = {name: metric_agreement(per_system, task.positions, pool_z, seed)
                  for name, per_system in scores.items()} if task.metrics else None
    targeted = None if task.verdicts is None else targeted_agreement(task.verdicts, task.positions, pool_z, seed)
    return per_metric, targeted


def config_agreements(tasks: Sequence[ConfigTask], scores: Mapping[str, Mapping[str, np.ndarray]],
                      pool_z: Mapping[str, np.ndarray], seed: int = SEED, jobs: int = 1,
                      ) -> list[tuple[dict[str, SegmentAgreement | None] | None, SegmentAgreement | None]]:
    """Every task's metric agreements (``scores``: metric -> :func:`sentence_scores` per system) and
    targeted agreement, over ``jobs`` worker processes (a config's numbers depend on its seed alone)."""
    return list(imap(partial(_agreements, scores=scores, pool_z=pool_z, seed=seed), tasks, jobs))
