"""A built folder tampered with by hand: every reader (`acs stats`, `acs evaluate`, `acs publish`)
refuses it in one line naming the file (or the card's config) that differs, instead of reading
fewer, more or other rows than the build wrote."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo, demo_file

from fake_hub import TOKEN, FakeHub, start

D0 = "data/de-en.particle.d0/sample-00000-of-00001.parquet"
D3 = "data/de-en.particle.d3/sample-00000-of-00001.parquet"
D4 = "data/de-en.particle.d4/sample-00000-of-00001.parquet"
BASELINE = "data/de-en.baseline/sample-00000-of-00001.parquet"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "sets"
    build_demo(out)
    return out


def _unrecorded(root: Path) -> None:
    """The record as a version before file sizes were kept wrote it."""
    path = root / "acs_build.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record.pop("format")
    for build in record["builds"]:
        build.pop("files")
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")


def _card_says(root: Path, config: str, rows: int) -> None:
    """The card's dataset_info edited to give ``config``'s one split ``rows`` rows, as if a file
    copied by hand had come with a card edited to match."""
    readme = root / "README.md"
    lines = readme.read_text(encoding="utf-8").split("\n")
    start = lines.index("dataset_info:")
    at = next(i for i in range(start, len(lines)) if lines[i] == f"- config_name: {config}")
    count = next(i for i in range(at, len(lines)) if lines[i].startswith("    num_examples: "))
    lines[count] = f"    num_examples: {rows}"
    readme.write_text("\n".join(lines), encoding="utf-8")


def _no_builds(root: Path) -> None:
    """``"builds": []``: a record emptied by hand."""
    path = root / "acs_build.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["builds"] = []
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")


def _flip_a_byte(path: Path) -> None:
    """Same size, same footer, another byte in the first data page."""
    data = bytearray(path.read_bytes())
    data[len(data) // 4] ^= 0xFF
    path.write_bytes(bytes(data))


def _widen_glob(root: Path) -> None:
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert text.count(f"path: {D3}") == 1
    readme.write_text(text.replace(f"path: {D3}", "path: data/de-en.particle.d*/sample-*.parquet"), encoding="utf-8")


def _record_path(root: Path, rel: str) -> None:
    path = root / "acs_build.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    files = record["builds"][0]["files"]
    files[rel] = files.pop(D3)
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")


STATS = ["stats", "{dir}"]
EVALUATE = ["evaluate", "--dataset", "{dir}", "--config", "de-en.particle.d3", "--pair", "de-en",
            "--hyp", str(demo_file("sample.en")), "--n-samples", "10", "--out", "{dir}/../report"]
PUBLISH = ["publish", "{dir}", "--repo-id", "my-org/sets", "--dry-run"]

Corruption = Callable[[Path], None]
CASES: list[tuple[str, Corruption, list[str], str]] = [
    ("deleted file", lambda r: (r / D3).unlink(), STATS, rf"{re.escape(D3)}: is missing: acs_build.json records it "
     r"\(7 rows\)"),
    ("deleted file", lambda r: (r / D3).unlink(), EVALUATE, rf"{re.escape(D3)}: is missing"),
    ("deleted file", lambda r: (r / D3).unlink(), PUBLISH, rf"{re.escape(D3)}: is missing"),
    ("truncated file", lambda r: (r / D3).write_bytes((r / D3).read_bytes()[:-100]), STATS,
     rf"{re.escape(D3)}: has [\d,]+ bytes, acs_build.json records [\d,]+: changed since the build"),
    ("garbage file", lambda r: (r / D3).write_bytes(b"garbage"), PUBLISH, rf"{re.escape(D3)}: has 7 bytes"),
    ("garbage file, same size", lambda r: (r / D3).write_bytes(b"x" * (r / D3).stat().st_size), STATS,
     rf"{re.escape(D3)}: not a readable Parquet file"),
    ("another config's file", lambda r: shutil.copy(r / D4, r / D3), STATS, rf"{re.escape(D3)}: has [\d,]+ bytes"),
    ("a byte flipped", lambda r: _flip_a_byte(r / D3), [*STATS, "--verify"], rf"{re.escape(D3)}: its sha256 differs"),
    ("a byte flipped", lambda r: _flip_a_byte(r / D3), [*PUBLISH, "--verify"], rf"{re.escape(D3)}: its sha256 differs"),
    ("a byte flipped", lambda r: _flip_a_byte(r / D3), [*EVALUATE, "--verify"], rf"{re.escape(D3)}: its sha256 differs"),
    ("a file added", lambda r: shutil.copy(r / D3, r / D3.replace("sample-", "extra-")), STATS,
     r"particle\.d3/extra-00000-of-00001\.parquet: is not in acs_build\.json"),
    ("data_files widened to d0-d5", _widen_glob, EVALUATE,
     r"README\.md: config 'de-en\.particle\.d3', split 'sample': data_files match 6 file\(s\), acs_build\.json "
     r"records 1"),
    ("data_files widened to d0-d5", _widen_glob, PUBLISH, r"README\.md: config 'de-en\.particle\.d3'"),
    ("data_files widened to d0-d5", _widen_glob, STATS, r"README\.md: config 'de-en\.particle\.d3'"),
    ("a record pointing outside", lambda r: _record_path(r, "../../etc/passwd"), STATS,
     r"acs_build\.json: records '\.\./\.\./etc/passwd', not a data file"),
    # a folder of an older acs, whose record has no file sizes to compare: build it again
    *[(f"old record ({argv[0]})", _unrecorded, argv,
       r"acs_build\.json: was written by an older acs \(record format 1, this acs reads 3\): build the folder again")
      for argv in (STATS, EVALUATE, PUBLISH)],
    # the card's count, what the Hub shows, edited by hand
    ("the card's row count edited", lambda r: _card_says(r, "de-en.particle.d3", 29), PUBLISH,
     r"README\.md: config de-en\.particle\.d3, split sample has 7 rows in its file\(s\), the card's "
     r"dataset_info says 29"),
    # issue 38 item 8: a record emptied by hand no longer switches the checks off for any reader
    *[(f"no builds recorded, d0's file as d3 ({argv[0]})",
       lambda r: (_no_builds(r), shutil.copy(r / D0, r / D3), _card_says(r, "de-en.particle.d3", 11)), argv,
       rf"{re.escape(D3)}: holds a row of distance 0, below the D = 3 of config de-en\.particle\.d3")
      for argv in (STATS, EVALUATE, PUBLISH)],
    *[(f"no builds recorded, rows differ from the card ({argv[0]})",
       lambda r: (_no_builds(r), shutil.copy(r / D4, r / D3)), argv,
       rf"{re.escape(D3)}: config de-en\.particle\.d3, split sample has 5 rows in its file\(s\), the card's "
       r"dataset_info says 7") for argv in (STATS, EVALUATE)],
]


@pytest.mark.parametrize(("corruption", "argv", "pattern"), [case[1:] for case in CASES],
                         ids=[f"{case[0]}-{case[2][0]}{'-verify' if '--verify' in case[2] else ''}"
                              for case in CASES])
def test_a_tampered_folder_is_one_error_naming_what_differs(built: Path, tmp_path: Path, capsys,
                                                            corruption: Corruption, argv: list[str],
                                                            pattern: str) -> None:
    folder = tmp_path / "sets"
    shutil.copytree(built, folder)
    corruption(folder)
    assert main([arg.format(dir=folder) for arg in argv]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"acs {argv[0]}: error: ") and "Traceback" not in err and "unexpected" not in err
    assert re.search(pattern, lines[0]), lines[0]


def test_an_untouched_folder_passes_every_check(built: Path, capsys) -> None:
    assert main(["stats", str(built), "--verify"]) == 0
    assert main(["publish", str(built), "--repo-id", "my-org/sets", "--dry-run", "--verify"]) == 0
    out, err = capsys.readouterr()
    assert "note:" not in err


def test_publish_names_the_visibility_an_existing_repository_keeps(built: Path, tmp_path: Path) -> None:
    hub = start(FakeHub(existing={"my-org/sets": False}))
    try:
        base = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
        done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "publish", str(built), "--repo-id",
                               "my-org/sets", "--private"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              env={**base, "HF_HOME": str(tmp_path / "hf"), "HF_ENDPOINT": hub.endpoint,
                                   "HF_TOKEN": TOKEN, "HF_HUB_OFFLINE": "0"})
    finally:
        hub.server.shutdown()
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == ("public dataset repository my-org/sets: exists; it stays public, "
                                           "--private does not change it")


def test_publish_sends_only_the_layout_and_names_what_it_leaves_out(built: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "sets"
    shutil.copytree(built, folder)
    (folder / ".env").write_text("HF_TOKEN=hf_secret\n", encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (folder / "report").mkdir()
    (folder / "report" / "report.md").write_text("# scores\n", encoding="utf-8")
    assert main(["publish", str(folder), "--repo-id", "my-org/sets", "--dry-run", "--verbose", "--private"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("private dataset repository my-org/sets")
    assert out[2] == "left out, not part of the dataset layout (3 file(s)): .env, .git/config, report/report.md"
    added = {line.split()[1] for line in out if line.startswith("  add ")}
    assert added == {"README.md", "acs_build.json"} | {p.relative_to(folder).as_posix()
                                                       for p in (folder / "data").rglob("*.parquet")}
