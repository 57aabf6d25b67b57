"""A user's name (a system, a plug-in metric's label, a split, a signature, a note) as text, one function
per output format, never markup and never reordering the text around it: :func:`terminal_text` (what
``acs`` prints), :func:`markdown_text` and :func:`markdown_code` (report.md, ``--markdown``), and for
the page and its SVG figures the Jinja2 environment's autoescape (``html/environment.py``) with
:func:`isolate`. The page isolates names with ``<bdi>``; an SVG ``<title>`` or a Markdown line has no
such element, so a name there is wrapped in U+2068 FSI … U+2069 PDI (UAX #9), and in Markdown its
punctuation is escaped (no library does either)."""

from __future__ import annotations

import re
import unicodedata

FSI, PDI = "\u2068", "\u2069"
_EMBEDDINGS = {"\u202a", "\u202b", "\u202d", "\u202e"}  # LRE RLE LRO RLO, closed by PDF
_PDF = "\u202c"
_ISOLATES = {"\u2066", "\u2067", FSI}  # LRI RLI FSI, closed by PDI
# the bidirectional classes that can move the text around a name
_REORDERING = {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
# what Markdown (GFM, and math's $) reads in running text, made literal by a backslash, and what GFM's
# autolinks start at ("://", an address's "@", "www."); `|` is left to tables.render_table, which
# escapes it in cells (a second backslash would undo that)
_MARKDOWN_PUNCTUATION = re.compile(r"[\\`*_\[\]$~@]|:(?=//)|(?<=www)\.", re.IGNORECASE)
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _balanced(name: str) -> str:
    """``name`` with each embedding or isolate it opens closed at its end and each unopened closer dropped."""
    kept, open_ = [], []
    for char in name:
        if char in _EMBEDDINGS or char in _ISOLATES:
            open_.append(char)
        elif char == _PDF:
            if not open_ or open_[-1] not in _EMBEDDINGS:
                continue
            open_.pop()
        elif char == PDI:
            if not any(c in _ISOLATES for c in open_):
                continue
            while open_.pop() not in _ISOLATES:  # a PDI also closes the embeddings inside its isolate
                pass
        kept.append(char)
    kept += [PDI if c in _ISOLATES else _PDF for c in reversed(open_)]
    return "".join(kept)


def isolate(name: str) -> str:
    """``name`` as a bidi isolate (FSI … PDI) when it holds a character that can reorder the text around it."""
    if not any(unicodedata.bidirectional(c) in _REORDERING for c in name):
        return name
    return FSI + _balanced(name) + PDI


def markdown_text(name: str) -> str:
    """``name`` as literal Markdown text, isolated: <, > and & as entities, a control character as a
    numeric reference (the name stays on its line and in its table cell)."""
    escaped = _MARKDOWN_PUNCTUATION.sub(lambda m: "\\" + m.group(0), isolate(name))
    return "".join(_ENTITIES.get(c) or (f"&#{ord(c)};" if unicodedata.category(c) == "Cc" else c) for c in escaped)


def terminal_text(name: str) -> str:
    """``name`` as a terminal shows it: a control character as its escape (``\\x1b``, ``\\n``), so that a
    name can neither send the terminal a command nor break the line it is on."""
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" else c for c in name)


def report_name(name: str, markdown: bool) -> str:
    """A name as a line or table cell of Markdown (``markdown``) or of the text a terminal shows."""
    return markdown_text(name) if markdown else terminal_text(name)


def markdown_code(text: str) -> str:
    """``text`` (a path) as one Markdown code span, its fence longer than any run of backticks in it."""
    text = "".join("\ufffd" if unicodedata.category(c) == "Cc" else c for c in text)
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
