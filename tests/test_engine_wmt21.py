"""The evaluation engine end to end on real WMT21 de→en outputs and human scores (the build of
UDPipe + eflomal that conftest's ``wmt21_de_en`` makes once), against sacrebleu and scipy computed
here. The fast tests of the same code on hand-made data are tests/test_engine.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu
from scipy.stats import kendalltau, spearmanr

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.metrics.compute import compute

from conftest import shared_path

SYSTEMS = ("Facebook-AI", "UEdin", "happypoet", "Online-W", "UF", "VolcTrans-GLAT")
SPLIT = "newstest2021"


@pytest.fixture(scope="module")
def wmt(wmt21_de_en) -> dict:
    wmt21 = shared_path("data", "wmt21")
    out = wmt21_de_en
    hyps = {name: wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en" for name in SYSTEMS}
    request = EvaluationRequest(dataset=out, hypotheses=hyps, split=SPLIT, pair="de-en", n_samples=30,
                                paired_samples=200, seed=3)
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    evaluation = evaluate(request, human)
    return {"out": out, "hyps": hyps, "evaluation": evaluation, "payload": evaluation.to_json(), "human": human,
            "wmt21": wmt21, "request": request}


def _rows(folder: Path, config: str) -> dict:
    return DatasetFolder(folder).read(config, SPLIT, ["id", "line", "reference", "length", "distance"])


def test_bleu_and_chrf_of_every_cell_equal_sacrebleu(wmt):
    payload = wmt["payload"]
    for config, entry in payload["configs"].items():
        rows = _rows(wmt["out"], config)
        for system, path in wmt["hyps"].items():
            hyp = read_lines(path)
            preds = [hyp[line - 1] for line in rows["line"]]
            scores = entry["systems"][system]["scores"]
            assert scores["bleu"]["score"] == sacrebleu.corpus_bleu(preds, [rows["reference"]]).score
            assert scores["chrf"]["score"] == sacrebleu.corpus_chrf(preds, [rows["reference"]]).score
    assert payload["full"]["UEdin"]["chrf"] == sacrebleu.corpus_chrf(
        read_lines(wmt["hyps"]["UEdin"]), [read_lines(wmt["wmt21"] / "references" / "newstest2021.de-en.ref.A.en")]).score


def test_the_random_baseline_is_the_one_compute_gives_for_one_system(wmt):
    config = "de-en.particle.d2"
    rows, base = _rows(wmt["out"], config), _rows(wmt["out"], "de-en.baseline")
    hyp = read_lines(wmt["hyps"]["happypoet"])
    single = compute([hyp[n - 1] for n in rows["line"]], rows["reference"], lengths=rows["length"], ids=rows["id"],
                     pool_predictions=[hyp[n - 1] for n in base["line"]], pool_references=base["reference"],
                     pool_lengths=base["length"], pool_ids=base["id"], n_samples=30, seed=3)
    many = wmt["payload"]["configs"][config]["systems"]["happypoet"]["scores"]
    for metric in ("bleu", "chrf", "ribes"):
        assert many[metric]["score"] == single[metric]
        assert many[metric]["random"]["mean"] == pytest.approx(single["random_baseline"][metric]["mean"], abs=1e-12)
        assert many[metric]["random"]["p_value"] == single["random_baseline"][metric]["p_value"]


def test_paired_p_values_equal_sacrebleus_own_test(wmt):
    from sacrebleu.significance import PairedTest

    payload = wmt["payload"]
    config = "de-en.reorder.d10"
    rows = _rows(wmt["out"], config)
    baseline = payload["baseline_system"]
    assert baseline == max(payload["full"], key=lambda s: payload["full"][s]["bleu"])
    order = [baseline, *[s for s in SYSTEMS if s != baseline]]
    named = [(s, [read_lines(wmt["hyps"][s])[n - 1] for n in rows["line"]]) for s in order]
    _, scores = PairedTest(named, {"BLEU": sacrebleu.BLEU(), "chrF2": sacrebleu.CHRF()}, [rows["reference"]],
                           test_type="ar", n_samples=200)()
    for index, system in enumerate(order[1:], start=1):
        ours = payload["configs"][config]["systems"][system]["scores"]
        assert ours["bleu"]["vs_baseline"]["p_value"] == scores["BLEU"][index].p_value
        assert ours["chrf"]["vs_baseline"]["p_value"] == scores["chrF2"][index].p_value
        assert ours["bleu"]["vs_baseline"]["delta"] == pytest.approx(scores["BLEU"][index].score - scores["BLEU"][0].score)
    assert all(s["vs_baseline"] is None for s in payload["configs"][config]["systems"][baseline]["scores"].values())


def test_human_correlation_equals_scipy_on_the_printed_numbers(wmt):
    payload, human = wmt["payload"], wmt["human"]
    assert set(human.scores) == set(SYSTEMS) and not human.unmatched_systems
    assert "HUMAN" in " ".join(human.unmatched_table) or human.unmatched_table  # rows of other systems
    for config, entry in payload["configs"].items():
        ys = [human.scores[s] for s in SYSTEMS]
        for metric in ("bleu", "chrf", "ribes"):
            xs = [entry["systems"][s]["scores"][metric]["score"] for s in SYSTEMS]
            assert entry["human"][metric]["spearman"] == pytest.approx(spearmanr(xs, ys).statistic), config
            assert entry["human"][metric]["kendall"] == pytest.approx(kendalltau(xs, ys).statistic), config
            low, high = entry["human"][metric]["ci"]
            assert -1 <= low <= high <= 1
            assert 0 <= entry["human"][metric]["random_kendall_percentile"] <= 100


def test_small_and_duplicate_configs_are_flagged_and_left_out_of_trends(wmt):
    payload = wmt["payload"]
    for name, entry in payload["configs"].items():
        assert entry["small"] == (entry["n"] < 20), name
    trends = payload["trends"]["bleu"]["de-en.particle"]["UEdin"]
    usable = [c for c in payload["configs"].values() if c["phenomenon"] == "de-en.particle" and not c["small"]
              and c["same_rows_as"] is None]
    assert trends["n"] == len(usable)
    ds = [c["min_distance"] for c in usable]
    bleu = [c["systems"]["UEdin"]["scores"]["bleu"]["score"] for c in usable]
    assert trends["spearman"] == pytest.approx(spearmanr(ds, bleu).statistic)
    summary = payload["summary"]["bleu"]["de-en.particle"]
    assert summary["cells"] == len(usable) * len(SYSTEMS) and 0 <= summary["worse_than_full"] <= 1


def test_configs_with_the_same_rows_point_to_the_first_of_them(wmt):
    payload = wmt["payload"]
    names = list(payload["configs"])
    lines = {name: tuple(sorted(_rows(wmt["out"], name)["line"])) for name in names}
    for k, name in enumerate(names):
        earlier = [other for other in names[:k] if lines[other] == lines[name]]
        assert payload["configs"][name]["same_rows_as"] == (earlier[0] if earlier else None), name


@pytest.fixture(scope="module")
def written(wmt, tmp_path_factory) -> dict:
    """`acs evaluate --out` on three systems with the human scores: the folder, the exit status and
    what it printed."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("wmt21-report") / "report"
    hyps = [str(p) for p in list(wmt["hyps"].values())[:3]]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        rc = main(["evaluate", "--dataset", str(wmt["out"]), "--split", SPLIT, "--pair", "de-en", "--config", "all",
                   "--hyp", *hyps, "--human", str(wmt["wmt21"] / "humaneval" / "ad-sys-scores-de-en.csv"),
                   "--n-samples", "10", "--paired-samples", "50", "--out", str(out)])
    return {"out": out, "rc": rc, "printed": printed.getvalue()}


def test_the_command_writes_results_report_and_plots(written):
    out, printed = written["out"], written["printed"]
    assert written["rc"] == 0 and "baseline system:" in printed and len(printed.splitlines()) <= 60
    assert "de-en.reorder.d5 (n = " not in printed  # the full tables are in report.md, the terminal has a summary
    assert "## de-en.reorder.d5 (n = " in (out / "tables.bleu.md").read_text(encoding="utf-8")  # report.md's appendix
    payload = json.loads((out / "results.json").read_text(encoding="utf-8"))
    flagged = sum(1 for config in payload["configs"].values() if config["flags"])
    assert f"configs: {len(payload['configs'])} scored, {flagged} flagged (" in printed
    for key in ("signature", "systems", "baseline_system", "full", "configs", "trends", "human_full", "summary"):
        assert payload[key] is not None
    assert isinstance(payload["configs"]["de-en.particle.d1"]["n"], int)
    # lexical configs first, then the alignment ones, each by phenomenon and D as a number
    assert list(payload["configs"]) == sorted(payload["configs"], key=lambda c: (
        c.split(".")[1] in ("reorder", "reorder_norm", "crossing"), c.split(".")[1], int(c.rsplit("d", 1)[1])))
    import xml.etree.ElementTree as ET

    figures = list(out.glob("*.svg"))
    for figure in figures:  # each well-formed, of a readable size, with points, lines or cells
        svg = ET.parse(figure).getroot()
        assert float(svg.get("width")) > 100 and float(svg.get("height")) > 100, figure
        assert sum(e.tag.rsplit("}", 1)[1] in {"circle", "polyline"} for e in svg.iter()) + sum(
            e.get("class") == "cell" for e in svg.iter()) > 3, figure
        assert f"]({figure.name})" in "".join(p.read_text(encoding="utf-8") for p in out.glob("*.md"))
    assert (out / "de-en.bleu.heatmap.svg").is_file() and (out / "de-en.chrf.human.svg").is_file()
    assert "## Summary" in (out / "report.md").read_text(encoding="utf-8")


def test_results_report_and_page_agree_on_every_flag(written):
    """flag_walk over the WMT21 study's folder: results.json, report.md and index.html mark each
    config alike (the terminal's full text, printed without --out, is walked in test_html_report). The configs of 11 and 6 rows (reorder.d20, reorder_norm.d20) are small
    in every table, the human tables included, where a new user found them unmarked."""
    from flag_walk import walk

    seen = walk(written["out"])
    results = json.loads((written["out"] / "results.json").read_text(encoding="utf-8"))
    small = sorted((c["n"], n) for n, c in results["configs"].items() if "small" in c["flags"])
    assert small and all(n < 20 for n, _ in small)
    tables = "".join(p.read_text(encoding="utf-8") for p in sorted(written["out"].glob("tables.*.md")))
    for _, name in small:
        assert f"| {name} (small" in tables  # a row of the human tables (report.md's tables files)
        assert seen["index.html"][name] > 1
    # small configs are outside every family: no corrected p, and exploratory
    for _, name in small:
        for human in results["configs"][name]["human"].values():
            assert human["p_corrected"] is None and human["family_size"] is None and human["exploratory"] is True


@pytest.mark.parametrize("test_type", ["ar", "bs"])
def test_paired_p_values_at_sacrebleus_default_trials_equal_sacrebleus(wmt, test_type):
    """Without paired_samples the request runs sacrebleu's default trials for the test (10,000
    for AR, 1,000 for the bootstrap), records them in the signature, and gives sacrebleu's
    p-values on real output (particle.d3, where 1,000 AR trials put two p below 0.05)."""
    from sacrebleu.significance import PairedTest

    config = "de-en.particle.d3"
    request = EvaluationRequest(dataset=wmt["out"], hypotheses=wmt["hyps"], config=config, split=SPLIT,
                                pair="de-en", metrics=("bleu", "chrf"), n_samples=10, paired_test=test_type)
    evaluation = evaluate(request)
    rows = _rows(wmt["out"], config)
    order = [evaluation.baseline_system, *[s for s in SYSTEMS if s != evaluation.baseline_system]]
    named = [(s, [read_lines(wmt["hyps"][s])[n - 1] for n in rows["line"]]) for s in order]
    theirs = PairedTest(named, {"BLEU": sacrebleu.BLEU(), "chrF2": sacrebleu.CHRF()}, [rows["reference"]],
                        test_type=test_type)  # n_samples=0: sacrebleu's default
    _, scores = theirs()
    assert request.paired_samples == theirs.n_samples == evaluation.settings.paired_samples
    assert f"paired[{test_type}:{theirs.n_samples}|" in evaluation.signature
    for index, system in enumerate(order[1:], start=1):
        ours = evaluation.configs[config].systems[system].scores
        assert ours["bleu"].vs_baseline.p_value == scores["BLEU"][index].p_value
        assert ours["chrf"].vs_baseline.p_value == scores["chrF2"][index].p_value
