"""A user's name as text (evaluation/report/name_text.py): bidi isolates only where a name can reorder the
text around it, with its own directional controls balanced; Markdown that renders back to the very
name (markdown-it, CommonMark with GFM tables) in a line, a table cell and a code span."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from auto_challenge_sets.evaluation.report.name_text import (
    FSI,
    PDI,
    isolate,
    markdown_code,
    markdown_text,
    report_name,
)
from auto_challenge_sets.tables import render_table

RLO, PDF, LRI = "\u202e", "\u202c", "\u2066"
HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>', "$\\foo$",
           "[a](javascript:alert(1))", "![i](x.png)", "`code` and ``two``", "*em* _u_ ~~s~~", "a|b\\|c", "&amp; &lt;",
           "line\nbreak", "\\", RLO + "evil", "<!-- c -->", "<https://example.org>"]


class _Tree(HTMLParser):
    """The tags and the text of a rendered fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: dict[str, str] = {}
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:  # the new lines between blocks are outside every tag
            self.text[self._open[-1]] = self.text.get(self._open[-1], "") + data


def _render(markdown: str) -> _Tree:
    markdown_it = pytest.importorskip("markdown_it")
    tree = _Tree()
    tree.feed(markdown_it.MarkdownIt("commonmark").enable("table").render(markdown))
    return tree


def test_a_plain_or_left_to_right_name_is_left_as_it_is():
    for name in ("ref", "Facebook-AI", "newstest2021.de-en", "a b", "BLEU", "$\\foo$", "12"):
        assert isolate(name) == name


def test_a_name_that_can_reorder_its_neighbours_is_an_isolate_with_its_controls_closed():
    assert isolate("שלום") == FSI + "שלום" + PDI  # strong right-to-left letters
    assert isolate(RLO + "evil") == FSI + RLO + "evil" + PDF + PDI  # the override ends inside
    assert isolate(LRI + "a" + RLO + "b") == FSI + LRI + "a" + RLO + "b" + PDF + PDI + PDI
    # a closer without its opener would end our isolate early: dropped
    assert isolate("a" + PDI + RLO + "b") == FSI + "a" + RLO + "b" + PDF + PDI
    assert isolate("a" + PDF + "b" + "\u05d0") == FSI + "ab\u05d0" + PDI
    # a matched pair is kept as the name has it
    assert isolate(LRI + "x" + PDI + "\u05d0") == FSI + LRI + "x" + PDI + "\u05d0" + PDI


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_in_a_markdown_line_renders_as_its_own_text(name):
    tree = _render(f"system {markdown_text(name)} here")
    assert tree.tags == ["p"], tree.tags
    assert tree.text["p"] == f"system {isolate(name)} here"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_in_a_markdown_table_cell_stays_in_its_cell(name):
    table = render_table(["system", "BLEU"], [[report_name(name, True), "12.30"]], markdown=True)
    tree = _render(table)
    assert tree.tags == ["table", "thead", "tr", "th", "th", "tbody", "tr", "td", "td"], tree.tags
    assert tree.text["td"] == isolate(name) + "12.30"  # the name's cell, then the number's


def test_a_label_in_a_markdown_header_stays_in_its_cell():
    tree = _render(render_table([markdown_text("a|b"), "p"], [["1", "2"]], markdown=True))
    assert tree.tags.count("th") == 2 and tree.text["th"] == "a|bp"


def test_the_terminal_shows_the_name_itself():
    assert report_name("<b>|`x`", markdown=False) == "<b>|`x`"


@pytest.mark.parametrize("path", ["/data/ldd", "/tmp/a`b", "``x", "/tmp/<script>", "/tmp/$x$|y"])
def test_a_path_is_one_code_span(path):
    tree = _render(f"dataset {markdown_code(path)} here")
    assert tree.tags == ["p", "code"], tree.tags
    assert tree.text["code"].strip() == path.strip()
    assert markdown_code("/tmp/a\nb") == "`/tmp/a\ufffdb`"  # a line break would end the list item
