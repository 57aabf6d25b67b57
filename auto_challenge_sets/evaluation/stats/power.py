"""The τ that a number of systems needs for p < 0.05, and to survive Benjamini–Hochberg over a
family of m configs (p < 0.05/m alone, p < 0.05·k/m when k = ⌈m/10⌉ pass together), from τ's exact
null distribution (no ties; pooled over runs: the runs' distributions convolved); and the
difference from full-test BLEU's τ (Δτ) a run can detect, and the systems a Δτ of 0.1 needs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA


def pairs(n: int) -> int:
    return n * (n - 1) // 2


def _inversions(n: int) -> np.ndarray:
    """P(a uniformly random order of n items has k inversions), k = 0 … n(n−1)/2. Hand-written:
    scipy gives the exact null only as the p of one τ, and the pooled τ convolves whole distributions."""
    distribution = np.ones(1)
    for j in range(2, n + 1):
        distribution = np.convolve(distribution, np.full(j, 1.0 / j))
    return distribution


def _null(systems: Sequence[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """The exact null of Σ(concordant − discordant) over runs of ``systems`` systems: its values,
    their probabilities, and the pairs in all."""
    total = sum(pairs(n) for n in systems)
    distribution = np.ones(1)
    for n in systems:
        distribution = np.convolve(distribution, _inversions(n))
    return total - 2 * np.arange(len(distribution)), distribution, total


def critical_tau(systems: Sequence[int], alpha: float = ALPHA) -> float | None:
    """The smallest pooled τ whose exact two-sided p is below ``alpha`` with runs of ``systems``
    systems (one run: the τ a single evaluation needs); None when no τ reaches it (3 systems)."""
    statistic, distribution, total = _null(systems)
    for s in range(total % 2, total + 1, 2):  # the attainable values of concordant − discordant
        if distribution[np.abs(statistic) >= s].sum() < alpha:
            return s / total
    return None


@dataclass(frozen=True)
class Power:
    """The τ needed for p < 0.05, and to survive Benjamini–Hochberg over ``family`` configs when the
    config passes alone (``alone``) or with a tenth of the family (``with_tenth``)."""

    systems: tuple[int, ...]
    family: int
    single: float | None
    alone: float | None
    with_tenth: float | None


def power(systems: Sequence[int], family: int) -> Power:
    together = max(1, math.ceil(family / 10))
    return Power(tuple(systems), family, critical_tau(systems, ALPHA),
                 critical_tau(systems, ALPHA / family) if family else None,
                 critical_tau(systems, ALPHA * together / family) if family else None)


def power_note(found: Power) -> str:
    """One sentence for a reader beside τ values."""
    def needs(value: float | None, what: str) -> str:
        return f"no τ is enough {what}" if value is None else f"a τ of {value:.2f} is needed {what}"

    who = (f"{found.systems[0]} systems" if len(found.systems) == 1 else
           f"runs of {' + '.join(map(str, found.systems))} systems ({sum(pairs(n) for n in found.systems)} pairs)")
    text = f"Power: with {who}, {needs(found.single, f'for p < {ALPHA}')}"
    if found.family > 1:
        text += f"; {needs(found.alone, f'to survive Benjamini–Hochberg over {found.family} configs alone')}"
        if found.with_tenth != found.alone:
            text += f" ({found.with_tenth:.2f} when a tenth of them pass together)"
    return text + " (exact null distribution of Kendall's τ, no ties)."


POWER, TARGET_DELTA = 0.8, 0.1  # the power a detectable Δτ is stated at; the Δτ whose cost in systems is stated


@dataclass(frozen=True)
class DeltaPower:
    """The Δτ against the reference a run detects (two-sided, at ALPHA, with POWER), and the systems
    a Δτ of TARGET_DELTA would need."""

    systems: int
    detectable: float
    needed: int

    def note(self) -> str:
        """One sentence beside the Δτ values (their header names the reference)."""
        return (f"Power of Δτ: with {self.systems} systems a Δτ of about {self.detectable:.2f} is detected ({POWER:.0%} "
                f"power, α = {ALPHA}, before correction; from the median width of the Δτ intervals); a Δτ of "
                f"{TARGET_DELTA} would need about {self.needed:,} systems.")


def delta_power(intervals: Sequence[tuple[float, float]], systems: int) -> DeltaPower | None:
    """From the standard error the Δτ's 95% bootstrap intervals imply (their median width / 2·1.96),
    by the normal approximation, the error shrinking as 1/√systems; None without an interval."""
    from scipy.stats import norm

    widths = sorted(high - low for low, high in intervals if high > low)
    if not widths:
        return None
    error = float(np.median(widths)) / (2 * norm.ppf(0.975))
    detectable = float(norm.ppf(1 - ALPHA / 2) + norm.ppf(POWER)) * error
    return DeltaPower(systems, detectable, math.ceil(systems * (detectable / TARGET_DELTA) ** 2))
