"""Per language: the parser and model a build would use, what to fetch, and the judge's matching as
a target; `acs doctor --lang` prints it. Only files are looked at: nothing is downloaded."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.backends.inventory import LANGUAGES, language_parsers, trankit_check, udpipe_checks
from auto_challenge_sets.cli import main


def _trankit_package(cache: Path, name: str) -> None:
    """trankit's cache layout: the language package's mark and the XLM-R snapshot."""
    (cache / "xlm-roberta-base" / name).mkdir(parents=True)
    (cache / "xlm-roberta-base" / name / f"{name}.downloaded").write_text("")
    snapshot = cache / "xlm-roberta-base" / "models--xlm-roberta-base" / "snapshots" / "abc"
    snapshot.mkdir(parents=True, exist_ok=True)
    for file in ("config.json", "sentencepiece.bpe.model", "model.safetensors"):
        (snapshot / file).write_text("x")


def test_trankit_covers_every_language_but_icelandic() -> None:
    names = {lang: language_parsers(lang).trankit_language for lang in LANGUAGES}
    assert names == {"cs": "czech", "de": "german", "en": "english", "es": "spanish", "fr": "french",
                     "hi": "hindi", "is": None, "ru": "russian", "zh": "chinese", "ja": "japanese",
                     "uk": "ukrainian"}
    assert language_parsers("cs").trankit_treebank == "UD_Czech-PDT"


def test_a_language_is_missing_until_its_models_are_on_disk(tmp_path: Path) -> None:
    trankit, udpipe = tmp_path / "trankit", tmp_path / "udpipe"
    cs = language_parsers("cs", trankit, udpipe)
    assert cs.trankit_missing == ("the czech package", "xlm-roberta-base") and cs.udpipe_models == ()
    assert "--lang cs" in trankit_check("cs", trankit).get
    _trankit_package(trankit, "czech")
    udpipe.mkdir()
    (udpipe / "czech-pdt-ud-2.5-191206.udpipe").write_bytes(b"model")
    ready = language_parsers("cs", trankit, udpipe)
    assert ready.trankit_missing == () and ready.udpipe_models == (udpipe / "czech-pdt-ud-2.5-191206.udpipe",)
    assert trankit_check("cs", trankit).ok


def test_icelandic_is_parsed_by_udpipe_or_gold_trees(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    assert language_parsers("is", tmp_path).trankit_language is None
    check = trankit_check("is", tmp_path)  # no "acs parse --parser trankit --lang is" that would fail
    assert not check.ok and "has no model" in check.detail and "--source-conllu" in check.get
    (udpipe,) = udpipe_checks(["is"])
    assert "icelandic-icepahc-ud-2.5-191206.udpipe" in udpipe.get and str(tmp_path / "udpipe") in udpipe.get


@pytest.mark.parametrize(("lang", "target"), [("cs", "match:lemma-simplemma-cs, tok:space"),
                                              ("uk", "match:lemma-simplemma-uk, tok:space"),
                                              ("zh", "match:exact, tok:sacrebleu-zh"),
                                              ("ja", "match:exact, tok:sacrebleu-zh+kana")])
def test_the_judges_matching_as_a_target(lang: str, target: str) -> None:
    assert language_parsers(lang).as_target == target


def test_acs_doctor_lang_prints_a_row_per_language(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacrebleu"))
    monkeypatch.setitem(sys.modules, "ufal", None)
    _trankit_package(tmp_path / "trankit", "hindi")
    assert main(["doctor", "--lang", "all", "--trankit-cache", str(tmp_path / "trankit")]) == 0
    out = capsys.readouterr().out
    # a terminal's width, not 190 columns; only a path alone on its line (tmp_path's are long) may pass it
    assert all(len(line) <= 100 or " " not in line.strip() for line in out.splitlines())
    table = out[out.index("Per language"):]
    rows = {block[:2]: " ".join(block.split()) for block in re.split(r"\n(?=\S)", table)[1:]}
    assert list(rows) == list(LANGUAGES)
    assert "trankit hindi (UD_Hindi-HDTB)" in rows["hi"] and "czech (UD_Czech-PDT)" in rows["cs"]
    assert "with none by default" in rows["is"] and "as a target: match:exact, tok:sacrebleu-zh" in rows["zh"]
    fetch = " ".join(out[out.index("To get what is missing"):out.index("Per language")].split())  # wrapped at 100
    assert "trankit hi (xlm-roberta-base)" not in fetch and "--lang cs --input" in fetch
    assert "icelandic-icepahc-ud-2.5-191206.udpipe, russian" in fetch and "ukrainian-iu-ud-2.5-191206.udpipe (in https://lindat" in fetch
    assert not (tmp_path / "trankit" / "xlm-roberta-base" / "czech").exists()  # nothing fetched
