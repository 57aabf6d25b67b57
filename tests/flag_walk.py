"""Walk a report folder's results.json, report.md (and its tables.*.md), index.html and its heat maps' .svg files (and the terminal text, when given)
and check that every place naming a config carries the same marks: ``small``, ``degenerate
baseline``, ``same rows as X`` (issue 34, "Flags everywhere"). The marks expected are derived here
from results.json's own fields (``n`` against ``settings.min_rows``, ``degenerate_baseline``,
``same_rows_as``), not from the code that prints them; and where a degenerate baseline's random band
means nothing, no ▼ and no random number may be shown."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import html5lib

SVG = "{http://www.w3.org/2000/svg}"
_HEADING = re.compile(r"^(\S+) \(n = (\d+)\)(?: \[(.*)\])?$")
_LABEL = re.compile(r"^(\S+)(?: \((.*)\))?$")
_FROM = re.compile(r"\(from (\S+)(?: \((.*)\))?\)$")


def expected_flags(results: dict) -> dict[str, list[str]]:
    """Per config its marks, from results.json's fields: small is fewer than min_rows rows."""
    min_rows = results["settings"]["min_rows"]
    out = {}
    for name, config in results["configs"].items():
        flags = (["small"] if config["n"] < min_rows else []) + (
            ["degenerate baseline"] if config["degenerate_baseline"] else []) + (
            [f"same rows as {config['same_rows_as']}"] if config["same_rows_as"] else [])
        assert config["small"] == (config["n"] < min_rows), name
        out[name] = flags
    return out


def _split(flags: str | None, separator: str = ", ") -> list[str]:
    return [] if not flags else flags.split(separator)


def _check_text(text: str, expected: dict[str, list[str]], markdown: bool) -> Counter:
    """Config headings, table cells that name a config, and the targeted tables' "(from X)"."""
    seen: Counter = Counter()
    for line in text.splitlines():
        heading = _HEADING.match(line.removeprefix("## "))
        if heading and heading.group(1) in expected:
            flags = [f for f in _split(heading.group(3), "; ") if not f.startswith("widened ")]
            assert flags == expected[heading.group(1)], line
            seen[heading.group(1)] += 1
            continue
        found = _FROM.search(line)
        if found and found.group(1) in expected:
            assert _split(found.group(2)) == expected[found.group(1)], line
            seen[found.group(1)] += 1
        cells = line.strip().strip("|").split(" | ") if markdown else re.split(r" {2,}", line.strip())
        for cell in cells:
            label = _LABEL.match(cell.strip())
            if label and label.group(1) in expected:
                assert _split(label.group(2)) == expected[label.group(1)], line
                seen[label.group(1)] += 1
    return seen


def _text(element) -> str:
    return "".join(element.itertext()).strip()


def _spans(element) -> list[str]:
    return [_text(s) for s in element.iter("span") if "config-flag" in s.get("class", "").split()]


def _parse(path: Path):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    return parser.parse(path.read_text(encoding="utf-8"))


def _check_page(path: Path, results: dict, expected: dict[str, list[str]]) -> Counter:
    document = _parse(path)
    seen: Counter = Counter()
    for row in document.iter("tr"):
        cells = [c for c in row if c.tag in ("th", "td")]
        if not cells or not _text(cells[0]):
            continue
        name = _text(cells[0]).split()[0]
        if name in expected:
            assert _spans(row) == expected[name], (name, _text(row))
            seen[name] += 1
    for caption in document.iter("caption"):
        found = re.search(r"\(from (\S+)", _text(caption))
        if found and found.group(1) in expected:
            assert _spans(caption) == expected[found.group(1)], _text(caption)
            seen[found.group(1)] += 1
    for details in document.iter("details"):
        name = details.get("data-config")
        if name in expected:
            assert _spans(details.find("summary")) == expected[name], name
            seen[name] += 1
    _check_degenerate_cells(document, results)
    seen += _check_heatmaps(document, results, expected)
    return seen


def _check_degenerate_cells(document, results: dict) -> None:
    """No random number on a degenerate baseline: the big table's random mean, band, pct and Δ
    random columns and the human tables' random τ pct are dashes there."""
    degenerate = {n for n, c in results["configs"].items() if c["degenerate_baseline"]}
    cells = next(t for t in document.iter("table") if t.get("id") == "cells")
    keys = [th.get("data-key") for th in cells.find("thead").iter("th")]
    for row in cells.find("tbody").findall("tr"):
        if row.get("data-config") in degenerate:
            for key in ("random_mean", "random_p5", "random_p95", "percentile", "delta_random"):
                assert _text(row.findall("td")[keys.index(key)]) == "–", (row.get("data-config"), key)
            assert row.get("data-worse") is None and "▼" not in _text(row)
    human = next((s for s in document.iter("section") if s.get("id") == "human"), None)
    for table in [] if human is None else human.iter("table"):
        header = [_text(th) for th in table.find("thead").iter("th")]
        at = header.index("random τ pct") - 1  # the config is the row's th, the rest tds
        for row in table.find("tbody").findall("tr"):
            name = _text(row.find("th")).split()[0]
            if name in degenerate:
                assert _text(row.findall("td")[at]) == "–", name


def _check_heatmaps(document, results: dict, expected: dict[str, list[str]]) -> Counter:
    """The page's heat maps (:func:`_check_heatmap`)."""
    seen: Counter = Counter()
    for figure in (f for f in document.iter("figure") if (f.get("id") or "").startswith("heatmap-")):
        seen += _check_heatmap(figure.find(f"{SVG}svg"), figure.get("id").removeprefix("heatmap-"), results, expected)
    return seen


def _check_figures(folder: Path, results: dict, expected: dict[str, list[str]]) -> Counter:
    """The heat maps' .svg files that report.md links (:func:`_check_heatmap`)."""
    seen: Counter = Counter()
    for path in sorted(folder.glob(f"{results['pair']}.*.heatmap.svg")):
        metric = path.name.removeprefix(f"{results['pair']}.").removesuffix(".heatmap.svg")
        seen += _check_heatmap(ET.parse(path).getroot(), metric, results, expected)
    return seen


def _check_heatmap(svg, metric: str, results: dict, expected: dict[str, list[str]]) -> Counter:
    """A heat map's column labels carry the marks as signs (° small, = same rows as an earlier
    config, named in the title); no ▼ in a degenerate column, which is hatched."""
    seen: Counter = Counter()
    pair = results["pair"]
    labels = [t for t in svg.iter(f"{SVG}text") if "rotate(-60)" in (t.get("transform") or "")]
    for label in labels:
        short, _, marks = label.text.partition(" ")
        name = f"{pair}.{short}"
        assert marks == "".join(sign for flag, sign in (("small", "°"), ("same rows as ", "="))
                                if any(f.startswith(flag) for f in expected[name])), label.text
        seen[name] += 1
    higher = results["higher_is_better"][metric]
    below = sum(1 for t in svg.iter(f"{SVG}text") if t.get("class") == "below-band")
    starred = sum((s["scores"][metric]["score"] < s["scores"][metric]["random"]["p5"]) if higher
                  else (s["scores"][metric]["score"] > s["scores"][metric]["random"]["p95"])
                  for c in results["configs"].values() if not c["degenerate_baseline"]
                  for s in c["systems"].values())
    assert below == starred, metric
    hatched = [r for r in svg.iter(f"{SVG}rect") if r.get("class") == "cell hatched"]
    degenerate = [n for n, c in results["configs"].items() if c["degenerate_baseline"]]
    assert len(hatched) == len(degenerate) * len(results["systems"]), metric
    return seen


def walk(folder: Path, terminal: str | None = None) -> dict[str, Counter]:
    """Check the folder (and the terminal text); return, per file, how often each config was seen."""
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    expected = expected_flags(results)
    for name, config in results["configs"].items():
        assert config["flags"] == expected[name], name
    markdown = "\n".join(p.read_text(encoding="utf-8") for p in [folder / "report.md", *folder.glob("tables.*.md")])
    seen = {"report.md": _check_text(markdown, expected, markdown=True),  # with the per-metric tables it links
            "index.html": _check_page(folder / "index.html", results, expected),
            "figures": _check_figures(folder, results, expected)}
    # each heat map is a file and the same figure in the page: the same configs, as often
    assert seen["figures"] == _check_heatmaps(_parse(folder / "index.html"), results, expected)
    assert seen["figures"] or not results["metrics"]
    if terminal is not None:
        seen["terminal"] = _check_text(terminal, expected, markdown=False)
    for where in ("report.md", "index.html"):  # every config is named, and its marks checked, in both
        assert set(seen[where]) == set(expected), (where, set(expected) - set(seen[where]))
    assert terminal is None or seen["terminal"], "the terminal names no config"
    return seen
