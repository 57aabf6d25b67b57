"""Word alignments in the Pharaoh format of fast_align and friends: ``i-j`` links, 0-based
(source token i, target token j), space separated, one line per sentence pair. Indices are
ASCII digits only ('²' or '３' is a malformed link, not a number)."""

from __future__ import annotations

from collections.abc import Sequence

from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.formats.text import MAX_DIGITS, ascii_number

Link = tuple[int, int]


def parse_pharaoh(text: str, *, n_source: int | None = None, n_target: int | None = None,
                  path: str | None = None, line: int | None = None) -> list[Link]:
    """One Pharaoh line (``0-1 2-3``) as sorted unique links, each index checked against the token
    counts given; errors name ``path`` and ``line``. Possible links (``0?1``) are not Pharaoh."""
    links: set[Link] = set()
    for item in text.split():
        left, sep, right = item.partition("-")
        i, j = ascii_number(left), ascii_number(right)
        if not sep or i is None or j is None:
            raise AlignmentError(f"malformed link {item!r} (expected i-j with 0-based integers in ASCII "
                                 f"digits, at most {MAX_DIGITS})", path, line)
        if n_source is not None and i >= n_source:
            raise AlignmentError(f"source index {i} in link {item!r} is out of range: the source has {n_source} "
                                 "tokens", path, line)
        if n_target is not None and j >= n_target:
            raise AlignmentError(f"target index {j} in link {item!r} is out of range: the target has {n_target} "
                                 "tokens", path, line)
        links.add((i, j))
    return sorted(links)


def format_pharaoh(links: Sequence[Link]) -> str:
    return " ".join(f"{i}-{j}" for i, j in sorted(links))
