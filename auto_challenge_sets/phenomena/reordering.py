"""Reordering long-distance dependencies from a word alignment: three measures, each a registered
alignment phenomenon with its own distance scale (docs/method.md, "Reordering measures").

- ``reorder`` (the paper's, for replication): some aligned pair (i, j) has ``|i - j| >= D`` on
  token indices; the row's distance is the largest ``|i - j|``.
- ``reorder_norm``: the same on links between word tokens only (a letter or digit in both), with
  the target position scaled to the source's length: ``floor(|i - j·n/m|)`` for n source and m
  target tokens, so a longer translation moves no word by itself.
- ``crossing``: Kendall-style (Birch 2011): of all pairs of word links, the share that cross
  (``(i₁ - i₂)(j₁ - j₂) < 0``), in whole percent; an instance is a link that crosses others, its
  distance the number it crosses.

A measure is ``(links, source_tokens, target_tokens, min_distance) -> (score, instances)``: the
pair is selected at D when its score is at least D. Alignments come as Pharaoh links
(:mod:`auto_challenge_sets.formats.pharaoh`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from auto_challenge_sets.formats.pharaoh import Link


class ReorderInstance(NamedTuple):
    """An aligned source/target word pair, 1-based indices, ``distance = |i - j|`` (a named tuple,
    as :class:`~auto_challenge_sets.phenomena.registry.Instance`)."""

    source_index: int
    target_index: int
    source_form: str
    target_form: str
    distance: int

    def to_dict(self) -> dict[str, int | str]:
        return self._asdict()


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


Measured = tuple[int | None, list[ReorderInstance]]


def raw_measure(links: Sequence[Link], source_tokens: Sequence[str], target_tokens: Sequence[str],
                min_distance: int = 0) -> Measured:
    """``reorder``: the largest ``|i - j|``, and the links at least ``min_distance`` apart."""
    return max_reorder_distance(links), reorder_instances(links, source_tokens, target_tokens, min_distance)


def is_word(token: str) -> bool:
    """A token with a letter or digit: punctuation links do not count as reordering."""
    return any(character.isalnum() for character in token)


def _word_links(links: Sequence[Link], source_tokens: Sequence[str], target_tokens: Sequence[str]) -> list[Link]:
    return [(i, j) for i, j in sorted(set(links)) if is_word(source_tokens[i]) and is_word(target_tokens[j])]


def normalised_measure(links: Sequence[Link], source_tokens: Sequence[str], target_tokens: Sequence[str],
                       min_distance: int = 0) -> Measured:
    """``reorder_norm``: ``floor(|i - j·n/m|)`` over word links, computed exactly as ``|i·m - j·n| // m``."""
    n, m = len(source_tokens), len(target_tokens)
    found = []
    for i, j in _word_links(links, source_tokens, target_tokens):
        distance = abs(i * m - j * n) // m
        found.append(ReorderInstance(i + 1, j + 1, source_tokens[i], target_tokens[j], distance))
    score = max((instance.distance for instance in found), default=None)
    return score, [instance for instance in found if instance.distance >= min_distance]


def crossing_measure(links: Sequence[Link], source_tokens: Sequence[str], target_tokens: Sequence[str],
                     min_distance: int = 0) -> Measured:
    """``crossing``: the percentage (rounded down) of word-link pairs that cross, and each crossing
    link with the number of links it crosses. ``min_distance`` selects on the score, not on links."""
    word_links = _word_links(links, source_tokens, target_tokens)
    if len(word_links) < 2:
        return (None if not word_links else 0), []
    crosses = [0] * len(word_links)
    total = 0
    for a, (i1, j1) in enumerate(word_links):
        for b in range(a + 1, len(word_links)):
            i2, j2 = word_links[b]
            if (i1 - i2) * (j1 - j2) < 0:
                crosses[a] += 1
                crosses[b] += 1
                total += 1
    pairs = len(word_links) * (len(word_links) - 1) // 2
    found = [ReorderInstance(i + 1, j + 1, source_tokens[i], target_tokens[j], count)
             for (i, j), count in zip(word_links, crosses) if count]
    return 100 * total // pairs, found
