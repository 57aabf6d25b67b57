"""Hostile names in what the saved-run commands write: report.md (``acs evaluate --out``, then ``acs
report`` of a crafted results.json) and ``acs meta-evaluate --markdown`` of that run, rendered by a real
Markdown renderer (markdown-it: CommonMark with raw HTML on, GFM tables, bare addresses made links).
The systems, a plug-in metric's label (the reference of the Δ columns), its signature, the split, the
pair, the folder and the notes and reasons results.json carries hold markup, links, emphasis, code
spans, math and table pipes; rendered, each document has the elements of the same run with plain
names, its only link targets are its own figures, and every name reads as its own text. What ``acs``
prints (evaluate, with and without --out, and meta-evaluate) holds no control character of a name."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import markdown_it
import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.scoring import metrics as registry
from auto_challenge_sets.scoring.metrics.bleu import Bleu

from toy_dataset import HUMAN, SPLIT, make

# a system name cannot hold "=" (--hyp NAME=FILE); the label, signature, split and pair can hold anything
SYSTEMS = ["<script>alert(1)</script>", "<img src onerror>", "[x](javascript:alert(1))", "*e* _u_ `c`",
           "a|b $\\foo$ \u202eevil",
           "https://example.org/x a@b.org www.example.org", "\x1b[2J\x1b]0;title\x07cleared"]
LABEL = "<img src=x onerror=alert(2)>|`l`*"
SIGNATURE = "sig`<script>alert(3)</script>` [y](javascript:alert(4))"
# fields of results.json (a path of keys) rewritten before `acs report`: names, and the notes and reasons
# our own code writes there
CRAFTED = {("split",): "<img src=x onerror=alert(5)>_s_", ("pair",): "<img src=x onerror=alert(6)>-en",
           ("full_corpus_config",): "<b>full</b>", ("notes",): ["<i>note</i> [n](javascript:alert(7))"],
           ("full_test", "correction"): "<u>none</u>", ("full_test", "random_unavailable"): "<s>why</s>",
           ("configs", "de-en.particle.d2", "random_unavailable"): "<q>why</q>",
           ("targeted", "aligner"): "<em>present</em>", ("targeted", "signature"): "`<kbd>sig</kbd>`",
           ("targeted", "alignment_warning"): "<mark>warn</mark>", ("targeted", "judge", "reason"): "<del>r</del>"}
FOLDER = "<svg onload>"  # the run's folder, as meta-evaluate names it
HOSTILE = {"systems": SYSTEMS, "label": LABEL, "signature": SIGNATURE, "crafted": CRAFTED, "folder": FOLDER}
PLAIN = {"systems": [f"sys{k}" for k in range(len(SYSTEMS))], "label": "Labelled", "signature": "sig",
         "crafted": {path: ["note"] if path == ("notes",) else "plain" if path != ("pair",) else "xx-en"
                     for path in CRAFTED}, "folder": "run"}


class _Rendered(HTMLParser):
    """The elements of rendered HTML with their attribute names, the link and image targets, the text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, tuple[str, ...]]] = []
        self.targets: list[str] = []
        self.text = ""
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(name for name, _ in attrs)))
        self.targets += [value or "" for name, value in attrs if name in {"href", "src"}]

    def handle_data(self, data: str) -> None:
        self.text += data


def _render(markdown: str) -> _Rendered:
    """As GitHub renders it: CommonMark with raw HTML on, tables, and links made of bare addresses."""
    renderer = markdown_it.MarkdownIt("commonmark", {"html": True, "linkify": True}).enable(["table", "linkify"])
    return _Rendered(renderer.render(markdown))


def _printed(argv: list[str]) -> str:
    """What the command prints, stdout and stderr."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert main(argv) == 0
    return out.getvalue()


def _run(toy: dict, names: dict, tmp: Path) -> dict[str, str]:
    """One live run with these names (what ``acs evaluate`` prints, with and without --out; the last system
    has no human score), its report rendered again from a crafted results.json; that report.md, the
    folder's files and meta-evaluate's Markdown and text."""
    label, signature = names["label"], names["signature"]
    plugin = type("Labelled", (Bleu,), {"name": "labelled", "label": label, "signature": lambda self, n: signature})
    human = tmp / "human.csv"
    with human.open("w", encoding="utf-8", newline="") as table:
        csv.writer(table).writerows([["SYS", "Z.SCR"], *zip(names["systems"][:-1], [*HUMAN.values(), 0.1])])
    live, folder = tmp / "live", tmp / names["folder"]
    hyps = [f"{name}={path}" for name, path in zip(names["systems"], [*toy["hyps"].values(), *toy["hyps"].values()])]
    evaluate = ["evaluate", "--dataset", str(toy["root"]), "--config", "all", "--split", SPLIT, "--hyp", *hyps,
                "--metrics", "labelled", "--human", str(human), "--n-samples", "5", "--paired-samples", "10",
                "--targeted", "--targeted-aligner", "present", "--jobs", "1", "--quiet"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry._REGISTRY, "labelled", plugin)
        terminal = _printed(evaluate) + _printed([*evaluate, "--out", str(live)])
    results = json.loads((live / "results.json").read_text(encoding="utf-8"))
    for (*parents, key), value in names["crafted"].items():
        node = results
        for parent in parents:
            node = node[parent]
        node[key] = value
    (live / "results.json").write_text(json.dumps(results), encoding="utf-8")
    assert main(["report", str(live), "--out", str(folder), "--quiet"]) == 0
    meta = ["meta-evaluate", str(folder / "results.json"), "--reference", "labelled"]
    markdown = [folder / "report.md", *sorted(folder.glob("tables.*.md"))]  # report.md and the tables it links
    return {"report.md": "\n".join(p.read_text(encoding="utf-8") for p in markdown), "meta": _printed([*meta, "--markdown"]),
            "terminal": terminal + _printed(meta), "files": sorted(p.name for p in folder.iterdir())}


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    toy = make(tmp_path_factory.mktemp("toy"))
    return {kind: _run(toy, names, tmp_path_factory.mktemp(kind)) for kind, names in (("hostile", HOSTILE),
                                                                                        ("plain", PLAIN))}


def _names_text(text: str) -> str:
    """Rendered text without the bidi isolates that wrap a name (name_text.isolate)."""
    return text.replace("\u2068", "").replace("\u2069", "").replace("\u202c", "")


@pytest.mark.parametrize("document", ["report.md", "meta"])
def test_no_name_becomes_an_element_or_a_link(documents: dict[str, dict], document: str) -> None:
    hostile, plain = _render(documents["hostile"][document]), _render(documents["plain"][document])
    assert hostile.elements == plain.elements  # no tag, link, emphasis, code span or table cell of a name's
    assert not re.search(r"(?<!\\)\$", documents["hostile"][document])  # no math either (GitHub renders $…$)
    assert not [attrs for _, attrs in hostile.elements if any(a.startswith("on") for a in attrs)]
    # the only targets are the report's own figures and Markdown files, by file name (the pair names some), never a scheme
    assert len(hostile.targets) == len(plain.targets) == (6 if document == "report.md" else 0)
    if document == "report.md":
        assert sorted(unquote(t) for t in hostile.targets) == [f for f in documents["hostile"]["files"]
                                                               if f.endswith((".svg", ".md"))]
    assert not [target for target in hostile.targets if ":" in target]


def test_every_name_reads_as_its_own_text(documents: dict[str, dict]) -> None:
    report, meta = (_names_text(_render(documents["hostile"][d]).text) for d in ("report.md", "meta"))
    for name in [*SYSTEMS, LABEL, *(v if isinstance(v, str) else v[0] for v in CRAFTED.values())]:  # Cc: U+FFFD
        assert "".join("\ufffd" if unicodedata.category(c) == "Cc" else c for c in name) in report, name
    assert f"{LABEL}[{SIGNATURE}]" in report  # the run's signature, whole
    for name in (LABEL, CRAFTED["split",], CRAFTED["pair",], FOLDER):
        assert name in meta, name


def test_the_terminal_gets_no_control_character_from_a_name(documents: dict[str, dict]) -> None:
    terminal = documents["hostile"]["terminal"]
    assert not [c for c in terminal if unicodedata.category(c) == "Cc" and c != "\n"]
    assert r"\x1b[2J\x1b]0;title\x07cleared" in terminal  # the name, its escapes shown
    for name in (*SYSTEMS[:-1], LABEL, CRAFTED["split",], FOLDER):
        assert name in terminal, name
