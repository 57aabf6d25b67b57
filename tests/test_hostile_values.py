"""Hostile values reaching ``acs evaluate``: a plug-in metric returning NaN, ±inf or None, or
failing outright; numbers outside ASCII in files and flags; a boolean option spelled as text; a
config that holds every row. Each is one error line naming the metric and where (file:line, the
system and config, or the flag), never a traceback, the previous report left whole; or, where the
input is fine, the run scores what it should."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.scoring import metric as registry
from auto_challenge_sets.scoring.metric import AveragedMetric, SummedMetric
from auto_challenge_sets.text_io import ascii_float, ascii_int, strict_bool

from toy_dataset import SPLIT, N, config_lines, corpus, write_folder, write_human, write_outputs

BAD_ROW = 6  # 0-based pool row the hostile metrics spoil; the toy's pool holds every line, so line 7


def _folder(tmp: Path, every_row: str | None = None) -> dict:
    """The toy's folder and outputs, without reorder.d5 (whose rows' distances are below its D, which
    the integrity check refuses), ``every_row`` holding every row of the corpus."""
    c = corpus()
    configs = {name: lines for name, lines in config_lines(c).items() if "reorder" not in name}
    if every_row:
        configs[every_row] = list(configs["de-en.baseline"])
    tmp.mkdir(parents=True, exist_ok=True)
    return {"root": write_folder(tmp / "ldd", c, configs), "hyps": write_outputs(tmp, c),
            "human": write_human(tmp / "human.txt"), "tmp": tmp}


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> dict:
    return _folder(tmp_path_factory.mktemp("values"))


@pytest.fixture(scope="module")
def previous(toy) -> Path:
    out = toy["tmp"] / "report"
    assert main([*_base(toy), "--hyp", f"good={toy['hyps']['good']}", "--out", str(out)]) == 0
    return out


def _base(toy: dict, config: str = "de-en.particle.d2", metrics: str = "bleu") -> list[str]:
    return ["evaluate", "--dataset", str(toy["root"]), "--config", config, "--split", SPLIT, "--n-samples", "5",
            "--paired-samples", "10", "--metrics", metrics, "--jobs", "1", "--quiet"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _one_error(capsys, argv: list[str], previous: Path | None = None) -> str:
    """The run's exit status is 2 and its stderr one error line (returned), the report intact."""
    before = _snapshot(previous) if previous else None
    capsys.readouterr()
    assert main(argv + (["--out", str(previous)] if previous else [])) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("note: ")]
    assert "Traceback" not in err and "Warning" not in err and len(lines) == 1, err
    assert lines[0].startswith("acs evaluate: error: ") and ".acs-new-" not in lines[0], lines[0]
    if previous:
        assert _snapshot(previous) == before
    return lines[0]


class _Spoiled(AveragedMetric):
    """A plug-in metric: word overlap per sentence, one value spoiled at :data:`BAD_ROW`."""

    name, label = "spoiled", "Spoiled"
    value: object = float("nan")

    def sentence_scores(self, hypotheses, references, sources=None):
        scores: list[object] = [len(set(h.split()) & set(r[0].split())) for h, r in zip(hypotheses, references)]
        scores[BAD_ROW] = self.value
        return scores

    def signature(self, nrefs: int) -> str:
        return "spoiled"


class _WholeOnly(SummedMetric):
    """A summed plug-in metric whose statistics are finite but which scores only the whole corpus:
    any smaller corpus (a config) gets NaN."""

    name, label = "wholeonly", "WholeOnly"

    def statistics(self, hypotheses, references, sources=None):
        return np.array([[len(h.split()), 1.0] for h in hypotheses])

    def score_of_totals(self, totals):
        return float(totals[0]) if totals[1] == N else float("nan")

    def signature(self, nrefs: int) -> str:
        return "wholeonly"


class _Failing(AveragedMetric):
    """A plug-in metric that raises (an IndexError by default) or kills its process."""

    name, label = "failing", "Failing"
    how = "raise"

    def sentence_scores(self, hypotheses, references, sources=None):
        if self.how == "exit":
            os._exit(3)
        return [hypotheses[len(hypotheses)]]  # IndexError: list index out of range

    def signature(self, nrefs: int) -> str:
        return "failing"


@pytest.mark.parametrize("value, shown", [(float("nan"), "nan"), (float("inf"), "inf"), (-float("inf"), "-inf"),
                                          (None, "nan")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_non_finite_statistic_names_the_metric_the_system_file_and_line(toy, previous, capsys, monkeypatch, value,
                                                                          shown, jobs):
    monkeypatch.setitem(registry._REGISTRY, _Spoiled.name, _Spoiled)
    monkeypatch.setattr(_Spoiled, "value", value)
    argv = [*_base(toy, metrics="spoiled,bleu"), "--jobs", jobs, "--hyp", f"good={toy['hyps']['good']}",
            f"better={toy['hyps']['better']}", "--human", str(toy["human"])]
    line = _one_error(capsys, argv, previous)
    assert line == (f"acs evaluate: error: {toy['hyps']['good']}:{BAD_ROW + 1}: metric spoiled gave the non-finite "
                    f"statistic {shown} for system good on this line: a metric's statistics must be finite numbers")


def test_a_non_finite_config_score_names_the_metric_system_and_config(toy, previous, capsys, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, _WholeOnly.name, _WholeOnly)
    line = _one_error(capsys, [*_base(toy, metrics="wholeonly"), "--hyp", f"good={toy['hyps']['good']}"], previous)
    assert line == ("acs evaluate: error: metric wholeonly scored system good nan on config de-en.particle.d2: a "
                    "corpus score must be a finite number")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_plugin_names_the_metric_and_system(toy, previous, capsys, monkeypatch, jobs):
    monkeypatch.setitem(registry._REGISTRY, _Failing.name, _Failing)
    argv = [*_base(toy, metrics="bleu,failing"), "--jobs", jobs, "--hyp", f"good={toy['hyps']['good']}"]
    line = _one_error(capsys, argv, previous)
    assert line == ("acs evaluate: error: metric failing failed on the output of system good: IndexError: list index "
                    "out of range")


def test_a_plugin_that_kills_its_worker_is_named(toy, previous, capsys, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, _Failing.name, _Failing)
    monkeypatch.setattr(_Failing, "how", "exit")
    argv = [*_base(toy, metrics="bleu,failing"), "--jobs", "2", "--hyp", f"good={toy['hyps']['good']}",
            f"better={toy['hyps']['better']}"]
    line = _one_error(capsys, argv, previous)
    assert line == ("acs evaluate: error: a worker process died computing the statistics of metric(s) bleu, failing; "
                    "run with --jobs 1 to see which metric fails and why")


# -- numbers in ASCII only --------------------------------------------------------------------

@pytest.mark.parametrize("text", ["٣", "１２", "+12", "1_2", " 12", "12 ", "", "-", "0x1", "1" * 19])
def test_integers_are_ascii_digits_only(text):
    assert ascii_int(text) is None


@pytest.mark.parametrize("text, value", [("12", 12), ("-3", -3), ("007", 7), ("9" * 18, 10**18 - 1)])
def test_ascii_integers_are_read(text, value):
    assert ascii_int(text) == value


@pytest.mark.parametrize("text", ["０.５", "٣", "+0.5", "1_0.5", "0.5.1", ".", "e3", "0,5", "½"])
def test_floats_are_ascii_only(text):
    assert ascii_float(text) is None


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("-.25", -0.25), ("1e-3", 0.001), ("2.", 2.0), ("-1E+2", -100.0)])
def test_ascii_floats_are_read(text, value):
    assert ascii_float(text) == value


@pytest.mark.parametrize("value, expected", [("true", True), ("False", False), ("1", True), ("0", False),
                                             ("YES", True), ("no", False), (True, True), ("maybe", None),
                                             ("", None), ("2", None), (2, None), ("ｔｒｕｅ", None)])
def test_booleans_are_parsed_strictly(value, expected):
    assert strict_bool(value) is expected


def _seg_table(rows: list[str]) -> str:
    return "SYS SID RAW.SCR Z.SCR N\n" + "".join(f"{row}\n" for row in rows)


@pytest.mark.parametrize("row, expected", [
    ("good ٣ 70 0.5 1", r"SID '٣' is not a line number"),
    ("good １２ 70 0.5 1", r"SID '１２' is not a line number"),
    ("good +12 70 0.5 1", r"SID '\+12' is not a line number"),
    ("good 1_2 70 0.5 1", r"SID '1_2' is not a line number"),
    ("good 12 70 ０.５ 1", r"Z.SCR '０.５' is not a number"),
])
def test_human_seg_numbers_outside_ascii_name_the_line(toy, previous, tmp_path, capsys, row, expected):
    table = tmp_path / "seg.txt"
    table.write_text(_seg_table(["good 1 70 0.1 1", row]), encoding="utf-8")
    line = _one_error(capsys, [*_base(toy), "--hyp", f"good={toy['hyps']['good']}", "--human-seg", str(table)],
                      previous)
    assert re.search(rf"error: {re.escape(str(table))}:3: {expected}", line), line


def test_a_human_score_outside_ascii_names_the_line(toy, previous, tmp_path, capsys):
    table = tmp_path / "human.txt"
    table.write_text("SYS Z.SCR\ngood 0.1\nbetter ０.５\nworse 0.2\n", encoding="utf-8")
    argv = [*_base(toy), "--hyp", f"good={toy['hyps']['good']}", f"better={toy['hyps']['better']}",
            f"worse={toy['hyps']['worse']}", "--human", str(table)]
    assert re.search(rf"error: {re.escape(str(table))}:3: score '０.５' is not a number", _one_error(capsys, argv, previous))


@pytest.mark.parametrize("flag, value", [("--n-samples", "٣"), ("--seed", "１２"), ("--paired-samples", "1_0"),
                                         ("--min-rows", "+5"), ("--targeted-chrf", "０.５")])
def test_flags_outside_ascii_are_refused(toy, capsys, flag, value):
    with pytest.raises(SystemExit) as exit_:
        main([*_base(toy), "--hyp", str(toy["hyps"]["good"]), flag, value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert f"acs evaluate: error: argument {flag}: expected " in err and repr(value) in err, err


def test_a_boolean_metric_option_is_parsed_strictly(toy, previous, capsys):
    argv = [*_base(toy, metrics="ribes"), "--hyp", f"good={toy['hyps']['good']}", "--metric-option",
            "lowercase_ribes=maybe"]
    assert _one_error(capsys, argv, previous) == ("acs evaluate: error: --metric-option: lowercase_ribes=maybe: must be "
                                                  "true or false (also 1/0, yes/no), got 'maybe'")


@pytest.mark.parametrize("value, case", [("false", "mixed"), ("no", "mixed"), ("0", "mixed"), ("true", "lc")])
def test_lowercase_ribes_false_means_false(toy, capsys, value, case):
    capsys.readouterr()
    assert main([*_base(toy, metrics="ribes"), "--hyp", f"good={toy['hyps']['good']}", "--metric-option",
                 f"lowercase_ribes={value}", "--json"]) == 0
    assert f"RIBES[nrefs:1|case:{case}|" in json.loads(capsys.readouterr().out)["signature"]


# -- --hyp repeated, a config of every row ---------------------------------------------------------

def test_repeated_hyp_flags_add_up(toy, capsys):
    capsys.readouterr()
    assert main([*_base(toy), "--hyp", f"A={toy['hyps']['good']}", "--hyp", f"B={toy['hyps']['better']}",
                 f"C={toy['hyps']['worse']}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["systems"] == ["A", "B", "C"]


def test_a_config_of_every_row_is_flagged_degenerate_and_the_rest_scored(tmp_path, capsys):
    assert config_lines(corpus())["de-en.particle.d0"] != list(range(1, N + 1))
    made = _folder(tmp_path, every_row="de-en.particle.d0")
    root, hyps = made["root"], made["hyps"]
    capsys.readouterr()
    assert main(["evaluate", "--dataset", str(root), "--config", "all", "--split", SPLIT, "--n-samples", "5",
                 "--paired-samples", "10", "--metrics", "bleu", "--jobs", "1", "--quiet", "--json",
                 "--hyp", f"good={hyps['good']}", f"better={hyps['better']}"]) == 0
    payload = json.loads(capsys.readouterr().out)
    everything = payload["configs"]["de-en.particle.d0"]
    assert everything["n"] == N and everything["degenerate_baseline"] is True
    assert payload["configs"]["de-en.particle.d3"]["degenerate_baseline"] is False
    assert set(payload["configs"]) == {f"de-en.particle.d{d}" for d in range(6)}
