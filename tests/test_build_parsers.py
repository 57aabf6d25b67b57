"""`acs build` with the parse stage in front: UDPipe (shared models, and a tiny model trained
here) and trankit (a random-weight model built here) end to end, into loadable folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from datasets import load_dataset

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import demo_file
from auto_challenge_sets.dataset.layout import folder_sizes

from conftest import shared_path
from tiny_models import tiny_udpipe_model


def _head(path: Path, n: int, out: Path) -> Path:
    out.write_text("".join(path.read_text(encoding="utf-8").splitlines(True)[:n]), encoding="utf-8")
    return out


def _files(tmp_path: Path) -> dict[str, Path]:
    return {p.relative_to(tmp_path).as_posix(): p for p in tmp_path.rglob("*") if p.is_file()}


def test_udpipe_build_on_real_newstest2021_lines(tmp_path: Path, capsys) -> None:
    wmt = shared_path("data", "wmt21")
    model = shared_path("models", "german.udpipe")
    source = _head(wmt / "sources" / "newstest2021.de-en.src.de", 120, tmp_path / "nt21.de")
    target = _head(wmt / "references" / "newstest2021.de-en.ref.A.en", 120, tmp_path / "nt21.en")
    argv = ["build", "--pair", "de-en", "--corpus", "newstest2021", "--source", str(source), "--target", str(target),
            "--parser", "udpipe", "--udpipe-model", str(model), "--out", str(tmp_path / "out"),
            "--cache-dir", str(tmp_path / "cache"), "--aligner", "eflomal", "--seed", "1", "--quiet"]
    assert main(argv) == 0
    sizes = folder_sizes(tmp_path / "out")
    assert sizes["de-en.baseline"]["newstest2021"] == 120
    assert sizes["de-en.particle.d0"]["newstest2021"] > 0 and sizes["de-en.reflexive.d0"]["newstest2021"] > 0
    assert sizes["de-en.reorder.d5"]["newstest2021"] > 0
    rows = load_dataset(str(tmp_path / "out"), "de-en.particle.d0", split="newstest2021",
                        cache_dir=str(tmp_path / "hf"))
    for row in rows:
        for instance in row["instances"]:
            assert row["source_tokens"][instance["dependent"] - 1] == instance["dependent_form"]
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "parser: udpipe (german.udpipe)" in card and "aligner: eflomal" in card
    # A rerun reuses the cached parse and writes the same bytes.
    before = {k: p.read_bytes() for k, p in _files(tmp_path / "out").items()}
    parsed = list((tmp_path / "cache" / "parsed").iterdir())
    assert main(argv) == 0
    assert {k: p.read_bytes() for k, p in _files(tmp_path / "out").items()} == before
    assert list((tmp_path / "cache" / "parsed").iterdir()) == parsed


def test_udpipe_build_with_a_tiny_model_needs_no_shared_data(tmp_path: Path) -> None:
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--parser", "udpipe", "--pretokenized",
                 "--udpipe-model", str(tiny_udpipe_model()), "--alignment", str(demo_file("sample.de-en.pharaoh")),
                 "--out", str(tmp_path / "out"), "--quiet"]) == 0
    sizes = folder_sizes(tmp_path / "out")
    assert sizes["de-en.baseline"]["sample"] == 29 and "de-en.reorder.d5" in sizes


def test_a_udpipe_model_kept_in_the_cache_folder_builds_with_parser_udpipe_alone(tmp_path: Path, monkeypatch,
                                                                                  capsys) -> None:
    for name in ("ACS_CACHE_DIR", "XDG_CACHE_HOME", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # the Hub unreachable: trankit cannot fetch
    folder = tmp_path / "home" / ".cache" / "auto_challenge_sets" / "udpipe"  # docs/offline.md's folder
    argv = ["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--pretokenized", "--aligner", "none", "--quiet"]
    # the default build without trankit's files names the UDPipe alternative and where it goes
    assert main([*argv, "--out", str(tmp_path / "default")]) == 2
    error = " ".join(capsys.readouterr().err.split())
    assert "Or parse with UDPipe 1 (offline): --parser udpipe: put german-hdt-ud-2.5-191206.udpipe" in error
    assert f"into {folder}, or --udpipe-model FILE" in error
    folder.mkdir(parents=True)
    shutil.copy(tiny_udpipe_model(), folder / "german-gsd-ud-2.5-191206.udpipe")  # LINDAT's name
    assert main([*argv, "--out", str(tmp_path / "default")]) == 2
    assert f"--parser udpipe takes {folder / 'german-gsd-ud-2.5-191206.udpipe'}" in capsys.readouterr().err
    assert main([*argv, "--parser", "udpipe", "--out", str(tmp_path / "lindat")]) == 0
    assert "parser: udpipe (german-gsd-ud-2.5-191206.udpipe)" in (tmp_path / "lindat" / "README.md").read_text()
    # a second model for the language: ours is taken, and the note names the one left
    shutil.copy(tiny_udpipe_model(), folder / "german.udpipe")
    assert main([*argv, "--parser", "udpipe", "--out", str(tmp_path / "ours")]) == 0
    assert (f"note: --parser udpipe: {folder / 'german.udpipe'} of 2 models for de (not "
            "german-gsd-ud-2.5-191206.udpipe;") in capsys.readouterr().err
    assert "parser: udpipe (german.udpipe)" in (tmp_path / "ours" / "README.md").read_text()


def test_parser_conllu_needs_a_file(tmp_path: Path, capsys) -> None:
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--parser", "conllu", "--aligner", "none",
                 "--out", str(tmp_path)]) == 2
    assert "--parser conllu needs --source-conllu FILE" in capsys.readouterr().err


def test_missing_udpipe_model_fails_before_any_work(tmp_path: Path, capsys) -> None:
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--parser", "udpipe", "--udpipe-model",
                 str(tmp_path / "none.udpipe"), "--aligner", "none", "--out", str(tmp_path / "out"),
                 "--quiet"]) == 2
    assert "none.udpipe not found" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("pretokenized", [True])
def test_trankit_build_end_to_end_on_200_newstest2013_lines(tiny_cache: Path, tmp_path: Path,
                                                             pretokenized: bool) -> None:
    newstest = shared_path("data", "newstest2013")
    source = _head(newstest / "newstest2013.de", 200, tmp_path / "nt13.de")
    target = _head(newstest / "newstest2013.en", 200, tmp_path / "nt13.en")
    assert main(["build", "--pair", "de-en", "--corpus", "newstest2013", "--source", str(source),
                 "--target", str(target), "--parser", "trankit", "--trankit-cache", str(tiny_cache),
                 "--aligner", "none", "--out", str(tmp_path / "out"), "--quiet"]
                + (["--pretokenized"] if pretokenized else [])) == 0
    rows = load_dataset(str(tmp_path / "out"), "de-en.baseline", split="newstest2013", cache_dir=str(tmp_path / "hf"))
    assert rows.num_rows == 200 and rows["line"] == list(range(1, 201))
    assert all(row["length"] == len(row["source_tokens"]) > 0 for row in rows)
