"""The HTML page of a run (evaluation/report/html/html_report.py): valid HTML, every number of its table equal
to results.json's, nothing fetched from the network, the sentences behind each config split
between the page and its sidecars; and, in headless Chromium (marker ``browser``), that it sorts,
filters, loads sidecars and shows the marked words. On the hand-made toy folder."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from markupsafe import escape

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.report.html.html_report import INLINE_ROWS, write_html
from auto_challenge_sets.evaluation.report.report_writer import write_report
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.sentences import collect
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.scoring.metrics import metric_class

from mutation_scope import per_test_under_mutmut
from toy_dataset import CONTRADICTED, SPLIT, eflomal, evaluated, link_toy, make, with_failed_matching

html5lib = pytest.importorskip("html5lib")

# Debian's chromium and chromium-driver (.ci/run installs them); other paths by environment
CHROMIUM = os.environ.get("ACS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = os.environ.get("ACS_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"
SIDECAR = re.compile(r"\Awindow\.(\w+) = window\.\1 \|\| \{\};\nObject\.assign\(window\.\1, (.*)\);\n?\Z", re.S)
VERDICTS = {"c": "correct", "w": "wrong", "u": "unaligned"}

@pytest.fixture(scope=per_test_under_mutmut)
def report(tmp_path_factory):
    toy, request, evaluation, human = evaluated(tmp_path_factory.mktemp("toy"))
    evaluation = with_failed_matching(evaluation)  # every mark on the page: particle d0 and d1 degenerate
    out = tmp_path_factory.mktemp("report")
    written = write_report(out, evaluation, collect(request, evaluation))
    return {"out": out, "written": written, "evaluation": evaluation, "request": request, "toy": toy,
            "results": json.loads((out / "results.json").read_text(encoding="utf-8"))}


def parse(path: Path):
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    document = parser.parse(path.read_text(encoding="utf-8"))
    return document, parser.errors


def page_sentences(document) -> dict:
    node = next(e for e in document.iter("script") if e.get("id") == "acs-sentences")
    return json.loads(node.text)


def load_sidecar(path: Path) -> tuple[str, dict]:
    """A sidecar script's global and what it adds to it."""
    match = SIDECAR.match(path.read_text(encoding="utf-8"))
    assert match, path
    return match.group(1), json.loads(match.group(2))


def all_texts(out: Path, data: dict) -> dict[int, dict]:
    """The words of every line: the page's and the line sidecars'."""
    texts = {int(k): v for k, v in data["texts"].items()}
    for path in sorted((out / "sentences").glob("lines-*.js")):
        name, entries = load_sidecar(path)
        assert name == "ACS_TEXTS" and not set(map(int, entries)) & set(texts)  # each line once
        texts.update({int(k): v for k, v in entries.items()})
    return texts


def all_rows(out: Path, data: dict, config: str) -> list[dict]:
    """A config's rows, the page's and its sidecar's, each with the words of its line."""
    entry = data["configs"][config]
    rows = list(entry["rows"])
    if entry["sidecar"]:
        name, entries = load_sidecar(out / entry["sidecar"])
        assert name == "ACS_SENTENCES" and list(entries) == [config]
        rows += entries[config]["rows"]
    texts = all_texts(out, data)
    return [{**row, **texts[row["line"]]} for row in rows]


def test_write_report_writes_the_page_and_it_parses_without_errors(report):
    index = report["out"] / "index.html"
    assert index in report["written"]
    _, errors = parse(index)
    assert errors == []


def test_every_number_in_the_table_equals_results_json(report):
    document, _ = parse(report["out"] / "index.html")
    results = report["results"]
    table = next(t for t in document.iter("table") if t.get("id") == "cells")
    keys = [th.get("data-key") for th in table.find("thead").iter("th")]
    rows = table.find("tbody").findall("tr")
    assert len(rows) == len(results["systems"]) * len(results["configs"]) * len(results["metrics"])
    for row in rows:
        config, system, metric = row.get("data-config"), row.get("data-system"), row.get("data-metric")
        score = results["configs"][config]["systems"][system]["scores"][metric]
        test = score["vs_baseline"]
        # no random numbers where random corpora cannot be drawn (a degenerate baseline)
        band = None if results["configs"][config]["degenerate_baseline"] else score["random"]
        expected = {"score": score["score"], "random_mean": band and band["mean"], "random_p5": band and band["p5"],
                    "random_p95": band and band["p95"], "percentile": band and band["percentile"],
                    "delta_random": band and score["score"] - band["mean"],
                    "delta_baseline": None if test is None else test["delta"],
                    "paired_p": None if test is None else test["p_value"]}
        digits = metric_class(metric).digits
        for key, cell in zip(keys, row.findall("td"), strict=True):
            if key not in expected:
                continue
            value = expected.pop(key)
            if value is None:
                assert cell.get("data-value") == "" and "".join(cell.itertext()).strip() == "–"
                continue
            assert float(cell.get("data-value")) == value, (config, system, metric, key)
            shown = "".join(cell.itertext()).replace("▼", "").strip()
            if key == "paired_p":  # sacrebleu's mark
                assert shown.endswith("*") == (value < 0.05), (config, system, metric)
                shown = shown.rstrip("*")
            places = {"percentile": 0, "paired_p": 4}.get(key, digits)
            assert float(shown) == pytest.approx(value, abs=0.51 * 10 ** -places), (config, system, metric, key)
        assert expected == {}, f"columns missing from the table: {sorted(expected)}"
        worse = (score["score"] < score["random"]["p5"] if results["higher_is_better"][metric]
                 else score["score"] > score["random"]["p95"])
        worse = worse and not results["configs"][config]["degenerate_baseline"]  # no star where the band means nothing
        assert (row.get("data-worse") == "1") == worse


def test_the_targeted_control_table_equals_results_json(report):
    """Per config: the mean accuracy and control over systems, the systems outside the control's
    band, the targeted τ's corrected p and its Δτ's raw and corrected p, counted here from results.json."""
    document, _ = parse(report["out"] / "index.html")
    results = report["results"]
    section = next(e for e in document.iter("section") if e.get("id") == "targeted")
    table = next(t for t in section.iter("table") if "random-pair control" in "".join(t.find("caption").itertext()))
    rows = {r.find("th").text.strip(): r.findall("td") for r in table.find("tbody").findall("tr")}
    scored = {name: c for name, c in results["configs"].items()
              if any(s["targeted"] is not None for s in c["systems"].values())}
    assert set(rows) == set(scored) and scored
    for name, config in scored.items():
        judged = [s["targeted"] for s in config["systems"].values() if s["targeted"]["accuracy"] is not None]
        cells = rows[name]
        assert float(cells[1].get("data-value")) == pytest.approx(np.mean([t["accuracy"] for t in judged]))
        assert float(cells[2].get("data-value")) == pytest.approx(np.mean([t["random_pairs"]["mean"] for t in judged]))
        above = sum(t["accuracy"] > t["random_pairs"]["p95"] for t in judged)
        below = sum(t["accuracy"] < t["random_pairs"]["p5"] for t in judged)
        assert [cells[3].text, cells[4].text] == [f"{above}/{len(judged)}", f"{below}/{len(judged)}"]
        human = config["human_targeted"]
        assert ("exploratory" in "".join(cells[7].itertext())) == human["exploratory"]
        if config["small"]:  # left out of the family: no corrected p, and exploratory
            assert cells[7].get("data-value") == "" and human["exploratory"] is True
            continue
        assert float(cells[7].get("data-value")) == human["p_corrected"]
        assert human["exploratory"] == (human["p_corrected"] >= 0.05)
        versus = human["vs_full_test"]
        if versus is not None and versus["p_corrected"] is not None:  # the Δτ's raw p, then its corrected p
            assert [float(cells[10].get("data-value")), float(cells[11].get("data-value"))] == [
                versus["p_value"], versus["p_corrected"]]


def test_every_plot_of_the_report_is_in_the_page_as_svg(report):
    document, _ = parse(report["out"] / "index.html")
    figures = [f for f in document.iter("figure") if "plot" in f.get("class", "").split()]
    files = [p for p in report["written"] if p.suffix == ".svg"]
    assert len(figures) == len(files) > 0
    # the page holds the report's figures themselves: each .svg file's text, inline
    page = (report["out"] / "index.html").read_text(encoding="utf-8")
    assert all(f.read_text(encoding="utf-8").rstrip("\n") in page for f in files)
    for figure in figures:
        assert figure.find("{http://www.w3.org/2000/svg}svg") is not None and figure.get("aria-label") and figure.find("figcaption") is not None
    assert "<rdf:" not in (report["out"] / "index.html").read_text(encoding="utf-8")


def test_the_page_fetches_nothing_from_the_network(report):
    document, _ = parse(report["out"] / "index.html")
    for element in document.iter():
        for name, value in element.attrib.items():
            if name in ("src", "href") or name.endswith("}href"):
                assert not re.match(r"\s*(https?:)?//", value), (element.tag, name, value)
        if element.tag == "link":
            assert element.get("rel") == "icon" and element.get("href", "").startswith("data:")
        if element.tag == "script":
            assert element.get("src") is None  # inline only; sidecars are inserted on demand


def test_the_sidecars_hold_the_rest_of_every_configs_rows(report):
    out, evaluation = report["out"], report["evaluation"]
    document, _ = parse(out / "index.html")
    data = page_sentences(document)
    assert data["systems"] == list(evaluation.systems)
    folder = DatasetFolder(report["toy"]["root"])
    sidecars = 0
    for config in evaluation.configs:
        entry = data["configs"][config]
        lines = folder.read(config, SPLIT, ["line"])["line"]
        assert entry["total"] == len(lines) == evaluation.configs[config].n
        assert [r["line"] for r in entry["rows"]] == lines[:INLINE_ROWS]
        if len(lines) > INLINE_ROWS:
            sidecars += 1
            name, entries = load_sidecar(out / entry["sidecar"])
            assert list(entries) == [config] and [r["line"] for r in entries[config]["rows"]] == lines[INLINE_ROWS:]
        else:
            assert entry["sidecar"] is None
    assert sidecars >= 1  # the toy's largest configs are over the cap
    assert sorted(p.name for p in (out / "sentences").glob("de-en.*.js")) == sorted(
        f"{c}.js" for c in evaluation.configs if evaluation.configs[c].n > INLINE_ROWS)
    # every line of every config has its words, in the page or a line sidecar, once
    used = {line for c in evaluation.configs for line in folder.read(c, SPLIT, ["line"])["line"]}
    assert set(all_texts(out, data)) == used


def test_a_row_shows_each_systems_line_and_marks_the_instance(report):
    out, toy = report["out"], report["toy"]
    document, _ = parse(out / "index.html")
    data = page_sentences(document)
    files = {s: Path(p).read_text(encoding="utf-8").split("\n") for s, p in toy["hyps"].items()}
    for row in all_rows(out, data, "de-en.particle.d3"):
        assert row["out"] == [files[s][row["line"] - 1] for s in data["systems"]]
        assert row["src"] == toy["corpus"]["sources"][row["line"] - 1]
        instance = row["inst"][0]
        head = min(row["d"] + 2, len(row["src"]))  # the toy's instance: dependent 1, head d + 2
        assert instance["src"] == [[head - 1, "head"], [0, "dependent"]] and instance["d"] == row["d"]
        # the toy's monotone alignment: a source word k is aligned to reference word k
        assert [k for k, role in instance["ref"]] == [k for k in (head - 1, 0) if k < len(row["ref"])]


def test_the_verdicts_add_up_to_the_targeted_counts(report):
    out, evaluation = report["out"], report["evaluation"]
    document, _ = parse(out / "index.html")
    data = page_sentences(document)
    for config, result in evaluation.configs.items():
        if not data["configs"][config]["verdicts"]:
            assert all(s.targeted is None for s in result.systems.values()), config
            continue
        for k, system in enumerate(data["systems"]):
            targeted = result.systems[system].targeted
            assert verdict_counts(out, data, config, k) == (
                targeted.correct, targeted.wrong, targeted.unaligned, targeted.absorbed), (config, system)


def verdict_counts(out: Path, data: dict, config: str, k: int) -> tuple[int, int, int, int]:
    counts = Counter()
    for row in all_rows(out, data, config):
        for code in row["v"][k]:
            counts[VERDICTS[code.lower()]] += 1
            counts["absorbed"] += code.isupper()
    return counts["correct"], counts["wrong"], counts["unaligned"], counts["absorbed"]


def shifted_alignments(corpus: dict, folder: Path) -> dict[str, Path]:
    """A Pharaoh file per system: source word i to output word (i + k) % n for the k-th system (a
    different alignment per system)."""
    files = {}
    for k, (system, lines) in enumerate(corpus["outputs"].items()):
        links = [" ".join(f"{i}-{(i + k) % len(out.split())}" for i in range(len(src)))
                 for src, out in zip(corpus["sources"], lines)]
        files[system] = folder / f"{system}.pharaoh"
        files[system].write_text("\n".join(links) + "\n", encoding="utf-8")
    return files


def test_stored_output_alignments_give_the_runs_verdicts(report, tmp_path):
    """With --hyp-alignment files the page judges with the same links as the run."""
    toy = report["toy"]
    files = shifted_alignments(toy["corpus"], tmp_path)
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=5, paired_samples=10,
                                config="de-en.particle.d0", targeted=TargetedRequest("stored", hyp_alignments=files))
    evaluation = evaluate(request)
    out = tmp_path / "report"
    write_html(out, evaluation, collect(request, evaluation))
    data = page_sentences(parse(out / "index.html")[0])
    result = evaluation.configs["de-en.particle.d0"]
    for k, system in enumerate(data["systems"]):
        targeted = result.systems[system].targeted
        assert verdict_counts(out, data, "de-en.particle.d0", k) == (
            targeted.correct, targeted.wrong, targeted.unaligned, targeted.absorbed), system


def test_the_page_stays_small(report):
    out = report["out"]
    assert (out / "index.html").stat().st_size < 1_000_000
    assert sum(p.stat().st_size for p in (out / "sentences").iterdir()) < 60_000


def test_the_page_names_whatever_metrics_the_run_has_and_works_without_a_request(report, tmp_path):
    toy = report["toy"]
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("chrf",), n_samples=5, paired_samples=10)
    evaluation = evaluate(request)
    written = write_html(tmp_path, evaluation)
    assert written == [tmp_path / "index.html"]  # no request: no sentences, no sidecars
    document, errors = parse(written[0])
    assert errors == []
    text = written[0].read_text(encoding="utf-8")
    assert metric_class("chrf").label in text and "BLEU" not in text.split("<main>")[1].split("signature")[0]
    assert not any(e.get("id") == "acs-sentences" for e in document.iter("script"))
    table = next(t for t in document.iter("table") if t.get("id") == "cells")
    assert {r.get("data-metric") for r in table.find("tbody").findall("tr")} == {"chrf"}


def test_the_page_says_what_targeted_accuracy_is_and_how_far_its_judge_was_measured(report, tmp_path):
    """Issue 34: beside the targeted tables, the page says the measure is a diagnostic of
    reference-word recall, not a ranking measure, and gives the judge's pass rate on a second
    human translation ("good"'s output given as --judge-ref): in the header, the section, a by-distance
    row and a column per config equal to results.json; without --judge-ref it says unmeasured."""
    text = (report["out"] / "index.html").read_text(encoding="utf-8")
    assert "targeted accuracy is a diagnostic of reference-word recall, not a ranking measure" in text
    assert "this judge is unmeasured (no second human translation (--judge-ref)" in text
    toy = report["toy"]
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=5, paired_samples=10,
                                targeted=TargetedRequest("present", references=(toy["hyps"]["good"],)))
    evaluation = evaluate(request)
    write_html(tmp_path, evaluation, collect(request, evaluation))
    document, errors = parse(tmp_path / "index.html")
    assert errors == []
    judge = evaluation.targeted.judge
    note = "".join(next(e for e in document.iter("p") if e.get("id") == "targeted-judge").itertext())
    assert f"this judge passes {100 * judge.pass_rate:.0f}% of a second human translation ({judge.judged} " in note
    section = next(e for e in document.iter("section") if e.get("id") == "targeted")
    table = next(t for t in section.iter("table") if "random-pair control" in "".join(t.find("caption").itertext()))
    header = ["".join(th.itertext()).strip() for th in table.find("thead").iter("th")]
    assert header[-2:] == ["2nd human translation", "pairs matched on UPOS"]
    for row in table.find("tbody").findall("tr"):
        cells = row.findall("td")
        expected = judge.by_config[row.find("th").text.strip()].accuracy
        assert float(cells[-2].get("data-value")) == expected  # the same rows as "good"'s own accuracy
        assert cells[-1].get("data-value") == ""  # the toy has no source_upos: no matching to show
    by_distance = next(t for t in section.iter("table") if "(from de-en.particle.d0" in "".join(t.find("caption").itertext()))
    second = next(r for r in by_distance.find("tfoot").findall("tr") if r.find("th").text == "2nd human translation")
    summary = evaluation.targeted.by_distance["de-en.particle"]
    assert [c.get("data-value") for c in second.findall("td")] == [
        "" if summary.second_reference[b] is None else repr(summary.second_reference[b]) for b in summary.buckets]


def test_without_targeted_the_verdict_filter_says_why_it_has_nothing(report, tmp_path):
    toy = report["toy"]
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=5, paired_samples=10,
                                config="de-en.particle.d3")
    write_html(tmp_path, found := evaluate(request), collect(request, found))
    document, _ = parse(tmp_path / "index.html")
    select = next(e for e in document.iter("select") if e.get("id") == "sentence-verdict")
    assert select.get("disabled") is not None
    why = next(e for e in document.iter("span") if e.get("id") == "no-verdicts")
    assert "this run did not score targeted accuracy (run acs evaluate with --targeted)" in why.text
    with_targeted, _ = parse(report["out"] / "index.html")
    select = next(e for e in with_targeted.iter("select") if e.get("id") == "sentence-verdict")
    assert select.get("disabled") is None and [o.get("value") for o in select.iter("option")] == [
        "", "correct", "wrong", "unaligned", "absorbed"]


def test_each_verdict_carries_the_output_words_its_links_give(report, tmp_path):
    """With stored alignments (system k links source word i to output word (i + k) mod n), each
    row's ``o`` holds per system and instance the output tokens aligned to the head and to the
    dependent, as the hand-made links say; the present match (the report fixture) has none."""
    toy = report["toy"]
    corpus = toy["corpus"]
    files = shifted_alignments(corpus, tmp_path)
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=5, paired_samples=10,
                                config="de-en.particle.d2", targeted=TargetedRequest("stored", hyp_alignments=files))
    out = tmp_path / "report"
    write_html(out, found := evaluate(request), collect(request, found))
    data = page_sentences(parse(out / "index.html")[0])
    order = list(corpus["outputs"])
    rows = all_rows(out, data, "de-en.particle.d2")
    assert rows
    for row in rows:
        for s, system in enumerate(data["systems"]):
            k, n = order.index(system), len(row["out"][s].split())
            expected = [[[(i["src"][0][0] + k) % n], [(i["src"][1][0] + k) % n]] for i in row["inst"]]
            assert row["o"][s] == expected, (row["line"], system)
    plain = page_sentences(parse(report["out"] / "index.html")[0])
    assert all("o" not in row for c in plain["configs"].values() for row in c["rows"])


# ---- in a real browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium from the system's package (never a download), via Selenium."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the dev extra)")
    from selenium.webdriver.chrome.service import Service

    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not shutil.which(path):
            pytest.skip(f"needs {path} (Debian's {package} package: apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    from selenium.common.exceptions import WebDriverException

    for attempt in range(3):  # a loaded machine can miss chromedriver's start-up deadline once
        try:
            driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
            break
        except WebDriverException:
            if attempt == 2:
                raise
            import time

            time.sleep(2)
    driver.set_page_load_timeout(60)
    viewport(driver, 1280, 800)
    yield driver
    driver.quit()


def viewport(driver, width: int, height: int) -> None:
    """The page's viewport itself (--window-size counts the window's frame too)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


def open_page(driver, out: Path, fragment: str = ""):
    driver.get("about:blank")  # a new document each time: a new fragment alone keeps the last test's page
    driver.get((out / "index.html").as_uri() + fragment)
    driver.get_log("browser")  # the console so far: each test reads its own messages
    return driver


def severe(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def column_values(driver, column: int, every: bool = False) -> list[float | None]:
    """The column's values in the rows shown (``every``: in every row, the other pages' too)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#cells tbody tr')).filter(r => arguments[1] || !r.hidden)"
        ".map(r => r.children[arguments[0]].getAttribute('data-value'))"
        ".map(v => v === '' ? null : parseFloat(v));", column, every)


@pytest.mark.browser
def test_the_page_loads_and_loads_a_sidecar_without_console_errors(report, browser):
    from selenium.webdriver.common.by import By

    driver = open_page(browser, report["out"], "#sentences-de-en.particle.d0")
    details = driver.find_element(By.ID, "sentences-de-en.particle.d0")
    assert details.get_attribute("open") is not None
    assert len(details.find_elements(By.CSS_SELECTOR, ".sentence")) == INLINE_ROWS
    details.find_element(By.CSS_SELECTOR, "button.more").click()
    total = report["evaluation"].configs["de-en.particle.d0"].n
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1], box = arguments[0], n = arguments[1];"
        "const wait = () => box.querySelectorAll('.sentence').length >= n ? done() : setTimeout(wait, 20); wait();",
        details, total)
    assert len(details.find_elements(By.CSS_SELECTOR, ".sentence")) == total
    assert severe(driver) == []


@pytest.mark.browser
def test_clicking_a_column_header_sorts_the_table(report, browser):
    from selenium.webdriver.common.by import By

    driver = open_page(browser, report["out"], "#scores")  # the link opens the folded section
    headers = driver.find_elements(By.CSS_SELECTOR, "#cells thead th")
    score = next(k for k, th in enumerate(headers) if th.text.strip() == "score")
    button = headers[score].find_element(By.TAG_NAME, "button")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()
    values = column_values(driver, score, every=True)
    assert values == sorted(values) and len(set(values)) > 1
    assert column_values(driver, score) == values[:100]  # the first page of the new order
    assert headers[score].get_attribute("aria-sort") == "ascending"
    button.click()
    assert column_values(driver, score, every=True) == sorted(values, reverse=True)
    assert severe(driver) == []


@pytest.mark.browser
def test_a_system_filter_hides_the_other_systems(report, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = open_page(browser, report["out"], "#scores")
    driver.execute_script("location.hash = '#sentences-de-en.particle.d3'")  # both folded sections open
    Select(driver.find_element(By.CSS_SELECTOR, "form[data-table=cells] select[data-filter=system]")).select_by_visible_text("good")
    shown = driver.execute_script("return Array.from(document.querySelectorAll('#cells tbody tr'))"
                                  ".filter(r => !r.hidden).map(r => r.dataset.system);")
    evaluation = report["evaluation"]
    assert set(shown) == {"good"} and len(shown) == len(evaluation.configs) * len(evaluation.metrics)
    Select(driver.find_element(By.ID, "sentence-system")).select_by_visible_text("good")
    outputs = driver.execute_script("return Array.from(document.querySelectorAll("
                                    "'#sentences-de-en\\\\.particle\\\\.d3 li[data-system]'))"
                                    ".filter(li => !li.hidden).map(li => li.dataset.system);")
    assert set(outputs) == {"good"} and len(outputs) == evaluation.configs["de-en.particle.d3"].n
    assert severe(driver) == []


@pytest.mark.browser
def test_a_marked_word_is_in_view_after_following_a_config_link(report, browser):
    from selenium.webdriver.common.by import By

    driver = open_page(browser, report["out"], "#scores")  # the link opens the folded section
    link = driver.find_element(By.CSS_SELECTOR, "#cells a[href='#sentences-de-en.particle.d3']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()
    from selenium.webdriver.support.ui import WebDriverWait

    # the jump and the sentences' rendering run on the page's own time: on a loaded machine they may
    # land a moment after the click returns
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "const m = document.querySelector('#sentences-de-en\\\\.particle\\\\.d3 .sentence mark.head');"
        "if (!m) return false; const r = m.getBoundingClientRect();"
        "return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight;"))
    assert severe(driver) == []


@pytest.mark.browser
def test_a_verdict_shows_its_links_and_an_empty_verdict_filter_says_why(report, browser):
    """Under each verdict, the words it rests on: the head's and dependent's source words and the
    reference words aligned to them (the present match looks for them in the whole output). A
    verdict chosen in a config that has none (reorder) says why the config shows no row."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = open_page(browser, report["out"], "#sentences-de-en.particle.d3")
    first = driver.find_element(By.CSS_SELECTOR, "#sentences-de-en\\.particle\\.d3 .sentence")
    links = [e.get_attribute("textContent") for e in first.find_elements(By.CSS_SELECTOR, "small.links")]
    line = int(first.get_attribute("data-line"))
    corpus = report["toy"]["corpus"]
    src = corpus["sources"][line - 1]
    head = min(max(corpus["distances"][line - 1], 0) + 2, len(src))  # the toy's instance: dependent 1, head d + 2
    assert len(links) == len(report["evaluation"].systems)  # one instance, one verdict per system
    assert all(text.startswith(f"head “{src[head - 1]}” → reference “") for text in links)
    assert all(f"dependent “{src[0]}” → reference “" in text and "looked for in the whole output" in text
               for text in links)
    Select(driver.find_element(By.ID, "sentence-verdict")).select_by_value("correct")
    reorder = driver.find_element(By.ID, "sentences-de-en.reorder.d5")
    driver.execute_script("arguments[0].open = true;", reorder)
    note = reorder.find_element(By.CSS_SELECTOR, "p.filter-note")
    assert note.get_attribute("textContent") == ("No verdicts here: targeted accuracy judges the instances of "
                                                 "lexical configs only.")
    Select(driver.find_element(By.ID, "sentence-verdict")).select_by_value("")
    assert reorder.find_elements(By.CSS_SELECTOR, "p.filter-note") == []
    assert severe(driver) == []


@pytest.mark.browser
def test_a_doubted_reference_word_is_styled_uncertain_with_why_on_hover(tmp_path, browser):
    """tests/test_sentence_links.py's toy: eflomal on 90 pairs without priors, one link the parse contradicts."""
    toy = make(tmp_path)
    request = EvaluationRequest(link_toy(toy["root"], eflomal(90)), toy["hyps"], config="de-en.particle.d3",
                                metrics=("bleu",), n_samples=3, paired_samples=10)
    write_html(tmp_path / "out", evaluation := evaluate(request), sentences := collect(request, evaluation))
    driver = open_page(browser, tmp_path / "out", "#sentences-de-en.particle.d3")
    marks = driver.execute_script(
        "return Array.from(document.querySelectorAll('#sentences-de-en\\\\.particle\\\\.d3 .sentence mark'))"
        ".map(m => [+m.closest('.sentence').dataset.line, m.closest('p').className, m.className, m.title,"
        " getComputedStyle(m).outlineStyle, getComputedStyle(m).textDecorationStyle]);")
    reference = [m for m in marks if m[1] == "reference"]
    assert len(reference) > 1 and all(m[2] in ("head uncertain", "dependent uncertain") and m[3] == sentences.uncertain
                                      and m[4] == "dashed" for m in reference if m[0] != CONTRADICTED)
    doubted = [m for m in reference if m[0] == CONTRADICTED and m[2] == "dependent contradicted"]
    assert len(doubted) == 1 and doubted[0][3].startswith("also aligned to “") and doubted[0][3].endswith(
        "; " + sentences.uncertain) and doubted[0][4:] == ["dashed", "wavy"]
    assert all(m[2] in ("head", "dependent") and not m[3] for m in marks if m[1] == "source")
    assert severe(driver) == []


def screenshot(driver, out: Path, path: Path, fragment: str = "#sentences-de-en.particle.d3") -> Path:
    """A 1280×800 screenshot of the page at ``fragment``: the test's, and docs/commands.md's."""
    open_page(driver, out, fragment)
    driver.save_screenshot(str(path))
    return path


@pytest.mark.browser
def test_a_screenshot_is_written_and_shows_the_page(report, browser, tmp_path):
    from matplotlib.image import imread

    path = screenshot(browser, report["out"], tmp_path / "page.png")
    image = imread(path)
    assert image.shape[:2] == (800, 1280)
    assert np.ptp(image[..., :3]) > 0.5 and len(np.unique(image[..., :3].reshape(-1, 3), axis=0)) > 50


@pytest.mark.browser
def test_the_page_fits_a_phone_width(report, browser):
    """At 390 px the page does not scroll sideways: wide tables and plots scroll in their own box."""
    try:
        viewport(browser, 390, 844)
        driver = open_page(browser, report["out"], "#sentences-de-en.particle.d3")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        viewport(browser, 1280, 800)


# ---- the 19-system WMT21 de-en report --------------------------------------------------------


@pytest.fixture(scope="module")
def wmt21_report(wmt21_de_en, tmp_path_factory):
    """Every WMT21 de→en system on conftest's UDPipe + eflomal build, with targeted verdicts (fewer
    random and paired samples than a real run: the page's size and behaviour do not depend on them)."""
    from conftest import shared_path

    wmt21 = shared_path("data", "wmt21")
    hyps = {p.name.split(".")[3]: p for p in sorted((wmt21 / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))}
    request = EvaluationRequest(wmt21_de_en, hyps, split="newstest2021", pair="de-en", metrics=("bleu", "chrf"),
                                n_samples=20, paired_samples=100, targeted=TargetedRequest("present"))
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    evaluation = evaluate(request, human)
    out = tmp_path_factory.mktemp("wmt21-report")
    write_report(out, evaluation, collect(request, evaluation))
    return {"out": out, "evaluation": evaluation}


@pytest.mark.shared
@pytest.mark.slow  # wmt21_report evaluates and renders 19 WMT21 systems: about 45 s
def test_the_wmt21_page_is_valid_and_small(wmt21_report):
    out, evaluation = wmt21_report["out"], wmt21_report["evaluation"]
    assert len(evaluation.systems) == 19
    _, errors = parse(out / "index.html")
    assert errors == []
    size = (out / "index.html").stat().st_size + sum(p.stat().st_size for p in (out / "sentences").iterdir())
    assert size <= 10_000_000


@pytest.mark.shared
@pytest.mark.browser
@pytest.mark.slow  # wmt21_report, as above
def test_the_wmt21_page_shows_a_marked_particle_in_view_without_console_errors(wmt21_report, browser):
    from selenium.webdriver.common.by import By

    evaluation = wmt21_report["evaluation"]
    config = max((c for c in evaluation.configs if ".particle." in c), key=lambda c: evaluation.configs[c].n)
    driver = open_page(browser, wmt21_report["out"], f"#sentences-{config}")
    details = driver.find_element(By.ID, f"sentences-{config}")
    mark = details.find_element(By.CSS_SELECTOR, ".sentence mark.head")
    assert driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", mark)
    verdicts = details.find_elements(By.CSS_SELECTOR, ".sentence .verdict")
    assert verdicts and {v.get_attribute("textContent") for v in verdicts} <= {"correct", "wrong", "unaligned", "absorbed"}
    assert severe(driver) == []
    target = os.environ.get("ACS_REPORT_SCREENSHOT")  # docs/commands.md's picture: docs/html_report.png
    if target:
        screenshot(driver, wmt21_report["out"], Path(target), f"#sentences-{config}")


def test_results_report_and_page_agree_on_every_flag(report):
    """flag_walk: results.json, report.md, index.html and the terminal text mark each config alike;
    the toy has every mark: particle d0 and d1 degenerate, d4 and reorder.d5 small, d5 small and the
    rows of d4."""
    from flag_walk import walk

    from auto_challenge_sets.evaluation.report.report_writer import text_report

    seen = walk(report["out"], text_report(report["evaluation"]))
    flags = report["results"]["configs"]
    assert flags["de-en.particle.d5"]["flags"] == ["small", "same rows as de-en.particle.d4"]
    assert [n for n, c in flags.items() if "degenerate baseline" in c["flags"]] == ["de-en.particle.d0",
                                                                                    "de-en.particle.d1"]
    # every config in the page's big table (a row per system and metric), human tables and heat maps
    assert all(seen["index.html"][n] > 3 * 5 for n in flags)


# the wide toy: 120 corpus lines (two files of words), particle.d0 … d12, a system name outside ASCII

@pytest.fixture(scope=per_test_under_mutmut)
def wide_page(tmp_path_factory):
    from toy_dataset import make_wide

    toy = make_wide(tmp_path_factory.mktemp("wide"))
    request = EvaluationRequest(toy["root"], toy["hyps"], split=SPLIT, metrics=("bleu",), n_samples=5,
                                paired_samples=10, min_rows=10)
    evaluation = evaluate(request)
    out = tmp_path_factory.mktemp("wide-page")
    write_html(out, evaluation, collect(request, evaluation))
    return {"out": out, "toy": toy, "evaluation": evaluation}


def test_each_line_is_in_the_words_file_of_its_hundred_and_each_config_names_the_files_it_needs(wide_page):
    """Lines 1–100 in lines-00000.js, 101–200 in lines-00001.js; a config's sidecar lists exactly the
    words files of its rows beyond the page's."""
    out = wide_page["out"]
    document, _ = parse(out / "index.html")
    data = page_sentences(document)
    inline = {int(k) for k in data["texts"]}
    placed = {}
    for path in sorted((out / "sentences").glob("lines-*.js")):
        _, entries = load_sidecar(path)
        placed.update({int(line): path.name for line in entries})
    assert placed and all(name == f"lines-{(line - 1) // 100:05d}.js" for line, name in placed.items())
    assert placed.get(100) == "lines-00000.js" and placed.get(101) == "lines-00001.js"  # the boundary
    for config, entry in data["configs"].items():
        if entry["sidecar"]:
            _, entries = load_sidecar(out / entry["sidecar"])
            needed = {placed[r["line"]] for r in entries[config]["rows"] if r["line"] not in inline}
            assert sorted(f"sentences/{name}" for name in needed) == entries[config]["texts"], config
    texts = {**{int(k): v for k, v in data["texts"].items()}, **all_texts(out, data)}
    sources = wide_page["toy"]["corpus"]["sources"]
    assert all(texts[line]["src"] == sources[line - 1] for line in (100, 101))


def test_configs_are_shown_by_distance_d2_before_d10(wide_page):
    document, _ = parse(wide_page["out"] / "index.html")
    expected = [f"de-en.particle.d{d}" for d in range(13)]
    shown = [e.get("data-config") for e in document.iter("details") if e.get("data-config")]
    assert shown == expected
    table = next(t for t in document.iter("table") if t.get("id") == "cells")
    rows = [tr.get("data-config") for tr in table.iter("tr") if tr.get("data-config")]
    assert list(dict.fromkeys(rows)) == expected


def test_a_configs_sidecar_names_the_words_file_of_line_100_as_the_hundred_before_it():
    """Lines 1–100 share a words file: a config whose only line beyond the page's is line 100 loads
    lines-00000.js, where line 100's words are."""
    from auto_challenge_sets.evaluation.page_sentences import ConfigSentences, Sentences
    from auto_challenge_sets.evaluation.report.html.html_report import _sentence_data

    lines = [*range(1, INLINE_ROWS + 1), 100, 101]
    rows = [{"line": line, "d": 0, "inst": []} for line in lines]
    texts = {line: {"src": [str(line)], "ref": [], "out": [""]} for line in lines}
    page, sidecars = _sentence_data(Sentences(["a"], texts, {"x": ConfigSentences("x", rows, False)}, []))
    assert sidecars["sentences/x.js"]["entries"]["x"]["texts"] == ["sentences/lines-00000.js",
                                                                  "sentences/lines-00001.js"]
    assert list(sidecars["sentences/lines-00000.js"]["entries"]) == [100]
    assert list(sidecars["sentences/lines-00001.js"]["entries"]) == [101]
    assert sorted(map(int, page["texts"])) == list(range(1, INLINE_ROWS + 1))


def _shown_cells(driver) -> list[tuple[str, str, str]]:
    return [tuple(row) for row in driver.execute_script(
        "return Array.from(document.querySelectorAll('#cells tbody tr')).filter(r => !r.hidden)"
        ".map(r => [r.dataset.config, r.dataset.system, r.dataset.metric]);")]


def test_the_big_table_is_paged_by_the_page_size(report):
    """The all-scores table carries its page size and the pager; every row is in the file (the script pages them)."""
    from auto_challenge_sets.evaluation.report.sections.challenge_section import PAGE_ROWS

    html = (report["out"] / "index.html").read_text(encoding="utf-8")
    assert f'<form class="filters" data-table="cells" data-page-size="{PAGE_ROWS}"' in html
    assert '<nav class="pager" data-table="cells"' in html and PAGE_ROWS == 100
    evaluation = report["evaluation"]
    assert html.count("<tr data-system=") >= len(evaluation.configs) * len(evaluation.systems) * len(evaluation.metrics)


@pytest.mark.browser
def test_the_big_table_shows_100_rows_a_page_and_filters_before_paging(report, browser):
    """The toy's 105 rows (7 configs x 5 systems x 3 metrics): the first page shows 100, the next
    the other 5; a filter applies to every row before paging (good's 21 rows, on one page)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    evaluation = report["evaluation"]
    total = len(evaluation.configs) * len(evaluation.systems) * len(evaluation.metrics)
    assert total == 105
    driver = open_page(browser, report["out"], "#scores")  # the link opens the folded section
    pager = driver.find_element(By.CSS_SELECTOR, "nav.pager[data-table=cells]")
    first = _shown_cells(driver)
    assert len(first) == 100 and pager.find_element(By.CSS_SELECTOR, ".page").text == "page 1 of 2 (rows 1–100)"
    assert pager.find_element(By.CSS_SELECTOR, "[data-page=prev]").get_attribute("disabled") is not None
    nxt = pager.find_element(By.CSS_SELECTOR, "[data-page=next]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", nxt)
    nxt.click()
    second = _shown_cells(driver)
    assert len(second) == 5 and len(set(first) | set(second)) == total
    assert nxt.get_attribute("disabled") is not None
    assert driver.find_element(By.CSS_SELECTOR, "form[data-table=cells] .count").text == f"{total} of {total} rows"
    Select(driver.find_element(By.CSS_SELECTOR, "form[data-table=cells] select[data-filter=system]")).select_by_visible_text("good")
    shown = _shown_cells(driver)  # back to the first page, of the filtered rows
    assert len(shown) == len(evaluation.configs) * len(evaluation.metrics) and {s for _, s, _ in shown} == {"good"}
    assert not pager.is_displayed()
    assert severe(driver) == []


def test_the_full_corpus_and_targeted_tables_list_systems_best_first(report):
    """Ranked as WMT's tables are (the first metric on the full corpus, best first), not by name."""
    evaluation = report["evaluation"]
    first = evaluation.metrics[0]
    ranked = sorted(evaluation.systems, key=lambda s: (-evaluation.full[s][first], s))
    assert evaluation.higher_is_better[first] and ranked != sorted(evaluation.systems)
    document, _ = parse(report["out"] / "index.html")
    caption = next(t for t in document.iter("table") if "".join(t.find("caption").itertext()).startswith(
        "Each system's score on the full corpus"))
    shown = ["".join(row.find("th").itertext()).replace(" baseline", "").strip("\u2068\u2069 ")
             for row in caption.find("tbody").findall("tr")]
    assert shown == ranked
    targeted = next(t for t in document.iter("section") if t.get("id") == "targeted")
    by_distance = next(targeted.iter("table"))
    assert [row.get("data-system") for row in by_distance.find("tbody").findall("tr")] == ranked


def test_the_page_names_each_metric_by_its_label_and_direction(report):
    text = (report["out"] / "index.html").read_text(encoding="utf-8")
    evaluation = report["evaluation"]
    for name in evaluation.metrics:
        direction = "higher" if evaluation.higher_is_better[name] else "lower"
        assert f"<bdi>{metric_class(name).label}</bdi> ({direction} is better)" in text


def test_the_control_table_shows_each_configs_upos_matched_share_where_the_dataset_has_upos(report):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.report.sections.targeted_section import targeted_configs
    from auto_challenge_sets.evaluation.results import ControlMatching

    evaluation = report["evaluation"]
    names = [row.config for row in targeted_configs(evaluation)]
    assert [row.matched for row in targeted_configs(evaluation)] == [None] * len(names)  # no source_upos
    control = {name: ControlMatching(instances=4 + k, matched=k, head_only=1, unmatched=3, itself=0)
               for k, name in enumerate(names[1:])}  # the first config drew no control
    with_upos = replace(evaluation, targeted=replace(evaluation.targeted, control_upos=True, control=control))
    assert [row.matched for row in targeted_configs(with_upos)] == [None] + [k / (4 + k) for k in range(len(names) - 1)]


def test_a_config_whose_control_was_not_drawn_has_no_control_mean_and_no_counts(report):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.report.sections.targeted_section import targeted_configs

    evaluation = report["evaluation"]
    name = targeted_configs(evaluation)[0].config
    config = evaluation.configs[name]
    systems = {s: replace(r, targeted=replace(r.targeted, random_pairs=None)) for s, r in config.systems.items()}
    without = replace(evaluation, configs={**evaluation.configs, name: replace(config, systems=systems)})
    row = targeted_configs(without)[0]
    judged = [r.targeted.accuracy for r in config.systems.values() if r.targeted.accuracy is not None]
    assert (row.config, row.mean_random_pairs, row.above_control, row.below_control, row.systems) == (
        name, None, 0, 0, len(judged))
    assert row.mean_accuracy == pytest.approx(sum(judged) / len(judged))


def test_the_pages_filters_write_numbers_percents_raw_values_and_isolated_names():
    from auto_challenge_sets.evaluation.report.html.environment import environment

    number, percent, raw, bdi = (environment().filters[k] for k in ("number", "percent", "raw", "bdi"))
    assert [number(v) for v in (None, float("nan"), float("inf"), 1.23456, 3, -0.5)] == [
        "–", "–", "–", "1.23", "3.00", "-0.50"]
    assert (number(1.23456, 3), number(0.5, 1, signed=True), number(-0.25, signed=True)) == ("1.235", "+0.5", "-0.25")
    assert (percent(None), percent(0.256), percent(1)) == ("–", "26%", "100%")
    assert [raw(v) for v in (None, float("nan"), float("-inf"), 0.1, 3)] == ["", "", "", "0.1", "3.0"]
    assert str(bdi("<b>Ａ & ‮x")) == "<bdi>&lt;b&gt;Ａ &amp; ‮x</bdi>"


def test_the_templates_escape_refuse_undefined_names_trim_block_lines_and_write_compact_json():
    import jinja2

    from auto_challenge_sets.evaluation.report.html.environment import environment

    env = environment()
    assert env.from_string("{{ name }}").render(name="<script>") == "&lt;script&gt;"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()
    assert env.from_string("  {% if true %}\nx\n  {% endif %}\ny").render() == "x\ny"
    assert env.from_string("{{ d|tojson }}").render(d={"b": [1, "é<"], "a": 2}) == '{"b":[1,"é\\u003c"],"a":2}'


def test_each_cell_carries_its_configs_facts(report):
    from auto_challenge_sets.evaluation.report.sections.challenge_section import cells

    evaluation = report["evaluation"]
    found = cells(evaluation)
    assert len(found) == sum(len(c.systems) for c in evaluation.configs.values()) * len(evaluation.metrics)
    for cell in found:
        config = evaluation.configs[cell.config]
        assert (cell.phenomenon, cell.min_distance, cell.n, cell.flags, cell.random_unavailable) == (
            config.phenomenon, config.min_distance, config.n, config.flags(), config.random_unavailable)
    flags = {f.split(" as ")[0] for c in found for f in c.flags}
    assert {"small", "same rows"} <= flags and {() != c.flags for c in found} == {True, False}


def test_the_human_rows_are_the_full_test_set_then_each_config_with_a_correlation(report):
    from auto_challenge_sets.configs import config_sort_key
    from auto_challenge_sets.evaluation.report.sections.human_section import human_rows

    evaluation = report["evaluation"]
    for metric in evaluation.metrics:
        rows = human_rows(evaluation, metric)
        full = evaluation.human_full[metric]
        assert (rows[0].config, rows[0].n, rows[0].correlation, rows[0].flags, rows[0].random_percentile) == (
            "(full test set)", evaluation.full_corpus_rows, full, (), full.random_kendall_percentile)
        configs = sorted((n for n, c in evaluation.configs.items() if (c.human or {}).get(metric)), key=config_sort_key)
        assert [r.config for r in rows[1:]] == configs
        for row in rows[1:]:
            config = evaluation.configs[row.config]
            found = config.human[metric]
            assert (row.n, row.correlation, row.flags, row.random_percentile) == (
                config.n, found, config.flags(), None if config.degenerate_baseline else found.random_kendall_percentile)
        assert {r.random_percentile is None for r in rows[1:]} == {True, False}


def test_the_page_is_timed_by_its_parts_into_a_new_nested_folder(report, tmp_path):
    from auto_challenge_sets.evaluation.report.html.html_report import INDEX
    from auto_challenge_sets.pipeline.timings import recording

    sentences = collect(report["request"], report["evaluation"])
    with recording() as timings:
        written = write_html(tmp_path / "a" / "b", report["evaluation"], sentences)
    sidecars = [p for p in written if p.name != INDEX]
    assert written[0] == tmp_path / "a" / "b" / INDEX and sidecars
    stages = {s.name: (s.count, s.unit) for s in timings.merged()}
    assert stages["page: sentences"] == (len(sidecars), "sidecars")
    assert stages[INDEX] == (1, "files") and stages["sidecars"] == (len(sidecars), "files")


def test_the_page_draws_the_human_scatter_itself_and_tells_each_power_and_label(report, tmp_path):
    """Without the report's figures the page draws its own, the human scatter among them; each
    metric's power sentence is its own, targeted accuracy's too; the Δτ column names the metric
    full-test agreement is compared with; the few-instances bound and the rows kept in the page."""
    from auto_challenge_sets.evaluation.report.sections.targeted_section import FEW_JUDGED
    from auto_challenge_sets.evaluation.stats.versus_full import power_line, reference_metric

    evaluation = report["evaluation"]
    page = write_html(tmp_path, evaluation, collect(report["request"], evaluation))[0].read_text(encoding="utf-8")
    human = page.split('id="human"')[1]
    assert human.count("<svg") >= len(evaluation.metrics)
    lines = {m: power_line(evaluation, m) for m in (*evaluation.metrics, None)}
    assert all(lines.values())  # the same sentence here (5 systems each): see the test without targeted
    sections = {name: page.split(f'<section id="{name}">')[1].split("</section>")[0] for name in ("human", "targeted")}
    for metric, line in lines.items():
        assert f'<p class="note">{escape(line)}</p>' in sections["targeted" if metric is None else "human"]
    assert f"Δτ vs full {evaluation.label(reference_metric(evaluation.metrics))}</dt>" in page
    assert f"fewer than {FEW_JUDGED} instances" in page and f"The first {INLINE_ROWS} rows of a config" in page


def test_a_run_without_targeted_accuracy_has_no_targeted_power_sentence(report, tmp_path):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.stats.versus_full import power_line

    evaluation = report["evaluation"]
    plain = replace(evaluation, targeted=None,
                    configs={n: replace(c, human_targeted=None) for n, c in evaluation.configs.items()})
    page = write_html(tmp_path, plain)[0].read_text(encoding="utf-8")
    assert power_line(plain, None) is None and "targeted τ" not in page
    assert f'<p class="note">{escape(power_line(plain, "bleu"))}</p>' in page


def test_the_sentences_notes_are_on_the_page(report, tmp_path):
    from dataclasses import replace

    sentences = replace(collect(report["request"], report["evaluation"]), notes=["<b>stdin</b> was read: no sentences"])
    page = write_html(tmp_path, report["evaluation"], sentences)[0].read_text(encoding="utf-8")
    assert '<p class="note">&lt;b&gt;stdin&lt;/b&gt; was read: no sentences</p>' in page


def test_the_page_is_utf8_whatever_the_locale(report, tmp_path, c_locale):
    from dataclasses import replace

    evaluation = report["evaluation"]
    renamed = replace(evaluation, notes=(*evaluation.notes, "Übersetzer-β"))
    assert "Übersetzer-β" in write_html(tmp_path, renamed)[0].read_bytes().decode("utf-8")


def test_targeted_notes_carry_the_controls_line_only_with_a_control(report):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.report.sections.targeted_section import (
        DIAGNOSTIC,
        control_line,
        judge_line,
        targeted_notes,
    )

    evaluation = report["evaluation"]
    control = control_line(evaluation)
    assert control and targeted_notes(evaluation) == [DIAGNOSTIC, judge_line(evaluation.targeted), control]
    none = replace(evaluation, targeted=replace(evaluation.targeted, control={}))
    assert control_line(none) is None and targeted_notes(none) == [DIAGNOSTIC, judge_line(none.targeted)]


def test_targeted_config_rows_skip_configs_without_targeted_scores_and_carry_n(report):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.report.cells import ordered_configs
    from auto_challenge_sets.evaluation.report.sections.targeted_section import targeted_configs

    evaluation = report["evaluation"]
    first, *rest = [n for n in ordered_configs(evaluation)
                    if any(r.targeted is not None for r in evaluation.configs[n].systems.values())]
    assert rest
    config = evaluation.configs[first]
    bare = replace(config, systems={s: replace(r, targeted=None) for s, r in config.systems.items()})
    rows = targeted_configs(replace(evaluation, configs={**evaluation.configs, first: bare}))
    assert [r.config for r in rows] == rest
    assert [r.n for r in rows] == [evaluation.configs[n].n for n in rest]


def test_a_cell_of_a_config_without_random_corpora_says_why(report):
    from dataclasses import replace

    from auto_challenge_sets.evaluation.report.sections.challenge_section import cells

    evaluation = report["evaluation"]
    name = next(iter(evaluation.configs))
    why = "no sentence lies outside the config"
    changed = replace(evaluation, configs={**evaluation.configs,
                                           name: replace(evaluation.configs[name], random_unavailable=why)})
    assert {c.random_unavailable for c in cells(changed) if c.config == name} == {why}
    assert {c.random_unavailable for c in cells(changed) if c.config != name} == {None}


def test_the_sidecars_are_utf8_whatever_the_locale_and_a_second_page_rewrites_them(report, tmp_path, c_locale):
    from dataclasses import replace

    sentences = collect(report["request"], report["evaluation"])
    marked = replace(sentences, texts={line: {**text, "src": [*text["src"], "Übersetzer-β"]}
                                       for line, text in sentences.texts.items()})
    for _ in range(2):  # into the same folder again: its sentences/ is there already
        written = write_html(tmp_path, report["evaluation"], marked)
    sidecars = [p.read_bytes().decode("utf-8") for p in written[1:]]
    assert sidecars and any("Übersetzer-β" in text for text in sidecars)
