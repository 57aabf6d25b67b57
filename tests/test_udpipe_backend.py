"""The UDPipe backend: a tiny model trained here (no shared data), and the shared real models."""

from __future__ import annotations

import conllu
import pytest

from auto_challenge_sets.backends.parsers import (
    MERGED_KEY,
    ParserError,
    get_parser,
)
from auto_challenge_sets.backends.parsers.udpipe import udpipe_models
from auto_challenge_sets.formats.conllu import format_sentence, parse_conllu

from tiny_models import DEMO, tiny_udpipe_model


@pytest.fixture(scope="session")
def tiny_model():
    return tiny_udpipe_model()


def _check_tree(sentence):
    roots = [w for w in sentence.words if w.head == 0]
    assert len(roots) == 1
    assert all(0 <= w.head <= len(sentence.words) for w in sentence.words)
    assert "SpacesAfter=\\n" not in format_sentence(sentence)


def test_tiny_model_one_sentence_per_line(tiny_model):
    lines = [line for line in (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() if line.strip()]
    parser = get_parser("udpipe", udpipe_model=tiny_model)
    sentences = parser.parse(lines)
    assert len(sentences) == len(lines)
    for sentence, line in zip(sentences, lines):
        _check_tree(sentence)
        assert "".join(sentence.surface_forms()) == "".join(line.split())
    text = "".join(format_sentence(s) for s in sentences)
    assert len(conllu.parse(text)) == len(lines)


def test_several_sentences_on_a_line_are_merged(tiny_model):
    parser = get_parser("udpipe", udpipe_model=tiny_model)
    (sentence,) = parser.parse(["Der Zug kommt an. Sie ruft ihn an. Mach das Fenster zu!"])
    assert int(sentence.metadata(MERGED_KEY)) >= 2
    _check_tree(sentence)
    assert [w.deprel for w in sentence.words if w.deprel == "parataxis"]
    assert "".join(sentence.forms) == "DerZugkommtan.Sieruftihnan.MachdasFensterzu!"


def test_pretokenized_keeps_the_tokens(tiny_model):
    parser = get_parser("udpipe", udpipe_model=tiny_model, pretokenized=True)
    (sentence,) = parser.parse(["Der Zug kommt an . Sie ruft ihn an ."])
    assert sentence.forms == "Der Zug kommt an . Sie ruft ihn an .".split()
    assert sentence.metadata(MERGED_KEY) is None
    _check_tree(sentence)


def test_a_model_is_found_by_language_in_the_cache_folder(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    (tmp_path / "udpipe").mkdir()
    for name in ("english-ewt-ud-2.5-191206.udpipe", "german-gsd-ud-2.5-191206.udpipe",
                 "german-hdt-ud-2.5-191206.udpipe", "german.udpipe", "de.udpipe", "germanic.udpipe", "x-de.udpipe"):
        (tmp_path / "udpipe" / name).write_bytes(b"")
    # a name a user gave first (by name), then the preferred treebank (HDT), then by name
    assert [path.name for path in udpipe_models("de")] == [
        "de.udpipe", "german.udpipe", "german-hdt-ud-2.5-191206.udpipe", "german-gsd-ud-2.5-191206.udpipe"]
    assert [path.name for path in udpipe_models("en")] == ["english-ewt-ud-2.5-191206.udpipe"]
    (tmp_path / "udpipe" / "de.udpipe").write_bytes(tiny_model.read_bytes())
    assert get_parser("udpipe", lang="de").model_path == tmp_path / "udpipe" / "de.udpipe"


def test_signature_changes_with_the_model_and_mode(tiny_model, tmp_path):
    raw = get_parser("udpipe", udpipe_model=tiny_model).cache_key()
    tok = get_parser("udpipe", udpipe_model=tiny_model, pretokenized=True).cache_key()
    assert raw["parser"] == "udpipe" and raw["sha256"] == tok["sha256"] and raw != tok


def test_missing_model_is_reported_before_work(tmp_path, monkeypatch):
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path))
    with pytest.raises(ParserError, match=f"no UDPipe model for de in {tmp_path / 'udpipe'}: put "
                       "german-hdt-ud-2.5-191206.udpipe .*1-3131.*or pass udpipe_model FILE"):
        get_parser("udpipe", lang="de")
    with pytest.raises(ParserError, match="not found"):
        get_parser("udpipe", udpipe_model=tmp_path / "none.udpipe").check_ready()


@pytest.mark.shared
def test_real_german_model_on_newstest2021(shared_models, shared_data):
    model = shared_models / "german.udpipe"
    source = shared_data / "wmt21" / "sources" / "newstest2021.de-en.src.de"
    if not model.exists() or not source.exists():
        pytest.skip(f"needs {model} and {source}")
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()][:150]
    sentences = get_parser("udpipe", udpipe_model=model).parse(lines)
    assert len(sentences) == len(lines)
    for sentence, line in zip(sentences, lines):
        _check_tree(sentence)
        assert "".join(sentence.surface_forms()) == "".join(line.split())
    text = "".join(format_sentence(s) for s in sentences)
    assert len(parse_conllu(text)) == len(lines) == len(conllu.parse(text))
    # real labels: German separable-verb particles come out as compound:prt somewhere in 150 lines
    assert any(w.deprel == "compound:prt" for s in sentences for w in s.words)
