"""A user's name (a system, a plug-in metric's label, a row of a human table) as text of the page's
SVG plots or of report.md: never markup, and never reordering the text around it.

The HTML page isolates names with ``<bdi>`` (``html/environment.py``) and Jinja escapes them; an SVG
``<title>`` tooltip or a Markdown line has no element to do that, so a name there is wrapped in the
Unicode isolates U+2068 FSI … U+2069 PDI (UAX #9), and in Markdown its punctuation is escaped.
Hand-written because neither markupsafe nor the ``markdown`` packages escape text *for* Markdown,
and no library balances a string's own directional controls.
"""

from __future__ import annotations

import re
import unicodedata

FSI, PDI = "\u2068", "\u2069"
_EMBEDDINGS = {"\u202a", "\u202b", "\u202d", "\u202e"}  # LRE RLE LRO RLO, closed by PDF
_PDF = "\u202c"
_ISOLATES = {"\u2066", "\u2067", FSI}  # LRI RLI FSI, closed by PDI
# bidirectional classes that can move the text around a name (strong right-to-left letters, Arabic
# digits, and the explicit controls); a name of other characters cannot, and stays as it is
_REORDERING = {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
# what Markdown (CommonMark/GFM, with its math extension's $) reads in running text: a backslash
# makes each literal; <, > and & become entities so that no tag or entity can open. `|` is left to
# tables.render_table, which escapes it in cells (a second backslash would undo that)
_MARKDOWN_PUNCTUATION = re.compile(r"[\\`*_\[\]$~]")
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def _balanced(name: str) -> str:
    """``name`` with each directional embedding or isolate it opens closed at its end, and each
    closer it has no opener for dropped: inside FSI … PDI nothing of it can reach past the PDI."""
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
    """``name`` as a bidi isolate in running text (FSI … PDI) when it holds a character that can
    reorder the text around it; otherwise unchanged (an isolate would change nothing)."""
    if not any(unicodedata.bidirectional(c) in _REORDERING for c in name):
        return name
    return FSI + _balanced(name) + PDI


def markdown_text(name: str) -> str:
    """``name`` as literal Markdown text (isolated as :func:`isolate` does): no tag, entity, link,
    emphasis, code span or math can open from it, and a control character (a line break) is a
    numeric character reference, so the name stays on its line and in its table cell."""
    escaped = _MARKDOWN_PUNCTUATION.sub(lambda m: "\\" + m.group(0), isolate(name))
    escaped = "".join(_ENTITIES.get(c) or (f"&#{ord(c)};" if unicodedata.category(c) == "Cc" else c)
                      for c in escaped)
    return escaped


def report_name(name: str, markdown: bool) -> str:
    """A name as a report's line or table cell shows it: literal Markdown text in report.md, the
    name itself in the terminal's plain text."""
    return markdown_text(name) if markdown else name


def markdown_code(text: str) -> str:
    """``text`` (a path) as one Markdown code span: its fence longer than any run of backticks in
    it (backslashes do not escape inside a code span), a control character shown as U+FFFD."""
    text = "".join("\ufffd" if unicodedata.category(c) == "Cc" else c for c in text)
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
