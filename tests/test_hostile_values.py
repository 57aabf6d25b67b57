"""Hostile values reaching ``acs evaluate``: a plug-in metric returning NaN, ±inf or None, or
failing outright; numbers outside ASCII in files and flags; a boolean option spelled as text; a
config that holds every row. Each is one error line naming the metric and where (file:line, the
system and config, or the flag), never a traceback, the previous report left whole; or, where the
input is fine, the run scores what it should."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.scoring import metrics as registry
from auto_challenge_sets.scoring.metrics import AveragedMetric, SummedMetric

from toy_dataset import SPLIT, N, Toy, config_lines, corpus, write_folder, write_outputs

BAD_ROW = 6  # 0-based pool row the hostile metrics spoil; the toy's pool holds every line, so line 7


@pytest.fixture(scope="module")
def previous(toy) -> Path:
    out = toy["tmp"] / "report"
    assert main([*_base(toy), "--hyp", f"good={toy['hyps']['good']}", "--out", str(out)]) == 0
    return out


def _base(toy: Toy, config: str = "de-en.particle.d2", metrics: str = "bleu") -> list[str]:
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


class _FailingScore(_WholeOnly):
    """Finite statistics, a score that raises on any corpus but the whole one (a config, a random corpus)."""

    name, label = "failingscore", "FailingScore"

    def score_of_totals(self, totals):
        if totals[1] != N:
            raise RuntimeError("no score for a part of the corpus")
        return float(totals[0])


def test_a_plugin_failing_on_a_config_names_metric_system_and_config(toy, previous, capsys, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, _FailingScore.name, _FailingScore)
    line = _one_error(capsys, [*_base(toy, metrics="failingscore"), "--hyp", f"good={toy['hyps']['good']}"], previous)
    assert line == ("acs evaluate: error: metric failingscore failed on config de-en.particle.d2 for system good: "
                    "RuntimeError: no score for a part of the corpus")


def test_a_plugin_that_kills_its_worker_is_named(toy, previous, capsys, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, _Failing.name, _Failing)
    monkeypatch.setattr(_Failing, "how", "exit")
    argv = [*_base(toy, metrics="bleu,failing"), "--jobs", "2", "--hyp", f"good={toy['hyps']['good']}",
            f"better={toy['hyps']['better']}"]
    line = _one_error(capsys, argv, previous)
    assert line == ("acs evaluate: error: a worker process died computing the statistics of metric(s) bleu, failing; "
                    "run with --jobs 1 to see which metric fails and why")


# -- numbers in ASCII only --------------------------------------------------------------------

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
                                                  "true or false, got 'maybe'")
    for value in ("no", "0", "False"):  # true or false only (issue 38, item 9)
        argv[-1] = f"lowercase_ribes={value}"
        assert _one_error(capsys, argv, previous).endswith(f"must be true or false, got {value!r}")


@pytest.mark.parametrize("value, case", [("false", "mixed"), ("true", "lc")])
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
    c = corpus()
    configs = config_lines(c)
    assert configs["de-en.particle.d0"] != configs["de-en.baseline"]
    configs["de-en.particle.d0"] = list(configs["de-en.baseline"])  # every row of the corpus
    root, hyps = write_folder(tmp_path / "ldd", c, configs), write_outputs(tmp_path, c)
    capsys.readouterr()
    assert main(["evaluate", "--dataset", str(root), "--config", "all", "--split", SPLIT, "--n-samples", "5",
                 "--paired-samples", "10", "--metrics", "bleu", "--jobs", "1", "--quiet", "--json",
                 "--hyp", f"good={hyps['good']}", f"better={hyps['better']}"]) == 0
    payload = json.loads(capsys.readouterr().out)
    everything = payload["configs"]["de-en.particle.d0"]
    assert everything["n"] == N and everything["degenerate_baseline"] is True
    assert payload["configs"]["de-en.particle.d3"]["degenerate_baseline"] is False
    assert set(payload["configs"]) == {f"de-en.particle.d{d}" for d in range(6)} | {"de-en.reorder.d5"}


# -- item 11: messages that name what and where --------------------------------------------------

BROKEN = '''\
from auto_challenge_sets.scoring.metrics.bleu import Bleu


class Dotted(Bleu):
    name, label = "a/../b", "dotted"  # would reach a file name: de-en.a/../b.heatmap.svg
'''


def _acs(argv: list[str], site: Path | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *argv], text=True, env=env, timeout=600,
                          **{"capture_output": True, **kwargs})


def test_each_broken_plugin_is_one_warning_line_naming_it(toy, tmp_path):
    site = tmp_path / "site"
    (site / "broken-0.1.dist-info").mkdir(parents=True)
    (site / "broken_metrics.py").write_text(BROKEN, encoding="utf-8")
    (site / "broken-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (site / "broken-0.1.dist-info" / "entry_points.txt").write_text(
        "[auto_challenge_sets.metrics]\nmissing = no_such_module:Nothing\na/../b = broken_metrics:Dotted\n"
        "[auto_challenge_sets.phenomena]\nlost = no_such_phenomena:X\n", encoding="utf-8")
    run = _acs([*_base(toy, metrics="bleu,a/../b"), "--hyp", str(toy["hyps"]["good"])], site)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert sorted(run.stderr.splitlines()) == sorted([
        "acs: warning: phenomenon 'lost' from no_such_phenomena:X is not loaded: ModuleNotFoundError: No module "
        "named 'no_such_phenomena'",
        "acs: warning: metric 'missing' from no_such_module:Nothing is not loaded: ModuleNotFoundError: No module "
        "named 'no_such_module'",
        "acs: warning: metric 'a/../b' from broken_metrics:Dotted is not loaded: ValueError: a metric needs a "
        "lower-case name: ASCII letters, digits, _ and - (starting with a letter, at most 64 characters), got 'a/../b'",
        "acs evaluate: error: --metrics: unknown metric 'a/../b' (known: bleu, chrf, ter, ribes, comet)",
    ]), run.stderr


def test_hostile_system_names_score_and_plot(toy, tmp_path, capsys):
    """A 5,000-character name (a NAME=FILE over the file-name limit) and a mathtext one, `$\\foo$`."""
    long, math = "x" * 5000, "$\\foo$"
    out = tmp_path / "report"
    capsys.readouterr()
    assert main([*_base(toy), "--hyp", f"{long}={toy['hyps']['good']}", f"{math}={toy['hyps']['better']}",
                 "--out", str(out)]) == 0
    assert capsys.readouterr().err == ""
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert document["systems"] == [long, math] and list(document["full"]) == [long, math]
    assert all(isinstance(document["full"][name]["bleu"], float) for name in (long, math))
    assert (out / "de-en.bleu.heatmap.svg").stat().st_size > 0 and (out / "de-en.particle.bleu.trend.svg").is_file()


@pytest.mark.parametrize("command", ["stats", "evaluate"])
def test_a_deeply_nested_build_record_is_one_line(toy, tmp_path, command):
    import shutil

    folder = tmp_path / "ldd"
    shutil.copytree(toy["root"], folder)
    (folder / "acs_build.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    argv = [command, str(folder)] if command == "stats" else [*_base(toy), "--dataset", str(folder), "--hyp",
                                                                   str(toy["hyps"]["good"])]
    run = _acs(argv)
    assert run.returncode == 2 and run.stderr == (f"acs {command}: error: {folder / 'acs_build.json'}: nests arrays "
                                                  "or objects over 64 deep: no file acs writes\n")


def test_three_systems_have_no_interval(toy, capsys, tmp_path):
    capsys.readouterr()
    argv = [*_base(toy), "--hyp", *(f"{s}={toy['hyps'][s]}" for s in ("good", "better", "worse")),
            "--human", str(toy["human"])]
    assert main(argv) == 0  # the terminal's full text (with --out it prints a summary)
    shown = capsys.readouterr().out
    assert shown.count("n/a: too few systems") == 2, shown  # the full test set and the config
    assert main([*argv, "--out", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    for page in ("tables.bleu.md", "index.html"):  # report.md's human tables are in the metric's tables file
        assert (tmp_path / "report" / page).read_text(encoding="utf-8").count("n/a: too few systems") == 2, page
    assert main([*argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["human_full"]["bleu"]["ci"] is None and payload["human_full"]["bleu"]["systems"] == 3


@pytest.mark.parametrize("flags, expected", [
    (["--corpus", "c" * 300], "corpus (split) names have at most 100 characters (they name files), got 300: "
                              "'cccccccccccccccccccc'..."),
    (["--corpus", "sample", "--pair", "de-en\n"], "language pair must look like 'de-en', got 'de-en\\n'"),
])
def test_build_names_are_one_line(tmp_path, flags, expected):
    from auto_challenge_sets import demo_data

    data = Path(demo_data.__file__).parent
    argv = ["build", "--source", str(data / "sample.de"), "--target", str(data / "sample.en"), "--source-conllu",
            str(data / "sample.de.conllu"), "--parser", "conllu", "--aligner", "pharaoh", "--alignment",
            str(data / "sample.de-en.pharaoh"), "--quiet", "--out", str(tmp_path / "out")]
    run = _acs([*argv, *flags] if "--pair" in flags else [*argv, "--pair", "de-en", *flags])
    assert run.returncode == 2 and run.stderr == f"acs build: error: {expected}\n", run.stderr
    assert [p.name for p in tmp_path.iterdir() if p.name != ".out.lock"] == []  # no folder, no half-built one


def test_a_full_standard_output_is_one_line(toy):
    with open("/dev/full", "w") as full:
        run = _acs([*_base(toy), "--hyp", str(toy["hyps"]["good"])], stdout=full, stderr=-1, capture_output=False)
    assert run.returncode == 2 and run.stderr == "acs evaluate: error: No space left on device\n"


@pytest.mark.parametrize("option, value", [("comet_batch_size", "１６"), ("comet_batch_size", "0"),
                                           ("comet_gpus", "+1"), ("comet_gpus", "1_0")])
def test_comets_integer_options_are_ascii(toy, previous, capsys, option, value):
    """COMET's options are checked when the metric is made, before its model is loaded (none here)."""
    argv = [*_base(toy, metrics="bleu,comet"), "--hyp", f"good={toy['hyps']['good']}", "--metric-option",
            f"{option}={value}"]
    low = 1 if option == "comet_batch_size" else 0
    assert _one_error(capsys, argv, previous) == (f"acs evaluate: error: --metric-option: {option}={value}: must be an "
                                                  f"integer >= {low} in ASCII digits, got {value!r}")
