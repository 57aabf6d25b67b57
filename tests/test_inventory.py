"""`acs doctor` and the inventory behind it: backends, models on disk, the commands that get them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.backends.inventory import (
    backend_checks,
    simalign_check,
    trankit_check,
    udpipe_checks,
)
from auto_challenge_sets.cli import main

from conftest import shared_path
from tiny_models import tiny_udpipe_model


def test_every_backend_is_listed_and_a_missing_library_names_the_extra(monkeypatch) -> None:
    names = {check.name: check for check in backend_checks()}
    assert set(names) == {"parser trankit", "parser udpipe", "aligner eflomal", "aligner simalign"}
    monkeypatch.setitem(sys.modules, "eflomal", None)
    eflomal = {check.name: check for check in backend_checks()}["aligner eflomal"]
    assert not eflomal.ok and eflomal.detail == "needs eflomal"
    assert eflomal.get == 'pip install "auto-challenge-sets[build]"'


def test_trankit_models_are_found_in_trankits_layout(tmp_path: Path) -> None:
    missing = trankit_check("de", tmp_path)
    assert not missing.ok and "german package" in missing.detail and "--lang de" in missing.get
    (tmp_path / "xlm-roberta-base" / "german").mkdir(parents=True)
    (tmp_path / "xlm-roberta-base" / "german" / "german.downloaded").write_text("")
    snapshot = tmp_path / "xlm-roberta-base" / "models--xlm-roberta-base" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    for name in ("config.json", "sentencepiece.bpe.model", "model.safetensors"):
        (snapshot / name).write_text("x")
    assert trankit_check("de", tmp_path).ok


def test_a_local_simalign_folder_needs_its_config(tmp_path: Path) -> None:
    assert not simalign_check(str(tmp_path)).ok
    (tmp_path / "config.json").write_text("{}")
    assert simalign_check(str(tmp_path)).ok


def test_udpipe_files_are_loaded_to_be_checked(tmp_path: Path) -> None:
    real = shared_path("models", "english.udpipe")
    fake = tmp_path / "fake.udpipe"
    fake.write_bytes(b"not a model")
    checks = {check.name: check for check in udpipe_checks(["en"], [real, fake, tmp_path / "absent.udpipe"])}
    assert checks["udpipe english.udpipe"].ok
    assert not checks["udpipe fake.udpipe"].ok and "not a UDPipe 1 model" in checks["udpipe fake.udpipe"].detail
    assert not checks["udpipe absent.udpipe"].ok and "an existing UDPipe 1 model" in checks["udpipe absent.udpipe"].get


def test_no_udpipe_model_known_says_where_to_get_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    (check,) = udpipe_checks(["de", "en"])
    assert check.name == "udpipe de, en" and not check.ok and "udpipe-ud-2.5-191206.zip" in check.get
    assert "german-hdt-ud-2.5-191206.udpipe, english-ewt-ud-2.5-191206.udpipe" in check.get
    (tmp_path / "udpipe").mkdir()
    (tmp_path / "udpipe" / "german.udpipe").write_bytes(b"junk")
    junk, missing = udpipe_checks(["de", "en"])
    assert junk.name == "udpipe de" and not junk.ok and "not a UDPipe 1 model" in junk.detail
    assert missing.name == "udpipe en" and "english-ewt-ud-2.5-191206.udpipe" in missing.get


def test_doctors_summary_and_language_table_name_the_same_models(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu"))
    (tmp_path / "udpipe").mkdir()
    shutil.copy(tiny_udpipe_model(), tmp_path / "udpipe" / "german-gsd-ud-2.5-191206.udpipe")
    trankit = tmp_path / "trankit" / "xlm-roberta-base"
    (trankit / "english").mkdir(parents=True)
    (trankit / "english" / "english.downloaded").write_text("")
    snapshot = trankit / "models--xlm-roberta-base" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    for name in ("config.json", "sentencepiece.bpe.model", "model.safetensors"):
        (snapshot / name).write_text("x")
    assert main(["doctor", "--lang", "de", "en"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # lines wrapped at 100 joined
    assert f"ok udpipe de {tmp_path / 'udpipe' / 'german-gsd-ud-2.5-191206.udpipe'}" in out
    assert f"-- udpipe en no model in {tmp_path / 'udpipe'}" in out
    assert f"-- trankit de (xlm-roberta-base) missing the german package in {tmp_path / 'trankit'}" in out
    assert f"ok trankit en (xlm-roberta-base) in {tmp_path / 'trankit'}" in out
    assert "de a build parses with trankit german (UD_German-GSD) as a target:" in out


def test_acs_doctor_prints_the_inventory_and_the_commands(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu"))
    monkeypatch.setitem(sys.modules, "ufal", None)
    assert main(["doctor", "--lang", "de", "--trankit-cache", str(tmp_path / "trankit")]) == 0
    out = capsys.readouterr().out
    rows = {line[4:].split("  ")[0].strip(): line[:2] for line in out.splitlines()[2:] if line[:2] in ("ok", "--")}
    assert rows["parser udpipe"] == "--" and rows["trankit de (xlm-roberta-base)"] == "--"
    assert rows["sacrebleu test sets"] == "--"
    assert 'parser udpipe: pip install "auto-challenge-sets[build]"' in out
    assert "To get what is missing:" in out


@pytest.mark.parametrize("flag", ["--help"])
def test_doctor_help(flag, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["doctor", flag])
    assert "Nothing is downloaded" in capsys.readouterr().out
