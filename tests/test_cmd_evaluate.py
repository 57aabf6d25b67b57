"""``acs evaluate`` on the hand-made toy folder (tests/toy_dataset.py) in the exported layout."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import sacrebleu

import auto_challenge_sets
from auto_challenge_sets.cli import main
from auto_challenge_sets.cli.evaluate import name_systems
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.evaluation.results import SCHEMA_PATH

from toy_dataset import SPLIT, N, make


@pytest.fixture
def dataset(tmp_path: Path) -> dict:
    toy = make(tmp_path)
    return {**toy, "hyp": toy["hyps"]["good"]}


def _valid(document: dict) -> dict:
    jsonschema.validate(document, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")),
                        cls=jsonschema.Draft202012Validator)
    return document


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["evaluate", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_all_configs_as_json(dataset, capsys):
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--split", SPLIT,
                      "--hyp", str(dataset["hyp"]), "--json", "--n-samples", "25", "--seed", "9")
    assert rc == 0
    payload = _valid(json.loads(out))
    c = dataset["corpus"]
    hyps = c["outputs"]["good"]
    assert payload["systems"] == ["toy.hyp.good"] and payload["metrics"] == ["bleu", "chrf", "ribes"]
    assert payload["full"]["toy.hyp.good"]["bleu"] == sacrebleu.corpus_bleu(hyps, [c["refs"]]).score
    assert sorted(payload["configs"]) == sorted(n for n in dataset["configs"] if n != "de-en.baseline")
    for name, result in payload["configs"].items():
        lines = dataset["configs"][name]
        preds = [hyps[n - 1] for n in lines]
        refs = [c["refs"][n - 1] for n in lines]
        scores = result["systems"]["toy.hyp.good"]["scores"]
        assert scores["bleu"]["score"] == sacrebleu.corpus_bleu(preds, [refs]).score
        if name == "de-en.particle.d2":  # the evaluate module installed with the package: the same digits
            module = auto_challenge_sets.load_metric().compute(
                predictions=preds, references=refs, lengths=[len(c["sources"][n - 1]) for n in lines],
                ids=[f"{SPLIT}:{n}" for n in lines], pool_predictions=hyps, pool_references=c["refs"],
                pool_lengths=[len(s) for s in c["sources"]], pool_ids=[f"{SPLIT}:{n}" for n in range(1, N + 1)],
                n_samples=25, seed=9)
            for metric in ("bleu", "chrf", "ribes"):
                assert scores[metric]["score"] == module[metric]
                assert scores[metric]["random"]["mean"] == pytest.approx(module["random_baseline"][metric]["mean"])
    assert set(payload["trends"]["bleu"]) == {"de-en.particle"}


def test_report_folder_and_table(dataset, capsys):
    out_dir = dataset["tmp"] / "report"
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--hyp",
                      *(f"{name}={path}" for name, path in dataset["hyps"].items()), "--metrics", "bleu,ter",
                      "--human", str(dataset["human"]), "--out", str(out_dir), "--n-samples", "10",
                      "--paired-samples", "50")
    assert rc == 0
    assert "baseline system: ref" in out and "the full tables: index.html, and tables.METRIC.md beside report.md" in out
    report = (out_dir / "report.md").read_text(encoding="utf-8")
    assert "Correlation with human scores, TER" in report and "](tables.ter.md)" in report
    assert "de-en.particle.d2 (n = " in (out_dir / "tables.ter.md").read_text(encoding="utf-8")  # report.md's appendix
    assert "## How to read this report" in report and "## Summary, TER" in report
    for metric in ("bleu", "ter"):
        assert (out_dir / f"de-en.{metric}.heatmap.svg").read_bytes()[:5] == b"<svg "
        assert (out_dir / f"de-en.particle.{metric}.trend.svg").is_file()
        assert (out_dir / f"de-en.{metric}.human.svg").is_file()
    payload = _valid(json.loads((out_dir / "results.json").read_text(encoding="utf-8")))
    assert payload["split"] == SPLIT and payload["human_full"]["ter"]["systems"] == 5


def test_one_config_and_an_extra_reference(dataset, capsys):
    ref2 = dataset["tmp"] / "ref2.en"
    ref2.write_text("\n".join(dataset["corpus"]["outputs"]["good"]) + "\n", encoding="utf-8")  # a perfect reference
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "de-en.particle.d1", "--split", SPLIT,
                      "--hyp", str(dataset["hyp"]), "--ref", str(ref2), "--json", "--n-samples", "10")
    assert rc == 0
    payload = _valid(json.loads(out))
    assert list(payload["configs"]) == ["de-en.particle.d1"]
    assert payload["signature"].startswith("BLEU[nrefs:2|")
    assert payload["configs"]["de-en.particle.d1"]["systems"]["toy.hyp.good"]["scores"]["bleu"]["score"] == pytest.approx(100.0)


def test_the_full_corpus_config_is_scored_with_its_random_baseline_na(dataset, capsys):
    """--config de-en.baseline: the full corpus scored, ranked and tested, its random baseline n/a
    (null and the reason in results.json), alone and beside a challenge set."""
    out_dir = dataset["tmp"] / "report"
    systems = [f"{name}={path}" for name, path in dataset["hyps"].items()]
    rc, out, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "de-en.baseline", "--hyp", *systems,
                        "--human", str(dataset["human"]), "--paired-samples", "100", "--quiet", "--out", str(out_dir),
                        "--findings-by", "config")
    assert rc == 0, err
    payload = _valid(json.loads((out_dir / "results.json").read_text(encoding="utf-8")))
    assert payload["settings"]["findings_by"] == "config"  # acs report renders the findings as this run did
    entry = payload["configs"]["de-en.baseline"]
    reason = entry["random_unavailable"]
    assert reason == payload["full_test"]["random_unavailable"] and "no sentence lies outside" in reason
    assert entry["n"] == N and not entry["degenerate_baseline"] and not entry["small"]
    for system, result in entry["systems"].items():
        for metric, score in result["scores"].items():
            assert score["random"] is None and score["score"] == payload["full"][system][metric]
    assert payload["summary"] == {"bleu": {}, "chrf": {}, "ribes": {}} and payload["trends"]["bleu"] == {}
    report = (out_dir / "report.md").read_text(encoding="utf-8")  # with --out the terminal has the summary
    assert f"## de-en.baseline (n = {N}) [random baseline n/a: {reason}]" in (out_dir / "tables.bleu.md").read_text(
        encoding="utf-8")
    assert "## Full test set: ranking and significance clusters" in report
    assert not list(out_dir.glob("*.heatmap.svg"))  # nothing to compare with random corpora
    page = (out_dir / "index.html").read_text(encoding="utf-8")
    for metric, ranking in payload["full_test"]["rankings"].items():  # the page's table is results.json's
        table = page.split(f'<table class="sortable full-test" data-metric="{metric}">')[1].split("</table>")[0]
        assert re.findall(r'<tr data-system="([^"]+)" data-cluster="(\d+)">', table) == [
            (r["system"], str(r["cluster"])) for r in ranking["systems"]]
        assert f'data-value="{ranking["systems"][0]["score"]!r}"' in table
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "de-en.baseline,de-en.particle.d2",
                      "--hyp", *systems, "--json", "--n-samples", "10", "--paired-samples", "50")
    payload = _valid(json.loads(out))
    assert rc == 0 and payload["configs"]["de-en.particle.d2"]["random_unavailable"] is None
    assert payload["configs"]["de-en.baseline"]["systems"]["good"]["scores"]["bleu"]["random"] is None
    assert payload["configs"]["de-en.particle.d2"]["systems"]["good"]["scores"]["bleu"]["random"]["mean"] > 0


def test_hyp_with_wrong_line_count_is_an_error(dataset, capsys):
    short = dataset["tmp"] / "short.en"
    short.write_text("\n".join(dataset["corpus"]["outputs"]["good"][:-3]) + "\n", encoding="utf-8")
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--split", SPLIT,
                      "--hyp", str(short))
    assert rc == 2
    assert str(short) in err and f"has {N - 3} lines" in err and f"has {N}: one line per corpus line" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--config", "de-en.nothing.d1"], "has no config 'de-en.nothing.d1'"),
        (["--config", "all", "--split", "other"], "has no split 'other'"),
        (["--config", "all", "--ref-config", "de-en.missing"], "de-en.missing"),
        (["--config", " , "], "--config: ' , ' is empty"),
        (["--config", "all", "--metrics", "bleu,nope"], "--metrics: unknown metric 'nope'"),
        (["--config", "all", "--baseline", "nobody"], "--baseline: 'nobody' is none of the systems"),
        (["--config", "all", "--human-alias", "a=b"], "--human-alias needs --human"),
    ],
)
def test_bad_requests_name_what_is_wrong(dataset, capsys, argv, message):
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--hyp", str(dataset["hyp"]), *argv)
    assert rc == 2 and message in err


def test_non_utf8_hypothesis_names_the_line(dataset, capsys):
    bad = dataset["tmp"] / "bad.en"
    lines = [s.encode() for s in dataset["corpus"]["outputs"]["good"]]
    lines[4] = b"caf\xe9"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--hyp", str(bad))
    assert rc == 2 and f"{bad}:5" in err


def test_help_mentions_the_interface(capsys):
    with pytest.raises(SystemExit, match="^0$"):
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    for option in ("--dataset", "--config", "--split", "--hyp", "--out", "--json", "--n-samples", "--seed",
                   "--tokenize", "--ref-config", "--metrics", "--metric-option", "--quiet", "acs-evaluation/4"):
        assert option in out


def test_help_says_what_targeted_accuracy_is_and_how_its_judge_is_measured(capsys):
    with pytest.raises(SystemExit, match="^0$"):
        main(["evaluate", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "A diagnostic of reference-word recall, not a ranking measure" in out
    assert "Give one with --judge-ref and the run measures this judge's pass rate on it" in out
    assert "the report says the judge is unmeasured" in out
    assert "with the instance's head and dependent UPOS where the sentence has such a pair" in out


def test_on_a_folder_built_by_acs_build(tmp_path, capsys):
    """The real export layout: the sample built by `acs demo`'s code, scored with its own references."""
    from auto_challenge_sets.dataset.demo_folder import build_demo, demo_file

    build_demo(tmp_path / "sets")
    rc, out, err = _run(capsys, "--dataset", str(tmp_path / "sets"), "--config", "all", "--pair", "de-en",
                        "--hyp", str(demo_file("sample.en")), "--json", "--n-samples", "5")
    assert rc == 0, err
    configs = _valid(json.loads(out))["configs"]
    assert "de-en.particle.d3" in configs and "de-en.reorder.d5" in configs
    assert "de-en.particle" not in configs  # the D = 1 alias is scored once, as .d1
    assert configs["de-en.particle.d3"]["systems"]["sample"]["scores"]["bleu"]["score"] == pytest.approx(100.0)


def test_system_names():
    assert name_systems(["a/x.A.en", "a/x.B.en"]) == {"A": "a/x.A.en", "B": "a/x.B.en"}
    assert name_systems(["base=a/x.A.en", "b/y.en"]) == {"base": "a/x.A.en", "y": "b/y.en"}
    with pytest.raises(AcsError, match="same system name"):
        name_systems(["s=a", "s=b"])
    assert name_systems(["-"]) == {"stdin": "-"}


def test_case_sensitive_ribes_keeps_the_case(dataset, capsys, tmp_path):
    """The references in upper case: RIBES lower-cases both sides by default (a perfect 1.0), and
    with --case-sensitive-ribes no word matches (only the periods); BLEU is not RIBES's option's business."""
    upper = tmp_path / "upper.en"
    upper.write_text("\n".join(r.upper() for r in dataset["corpus"]["refs"]) + "\n", encoding="utf-8")
    scores = {}
    for extra in ((), ("--case-sensitive-ribes",)):
        rc, out, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "de-en.particle.d2", "--split",
                            SPLIT, "--hyp", f"upper={upper}", "--metrics", "ribes,bleu", "--json", "--n-samples", "5",
                            *extra)
        assert rc == 0, err
        scores[extra] = _valid(json.loads(out))["full"]["upper"]
    assert scores[()]["ribes"] == pytest.approx(1.0)
    assert scores[("--case-sensitive-ribes",)]["ribes"] < 0.1  # only the final periods match
    assert scores[()]["bleu"] == scores[("--case-sensitive-ribes",)]["bleu"]


def test_timings_say_where_the_time_went_one_line_per_stage(dataset, capsys):
    out_dir = dataset["tmp"] / "timed"
    argv = ["--dataset", str(dataset["root"]), "--config", "all", "--split", SPLIT, "--hyp",
            *(f"{name}={path}" for name, path in dataset["hyps"].items()), "--human", str(dataset["human"]),
            "--n-samples", "10", "--paired-samples", "50", "--quiet", "--targeted"]
    rc, _, err = _run(capsys, *argv, "--out", str(out_dir), "--timings")
    assert rc == 0
    lines = [line.removeprefix("timing: ") for line in err.splitlines() if line.startswith("timing: ")]
    names = [line.split("  ")[0].strip() for line in lines]
    assert names == ["read inputs", "statistics", "full test", "random baselines", "paired tests", "targeted",
                     "human", "trends", "read sentences", "results.json", "sentences.json.gz", "figures: heatmap", "figures: trend",
                     "figures: human",
                     "figures: targeted", "figures: files", "report.md", "page: sentences", "index.html", "sidecars",
                     "total"]
    configs = len(dataset["configs"]) - 1  # every config but the baseline
    counts = dict(zip(names, (line.split(" s CPU")[1].strip() for line in lines)))
    assert counts["read inputs"] == "5 systems" and counts["statistics"] == "15 system-metrics"
    assert counts["random baselines"] == counts["paired tests"] == f"{configs} configs"  # one entry per config, added
    drawn = {kind: len(list(out_dir.glob(pattern))) for kind, pattern in (
        ("heatmap", "*.heatmap.svg"), ("trend", "*.trend.svg"), ("human", "*.human.svg"), ("targeted", "*.targeted.svg"))}
    assert all(counts[f"figures: {kind}"] == f"{n} files" for kind, n in drawn.items()) and drawn["heatmap"] == 3
    assert counts["figures: files"] == f"{sum(drawn.values())} files"
    assert counts["sidecars"] == f"{len(list((out_dir / 'sentences').iterdir()))} files"
    for unit in (" s wall", " s CPU"):
        values = [float(line.split(unit)[0].split()[-1]) for line in lines]
        # the total adds the stages (each printed to 0.01 s)
        assert all(v >= 0 for v in values) and abs(sum(values[:-1]) - values[-1]) <= 0.005 * len(lines)
    rc, _, err = _run(capsys, *argv)
    assert rc == 0 and "timing:" not in err  # only when asked


def _systems_in_order(text: str, systems) -> list[str]:
    """The systems in the order a table's rows name them (the first word of each row)."""
    return [line.split()[0] for line in text.splitlines() if line.split() and line.split()[0] in systems]


def test_out_prints_a_screenful_and_the_full_text_stays_without_out(dataset, capsys):
    """With --out the terminal gets the summary (the tables are in report.md and index.html) and
    one short "wrote" line; without it, the full text report as before."""
    hyps = [f"{name}={path}" for name, path in dataset["hyps"].items()]
    common = ["--dataset", str(dataset["root"]), "--config", "all", "--hyp", *hyps, "--n-samples", "10",
              "--paired-samples", "50", "--quiet"]
    out_dir = dataset["tmp"] / "report"
    rc, out, _ = _run(capsys, *common, "--out", str(out_dir))
    assert rc == 0
    lines = out.splitlines()
    assert len(lines) <= 60
    assert "de-en.particle.d2 (n = " not in out  # no config table
    assert lines[0] == "findings" and "sets made by: " in out  # the findings first, then the run
    assert lines.index("  full test set, BLEU: best ref (100.00); 4 cluster(s) of 5 systems; top cluster: ref") < 40
    assert "configs: 7 scored, 3 flagged (3 small; 1 same rows as another)" in lines
    written = sorted(p for p in out_dir.rglob("*") if p.is_file())
    assert lines[-1] == (f"wrote {len(written)} files to {out_dir}: index.html, report.md, results.json, "
                         f"and {len(written) - 3} more (open {out_dir / 'index.html'})")
    summary = [line for line in lines if line.startswith("de-en.particle ")]
    assert len(summary) == 1 and " of 20 " in summary[0]
    rc, full, _ = _run(capsys, *common)
    assert rc == 0 and "de-en.particle.d2 (n = " in full and len(full.splitlines()) > 100


def test_tables_rank_systems_best_first(dataset, capsys):
    """The full-corpus table and every config table list systems by the first metric's score
    (TER: lowest first), whatever the order of --hyp; configs stay in distance order."""
    c = dataset["corpus"]
    names = ["worse", "lower", "ref", "good", "better"]
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--hyp",
                      *(f"{n}={dataset['hyps'][n]}" for n in names), "--metrics", "ter,bleu",
                      "--n-samples", "5", "--paired-samples", "20", "--quiet")
    assert rc == 0

    def ter(lines):
        return {n: sacrebleu.corpus_ter([c["outputs"][n][i - 1] for i in lines],
                                        [[c["refs"][i - 1] for i in lines]]).score for n in names}

    def expected(scores):
        return sorted(names, key=lambda n: (scores[n], n))

    full = out.split("\nfull corpus\n", 1)[1].split("\n\n", 1)[0]
    assert _systems_in_order(full, names) == expected(ter(range(1, N + 1)))
    d2 = out.split("\nde-en.particle.d2 (n = ", 1)[1].split("\n\n", 1)[0]
    assert _systems_in_order(d2, names) == expected(ter(dataset["configs"]["de-en.particle.d2"]))
    headings = [line.split(" (n = ")[0] for line in out.splitlines() if " (n = " in line]
    assert headings.index("de-en.particle.d2") < headings.index("de-en.particle.d3") < headings.index("de-en.particle.d5")
