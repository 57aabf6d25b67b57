"""What ``acs report`` and ``acs meta-evaluate`` read of a saved run (issue 49, item 1): every file a
regular file read with a bound, and anything else one line naming the file (and its field).

Each case runs the real command and asserts its exit status and its one stderr line. Cases that
could hang or fill memory before the fix run in a child process under a time-out (it asserts no speed)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from meta_runs_data import write_runs

from auto_challenge_sets.cli import main
from auto_challenge_sets.formats.text import MAX_JSON_DEPTH

from toy_dataset import SPLIT, make


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A run's --out with human scores and its sentences.json.gz."""
    tmp = tmp_path_factory.mktemp("saved")
    toy = make(tmp)
    out = tmp / "run"
    assert main(["evaluate", "--dataset", str(toy["root"]), "--config", "all", "--split", SPLIT,
                 *(x for name, path in toy["hyps"].items() for x in ("--hyp", f"{name}={path}")),
                 "--human", str(toy["human"]), "--n-samples", "10", "--paired-samples", "20", "--quiet",
                 "--out", str(out)]) == 0
    return out


@pytest.fixture
def copy(saved, tmp_path) -> Path:
    """The saved run's results.json and sentences.json.gz, in a folder of the test's own."""
    folder = tmp_path / "copy"
    folder.mkdir()
    for name in ("results.json", "sentences.json.gz"):
        shutil.copy(saved / name, folder / name)
    yield folder
    (folder / "results.json").unlink(missing_ok=True)  # conftest validates every results.json a session leaves


def _one_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    return err.strip()


def _deep(gzipped: bool = False) -> bytes:
    text = '{"schema": "acs-evaluation/4", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    return gzip.compress(text.encode()) if gzipped else text.encode()


@pytest.mark.parametrize("make_it, kind", [(os.mkfifo, "a pipe"), (lambda p: p.symlink_to("/dev/zero"), "a device")])
def test_meta_evaluate_refuses_a_pipe_or_a_device_without_reading_it(tmp_path, make_it, kind):
    runs = write_runs(tmp_path)
    odd = tmp_path / "odd.json"
    make_it(odd)
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "meta-evaluate", runs[0], str(odd)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"acs meta-evaluate: error: {odd}: is {kind}") and "not a regular file" in done.stderr


def test_meta_evaluate_names_a_file_nested_too_deep(tmp_path, capsys):
    runs = write_runs(tmp_path)
    deep = tmp_path / "deep.json"
    deep.write_bytes(_deep())
    assert _one_line(capsys, ["meta-evaluate", runs[0], str(deep)]) == (
        f"acs meta-evaluate: error: {deep}: nests arrays or objects over {MAX_JSON_DEPTH} deep: no file acs writes")


@pytest.mark.parametrize("name", ["results.json", "sentences.json.gz"])
def test_report_names_a_saved_file_nested_too_deep(copy, capsys, name):
    (copy / name).write_bytes(_deep(gzipped=name.endswith(".gz")))
    assert _one_line(capsys, ["report", str(copy), "--quiet"]) == (
        f"acs report: error: {copy / name}: nests arrays or objects over {MAX_JSON_DEPTH} deep: no file acs writes")
    assert sorted(p.name for p in copy.iterdir()) == ["results.json", "sentences.json.gz"]  # nothing written


def test_report_refuses_sentences_decompressing_past_the_bound(copy, capsys):
    with gzip.open(copy / "sentences.json.gz", "wb") as handle:  # 257 MiB of spaces: a few hundred KiB packed
        for _ in range(257):
            handle.write(b" " * (1 << 20))
    assert _one_line(capsys, ["report", str(copy), "--quiet"]) == (
        f"acs report: error: {copy / 'sentences.json.gz'}: holds over 256 MiB uncompressed: no file acs writes")


@pytest.mark.parametrize("change, what", [
    (lambda d: d.update(systems=["x", *d["systems"][1:]]), "systems"),
    (lambda d: d["configs"].pop(next(iter(d["configs"]))), "configs"),
    (lambda d: next(iter(d["configs"].values()))["rows"].append({"line": 10**6}), "lines"),
])
def test_report_names_sentences_of_another_run(copy, capsys, change, what):
    document = json.loads(gzip.decompress((copy / "sentences.json.gz").read_bytes()))
    change(document)
    (copy / "sentences.json.gz").write_bytes(gzip.compress(json.dumps(document).encode()))
    line = _one_line(capsys, ["report", str(copy), "--quiet"])
    assert line.startswith(f"acs report: error: {copy / 'sentences.json.gz'}: holds the sentences of another run"), line


@pytest.mark.parametrize("value", [1e17, 1e300])
def test_report_names_a_number_no_run_makes(copy, capsys, value):
    document = json.loads((copy / "results.json").read_text(encoding="utf-8"))
    document["human_scores"] = dict.fromkeys(document["human_scores"], value)
    (copy / "results.json").write_text(json.dumps(document), encoding="utf-8")
    line = _one_line(capsys, ["report", str(copy), "--quiet"])
    assert line.startswith(f"acs report: error: {copy / 'results.json'}: does not match acs-evaluation/4 at "
                           f"human_scores/{next(iter(document['human_scores']))}: {value!r} is "), line


def test_report_refuses_a_link_named_results_json_in_the_run_or_in_out(saved, copy, tmp_path, capsys):
    (copy / "results.json").unlink()
    (copy / "results.json").symlink_to(saved / "results.json")
    assert _one_line(capsys, ["report", str(copy), "--quiet"]).startswith(
        f"acs report: error: {copy / 'results.json'}: is a symbolic link, not a regular file")
    out = tmp_path / "out"
    shutil.copytree(saved, out)
    (out / "results.json").unlink()
    (out / "results.json").symlink_to(saved / "results.json")  # whose bytes a followed link would replace
    before = (saved / "results.json").read_bytes()
    assert _one_line(capsys, ["report", str(saved), "--out", str(out), "--quiet"]).startswith(
        f"acs report: error: {out / 'results.json'}: is a symbolic link, not a regular file")
    assert (out / "results.json").is_symlink() and (saved / "results.json").read_bytes() == before
    (out / "results.json").unlink()


def test_report_names_a_dangling_sentences_link(copy, capsys):
    (copy / "sentences.json.gz").unlink()
    (copy / "sentences.json.gz").symlink_to(copy / "gone.json.gz")
    assert _one_line(capsys, ["report", str(copy), "--quiet"]).startswith(
        f"acs report: error: {copy / 'sentences.json.gz'}: is a symbolic link, not a regular file")


def test_report_names_an_out_folder_whose_results_json_nests_too_deep(saved, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_bytes(_deep())  # read for its schema, to know the folder a report's
    assert _one_line(capsys, ["report", str(saved), "--out", str(out), "--quiet"]).startswith(
        f"acs report: error: {out}: is not empty and has no results.json of acs evaluate")
    assert [p.name for p in out.iterdir()] == ["results.json"]
    (out / "results.json").unlink()


@pytest.mark.parametrize("name, target", [("results.json", "saved"), ("sentences.json.gz", "gone")])
def test_report_into_another_out_refuses_a_link_in_the_run_dangling_or_not(saved, copy, tmp_path, capsys, name,
                                                                           target):
    """With ``--out`` elsewhere the run folder is only read, never checked as a report's folder: its
    own reader must refuse a link to a results.json (not follow it) and a dangling sentences link
    (not take it for no sentences)."""
    (copy / name).unlink()
    (copy / name).symlink_to(saved / name if target == "saved" else copy / "gone.json.gz")
    out = tmp_path / "out"
    assert _one_line(capsys, ["report", str(copy), "--out", str(out), "--quiet"]).startswith(
        f"acs report: error: {copy / name}: is a symbolic link, not a regular file")
    assert not out.exists()
