"""The trankit backend through the real ``trankit.Pipeline``, on a random-weight model built here.

Labels from random weights are noise: these tests check structure (one sentence per line, valid
CoNLL-U, one root, multiword tokens as range lines, long lines, model files), not accuracy. The
real-weight checks at the end are marked ``models`` and skip when the weights are absent.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import conllu
import pytest

from auto_challenge_sets.backends.parsers import (
    CHUNKED_KEY,
    ParserError,
    get_parser,
    trankit_models,
)
from auto_challenge_sets.backends.parsers import trankit as tb
from auto_challenge_sets.backends.parsers.trankit_conllu import to_sentence
from auto_challenge_sets.formats.conllu import format_sentence, read_conllu
from auto_challenge_sets.pipeline.parse_stage import parse_lines, write_parse
from auto_challenge_sets.pipeline.specs import ParserSpec

from conftest import shared_path
from tiny_models import DEMO

REPO = Path(__file__).resolve().parent.parent


def _lines(path: Path, count: int | None = None) -> list[str]:
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return lines[:count] if count else lines


@pytest.fixture(scope="session")
def german(tiny_cache):
    parser = get_parser("trankit", lang="de", trankit_cache=tiny_cache)
    yield parser
    parser.close()


@pytest.fixture(scope="session")
def english(tiny_cache):
    parser = get_parser("trankit", lang="en", trankit_cache=tiny_cache)
    yield parser
    parser.close()


def _check(sentences, lines, tmp_path: Path, name: str):
    """One valid sentence per line: our reader, the conllu package, one root, the text covered."""
    assert len(sentences) == len(lines)
    path = tmp_path / f"{name}.conllu"
    write_parse(sentences, path)
    again = list(read_conllu(path))
    assert [s.sent_id for s in again] == [str(n) for n in range(1, len(lines) + 1)]
    assert [s.text for s in again] == lines
    text = path.read_text(encoding="utf-8")
    assert len(conllu.parse(text)) == len(lines)
    for sentence, line in zip(again, lines):
        assert [w.head for w in sentence.words].count(0) == 1
        assert all((w.head == 0) == (w.deprel == "root") for w in sentence.words)
        assert "".join(sentence.surface_forms()).replace(" ", "") == "".join(line.split())
        for mwt in sentence.multiword_tokens:
            assert mwt.last > mwt.first
    return again


def test_200_german_lines_through_the_real_pipeline(german, tmp_path):
    lines = _lines(shared_path("data", "newstest2013", "newstest2013.de"), 200)
    sentences = parse_lines(lines, lang="de", parser=german, cache_dir=tmp_path, shard_size=100, progress=False)
    again = _check(sentences, lines, tmp_path, "de")
    # the random expander knows German contractions (zum = zu dem, im = in dem, ...): range lines
    mwts = [mwt for s in again for mwt in s.multiword_tokens]
    if not mwts:
        pytest.skip("the random tokenizer marked no contraction as a multiword token in these lines")
    for sentence in again:
        for mwt in sentence.multiword_tokens:
            assert f"\n{mwt.first}-{mwt.last}\t{mwt.form}\t" in "\n" + format_sentence(sentence)


def test_200_english_lines_through_the_real_pipeline(english, tmp_path):
    lines = _lines(shared_path("data", "newstest2013", "newstest2013.en"), 200)
    _check(parse_lines(lines, lang="en", parser=english, cache_dir=tmp_path, progress=False), lines, tmp_path, "en")


def test_demo_lines_and_pretokenized_mode(german, tiny_cache, tmp_path):
    lines = _lines(DEMO / "sample.de")
    _check(parse_lines(lines, lang="de", parser=german, cache_dir=tmp_path, progress=False), lines, tmp_path, "d")
    pretokenized = get_parser("trankit", lang="de", trankit_cache=tiny_cache, pretokenized=True)
    pretokenized._pipeline = german._load()  # same model, no second load
    sentences = pretokenized.parse(lines)
    assert [s.forms for s in sentences] == [line.split() for line in lines]
    assert not any(s.multiword_tokens for s in sentences)


def test_long_lines_are_parsed_in_chunks_not_crashed(german, tmp_path):
    words = " ".join(f"Wort{i}" for i in range(300)) + " ."  # well over 512 subwords
    url = "http://example.org/" + "x7" * 600  # one word far over the per-word limit
    lines = [words, f"Siehe {url} dort .", "Kurz ."]
    assert german._pieces(words) > 512
    sentences = _check(parse_lines(lines, lang="de", parser=german, cache_dir=tmp_path, progress=False),
                       lines, tmp_path, "long")
    assert int(sentences[0].metadata(CHUNKED_KEY)) >= 2
    assert sentences[2].metadata(CHUNKED_KEY) is None
    assert url in "".join(sentences[1].surface_forms())  # a huge word keeps its full form


def test_trankit_pipeline_normalization_helpers():
    trankit_models.import_trankit()
    tokens = [
        {"id": (1, 1), "text": "im", "expanded": [{"id": 1, "text": "im"}]},  # one word: plain token
        {"id": (2, 3), "text": "zum", "expanded": [{"id": 2, "text": "zu"}, {"id": 3, "text": "dem"}]},
        {"id": (4, 5), "text": "am", "expanded": []},  # nothing expanded: plain token
        {"id": 6, "text": "Haus"},
    ]
    normalized = tb._normalize_mwts(tokens)
    assert [t["id"] for t in normalized] == [1, (2, 3), 4, 5]
    for word, head in zip([normalized[0], *normalized[1]["expanded"], normalized[2], normalized[3]],
                          [0, 5, 3, 5, 1]):
        word.update(head=head, deprel="root" if head else "nmod", upos="X")
    sentence = to_sentence(normalized)
    assert sentence.forms == ["im", "zu", "dem", "am", "Haus"]
    assert [(m.first, m.last, m.form) for m in sentence.multiword_tokens] == [(2, 3, "zum")]
    assert [w.deprel for w in sentence.words][0] == "root"


# -- model files -----------------------------------------------------------------------------------

def test_missing_models_fail_before_work_naming_files(tmp_path, monkeypatch):
    cache = tmp_path / "empty-trankit"
    with pytest.raises(ParserError, match="german_mwt_expander.pt") as caught:
        parse_lines(["Ein Satz ."], lang="de", parser=ParserSpec("trankit", {"trankit_cache": cache}),
                    cache_dir=tmp_path / "stage", progress=False)
    message = str(caught.value)
    assert "german/german.tagger.mdl" in message and "german_mwt_expander.pt" in message
    assert "sentencepiece.bpe.model" in message and "trankit_cache DIR" in message
    assert "uonlp/trankit" in message
    # the tests run in offline mode (conftest.py): it is named as such, and no fetch is tried
    assert "offline mode: HF_HUB_OFFLINE is set" in message
    assert "REVISION" not in message and "models--xlm-roberta-base/snapshots" in message
    assert not (tmp_path / "stage").exists()  # nothing was started


def test_fetch_puts_hub_files_into_trankits_layout(tiny_cache, tmp_path, monkeypatch):
    """hf_hub_download replaced by a copy from a local 'Hub': the layout logic is what is tested."""
    import huggingface_hub

    monkeypatch.setattr("auto_challenge_sets.backends.hub.hub_reachable", lambda timeout=3.0: True)
    monkeypatch.delenv("HF_HUB_OFFLINE")  # a (fake) Hub is there: offline mode would not ask it

    hub = {}
    for language in ("german", "english"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:  # trankit's zips hold the language's files
            for path in (tiny_cache / "xlm-roberta-base" / language).iterdir():
                if not path.name.endswith(".downloaded"):
                    archive.write(path, f"{language}/{path.name}")
        hub[("uonlp/trankit", f"models/v1.0.0/xlm-roberta-base/{language}.zip")] = buffer.getvalue()
    for path in trankit_models.xlmr_weights(tiny_cache, "xlm-roberta-base").parent.iterdir():
        hub[("xlm-roberta-base", path.name)] = path.read_bytes()
    calls = []

    def fake_download(repo_id, filename, *, local_dir=None, cache_dir=None, **_):
        calls.append((repo_id, filename))
        if (repo_id, filename) not in hub:
            raise huggingface_hub.utils.EntryNotFoundError(filename)
        if local_dir is not None:
            target = Path(local_dir) / filename
        else:  # the Hub cache layout transformers reads
            repo = Path(cache_dir) / f"models--{repo_id}"
            (repo / "refs").mkdir(parents=True, exist_ok=True)
            (repo / "refs" / "main").write_text("f" * 40)
            target = repo / "snapshots" / ("f" * 40) / filename
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(hub[(repo_id, filename)])
        return str(target)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", fake_download)
    cache = tmp_path / "fetched"
    trankit_models.ensure_trankit_models(cache, "german", "xlm-roberta-base")
    assert trankit_models.missing_model_files(cache, "german", "xlm-roberta-base") == []
    assert (cache / "xlm-roberta-base" / "german" / "german.tokenizer.mdl").is_file()
    assert ("xlm-roberta-base", "model.safetensors") in calls
    shutil.rmtree(cache / "xlm-roberta-base" / "german")
    calls.clear()
    trankit_models.ensure_trankit_models(cache, "german", "xlm-roberta-base")  # XLM-R is there: only the zip
    assert calls == [("uonlp/trankit", "models/v1.0.0/xlm-roberta-base/german.zip")]


def test_signature_names_model_and_options(tiny_cache):
    base = get_parser("trankit", lang="de", trankit_cache=tiny_cache).cache_key()
    other = get_parser("trankit", lang="de", trankit_cache=tiny_cache, batch_size=8).cache_key()
    assert base["parser"] == "trankit" and base["language"] == "german" and len(base["models"]) == 64
    assert base != other


# -- real weights --------------------------------------------------------------------------------

def _real_cache() -> Path:
    cache = trankit_models.default_trankit_cache()
    weights = trankit_models.xlmr_weights(cache, "xlm-roberta-base")
    if weights is None or weights.stat().st_size < 500_000_000 or \
            not (cache / "xlm-roberta-base" / "german" / "german.tagger.mdl").is_file():
        pytest.skip(f"needs real trankit weights (xlm-roberta-base, german) in {cache} "
                    "(set ACS_TRANKIT_CACHE); none can be downloaded here")
    return cache


@pytest.mark.models
def test_real_german_particle_is_compound_prt():
    parser = get_parser("trankit", lang="de", trankit_cache=_real_cache())
    (sentence,) = parser.parse(["Der Zug kommt morgen früh in Berlin an."])
    an = [w for w in sentence.words if w.form == "an"]
    assert an and an[-1].deprel == "compound:prt"
    assert sentence.words[an[-1].head - 1].form == "kommt"
