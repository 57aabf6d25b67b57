"""Crafted results.json files given to ``acs meta-evaluate`` and ``acs report``: the same run twice
(by content, under another name), a non-finite score or human score, a NaN token, a boolean
written as a string, a baseline that is no system, and integer flags outside ASCII. Each is one
error line naming the file and the field, system or flag, exit 2, never a warning or a number
computed from NaN. Runs that differ in settings are pooled with a note naming the field, and
every run's provenance is printed, one line per run."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from meta_runs_data import RUN_1, write_runs

from auto_challenge_sets.cli import main

from toy_dataset import SPLIT


def _one_error(capsys, argv: list[str], command: str = "meta-evaluate") -> str:
    """The command's exit status is 2 and its stderr one error line, returned; nothing on stdout."""
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out)
    lines = [line for line in err.splitlines() if not line.startswith(("usage: ", " "))]  # argparse's usage
    assert "Traceback" not in err and "Warning" not in err and len(lines) == 1, err
    assert lines[0].startswith(f"acs {command}: error: "), err
    return lines[0]


def _write(path: Path, document: dict | str) -> str:
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return str(path)


def test_the_same_run_under_another_name_is_refused_naming_both_files(tmp_path, capsys):
    first, second = write_runs(tmp_path)
    copy = _write(tmp_path / "copy.json", json.dumps(RUN_1, indent=1))  # other bytes, same run
    line = _one_error(capsys, ["meta-evaluate", first, second, copy])
    assert line == f"acs meta-evaluate: error: {copy}: is the same run as {first} (the same human scores and " \
                   "scores): give each run once"


@pytest.mark.parametrize("where", ["human", "full", "config"])
def test_a_non_finite_score_names_the_file_and_system(tmp_path, capsys, where):
    first, _ = write_runs(tmp_path)
    document = json.loads(json.dumps(RUN_1))
    if where == "human":
        document["human_scores"]["b"] = "TOKEN"
    elif where == "full":
        document["full"]["b"]["bleu"] = "TOKEN"
    else:
        document["configs"]["de-en.particle.d1"]["systems"]["b"]["scores"]["bleu"]["score"] = "TOKEN"
    bad = _write(tmp_path / "bad.json", json.dumps(document).replace('"TOKEN"', "NaN"))
    line = _one_error(capsys, ["meta-evaluate", first, bad])
    assert line.startswith(f"acs meta-evaluate: error: {bad}: ") and "system 'b'" in line and "nan" in line, line
    infinite = _write(tmp_path / "infinite.json", json.dumps(document).replace('"TOKEN"', "1e999"))
    assert "system 'b'" in _one_error(capsys, ["meta-evaluate", first, infinite])


def test_a_direction_written_as_a_string_is_refused(tmp_path, capsys):
    first, second = write_runs(tmp_path)
    document = json.loads(json.dumps(RUN_1))
    document["higher_is_better"]["ter"] = "false"
    bad = _write(tmp_path / "bad.json", document)
    line = _one_error(capsys, ["meta-evaluate", bad, second])
    assert line == f"acs meta-evaluate: error: {bad}: higher_is_better/ter is 'false', not true or false"


@pytest.mark.parametrize("value, expected", [("١", "expected an integer in ASCII digits, got '١'"),
                                             ("-5", "must be >= 0, got -5")])
def test_the_seed_flag_takes_ascii_digits_from_zero(tmp_path, capsys, value, expected):
    line = _one_error(capsys, ["meta-evaluate", *write_runs(tmp_path), "--seed", value])
    assert line == f"acs meta-evaluate: error: argument --seed: {expected}"


@pytest.fixture(scope="module")
def made_run(toy) -> Path:
    """A report folder of a real run with human scores: it holds settings and the build's provenance."""
    out = toy["tmp"] / "report"
    assert main(["evaluate", "--dataset", str(toy["root"]), "--config", "all", "--split", SPLIT,
                 *(f"--hyp={s}={toy['hyps'][s]}" for s in ("good", "better", "worse")), "--human", str(toy["human"]),
                 "--n-samples", "5", "--paired-samples", "10", "--metrics", "bleu", "--jobs", "1", "--quiet",
                 "--out", str(out)]) == 0
    return out


def test_runs_that_differ_in_settings_are_pooled_with_a_note_and_their_provenance_printed(made_run, tmp_path,
                                                                                           capsys):
    document = json.loads((made_run / "results.json").read_text(encoding="utf-8"))
    other = {**document, "human_scores": {s: -v for s, v in document["human_scores"].items()},
             "settings": {**document["settings"], "n_samples": 7}}
    second = _write(tmp_path / "other.json", other)
    capsys.readouterr()
    assert main(["meta-evaluate", str(made_run / "results.json"), second]) == 0
    out = capsys.readouterr().out
    summary = document["provenance"]["summary"]
    assert out.count(f"provenance: {summary}") == 2, out
    assert "note: the runs differ in settings/n_samples (pooled as given)" in out, out


@pytest.fixture
def folder(made_run, tmp_path) -> Iterator[Path]:
    """This test's copy of the report folder; its crafted results.json removed afterwards (conftest
    checks every results.json a test leaves against the shipped schema)."""
    copy = Path(shutil.copytree(made_run, tmp_path / "report"))
    yield copy
    (copy / "results.json").unlink()


def test_a_report_whose_baseline_is_no_system_is_refused(folder, capsys):
    document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    _write(folder / "results.json", {**document, "baseline_system": "nobody"})
    line = _one_error(capsys, ["report", str(folder)], "report")
    assert line.startswith(f"acs report: error: {folder / 'results.json'}: ") and "baseline_system" in line, line
    assert "'nobody' is not one of its systems" in line, line


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_report_holding_a_non_finite_number_token_is_refused(folder, capsys, token):
    document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    system = document["systems"][0]
    document["full"][system]["bleu"] = "TOKEN"
    _write(folder / "results.json", json.dumps(document).replace('"TOKEN"', token))
    line = _one_error(capsys, ["report", str(folder)], "report")
    assert line.startswith(f"acs report: error: {folder / 'results.json'}: ") and f"full/{system}/bleu" in line, line


def test_a_report_whose_direction_is_a_string_is_refused(folder, capsys):
    """Already refused by the checked reader (result_json.decode): kept here as the case the issue names."""
    document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    _write(folder / "results.json", {**document, "higher_is_better": {"bleu": "false"}})
    line = _one_error(capsys, ["report", str(folder)], "report")
    assert "higher_is_better/bleu" in line and "'false' is not of type 'boolean'" in line, line
