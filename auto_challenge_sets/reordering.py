"""Reordering long-distance dependencies from a word alignment.

A sentence pair is selected at distance D when some aligned pair (i, j) has ``|i - j| >= D``,
on token indices. Alignments come as Pharaoh links (:mod:`auto_challenge_sets.pharaoh`); see
docs/method.md for what the authors' script measured.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from auto_challenge_sets.pharaoh import Link


@dataclass(frozen=True, slots=True)
class ReorderInstance:
    """An aligned source/target word pair, 1-based indices, ``distance = |i - j|``."""

    source_index: int
    target_index: int
    source_form: str
    target_form: str
    distance: int

    def to_dict(self) -> dict[str, int | str]:
        return asdict(self)


def reorder_instances(
    links: Sequence[Link], source_tokens: Sequence[str], target_tokens: Sequence[str], min_distance: int = 0
) -> list[ReorderInstance]:
    """The links with ``|i - j| >= min_distance``, as 1-based instances in link order."""
    found = []
    for i, j in sorted(links):
        distance = abs(i - j)
        if distance >= min_distance:
            found.append(ReorderInstance(i + 1, j + 1, source_tokens[i], target_tokens[j], distance))
    return found


def max_reorder_distance(links: Sequence[Link]) -> int | None:
    return max((abs(i - j) for i, j in links), default=None)
