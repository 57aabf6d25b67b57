"""Hostile folders around ``acs evaluate --out`` and the dataset readers (issue 38, items 1, 3, 4):
a run never deletes what is not a report's, never opens a pipe named like a report file, and a
folder that a swap killed between its two renames left aside is named, in one line, by a reader.

Each case: the exit status, one stderr line naming the file, no traceback and no temporary
(``.acs-new`` / ``.acs-old``) path but the folder aside of item 4, and the folder as it was."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.folder_swap import swapped_folder

from toy_dataset import SPLIT, Toy

FORK = multiprocessing.get_context("fork")
FOREIGN = "is not a file acs evaluate writes, and a report replaces its folder whole"


def _argv(toy: Toy, *extra: str, system: str = "good") -> list[str]:
    return ["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT,
            "--hyp", f"{system}={toy['hyps'][system]}", "--n-samples", "5", "--paired-samples", "10",
            "--metrics", "bleu", "--jobs", "1", "--quiet", *extra]


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, or what else it is (a folder, a pipe, a link)."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        found[key] = (f"link to {os.readlink(path)}" if path.is_symlink() else path.read_bytes() if path.is_file()
                      else "folder" if path.is_dir() else "other")
    return found


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("note:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert ".acs-new" not in lines[0] and ".acs-old" not in lines[0], lines[0]
    return lines[0]


# -- item 1: --out writes only a report's own folder ------------------------------------------------


def test_out_dot_in_a_project_folder_with_a_results_json_deletes_nothing(fresh_toy, capsys, monkeypatch):
    toy = fresh_toy
    """The issue's repro: ``acs evaluate … --json > results.json`` in a project folder, then ``--out .``."""
    project = toy["tmp"]
    (project / "src").mkdir()
    (project / "src" / "main.py").write_text("print('mine')\n", encoding="utf-8")
    (project / "thesis.tex").write_text("\\documentclass{article}\n", encoding="utf-8")
    monkeypatch.chdir(project)
    assert main(_argv(toy, "--json")) == 0
    (project / "results.json").write_text(capsys.readouterr().out, encoding="utf-8")
    assert json.loads((project / "results.json").read_text(encoding="utf-8"))["schema"].startswith("acs-evaluation/")
    before = _snapshot(project)
    assert main(_argv(toy, "--out", ".")) == 2
    out, err = capsys.readouterr()
    first = sorted(name for name in os.listdir(project) if name != "results.json")[0]
    assert _one_error_line(err) == f"acs evaluate: error: {project / first}: {FOREIGN}: move it out of the folder, " \
                                   "or choose a new or empty one"
    assert out == ""  # refused before the scoring printed anything
    assert _snapshot(project) == before  # the dataset, the outputs, src/ and thesis.tex all there
    assert sorted(p.name for p in project.parent.iterdir() if p.name.startswith(".project")) == []


@pytest.mark.parametrize("folder, first_foreign", [
    (lambda toy: toy["root"], "README.md"),  # a dataset folder holding a copied results.json
    (lambda toy: toy["hyps"]["good"].parent / "hyps", "toy.hyp.good.en"),  # a folder of hypotheses
])
def test_a_folder_holding_a_copied_results_json_is_refused_naming_its_first_other_file(fresh_toy, capsys, folder,
                                                                                    first_foreign):
    toy = fresh_toy
    out = folder(toy)
    if out.name == "hyps":
        out.mkdir()
        shutil.copy(toy["hyps"]["good"], out / first_foreign)
    results = toy["tmp"] / "first-report"
    assert main(_argv(toy, "--out", str(results))) == 0
    shutil.copy(results / "results.json", out / "results.json")
    capsys.readouterr()
    before = _snapshot(out)
    assert main(_argv(toy, "--out", str(out))) == 2
    out_text, err = capsys.readouterr()
    assert _one_error_line(err).startswith(f"acs evaluate: error: {out / first_foreign}: {FOREIGN}")
    assert out_text == "" and _snapshot(out) == before


@pytest.fixture(scope="module")
def made_report(toy) -> Path:
    """A report folder a run made, once per module: several configs, two systems and human scores,
    so it holds every kind of file a report writes (results.json, report.md, index.html, the
    sentence sidecars, heat map, trend and human plots)."""
    out = toy["tmp"] / "report"
    argv = [*_argv(toy, "--out", str(out)), "--hyp", f"better={toy['hyps']['better']}", "--human", str(toy["human"])]
    argv[argv.index("de-en.particle.d2")] = "all"
    assert main(argv) == 0
    names = {p.relative_to(out).as_posix() for p in out.rglob("*")}
    assert {"results.json", "report.md", "index.html", "sentences"} <= names
    for kind in (".heatmap.svg", ".trend.svg", ".human.svg"):
        assert any(name.endswith(kind) for name in names), kind
    assert any(name.startswith("sentences/") and name.endswith(".js") for name in names)
    return out


@pytest.fixture
def previous(made_report, tmp_path) -> Path:
    """This test's copy of the module's report folder."""
    return Path(shutil.copytree(made_report, tmp_path / "report"))


def test_a_folder_holding_exactly_a_previous_report_is_replaced_whole(toy, previous, capsys):
    assert main(_argv(toy, "--out", str(previous), system="better")) == 0
    assert json.loads((previous / "results.json").read_text(encoding="utf-8"))["systems"] == ["better"]
    assert not (previous / "sentences").exists()  # the earlier run's files are gone: one run's report
    assert main(_argv(toy, "--out", str(previous), system="good")) == 0  # and again


@pytest.mark.parametrize("name", ["notes.md", "sentences/notes.txt", ".DS_Store", "results.json.bak"])
def test_a_file_a_user_added_to_a_report_folder_is_named_and_kept(toy, previous, capsys, name):
    (previous / name).write_text("mine\n", encoding="utf-8")
    before = _snapshot(previous)
    assert main(_argv(toy, "--out", str(previous), system="better")) == 2
    out, err = capsys.readouterr()
    assert _one_error_line(err).startswith(f"acs evaluate: error: {previous / name}: {FOREIGN}")
    assert out == "" and _snapshot(previous) == before
    assert (previous / name).read_text(encoding="utf-8") == "mine\n"


# -- item 3: a pipe, a device, a folder or a link named like a report file is named, never opened -----


def test_a_fifo_named_results_json_is_an_error_at_once(toy, previous):
    (previous / "results.json").unlink()
    os.mkfifo(previous / "results.json")
    before = _snapshot(previous)
    try:
        # a timeout guards the suite against a regression that hangs: it asserts no speed
        argv = _argv(toy, "--out", str(previous))
        done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *argv], cwd=previous.parent,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 2, done.stderr
        assert _one_error_line(done.stderr) == (
            f"acs evaluate: error: {previous / 'results.json'}: is a pipe (a FIFO, or a process substitution such "
            "as <(...)), not a regular file, though named like a report's file: it was never opened; remove it, "
            "or choose a new or empty folder")
        assert done.stdout == "" and _snapshot(previous) == before
    finally:
        (previous / "results.json").unlink()  # conftest reads every results.json left


def _device(path: Path) -> None:
    """A character device like /dev/zero (reading it never ends); only root may make one."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    except PermissionError:
        pytest.skip("making a device needs root")


@pytest.mark.parametrize("name, make_it, kind", [
    ("report.md", lambda path: path.mkdir(), "a folder"),
    ("report.md", lambda path: _device(path), "a device"),
    ("results.json", lambda path: path.symlink_to(os.devnull), "a symbolic link"),
    ("index.html", lambda path: path.symlink_to(path.parent / "report.md"), "a symbolic link"),
    ("sentences", lambda path: path.write_text("x", encoding="utf-8"), "a regular file"),
])
def test_anything_but_a_regular_file_named_like_a_report_file_is_named(toy, previous, capsys, name, make_it,
                                                                      kind):
    target = previous / name
    if target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()
    make_it(target)
    before = _snapshot(previous)
    assert main(_argv(toy, "--out", str(previous), system="better")) == 2
    out, err = capsys.readouterr()
    line = _one_error_line(err)
    assert line.startswith(f"acs evaluate: error: {target}: is {kind}"), line
    assert out == "" and _snapshot(previous) == before
    if name == "results.json":
        target.unlink()  # conftest reads every results.json left


# -- item 4: a folder a killed swap left aside is named in one line by every reader ------------------


def _swap_killed_between_renames(out: str) -> None:
    """A swap killed after it moved the folder aside, before the work folder took its place."""
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if Path(dst) == Path(out):
            os._exit(9)
        return real_replace(src, dst, *args, **kwargs)

    os.replace = replace
    with swapped_folder(out, lambda folder: None, keep=True):
        pass


@pytest.mark.parametrize("reader", ["stats", "evaluate"])
def test_a_folder_left_aside_by_a_swap_killed_between_its_renames_is_named(fresh_toy, capsys, reader):
    toy = fresh_toy
    root = toy["root"]
    before = _snapshot(root)
    child = FORK.Process(target=_swap_killed_between_renames, args=(str(root),))
    child.start()
    child.join(120)
    assert child.exitcode == 9
    aside = root.parent / f".{root.name}.acs-old-{child.pid}"
    assert not root.exists() and _snapshot(aside) == before
    argv = ["stats", str(root)] if reader == "stats" else _argv(toy)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"acs {reader}: error: {root}: is missing: a write into it was killed while "
                                f"swapping it in, and its files are in {aside}: rename that back to {root.name} "
                                "(the next write into it does so)"], err
    assert not root.exists() and _snapshot(aside) == before  # a reader changes nothing
