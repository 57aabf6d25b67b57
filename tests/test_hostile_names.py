"""Names a build must refuse before any work: a --rule or --phenomena name that is another config
family's or is given twice, a rule that would give one config name two meanings in a folder, a
card whose markers are broken. Each is exit 2 with one line naming the argument (or file:line),
and leaves no file behind and the previous folder as it was. Then what --replace-rule does.

Then the names of an evaluation (systems, a plug-in metric's label): hostile ones leave the page
and its SVGs the same tree as plain ones (report.md: test_hostile_markdown.py), run no script in
headless Chromium (marker ``browser``), are bidi isolates, and select their own rows; names that
differ only in white space are refused before any work."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import demo_file
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.evaluation.report.name_text import isolate
from auto_challenge_sets.phenomena.registry import PHENOMENA, register_phenomenon
from auto_challenge_sets.pipeline.run_build import BuildSpec

NSUBJ = "name=lv deprel=nsubj"
OBJ = "name=lv deprel=obj"


def _build(out: Path, corpus: str = "first", *extra: str) -> list[str]:
    return ["build", "--pair", "de-en", "--corpus", corpus, "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--aligner", "none", "--out", str(out), "--quiet", *extra]


@pytest.fixture(autouse=True)
def registry() -> Iterator[None]:
    """Rules a command registered in this process go again, so that each case starts alike."""
    before = set(PHENOMENA)
    yield
    for name in set(PHENOMENA) - before:
        PHENOMENA.pop(name, None)


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with split 'first' built with rule lv = nsubj."""
    out = tmp_path_factory.mktemp("previous") / "sets"
    try:
        assert main(_build(out, "first", "--rule", NSUBJ)) == 0
    finally:
        PHENOMENA.pop("lv", None)
    return out


def _files(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def _break_an_end_marker(out: Path) -> None:
    card = out / "README.md"
    card.write_text(card.read_text(encoding="utf-8").replace("<!-- acs:end fields -->\n", ""), encoding="utf-8")


# (id, extra arguments, whether a previous folder is there (the build is then of split 'second'), what the
# one line says)
CASES = [
    ("baseline", ["--rule", "name=baseline deprel=det"], False,
     r"--rule 'name=baseline deprel=det': 'baseline' is the full corpus's config; choose another name"),
    ("built-in lexical", ["--rule", "name=particle deprel=det"], False,
     r"--rule 'name=particle deprel=det': 'particle' is a built-in phenomenon; choose another name"),
    ("built-in on the tree, by head", ["--rule", "name=verb_final upos=SCONJ"], False,
     r"--rule 'name=verb_final upos=SCONJ': 'verb_final' is a built-in phenomenon"),
    ("alignment measure", ["--rule", "name=reorder deprel=det"], False,
     r"--rule 'name=reorder deprel=det': 'reorder' is a built-in alignment measure"),
    ("another alignment measure", ["--rule", "name=crossing deprel=det"], False,
     r"--rule 'name=crossing deprel=det': 'crossing' is a built-in alignment measure"),
    ("phenomenon twice", ["--phenomena", "particle", "particle"], False,
     r"--phenomena names 'particle' twice"),
    ("the same rule twice", ["--rule", OBJ, "--rule", OBJ], False,
     r"--rule 'name=lv deprel=obj': the name 'lv' is given twice \(also by --rule 'name=lv deprel=obj'\)"),
    ("one name, two rules", ["--rule", NSUBJ, "--rule", OBJ], False,
     r"--rule 'name=lv deprel=obj': the name 'lv' is given twice \(also by --rule 'name=lv deprel=nsubj'\)"),
    ("replace what no rule names", ["--rule", OBJ, "--replace-rule", "lx"], False,
     r"--replace-rule 'lx': no --rule of this build nor installed rule is named so"),
    ("replace without a rule", ["--replace-rule", "lv"], False,
     r"--replace-rule 'lv': no --rule of this build nor installed rule is named so"),
    ("a name that is no identifier", ["--rule", "name=Baseline deprel=det"], False,
     r"rule 'name=Baseline deprel=det': the name 'Baseline' must be a lower-case identifier"),
    ("another split has another rule of the name", ["--rule", OBJ], True,
     r"rule 'lv' means 'user rule: deprel=obj' in this build but 'user rule: deprel=nsubj' in split 'first' "
     r"of the folder \(acs_build.json\): config de-en.lv would mean both; .*--replace-rule lv$"),
    ("a card with an end marker gone", [], True,
     r"README.md:\d+: '<!-- acs:begin provenance -->' inside block 'fields', which has no end marker"),
]


@pytest.mark.parametrize(("extra", "existing", "message"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_refused_before_any_work_in_one_line(extra: list[str], existing: bool, message: str, previous: Path,
                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sets"
    if existing:
        shutil.copytree(previous, out)
        (tmp_path / ".sets.lock").touch()  # left by the previous build, as a build leaves it
        if not extra:
            _break_an_end_marker(out)
    args = _build(out, "second" if existing else "first", *extra)
    before, registered = _files(tmp_path), set(PHENOMENA)
    capsys.readouterr()
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert re.fullmatch(r"acs build: error: .*", lines[0]) and re.search(message, lines[0]), lines[0]
    assert _files(tmp_path) == before  # nothing new beside or in the folder, the previous one as it was
    if not existing:
        assert set(PHENOMENA) == registered  # refused before registering any rule


def test_replace_rule_drops_the_other_splits_of_that_config(previous: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sets"
    shutil.copytree(previous, out)
    assert main(_build(out, "third", "--phenomena", "particle")) == 0  # a split without the rule keeps it
    assert set(folder_sizes(out)["de-en.lv.d0"]) == {"first"}
    assert main(_build(out, "second", "--rule", OBJ, "--replace-rule", "lv")) == 0
    sizes = folder_sizes(out)
    assert all(set(sizes[f"de-en.lv.d{d}"]) == {"second"} for d in range(6) if f"de-en.lv.d{d}" in sizes)
    assert sizes["de-en.particle.d0"].keys() == {"first", "second", "third"}  # the other configs keep them
    record = {b["corpus"]: b for b in json.loads((out / "acs_build.json").read_text(encoding="utf-8"))["builds"]}
    assert "user_rules" not in record["first"] and record["second"]["user_rules"] == {"lv": "user rule: deprel=obj"}
    assert not [path for path in record["first"].get("files", {}) if "/de-en.lv." in path]
    assert not [name for name in record["first"]["empty_configs"] if ".lv." in name]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.count("added by the user") == 1 and "`lv`, added by the user: user rule: deprel=obj" in card
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0  # the record and the files agree (integrity checks)


def test_a_rule_may_change_in_a_rebuild_of_its_own_split_and_repeat_in_another(previous: Path,
                                                                               tmp_path: Path) -> None:
    out = tmp_path / "sets"
    shutil.copytree(previous, out)
    assert main(_build(out, "first", "--rule", OBJ)) == 0  # the same split: its record is replaced
    PHENOMENA.pop("lv", None)
    assert main(_build(out, "second", "--rule", OBJ)) == 0  # the same definition: one meaning
    assert set(folder_sizes(out)["de-en.lv.d0"]) == {"first", "second"}
    record = {b["corpus"]: b for b in json.loads((out / "acs_build.json").read_text(encoding="utf-8"))["builds"]}
    assert [record[split]["user_rules"] for split in ("first", "second")] == [{"lv": "user rule: deprel=obj"}] * 2


def test_the_python_api_refuses_the_same_names() -> None:
    common = {"pair": "de-en", "corpus": "c", "source": demo_file("sample.de"), "target": demo_file("sample.en"),
              "source_conllu": demo_file("sample.de.conllu")}
    with pytest.raises(AcsError, match="phenomena names 'particle' twice"):
        BuildSpec(**common, phenomena=("particle", "particle"))
    for name in ("reorder", "baseline", "nothing"):
        with pytest.raises(AcsError, match=f"phenomena: '{name}' is not a phenomenon found on the source tree"):
            BuildSpec(**common, phenomena=(name,))
    with pytest.raises(AcsError, match="lexical_distances gives a distance twice: 1, 2, 1"):
        BuildSpec(**common, lexical_distances=(1, 2, 1))
    with pytest.raises(ValueError, match="'baseline' is the full corpus's config"):
        register_phenomenon("baseline", "every word")(lambda word: True)
    assert "baseline" not in PHENOMENA


# ---- names of an evaluation: never markup, never reordering the page ----------------------------

RLO = "\u202e"
# every hostile system name of the page at once (and one spaced so that only an exact <option>
# value selects it); the 300-character one also tries a link, a table cell, a code span and emphasis
PAGE_NAMES = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>',
              f" {RLO}evil ", "$\\foo$",
              ("[x](javascript:alert(3)) | `c` *e* _u_ <b>" + "w" * 300)[:300]]
LABEL = "<img src=x onerror=alert(2)>|`l`"  # a plug-in metric's label


def _labelled_metric() -> type:
    from auto_challenge_sets.scoring.metrics.bleu import Bleu

    return type("Labelled", (Bleu,), {"name": "labelled", "label": LABEL})


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The toy run twice, its systems named hostile and plain (the same outputs in the same order):
    each report's index.html and the page's SVGs. With a plug-in metric's label too."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.report.html.html_report import write_html
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.sentences import collect
    from auto_challenge_sets.evaluation.stats.human import HumanScores
    from auto_challenge_sets.scoring import metrics as registry

    from toy_dataset import HUMAN, make

    toy = make(tmp_path_factory.mktemp("names"))
    files = [*toy["hyps"].values(), toy["hyps"]["good"]]
    scores = [*HUMAN.values(), 0.1]
    out = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry._REGISTRY, "labelled", _labelled_metric())
        # plain names as wide as the hostile ones (a format character has no width): the figures place
        # their labels by width, so both runs lay their labels out alike
        plain = [(f"sys{k}" + "x" * 300)[:sum(unicodedata.category(c) != "Cf" for c in name)]
                 for k, name in enumerate(PAGE_NAMES)]
        for kind, names in (("hostile", PAGE_NAMES), ("plain", plain)):
            request = EvaluationRequest(toy["root"], dict(zip(names, files)), metrics=("bleu", "labelled"),
                                        n_samples=5, paired_samples=10, targeted=TargetedRequest("present"))
            human = HumanScores(dict(zip(names, scores)))
            evaluation = evaluate(request, human)
            folder = toy["tmp"] / kind
            write_html(folder, evaluation, collect(request, evaluation))
            page = (folder / "index.html").read_text(encoding="utf-8")
            out[kind] = {"folder": folder, "page": page, "names": names, "evaluation": evaluation,
                         "svgs": re.findall(r"<svg\b.*?</svg>", page, re.S)}
    return out


class _Structure(HTMLParser):
    """The elements and attribute names of a document, in order; the text of each element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, tuple[str, ...]]] = []
        self.attributes: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[tuple[tuple[str, ...], str]] = []  # (open elements, text)
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(name for name, _ in attrs)))
        self.attributes.append((tag, dict(attrs)))
        if tag not in {"meta", "link", "input", "br", "img", "hr", "col", "wbr", "area", "source"}:
            self._open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(name for name, _ in attrs)))
        self.attributes.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.texts.append((tuple(self._open), data))


def _structure(html: str) -> _Structure:
    parsed = _Structure()
    parsed.feed(html)
    parsed.close()
    return parsed


def test_no_name_becomes_an_element_or_attribute_of_the_page(pages: dict[str, dict]) -> None:
    hostile, plain = _structure(pages["hostile"]["page"]), _structure(pages["plain"]["page"])
    assert hostile.elements == plain.elements  # the same tree, whatever the names
    assert not [tag for tag, _ in hostile.elements if tag in {"img", "iframe", "object", "embed"}]
    texts = "".join(text for _, text in hostile.texts)
    for name in PAGE_NAMES:
        assert name.strip() in texts  # each name is on the page, as text


def test_every_svg_is_well_formed_and_no_name_adds_to_it(pages: dict[str, dict]) -> None:
    hostile, plain = pages["hostile"]["svgs"], pages["plain"]["svgs"]
    assert len(hostile) == len(plain) >= 4  # heat maps, the trend, human scatters, targeted accuracy
    for ours, theirs in zip(hostile, plain):
        tree, other = ET.fromstring(ours), ET.fromstring(theirs)
        assert [(e.tag, sorted(e.attrib)) for e in tree.iter()] == [(e.tag, sorted(e.attrib)) for e in other.iter()]
        assert not [e for e in tree.iter() if any(a.startswith("on") for a in e.attrib)]
        # a name that can reorder the text is an isolate wherever it is, in a label or a tooltip
        for element in tree.iter():
            text = element.text or ""
            if RLO in text:
                assert isolate(PAGE_NAMES[3]) == f"\u2068 {RLO}evil \u202c\u2069"  # by hand: closed, then isolated
                assert isolate(PAGE_NAMES[3]) in text and text.count(RLO) == 1, text


def test_every_name_of_the_page_is_a_bdi_or_an_option(pages: dict[str, dict]) -> None:
    parsed = _structure(pages["hostile"]["page"])
    placed = [open_ for open_, text in parsed.texts if RLO in text]
    assert len(placed) > 10
    for open_ in placed:
        assert open_[-1] in {"bdi", "option", "title", "text", "figcaption"} or "script" in open_, open_
        if open_[-1] in {"title", "text", "figcaption"}:
            assert "svg" in open_ or open_[-1] == "figcaption"


def test_every_option_has_the_exact_value_it_selects(pages: dict[str, dict]) -> None:
    parsed = _structure(pages["hostile"]["page"])
    options = [attrs for tag, attrs in parsed.attributes if tag == "option"]
    assert options and all("value" in attrs for attrs in options)
    values = [attrs["value"] for attrs in options]
    for name in PAGE_NAMES:
        assert values.count(name) == 2  # the big table's system filter and the sentences'
    rows = [attrs for tag, attrs in parsed.attributes if tag == "tr" and "data-metric" in attrs]
    assert {attrs["data-system"] for attrs in rows} == set(PAGE_NAMES)


def _chromium_dom(page: Path, fragment: str = "", before: str = "", after: str = "") -> str:
    """The page's DOM after headless Chromium ran it (its scripts, its handlers, an image's error),
    with a script ``before`` the page's own and one ``after`` them."""
    chromium = shutil.which(os.environ.get("ACS_CHROMIUM") or "chromium")
    if not chromium:
        pytest.skip("needs chromium (Debian's chromium package: apt-get install -y chromium)")
    html = page.read_text(encoding="utf-8")
    html = html.replace("<head>", f"<head><script>{before}</script>", 1).replace("</body>", f"<script>{after}</script></body>", 1)
    copy = page.with_name("probe.html")
    copy.write_text(html, encoding="utf-8")
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                           "--virtual-time-budget=5000", "--dump-dom", copy.as_uri() + fragment],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# every alert, confirm or prompt counted on the root element
COUNT_ALERTS = ("window.__acsAlerts = 0; ['alert', 'confirm', 'prompt'].forEach(function (f) { window[f] = "
                "function () { document.documentElement.setAttribute('data-alerts', ++window.__acsAlerts); }; });")


@pytest.mark.browser
def test_no_name_runs_as_script_in_chromium(pages: dict[str, dict]) -> None:
    page = pages["hostile"]["folder"] / "index.html"
    # the page with a config's sentences open (their system labels are written by the page's script)
    dom = _chromium_dom(page, "#sentences-de-en.particle.d0", before=COUNT_ALERTS)
    assert 'data-rendered="1"' in dom
    assert re.findall(r'data-alerts="\d+"', dom) == []
    # the probe itself counts: the same page with one injected image does alert, once
    control = page.with_name("control.html")
    control.write_text(page.read_text(encoding="utf-8").replace("</main>", "<img src=x onerror=alert(1)></main>", 1),
                       encoding="utf-8")
    assert 'data-alerts="1"' in _chromium_dom(control, before=COUNT_ALERTS)


@pytest.mark.browser
def test_a_spaced_name_filters_its_own_rows_in_chromium(pages: dict[str, dict]) -> None:
    name = PAGE_NAMES[3]
    select = ("var s = document.querySelector('select[data-filter=system]'); s.value = " + json.dumps(name) + ";"
              "s.dispatchEvent(new Event('change', {bubbles: true}));"
              "document.documentElement.setAttribute('data-shown', "
              "Array.from(document.querySelectorAll('#cells tbody tr')).filter(r => !r.hidden).length);"
              "document.documentElement.setAttribute('data-picked', s.value === " + json.dumps(name) + ");")
    dom = _chromium_dom(pages["hostile"]["folder"] / "index.html", after=select)
    evaluation = pages["hostile"]["evaluation"]
    assert 'data-picked="true"' in dom
    assert f'data-shown="{len(evaluation.configs) * len(evaluation.metrics)}"' in dom


TWINS = [(["A", "A "], "'A' and 'A '"), ([" B", "C", "B"], "' B' and 'B'"), (["x y", "xy"], "'x y' and 'xy'"),
         (["D", "D\u00a0", "E"], "'D' and 'D\\\\xa0'"), (["F\t", "F\n"], "'F\\\\t' and 'F\\\\n'")]


# Plain ids: mutmut hands pytest the node ids it collected, and an id holding backslashes is not
# found again in its second in-process session (its clean run stopped with exit status 4).
@pytest.mark.parametrize(("names", "named"), TWINS, ids=["trailing", "leading", "inner", "nbsp", "tab-newline"])
def test_system_names_that_differ_only_in_white_space_are_refused(names: list[str], named: str) -> None:
    from auto_challenge_sets.errors import RequestError
    from auto_challenge_sets.evaluation.request import EvaluationRequest

    with pytest.raises(RequestError, match=f"^hypotheses: system names {named} differ only in white space"):
        EvaluationRequest("unread", dict.fromkeys(names, "out.txt"))
    EvaluationRequest("unread", {"A": "out.txt", "B ": "out.txt", "A B": "out.txt"})  # no two alike: accepted


def test_metric_labels_that_differ_only_in_white_space_or_are_blank_are_refused() -> None:
    from auto_challenge_sets.errors import RequestError
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.scoring import metrics as registry
    from auto_challenge_sets.scoring.metrics.bleu import Bleu

    with pytest.MonkeyPatch.context() as patch:
        for name, label in (("twin", "BLEU "), ("blank", " ")):
            patch.setitem(registry._REGISTRY, name, type(name, (Bleu,), {"name": name, "label": label}))
        with pytest.raises(RequestError, match="^metrics: metrics 'bleu' and 'twin' have the labels 'BLEU' and "
                                               "'BLEU ', which differ only in white space"):
            EvaluationRequest("unread", {"A": "out.txt"}, metrics=("bleu", "ter", "twin"))
        with pytest.raises(RequestError, match="^metrics: metric 'blank' has no label to show"):
            EvaluationRequest("unread", {"A": "out.txt"}, metrics=("bleu", "blank"))


def test_acs_evaluate_refuses_twin_names_in_one_line_before_any_work(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from toy_dataset import SPLIT, make

    toy = make(tmp_path / "toy")
    out = tmp_path / "report"
    capsys.readouterr()
    code = main(["evaluate", "--dataset", str(toy["root"]), "--config", "all", "--split", SPLIT, "--hyp", f"A={toy['hyps']['good']}",
                 f"A ={toy['hyps']['worse']}", "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert re.fullmatch(r"acs evaluate: error: --hyp: system names 'A' and 'A ' differ only in white space: .*",
                        lines[0]), lines[0]
    assert not out.exists()
