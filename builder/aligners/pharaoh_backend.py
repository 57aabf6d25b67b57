"""Precomputed links from a Pharaoh file (fast_align, awesome-align, eflomal, simalign, ...).

The file holds ``i-j`` links, 0-based, one line per sentence pair; an empty line is a pair with
no links. Every link is checked against the pair's token counts: an index out of range, or a
malformed link, is an :class:`~auto_challenge_sets.errors.AlignmentError` naming the file and
the 1-based line.

Which line belongs to which pair: by default line k is pair k and the file has exactly one line
per pair. A build that skips the corpus's empty lines passes ``line_numbers`` (the 1-based line
of each pair) and ``total_lines`` (the corpus's line count, which the file must match).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from auto_challenge_sets.builder.aligners import Aligner, Link, Pair, register_aligner
from auto_challenge_sets.corpus import read_lines
from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.reordering import parse_pharaoh


@register_aligner("pharaoh")
class PharaohAligner(Aligner):
    """Reads links instead of computing them."""

    name = "pharaoh"
    cacheable = False  # reading the file again is as cheap as reading the cache

    def __init__(self, path: str | Path, line_numbers: Sequence[int] | None = None,
                 total_lines: int | None = None) -> None:
        self.path = Path(path)
        self.line_numbers = None if line_numbers is None else list(line_numbers)
        self.total_lines = total_lines
        self.check()

    def check(self) -> None:
        if not self.path.is_file():
            raise AlignmentError("no such alignment file", str(self.path))

    def cache_key(self) -> dict[str, Any]:
        stat = self.path.stat()
        return {"backend": "pharaoh", "path": str(self.path.resolve()), "size": stat.st_size,
                "mtime_ns": stat.st_mtime_ns}

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        name = str(self.path)
        lines = read_lines(self.path)
        numbers = self.line_numbers if self.line_numbers is not None else list(range(1, len(pairs) + 1))
        if len(numbers) != len(pairs):
            raise ValueError(f"{len(numbers)} line numbers for {len(pairs)} pairs")
        expected = self.total_lines if self.total_lines is not None else (
            len(pairs) if self.line_numbers is None else None)
        if expected is not None and len(lines) != expected:
            raise AlignmentError(
                f"has {len(lines)} lines but {expected} are expected: an alignment file needs one line "
                "per sentence pair (an empty line for a pair without links)", name)
        out = []
        for number, (source, target) in zip(numbers, pairs):
            if number > len(lines):
                raise AlignmentError(f"has {len(lines)} lines: there is no line {number} for its sentence pair",
                                     name)
            out.append(parse_pharaoh(lines[number - 1], n_source=len(source), n_target=len(target),
                                     path=name, line=number))
        return out
