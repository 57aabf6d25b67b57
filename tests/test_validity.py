"""Validity the tool measures itself (issue 23): the segment-score reader, sentence-level agreement
with human z, p-values corrected across configs (equal to scipy's), exploratory labels, the
degenerate-baseline flag and "n/a" trends. On the hand-made toy folder; seconds."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import sacrebleu
from scipy.stats import false_discovery_control, kendalltau, spearmanr

from auto_challenge_sets.cli import main
from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.report.report_writer import markdown_report, text_report
from auto_challenge_sets.evaluation.report.sections.challenge_section import config_heading
from auto_challenge_sets.evaluation.report.sections.human_section import human_table
from auto_challenge_sets.evaluation.report.sections.segments_section import segment_table
from auto_challenge_sets.evaluation.report.sections.trends_section import summary_table
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import SCHEMA_PATH
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.evaluation.stats.multiple_testing import benjamini_hochberg
from auto_challenge_sets.evaluation.stats.segments import read_human_seg
from auto_challenge_sets.formats.pharaoh import parse_pharaoh
from auto_challenge_sets.scoring.length_baseline import is_degenerate
from auto_challenge_sets.scoring.targeted import targeted_accuracy

from mutation_scope import per_test_under_mutmut
from segments_by_hand import cluster_bootstrap_by_hand
from toy_dataset import SPLIT, N

SKIPPED = {"worse": {3, 4, 5}}  # lines the table has no score for: left out, never guessed


def _z(system: str, line: int) -> float:
    """A made-up z that rises with the system's quality and varies by line."""
    quality = {"ref": 1.0, "better": 0.6, "good": 0.3, "lower": 0.1, "worse": -0.5}[system]
    return round(quality + 0.3 * np.sin(line * 1.7 + len(system)), 6)


def _write_seg(path, systems) -> None:
    rows = ["SYS SID RAW.SCR Z.SCR N"]
    for k, system in enumerate(systems):
        rows += [f"{system}.{k} {line} 70 {_z(system, line)} 1" for line in range(1, N + 1)
                 if line not in SKIPPED.get(system, ())]
    rows.append("HUMAN.0 1 80 0.5 1")  # WMT scores its human reference too: not one of our systems
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def seg_table(toy) -> Path:
    """The toy's WMT-like segment-score table."""
    path = toy["tmp"] / "seg.txt"
    _write_seg(path, list(toy["hyps"]))
    return path


@pytest.fixture(scope=per_test_under_mutmut)
def run(toy, seg_table) -> dict:
    # min_rows 10: particle d0 to d4 are usable (d5 holds d4's rows), so trends exist
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("chrf", "bleu", "ter"), n_samples=20,
                                paired_samples=20, min_rows=10, targeted=TargetedRequest("present"))
    systems = list(toy["hyps"])
    seg = read_human_seg(seg_table, systems)
    return {"evaluation": evaluate(request, read_human(toy["human"], systems), human_seg=seg), "seg": seg}


# the reader


def test_the_reader_matches_run_numbers_and_lists_unknown_systems(seg_table):
    seg = read_human_seg(seg_table, ["ref", "mine", "absent"], aliases={"better.1": "mine"})
    assert seg.scores["ref"][7] == _z("ref", 7) and seg.scores["mine"][7] == _z("better", 7)
    assert seg.unmatched_table == ["good.2", "lower.3", "worse.4", "HUMAN.0"]
    assert seg.unmatched_systems == ["absent"]


@pytest.mark.parametrize(("row", "message"), [
    ("ref.0 2 70", "has 3 columns, the header 5"),
    ("ref.0 two 70 0.1 1", "SID 'two' is not a line number"),
    ("ref.0 0 70 0.1 1", "SID 0 is not a 1-based line number"),
    ("ref.0 2 70 high 1", "Z.SCR 'high' is not a number"),
    ("ref.0 2 70 nan 1", "Z.SCR 'nan' is not a finite number"),
    ("ref.0 1 70 0.2 1", "ref.0 SID 1 is scored twice (first at line 2)"),
])
def test_a_bad_row_is_an_error_naming_file_and_line(tmp_path, row, message):
    path = tmp_path / "seg.txt"
    path.write_text(f"SYS SID RAW.SCR Z.SCR N\nref.0 1 70 0.1 1\n\n{row}\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_human_seg(path, ["ref"])
    assert str(error.value) == f"{path}:4: {message}"  # the blank line 3 still counts


def test_a_table_without_the_columns_names_them(tmp_path):
    path = tmp_path / "seg.csv"
    path.write_text("SYS,SEGMENT,Z\nref,1,0.1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"seg.csv:1: has no column SID, Z.SCR"):
        read_human_seg(path, ["ref"])


def test_a_table_without_the_columns_names_what_it_has_and_wmts_layout(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_text("\n\nSYS SEGMENT Z\nref 1 0.1\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_human_seg(path, ["ref"])
    assert str(error.value) == (f"{path}:3: has no column SID, Z.SCR (columns: SYS, SEGMENT, Z; WMT's layout is "
                                "SYS SID RAW.SCR Z.SCR N)")


def test_an_empty_table_says_what_a_segment_table_needs(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_human_seg(path, ["ref"])
    assert str(error.value) == f"{path}: is empty: a segment-score table needs the header SYS SID RAW.SCR Z.SCR N"


def test_a_line_that_is_not_utf8_is_a_table_error_not_a_corpus_error(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_bytes(b"SYS SID RAW.SCR Z.SCR N\n\xff 1 70 0.1 1\n")
    with pytest.raises(InputError) as error:
        read_human_seg(path, ["ref"])
    assert type(error.value) is InputError and str(error.value) == f"{path}:2: invalid UTF-8 (byte 1 of the line)"


def test_columns_are_found_by_name_in_any_order_and_a_csv_reads_the_same(tmp_path):
    spaced, csv = tmp_path / "seg.txt", tmp_path / "seg.csv"
    spaced.write_text("N Z.SCR RAW.SCR SID SYS\n1 -0.25 70 2 ref.0\n1 1.5 70 1 mine\n1 0.75 70 3 HUMAN.0\n",
                      encoding="utf-8")
    csv.write_text("N,Z.SCR,RAW.SCR,SID,SYS\n1,-0.25,70,2,ref.0\n1,1.5,70,1,mine\n1,0.75,70,3,HUMAN.0\n",
                   encoding="utf-8")
    for path in (spaced, csv):
        seg = read_human_seg(path, ["ref", "mine", "absent"])
        assert seg.scores == {"ref": {2: -0.25}, "mine": {1: 1.5}}
        assert seg.read_at == {("ref", 2): 2, ("mine", 1): 3}
        assert seg.unmatched_table == ["HUMAN.0"] and seg.unmatched_systems == ["absent"]
        assert seg.path == str(path)


def test_an_alias_names_the_system_and_an_unknown_name_is_listed_once(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_text("SYS SID RAW.SCR Z.SCR N\nOnline-X 1 70 0.5 1\nother 1 70 0.1 1\nother 2 70 0.2 1\n"
                    "HUMAN.0 1 70 0.9 1\n", encoding="utf-8")
    seg = read_human_seg(path, ["mine"], aliases={"Online-X": "mine"})
    assert seg.scores == {"mine": {1: 0.5}}
    assert seg.unmatched_table == ["other", "HUMAN.0"] and seg.unmatched_systems == []


def test_the_first_sid_past_the_corpus_in_file_order_is_named(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_text("SYS SID RAW.SCR Z.SCR N\nzeta 9 70 0.1 1\nalpha 12 70 0.1 1\nalpha 8 70 0.1 1\n",
                    encoding="utf-8")
    seg = read_human_seg(path, ["alpha", "zeta"])
    seg.check_lines(12)  # the last line itself is in the corpus
    with pytest.raises(InputError) as error:
        seg.check_lines(8)
    assert str(error.value) == f"{path}:2: SID 9 (zeta) is past the corpus's 8 lines"


def test_z_is_nan_where_the_table_has_no_score_and_reads_numpy_line_numbers(tmp_path):
    path = tmp_path / "seg.txt"
    path.write_text("SYS SID RAW.SCR Z.SCR N\nref 2 70 -0.5 1\nref 3 70 0.25 1\n", encoding="utf-8")
    seg = read_human_seg(path, ["ref", "other"])
    z = seg.z("ref", np.array([3, 1, 2], dtype=np.int64))
    assert z.dtype == np.float64 and z[0] == 0.25 and np.isnan(z[1]) and z[2] == -0.5
    assert np.isnan(seg.z("other", [2])).all()


def test_a_line_past_the_corpus_is_an_error_and_the_cli_says_it_in_one_line(toy, tmp_path, capsys):
    path = tmp_path / "seg.txt"
    path.write_text(f"SYS SID RAW.SCR Z.SCR N\ngood 1 70 0.1 1\ngood {N + 1} 70 0.1 1\n", encoding="utf-8")
    rc = main(["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d3", "--split", SPLIT,
               "--hyp", f"good={toy['hyps']['good']}", "--human-seg", str(path), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "\n" not in err
    assert f"{path}:3: SID {N + 1} (good) is past the corpus's {N} lines" in err


# segment-level agreement


def _sentence_chrf(toy, system: str, line: int) -> float:
    return sacrebleu.sentence_chrf(toy["corpus"]["outputs"][system][line - 1], [toy["corpus"]["refs"][line - 1]]).score


def test_sentence_chrf_tau_is_scipys_over_the_pairs_with_a_score(toy, run):
    config = "de-en.particle.d2"
    lines = toy["configs"][config]
    xs, zs = [], []
    for system in toy["hyps"]:
        for line in lines:
            if line not in SKIPPED.get(system, ()):
                xs.append(_sentence_chrf(toy, system, line))
                zs.append(_z(system, line))
    found = run["evaluation"].configs[config].segment["chrf"]
    assert found.segments == len(xs) == 5 * len(lines) - len(SKIPPED["worse"] & set(lines))
    expected = kendalltau(xs, zs)
    assert found.kendall == pytest.approx(expected.statistic)
    assert found.kendall > 0  # the made-up z rises with the system's quality, as chrF does
    # ... and with nothing about the sentence: the pairs look dependent (p ~ 1e-19) only while their
    # sentences are counted as independent; shuffling whole sentences' z keeps the system effect
    assert expected.pvalue < 1e-10 and found.p_value > 0.05
    full = run["evaluation"].segment_full["ter"]  # lower is better: negated, so agreeing is positive
    assert full.segments == 5 * N - 3 and full.kendall > 0


def _judged(toy, config: str) -> list[tuple[int, float, bool]]:
    """(corpus line, human z, judged correct) of every judged instance of ``config`` with a z, judged here."""
    lines = toy["configs"][config]
    rows = {n: i for i, n in enumerate(range(1, N + 1))}
    refs, outputs = toy["corpus"]["refs"], toy["corpus"]["outputs"]
    import pyarrow.parquet as pq

    table = pq.read_table(toy["root"] / "data" / config / f"{SPLIT}-00000-of-00001.parquet").to_pylist()
    instances = [r["instances"] for r in table]
    judged = []
    for system in toy["hyps"]:
        verdicts: list[list[str]] = []
        targeted_accuracy(instances, [refs[rows[n]] for n in lines], [outputs[system][rows[n]] for n in lines],
                          [parse_pharaoh(r["alignment"]) for r in table], None, verdict_rows=verdicts)
        for line, row in zip(lines, verdicts):
            if line in SKIPPED.get(system, ()):
                continue
            judged += [(line, _z(system, line), verdict == "correct") for verdict in row if verdict in ("correct", "wrong")]
    return judged


def _by_sentence(toy, config: str, judged: list[tuple[int, float, bool]]) -> list[tuple[int, float, bool]]:
    """The instances with their sentences numbered 0 … n − 1 in the config's row order."""
    order = [line for line in toy["configs"][config] if any(line == at for at, _, _ in judged)]
    return [(order.index(line), z, good) for line, z, good in judged]


def test_targeted_correct_minus_wrong_with_a_cluster_bootstrap_by_hand(toy, run):
    config = "de-en.particle.d1"
    judged = _judged(toy, config)
    right = [z for _, z, good in judged if good]
    wrong = [z for _, z, good in judged if not good]
    found = run["evaluation"].configs[config].segment_targeted
    assert (found.correct, found.wrong) == (len(right), len(wrong)) and found.segments == len(right) + len(wrong)
    assert found.z_correct_minus_wrong == pytest.approx(np.mean(right) - np.mean(wrong))
    ci, p = cluster_bootstrap_by_hand(_by_sentence(toy, config, judged), seed=1)
    assert found.ci == pytest.approx(ci) and found.difference_p_value == pytest.approx(p)
    tau = kendalltau([1.0] * len(right) + [0.0] * len(wrong), right + wrong)
    assert found.kendall == pytest.approx(tau.statistic)


def test_the_runs_seed_draws_the_bootstrap_interval(toy, run):
    config = "de-en.particle.d1"
    request = EvaluationRequest(toy["root"], toy["hyps"], config=config, metrics=("chrf",), n_samples=5,
                                paired_samples=20, min_rows=10, seed=5, targeted=TargetedRequest("present"))
    systems = list(toy["hyps"])
    found = evaluate(request, read_human(toy["human"], systems), human_seg=run["seg"]).configs[config].segment_targeted
    instances = _by_sentence(toy, config, _judged(toy, config))
    assert found.ci == pytest.approx(cluster_bootstrap_by_hand(instances, seed=5)[0])
    assert found.ci != pytest.approx(cluster_bootstrap_by_hand(instances, seed=1)[0])


# corrected p-values and exploratory labels


def test_corrected_p_values_equal_scipys_across_the_configs(run):
    evaluation = run["evaluation"]
    # one member per row set: particle.d5 holds the rows of d4 (min_rows 10: nothing is small)
    assert evaluation.configs["de-en.particle.d5"].same_rows_as == "de-en.particle.d4"
    assert not any(c.small for c in evaluation.configs.values())
    names = [n for n, c in evaluation.configs.items() if c.human["bleu"] is not None and n != "de-en.particle.d5"]
    raw = [evaluation.configs[n].human["bleu"].p_value for n in names]
    expected = false_discovery_control(raw, method="bh")
    for name, p in zip(names, expected):
        human = evaluation.configs[name].human["bleu"]
        assert human.p_corrected == pytest.approx(p) and human.exploratory == (p >= 0.05)
        assert human.family_size == len(names) == 6
    repeat = evaluation.configs["de-en.particle.d5"].human["bleu"]
    assert repeat.p_corrected == evaluation.configs["de-en.particle.d4"].human["bleu"].p_corrected
    assert evaluation.human_full["bleu"].p_corrected is None  # one pre-specified test, not a choice
    targeted = [evaluation.configs[n].human_targeted for n in names if evaluation.configs[n].human_targeted]
    assert [t.p_corrected for t in targeted] == pytest.approx(
        list(false_discovery_control([t.p_value for t in targeted], method="bh")))
    # segment level: the same family, its size carried
    segment = [evaluation.configs[n].segment["chrf"] for n in names]
    assert [s.p_corrected for s in segment] == pytest.approx(
        list(false_discovery_control([s.p_value for s in segment], method="bh")))
    assert {s.family_size for s in segment} == {len(names)}
    # targeted correct − wrong, a family of its own: its interval's label (a repeat whose instances
    # differ is a member of its own)
    found = {n: c.segment_targeted for n, c in evaluation.configs.items() if c.segment_targeted is not None}
    members = [n for n, t in found.items() if not (n == "de-en.particle.d5" and t.difference_p_value
                                                   == found["de-en.particle.d4"].difference_p_value)]
    expected = false_discovery_control([found[n].difference_p_value for n in members], method="bh")
    for name, p in zip(members, expected):
        assert found[name].difference_p_corrected == pytest.approx(p)
        assert found[name].difference_exploratory == (p >= 0.05) and found[name].difference_family_size == len(members)


def test_trends_over_usable_configs_and_their_corrected_p(toy, run):
    evaluation = run["evaluation"]
    configs = evaluation.configs
    usable = [f"de-en.particle.d{d}" for d in range(5)]  # by hand: 77, 61, 39, 28, 15 rows
    # d0 holds 77 of the 90 rows: the rows the other 13 cannot match draw from the whole corpus
    assert not any(c.degenerate_baseline for c in configs.values()) and configs[usable[0]].shared > 0
    trends = evaluation.trends["bleu"]["de-en.particle"]
    raw = {}
    for system in evaluation.systems:
        scores = [configs[n].systems[system].scores["bleu"].score for n in usable]
        assert trends[system].n == 5
        if len(set(scores)) == 1:
            assert trends[system].spearman is None
            continue
        expected = spearmanr(range(5), scores)
        assert trends[system].spearman == pytest.approx(expected.statistic)
        raw[system] = expected.pvalue
    every = [t for per_system in evaluation.trends["bleu"].values() for t in per_system.values() if t.p_value is not None]
    assert [t.p_corrected for t in every] == pytest.approx(
        list(false_discovery_control([t.p_value for t in every], method="bh")))
    summary = evaluation.summary["bleu"]["de-en.particle"]
    assert summary.trends == len(raw) and summary.worsening_trend == sum(
        1 for s in raw if trends[s].spearman < 0)


def test_benjamini_hochberg_keeps_untested_results_untested():
    p = [0.01, None, 0.04, 0.03]
    expected = false_discovery_control([0.01, 0.04, 0.03], method="bh")
    assert benjamini_hochberg(p) == [pytest.approx(expected[0]), None, pytest.approx(expected[1]),
                                     pytest.approx(expected[2])]
    assert benjamini_hochberg([None, None]) == [None, None]


def test_the_report_labels_exploratory_results_and_degenerate_configs(run):
    evaluation = run["evaluation"]  # d1 marked as if length matching had failed for it
    evaluation = replace(evaluation, configs={**evaluation.configs, "de-en.particle.d1": replace(
        evaluation.configs["de-en.particle.d1"], degenerate_baseline=True)})
    table = human_table(evaluation, "bleu")
    for name, config in evaluation.configs.items():
        human = config.human["bleu"]
        row = next(line for line in table.splitlines() if line.startswith(name))
        versus = human.vs_full_test  # its own column: the τ difference to full-test BLEU, its own family
        assert row.count("exploratory") == bool(human.exploratory) + bool(versus and versus.exploratory), row
        assert ("degenerate baseline" in row) == config.degenerate_baseline, row
    text = text_report(evaluation)
    assert "p (BH, " in text and "degenerate baseline" in text
    widened = replace(evaluation, configs={**evaluation.configs, "de-en.particle.d2": replace(
        evaluation.configs["de-en.particle.d2"], widened=3)})
    assert "widened 3" in config_heading(widened, "de-en.particle.d2")
    assert "segment-level agreement with human z, chrf" in text
    report = markdown_report(evaluation, [])
    assert "Benjamini–Hochberg" in report and "## Segment-level agreement with human z, chrF" in report
    assert "z correct − wrong" in report
    # the interval with its own label and its family's size in the header (issue 34)
    table = segment_table(evaluation, "chrf")
    sizes = {c.segment_targeted.difference_family_size for c in evaluation.configs.values() if c.segment_targeted}
    assert len(sizes) == 1 and f"p (BH, {sizes.pop()} tests)" in table.splitlines()[0]
    for name, config in evaluation.configs.items():
        targeted = config.segment_targeted
        row = next(line for line in table.splitlines() if line.startswith(name))
        if targeted is not None and targeted.ci is not None:
            ci = f"[{targeted.ci[0]:+.3f}, {targeted.ci[1]:+.3f}]"
            assert (f"{ci} (exploratory)" in row) == targeted.difference_exploratory, row
    row = next(line for line in summary_table(evaluation, "bleu").splitlines() if line.startswith("de-en.particle"))
    assert "BH < 0.05" in row


def test_results_with_the_new_fields_validate(run):
    document = json.loads(json.dumps(run["evaluation"].to_json()))
    jsonschema.validate(document, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")),
                        cls=jsonschema.Draft202012Validator)
    config = document["configs"]["de-en.particle.d0"]
    assert config["degenerate_baseline"] is False and isinstance(config["widened"], int) and config["shared"] > 0
    assert 0 < config["length_gap"] <= 1 and 1 <= config["distinct"] <= 20  # ±1 token; 20 random corpora
    assert config["segment_targeted"]["ci"] is not None


# the degenerate-baseline rule


@pytest.mark.parametrize(("rows", "widened", "expected"), [
    (788, 0, False),  # WMT21 de-en subj_verb.d0: matched, its rows beyond the rest's drawn from the whole corpus
    (100, 10, False),  # a tenth widened is tolerated
    (100, 11, True),
])
def test_the_degenerate_rule(rows, widened, expected):
    assert is_degenerate(rows, widened) is expected


def test_the_cli_reports_segment_agreement_and_notes_unknown_systems(toy, seg_table, capsys):
    hyps = [f"{name}={path}" for name, path in toy["hyps"].items()]
    rc = main(["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2,de-en.particle.d3",
               "--split", SPLIT, "--hyp", *hyps, "--human-seg", str(seg_table), "--n-samples", "5",
               "--paired-samples", "5", "--quiet", "--json"])
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert rc == 0 and "note: segment scores of systems not evaluated: HUMAN.0" in err
    jsonschema.validate(document, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")),
                        cls=jsonschema.Draft202012Validator)
    chrf = document["configs"]["de-en.particle.d3"]["segment"]["chrf"]
    assert chrf["segments"] == 5 * len(toy["configs"]["de-en.particle.d3"]) - len(
        SKIPPED["worse"] & set(toy["configs"]["de-en.particle.d3"]))
    assert document["configs"]["de-en.particle.d3"]["segment_targeted"] is None  # no --targeted


def test_the_html_page_shows_the_segment_tables_and_surviving_trends_as_in_results_json(run, tmp_path):
    """The page's sentence-level tables hold results.json's numbers, row by row, and the summary's
    worsening-trend cell counts the trends that survive BH (counted here from the JSON)."""
    html5lib = pytest.importorskip("html5lib")
    from auto_challenge_sets.evaluation.report.html.html_report import write_html

    evaluation = run["evaluation"]
    (index,) = write_html(tmp_path, evaluation)
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    document = parser.parse(index.read_text(encoding="utf-8"))
    assert parser.errors == []
    results = evaluation.to_json()
    section = next(e for e in document.iter("section") if e.get("id") == "segments")
    tables = section.findall(".//table")
    assert len(tables) == len(evaluation.metrics)
    for metric, table in zip(evaluation.metrics, tables):
        rows = table.find("tbody").findall("tr")
        names = ["".join(r.find("th").itertext()).split(" ")[0] for r in rows]
        expected = ["(full"] + [c for c in sorted(results["configs"], key=config_sort_key)
                                if results["configs"][c]["segment"] is not None]
        assert names == expected
        for name, row in zip(names, rows):
            found = (results["segment_full"] if name == "(full" else results["configs"][name]["segment"])[metric]
            cells = row.findall("td")
            assert int(cells[0].get("data-value")) == found["segments"]
            assert float(cells[1].get("data-value")) == found["kendall"]
            if name != "(full":
                assert float(cells[3].get("data-value")) == found["p_corrected"]
                assert ("exploratory" in "".join(cells[3].itertext())) == found["exploratory"]
                targeted = results["configs"][name]["segment_targeted"]
                if targeted is None:  # the baseline and reorder configs: nothing judged
                    assert cells[5].get("data-value") == "" and "".join(cells[4].itertext()) == "–"
                    continue
                assert float(cells[5].get("data-value")) == targeted["z_correct_minus_wrong"]
                assert "".join(cells[4].itertext()) == f"{targeted['correct']} / {targeted['wrong']}"
                # the interval's own corrected p, its family's size and its label (issue 34)
                assert float(cells[7].get("data-value")) == targeted["difference_p_corrected"]
                assert ("exploratory" in "".join(cells[7].itertext())) == targeted["difference_exploratory"]
                assert ("exploratory" in "".join(cells[6].itertext())) == targeted["difference_exploratory"]
    summary = next(e for e in document.iter("section") if e.get("id") == "summary")
    for metric, table in zip(evaluation.metrics, summary.findall(".//table")):
        sign = 1 if results["higher_is_better"][metric] else -1
        for row in table.find("tbody").findall("tr"):
            phenomenon = row.find("th").text
            trends = results["trends"][metric].get(phenomenon, {}).values()
            size = sum(t["p_value"] is not None for every in results["trends"][metric].values() for t in every.values())
            surviving = sum(t["spearman"] is not None and sign * t["spearman"] < 0 and t["p_corrected"] < 0.05
                            for t in trends)
            cell = "".join(row.findall("td")[-1].itertext())
            assert cell == "n/a" if results["summary"][metric][phenomenon]["worsening_trend"] is None \
                else cell.endswith(f"({surviving} BH < 0.05 of {size} trends)")


def test_the_pages_segment_rows_skip_a_config_without_agreement_and_go_on(run):
    """A config with neither a metric's nor targeted accuracy's segment agreement has no row; the
    configs after it still do (the full test set first)."""
    from auto_challenge_sets.evaluation.report.cells import ordered_configs
    from auto_challenge_sets.evaluation.report.sections.segments_section import segment_rows

    evaluation = run["evaluation"]
    metric = evaluation.metrics[0]
    named = [n for n in ordered_configs(evaluation)
             if (evaluation.configs[n].segment or {}).get(metric) or evaluation.configs[n].segment_targeted]
    assert len(named) > 2
    bare = replace(evaluation.configs[named[0]], segment={m: None for m in evaluation.metrics}, segment_targeted=None)
    rows = segment_rows(replace(evaluation, configs={**evaluation.configs, named[0]: bare}), metric)
    assert rows[0].config == "(full test set)" and [r.config for r in rows[1:]] == named[1:]
    assert [r.config for r in segment_rows(evaluation, metric)[1:]] == named
