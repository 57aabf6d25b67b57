"""The dataset folder under a build: ownership, symlinks, one writer at a time, all or nothing."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from datasets import load_dataset

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset import writer
from auto_challenge_sets.dataset.demo import build_demo, reversed_alignment
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.dataset.record import read_build_record
from auto_challenge_sets.demo_data import SAMPLE, demo_file
from auto_challenge_sets.errors import InputError

FORK = multiprocessing.get_context("fork")


def _spec(src: str, tgt: str, alignment: Path) -> BuildSpec:
    return BuildSpec(pair=f"{src}-{tgt}", corpus=SAMPLE, source=demo_file(f"sample.{src}"),
                     target=demo_file(f"sample.{tgt}"), source_conllu=demo_file(f"sample.{src}.conllu"),
                     alignment=alignment)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_folder_this_tool_did_not_make_is_refused(tmp_path, capsys):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("my own dataset\n", encoding="utf-8")
    with pytest.raises(InputError, match="not made by acs build"):
        build_demo(theirs)
    assert (theirs / "README.md").read_text(encoding="utf-8") == "my own dataset\n"
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    assert main(["demo", "--out", str(a_file)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err


def test_a_symlink_inside_the_folder_is_never_written_through(tmp_path):
    out = tmp_path / "sets"
    build_demo(out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = out / "data" / "de-en.particle.d3"
    for path in target.iterdir():
        path.rename(elsewhere / path.name)
    target.rmdir()
    target.symlink_to(elsewhere, target_is_directory=True)
    before = _snapshot(elsewhere)
    with pytest.raises(InputError, match="symbolic link inside the dataset folder"):
        build_demo(out)
    assert _snapshot(elsewhere) == before


def test_license_is_recorded_per_split_and_a_mix_is_declared(tmp_path):
    out = tmp_path / "sets"
    alignment = demo_file("sample.de-en.pharaoh")
    writer.build_into_folder(_spec("de", "en", alignment), out, license="apache-2.0", progress=False)
    reversed_path = reversed_alignment(alignment, tmp_path / "en-de.pharaoh")
    writer.build_into_folder(_spec("en", "de", reversed_path), out, license="cc-by-4.0", progress=False)
    record = read_build_record(out)
    assert {(b["pair"], b["license"]) for b in record["builds"]} == {("de-en", "apache-2.0"), ("en-de", "cc-by-4.0")}
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "license: other" in card and "license_name: mixed" in card
    assert "de-en/sample: apache-2.0" in card and "en-de/sample: cc-by-4.0" in card
    assert "license_link: LICENSE.md" in card
    assert "- `en-de/sample`: cc-by-4.0" in (out / "LICENSE.md").read_text(encoding="utf-8")
    # a rebuild without --license keeps that split's own license
    writer.build_into_folder(_spec("de", "en", alignment), out, progress=False)
    assert {b["pair"]: b["license"] for b in read_build_record(out)["builds"]}["de-en"] == "apache-2.0"
    # one license again: the link and its file go
    writer.build_into_folder(_spec("en", "de", reversed_path), out, license="apache-2.0", progress=False)
    assert not (out / "LICENSE.md").exists()
    assert "license: apache-2.0" in (out / "README.md").read_text(encoding="utf-8")


def _build_one(args: tuple[str, str, str, str]) -> None:
    src, tgt, alignment, out = args
    spec = _spec(src, tgt, Path(alignment))
    spec.phenomena = ("particle",)  # 20 rounds of two builds: one lexical phenomenon is enough to race on
    writer.build_into_folder(spec, out, license="apache-2.0", progress=False)


def test_concurrent_builds_into_one_folder_serialize(tmp_path):
    """Two processes, different inputs, one folder, 20 rounds: both builds are always there."""
    en_de = reversed_alignment(demo_file("sample.de-en.pharaoh"), tmp_path / "en-de.pharaoh")
    jobs = [("de", "en", str(demo_file("sample.de-en.pharaoh"))), ("en", "de", str(en_de))]
    for round_number in range(20):
        out = tmp_path / f"round{round_number}"
        with FORK.Pool(2) as pool:
            pool.map(_build_one, [(*job, str(out)) for job in jobs])
        builds = {(b["pair"], b["corpus"]) for b in read_build_record(out)["builds"]}
        assert builds == {("de-en", SAMPLE), ("en-de", SAMPLE)}, round_number
        sizes = folder_sizes(out)
        assert sizes["de-en.baseline"][SAMPLE] == sizes["en-de.baseline"][SAMPLE] == 29
        assert not list(tmp_path.glob(f".round{round_number}.acs-*"))  # no work folder left behind
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "config_name: de-en.particle.d3" in card and "config_name: en-de.particle.d0" in card


def _build_and_hang(out: str, ready: str) -> None:
    original = writer.render_readme

    def render_then_hang(folder):
        original(folder)
        Path(ready).write_text("written", encoding="utf-8")
        time.sleep(600)

    writer.render_readme = render_then_hang
    writer.build_into_folder(_spec("en", "de", Path(ready).with_name("en-de.pharaoh")), out, progress=False)


def test_kill_9_while_writing_leaves_the_previous_folder(tmp_path):
    out = tmp_path / "sets"
    writer.build_into_folder(_spec("de", "en", demo_file("sample.de-en.pharaoh")), out, progress=False)
    before = _snapshot(out)
    reversed_alignment(demo_file("sample.de-en.pharaoh"), tmp_path / "en-de.pharaoh")
    ready = tmp_path / "ready"
    child = FORK.Process(target=_build_and_hang, args=(str(out), str(ready)))
    child.start()
    deadline = time.monotonic() + 120
    while not ready.exists() and time.monotonic() < deadline and child.is_alive():
        time.sleep(0.05)
    assert ready.exists(), "the build never reached its last write"
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    assert _snapshot(out) == before  # the half-made build is in its own work folder, not here
    dataset = load_dataset(str(out), "de-en.particle.d3", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
    assert dataset.num_rows > 0
    # the next build cleans up what the killed one left and goes through
    writer.build_into_folder(_spec("en", "de", tmp_path / "en-de.pharaoh"), out, progress=False)
    assert not list(tmp_path.glob(".sets.acs-*"))
    assert json.loads((out / "acs_build.json").read_text())["builds"][1]["pair"] == "en-de"


def test_a_failed_write_leaves_no_partial_file(tmp_path, monkeypatch):
    """A full disk in the middle of a write: the temporary file goes, the old file stays."""
    from auto_challenge_sets import text_io

    target = tmp_path / "record.json"
    target.write_text("old\n", encoding="utf-8")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(text_io.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        text_io.atomic_write_text(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


def test_a_build_that_fails_midway_leaves_the_folder_and_no_work_folder(tmp_path, monkeypatch):
    out = tmp_path / "sets"
    writer.build_into_folder(_spec("de", "en", demo_file("sample.de-en.pharaoh")), out, progress=False)
    before = _snapshot(out)

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writer, "render_readme", full_disk)
    with pytest.raises(OSError, match="No space left on device"):
        writer.build_into_folder(_spec("de", "en", demo_file("sample.de-en.pharaoh")), out, license="x",
                                 progress=False)
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "sets"]
