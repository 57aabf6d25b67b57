"""Human scores of the systems (a CSV or white-space table with a header, WMT's
``ad-sys-scores-*.csv``), and how well a challenge set ranks the systems as humans do: Spearman and
Kendall, a bootstrap interval of τ, and τ among the τ of the config's random corpora. Names match
exactly, then without a trailing ``.N`` (WMT's ``UF.15``), or by ``--human-alias``; unmatched names
are listed, never guessed. The p-values: docs/method.md, "Metrics".
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from auto_challenge_sets.errors import CorpusError, InputError
from auto_challenge_sets.evaluation.results import HumanCorrelation, Method
from auto_challenge_sets.evaluation.stats import SEED, STREAMS
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.text import ascii_float

# 3 systems: every resample with 3 distinct systems is the 3 themselves, so the "interval" is τ, zero wide
MIN_CI_SYSTEMS = 4
BOOTSTRAP = Method.bootstrap
SMALL_N = 10  # up to this many systems, p-values from permutations or the exact distribution
PERMUTATIONS = Method.permutations  # random orders of a permutation test, when n! is more (n > 7)
_RUN_NUMBER = re.compile(r"\.\d+$")


@dataclass
class HumanScores:
    scores: dict[str, float]  # our system name -> human score
    unmatched_table: list[str] = field(default_factory=list)  # table rows naming no given system
    unmatched_systems: list[str] = field(default_factory=list)  # given systems without a human score


def numbered_table_rows(path: str | os.PathLike[str],
                        empty: str = "is empty: a human-score table needs a header and a row per system",
                        error: type[InputError] = CorpusError) -> list[tuple[int, list[str]]]:
    """``(1-based line in the file, cells)`` of the table's non-blank lines, the header first
    (white-space or comma separated, as the header is); ``empty``: the error of a table without
    lines; ``error``: the class of a line that cannot be read."""
    lines = [(number, line) for number, line in enumerate(read_lines(path, error=error), start=1) if line.strip()]
    if not lines:
        raise InputError(empty, path)
    if "," in lines[0][1]:  # one CSV record per line: a record across lines would lose its line number
        return [(number, [cell.strip() for cell in next(csv.reader([line]))]) for number, line in lines]
    return [(number, line.split()) for number, line in lines]


def read_human(path: str | os.PathLike[str], systems: list[str], system_column: str = "SYS",
               score_column: str = "Z.SCR", aliases: dict[str, str] | None = None) -> HumanScores:
    rows = numbered_table_rows(path)
    header_line, header = rows[0]
    for column in (system_column, score_column):
        if column not in header:
            raise InputError(f"has no column {column!r} (columns: {', '.join(header)})", path, header_line)
    name_at, score_at = header.index(system_column), header.index(score_column)
    scores: dict[str, float] = {}
    unmatched: list[str] = []
    name_line: dict[str, int] = {}  # table name -> its row's line
    system_line: dict[str, int] = {}  # system -> the line of the row that scores it
    for number, row in rows[1:]:
        if len(row) <= max(name_at, score_at):
            raise InputError(f"has {len(row)} columns, the header {len(header)}", path, number)
        name = row[name_at]
        score = ascii_float(row[score_at])
        if score is None:
            raise InputError(f"score {row[score_at]!r} is not a number", path, number)
        if not np.isfinite(score):
            raise InputError(f"score {row[score_at]!r} is not a finite number", path, number)
        target = match_system(name, systems, aliases or {})
        if name in name_line:
            raise InputError(f"a second row for {name!r} (the first is on line {name_line[name]}): one row per "
                             "system", path, number)
        if target in system_line:
            raise InputError(f"{name!r} is a second row for system {target!r} (the first is on line "
                             f"{system_line[target]}): one row per system", path, number)
        name_line[name] = number
        if target in systems:
            system_line[target] = number
            scores[target] = score
        else:
            unmatched.append(name)
    return HumanScores(scores, unmatched, [s for s in systems if s not in scores])


def match_system(name: str, systems: list[str] | set[str], aliases: dict[str, str]) -> str:
    """The system a table name stands for: alias, exact name, or the name without ``.N``."""
    return aliases.get(name) or (name if name in systems else _RUN_NUMBER.sub("", name))


def pair_signs(values: np.ndarray) -> np.ndarray:
    """Rows x system pairs (i < j, ``numpy.triu_indices`` order): the sign of value i − value j."""
    values = np.atleast_2d(values)
    i, j = np.triu_indices(values.shape[1], 1)
    return np.sign(values[:, i] - values[:, j]).astype(np.int8)


def tau_b(sx: np.ndarray, sy: np.ndarray) -> np.ndarray:
    """Kendall's τ-b of each row from the two sides' :func:`pair_signs` (NaN where a side is constant),
    ``scipy.stats.kendalltau``'s numbers bit for bit; a side of one row stands for every row of the other."""
    return tau_from_counts((sx * sy).sum(axis=1), (sx == 0).sum(axis=1), (sy == 0).sum(axis=1), sx.shape[1])


def tau_from_counts(con_minus_dis: np.ndarray, x_ties: np.ndarray, y_ties: np.ndarray | int, total: int) -> np.ndarray:
    """:func:`tau_b` from each row's integer counts over ``total`` pairs: concordant − discordant
    pairs and the pairs each side ties (a count of one row stands for every row)."""
    con_minus_dis, x_ties, y_ties = np.broadcast_arrays(*(np.atleast_1d(v) for v in (con_minus_dis, x_ties, y_ties)))
    defined = (x_ties < total) & (y_ties < total)
    taus = np.full(len(defined), np.nan)
    taus[defined] = (con_minus_dis[defined] / np.sqrt(total - x_ties[defined])) / np.sqrt(total - y_ties[defined])
    return np.clip(taus, -1.0, 1.0)  # scipy limits τ to [-1, 1] too (rounding can pass 1)


def correlation(auto: dict[str, float], human: HumanScores, random_auto: dict[str, np.ndarray] | None = None,
                seed: int = SEED) -> HumanCorrelation | None:
    """Spearman and Kendall of ``auto`` with the human scores over the systems both have; None when
    fewer than 3 systems have both. ``random_auto``: each system's scores on the random corpora."""
    from scipy.stats import kendalltau, spearmanr

    names = [name for name in auto if name in human.scores]
    if len(names) < 3:
        return None
    xs = np.asarray([auto[n] for n in names], dtype=np.float64)
    ys = np.asarray([human.scores[n] for n in names], dtype=np.float64)
    rho, tau = spearmanr(xs, ys), kendalltau(xs, ys)
    rho_p, tau_p = small_sample_p_values(xs, ys, seed) if len(names) <= SMALL_N else (rho.pvalue, tau.pvalue)
    picks = bootstrap_picks(len(names), seed)
    ci = interval(tau_b(pair_signs(xs[picks]), pair_signs(ys[picks]))) if len(names) >= MIN_CI_SYSTEMS else None
    kendall, percentile, mean = finite(tau.statistic), None, None
    if random_auto is not None and kendall is not None:
        samples = np.stack([random_auto[n] for n in names])  # systems x random corpora
        taus = tau_b(pair_signs(samples.T), pair_signs(ys))  # the human side's one row stands for every row
        taus = taus[np.isfinite(taus)]
        if len(taus):
            percentile, mean = 100.0 * float(np.count_nonzero(taus <= kendall)) / len(taus), float(taus.mean())
    return HumanCorrelation(systems=len(names), spearman=finite(rho.statistic), spearman_p=finite(rho_p),
                            kendall=kendall, p_value=finite(tau_p), ci=ci, random_kendall_percentile=percentile,
                            random_kendall_mean=mean)


@cache
def bootstrap_picks(systems: int, seed: int = SEED) -> np.ndarray:
    """The bootstrap resamples of :func:`correlation`: rows of system indices, those with at least 3
    distinct systems (drawn once per number of systems and seed)."""
    rng = np.random.default_rng([seed, STREAMS["human_bootstrap"]])
    # one call per resample: numpy's bounded integers buffer within a call, so one call draws other numbers
    picks = np.stack([rng.integers(0, systems, systems) for _ in range(BOOTSTRAP)])
    return picks[three_distinct(picks)]


def three_distinct(picks: np.ndarray) -> np.ndarray:
    """Per resample (a row of system indices), whether it holds at least 3 distinct systems."""
    ordered = np.sort(picks, axis=1)
    return (ordered[:, 1:] != ordered[:, :-1]).sum(axis=1) + 1 >= 3


def interval(samples: np.ndarray) -> tuple[float, float] | None:
    """The 95% percentile interval of the finite ``samples``; None without one."""
    samples = samples[np.isfinite(samples)]
    return (float(np.percentile(samples, 2.5)), float(np.percentile(samples, 97.5))) if len(samples) else None


def _pearson(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    x = x - x.mean(axis=axis, keepdims=True)
    y = y - y.mean(axis=axis, keepdims=True)
    return (x * y).sum(axis=axis) / np.sqrt((x * x).sum(axis=axis) * (y * y).sum(axis=axis))


def _kendall(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return tau_b(pair_signs(x), pair_signs(y)).reshape(np.shape(x)[:-1])


def small_sample_p_values(xs: np.ndarray, ys: np.ndarray, seed: int = SEED) -> tuple[float, float]:
    """Spearman's and Kendall's two-sided p-values for few systems (the module's rule; NaN where a
    side is constant)."""
    from scipy.stats import kendalltau, permutation_test, rankdata

    def permutation_p(x: np.ndarray, y: np.ndarray, statistic) -> float:
        if len(set(x)) < 2 or len(set(y)) < 2:
            return float("nan")
        # one sample: its n! orders against y held fixed (both samples would be (n!)^2, all random)
        return float(permutation_test((x,), lambda a, axis: statistic(a, np.broadcast_to(y, a.shape)),
                                      permutation_type="pairings", vectorized=True, n_resamples=PERMUTATIONS,
                                      rng=np.random.default_rng([seed, STREAMS["human_permutations"]])).pvalue)

    rho_p = permutation_p(rankdata(xs), rankdata(ys), _pearson)
    if len(set(xs)) == len(xs) and len(set(ys)) == len(ys):
        tau_p = float(kendalltau(xs, ys, method="exact").pvalue)
    else:
        tau_p = permutation_p(xs, ys, _kendall)
    return rho_p, tau_p


def finite(value: Any) -> float | None:
    value = float(value)
    return value if np.isfinite(value) else None
