"""The generated blocks of the dataset card, and the user's text around them.

``dataset_card.md`` wraps each generated section in a pair of marker lines::

    <!-- acs:begin configs -->
    ...
    <!-- acs:end configs -->

A rebuild puts each block of the new card in place of the block of the same name in the card it
finds; every line outside the markers is the user's and is kept where it is. A card without any
marker is generated whole. A new block the old card lacks goes after the block it follows in the
template; a block the template no longer has goes. Markers are whole lines, so generated text
never reads as one. The YAML header above the body is generated whole (``card.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from auto_challenge_sets.errors import InputError

_MARKER = re.compile(r"<!-- acs:(?P<end>begin|end) (?P<name>[a-z][a-z0-9_-]*) -->")
FRONT_MATTER = "---\n"


@dataclass(frozen=True)
class Segment:
    """A block (``name``: its name; ``text``: its lines, the markers included) or the user's text
    between blocks (``name`` None)."""

    name: str | None
    text: str


def read_segments(body: str, path: str | Path | None = None, first_line: int = 1) -> list[Segment]:
    """The body's blocks and the text between them, in order; a marker out of place is an
    InputError naming the line (``first_line``: the body's first line in the file)."""
    segments: list[Segment] = []
    seen: set[str] = set()
    text: list[str] = []
    open_name, open_line = None, 0
    for number, line in enumerate(body.splitlines(keepends=True), first_line):
        marker = _MARKER.fullmatch(line.rstrip("\r\n"))
        if marker is None:
            text.append(line)
            continue
        name, begins = marker["name"], marker["end"] == "begin"
        if begins and open_name is not None:
            raise InputError(f"'{line.strip()}' inside block {open_name!r}, which has no end marker "
                             f"(<!-- acs:end {open_name} -->) before it", path, number)
        if not begins and name != open_name:
            raise InputError(f"'{line.strip()}' ends no block"
                             + (f" (the open one is {open_name!r})" if open_name else
                                f": no <!-- acs:begin {name} --> before it"), path, number)
        if begins:
            if name in seen:
                raise InputError(f"block {name!r} begins a second time: keep one of them", path, number)
            seen.add(name)
            if text:
                segments.append(Segment(None, "".join(text)))
            text, open_name, open_line = [line], name, number
        else:
            segments.append(Segment(name, "".join(text) + line))
            text, open_name = [], None
    if open_name is not None:
        raise InputError(f"block {open_name!r} has no end marker (<!-- acs:end {open_name} -->)", path, open_line)
    if text:
        segments.append(Segment(None, "".join(text)))
    return segments


def split_front_matter(card: str) -> tuple[str, str, int]:
    """``(YAML header with its --- lines, body, the body's first line number)``; no header: ``("", card, 1)``."""
    if card.startswith(FRONT_MATTER):
        end = card.find(f"\n{FRONT_MATTER}", len(FRONT_MATTER) - 1)
        if end != -1:
            cut = end + 1 + len(FRONT_MATTER)
            return card[:cut], card[cut:], card.count("\n", 0, cut) + 1
    return "", card, 1


def read_card_segments(path: Path) -> list[Segment] | None:
    """The segments of an existing card's body (None when there is no card)."""
    if not path.is_file():
        return None
    try:
        card = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the dataset card: {error}", path) from None
    _, body, first = split_front_matter(card)
    return read_segments(body, path, first)


def merge_body(old: list[Segment] | None, new: list[Segment]) -> str:
    """The new body's blocks in the old body's places, the old body's own text kept (see the module)."""
    if not old or all(segment.name is None for segment in old):
        return "".join(segment.text for segment in new)
    fresh = {segment.name: segment for segment in new if segment.name is not None}
    merged = [fresh[segment.name] if segment.name is not None else segment
              for segment in old if segment.name is None or segment.name in fresh]
    placed = {segment.name for segment in merged}
    previous: str | None = None
    for index, segment in enumerate(new):
        if segment.name is None:
            continue
        if segment.name not in placed:
            after = [k for k, s in enumerate(merged) if s.name == previous] if previous else []
            at = after[0] + 1 if after else next((k for k, s in enumerate(merged) if s.name is not None), len(merged))
            # the template's own separator after it, so that the next section still starts a line apart
            follows = new[index + 1] if index + 1 < len(new) and new[index + 1].name is None else None
            merged[at:at] = [segment] + ([follows] if follows else [])
        previous = segment.name
    return "".join(segment.text for segment in merged)
