"""Symmetrization of two directional alignments (Koehn et al. 2003; the Moses/atools heuristics).

Both inputs are links in the same orientation, ``(source index, target index)``: ``forward``
from the source→target model, ``reverse`` from the target→source model. No atools is needed.

``grow-diag-final-and``: start from the intersection; repeatedly, scanning the current points in
(source, target) order, add a neighbouring point (the 8 around it) that is in the union and whose
source or target word is still unaligned, until nothing changes ("grow-diag"); then add the
forward points, then the reverse points, whose source and target words are both unaligned
("final-and"; "final" needs only one of them unaligned).
"""

from __future__ import annotations

from collections.abc import Iterable

from auto_challenge_sets.formats.pharaoh import Link

# Moses' order: the four direct neighbours, then the diagonals
_NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))

SYMMETRIZATIONS = ("grow-diag-final-and", "grow-diag-final", "grow-diag", "intersection", "union")


def symmetrize(forward: Iterable[Link], reverse: Iterable[Link], method: str = "grow-diag-final-and") -> list[Link]:
    """Combine two directional alignments of one sentence pair; returns sorted links."""
    fwd, rev = set(forward), set(reverse)
    if method == "intersection":
        return sorted(fwd & rev)
    if method == "union":
        return sorted(fwd | rev)
    if method not in SYMMETRIZATIONS:
        raise ValueError(f"unknown symmetrization {method!r}; choose one of {', '.join(SYMMETRIZATIONS)}")
    union = fwd | rev
    result = fwd & rev
    rows: dict[int, set[int]] = {}
    source_aligned: set[int] = set()
    target_aligned: set[int] = set()

    def add(i: int, j: int) -> None:
        result.add((i, j))
        rows.setdefault(i, set()).add(j)
        source_aligned.add(i)
        target_aligned.add(j)

    for i, j in sorted(result):
        add(i, j)
    n_source = 1 + max((i for i, _ in union), default=-1)

    added = True
    while added:  # grow-diag
        added = False
        for i in range(n_source):
            j = -1
            while True:
                # the next point of row i after column j, seeing points added during this scan
                later = [c for c in rows.get(i, ()) if c > j]
                if not later:
                    break
                j = min(later)
                for di, dj in _NEIGHBOURS:
                    point = (i + di, j + dj)
                    if point in union and point not in result and (
                            point[0] not in source_aligned or point[1] not in target_aligned):
                        add(*point)
                        added = True
    if method == "grow-diag":
        return sorted(result)

    both = method == "grow-diag-final-and"
    for directional in (fwd, rev):  # final(-and)
        for i, j in sorted(directional):
            if (i, j) in result:
                continue
            free_i, free_j = i not in source_aligned, j not in target_aligned
            if (free_i and free_j) if both else (free_i or free_j):
                add(i, j)
    return sorted(result)
