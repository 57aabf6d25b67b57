"""Test sets by name from sacrebleu's registry, offline with a cache filled from ../shared/data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.pipeline.testsets import (
    cached_testsets,
    resolve_systems,
    resolve_testset,
    split_name,
)

from conftest import shared_path
from sacrebleu_cache import PARAGRAPHS, XML_SYSTEMS, fill_wmt21, fill_wmt_xml, system_output

SYSTEMS = ("Facebook-AI", "Online-B")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill_wmt21(tmp_path_factory.mktemp("sacrebleu"), shared_path("data", "wmt21"), SYSTEMS)


def point_at(cache: Path, names: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> Path:
    """sacrebleu's entries ``names`` pointed at the filled cache (sacrebleu reads $SACREBLEU at import)."""
    from sacrebleu.dataset import DATASETS

    for name in names:
        monkeypatch.setattr(DATASETS[name], "_outdir", str(cache / name))
        monkeypatch.setattr(DATASETS[name], "_rawdir", str(cache / name / "raw"))
    monkeypatch.setenv("SACREBLEU", str(cache))
    return cache


@pytest.fixture
def wmt21(cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return point_at(cache, ("wmt21", "wmt21/systems"), monkeypatch)


def test_files_of_a_test_set_are_the_shared_texts(wmt21: Path) -> None:
    files = resolve_testset("wmt21", "de-en")
    data = shared_path("data", "wmt21")
    assert files.split == "wmt21"
    assert files.source.read_text(encoding="utf-8") == \
        (data / "sources" / "newstest2021.de-en.src.de").read_text(encoding="utf-8")
    # sacrebleu's default reference of wmt21 is translator A
    assert list(files.references) == ["ref:A"]
    assert files.reference.read_text(encoding="utf-8") == \
        (data / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8")
    assert files.systems == {}  # WMT's test.tgz has no system outputs: wmt21/systems has them
    systems = resolve_systems("wmt21", "de-en")
    assert sorted(systems) == sorted(SYSTEMS)
    assert systems["Online-B"].read_text(encoding="utf-8") == \
        (data / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en").read_text(encoding="utf-8")
    assert cached_testsets() == ["wmt21", "wmt21/systems"]


def test_unknown_names_and_pairs_are_one_line_errors(wmt21: Path) -> None:
    with pytest.raises(InputError, match=r"no test set 'wmt211' \(did you mean wmt21"):
        resolve_testset("wmt211", "de-en")
    with pytest.raises(InputError, match=r"has no pair 'en-ga' \(it has: .*de-en"):
        resolve_testset("wmt21", "en-ga")


def test_a_test_set_not_cached_offline_is_an_error_naming_the_cache(tmp_path: Path, monkeypatch) -> None:
    from sacrebleu.dataset import DATASETS

    monkeypatch.setattr(DATASETS["wmt20"], "_outdir", str(tmp_path / "wmt20"))
    monkeypatch.setattr(DATASETS["wmt20"], "_rawdir", str(tmp_path / "wmt20" / "raw"))
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    # no network here: sacrebleu's download fails inside; the error says where the cache is
    monkeypatch.setattr("urllib.request.urlopen", _no_network)
    with pytest.raises(InputError, match=f"cannot get sacrebleu's test set wmt20 de-en .*{tmp_path}"):
        resolve_testset("wmt20", "de-en")


def _no_network(*args, **kwargs):
    raise OSError("network is unreachable (test)")


def test_split_names() -> None:
    assert split_name("wmt21") == "wmt21" and split_name("wmt21/dev") == "wmt21_dev"


def test_acs_build_testset_offline(cache: Path, tmp_path: Path) -> None:
    """`acs build --testset wmt21 --pair de-en` in a fresh process, offline, with sacrebleu's cache."""
    model = shared_path("models", "german.udpipe")
    env = {**os.environ, "SACREBLEU": str(cache), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "build", "--testset", "wmt21",
                           "--pair", "de-en", "--parser", "udpipe", "--udpipe-model", str(model),
                           "--aligner", "none", "--quiet", "--cache-dir", str(tmp_path / "cache")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "de-en wmt21: 1000 sentence pairs of 1000 lines → auto_challenge_sets" in done.stdout
    from datasets import load_dataset

    os.chdir(tmp_path)
    try:
        rows = load_dataset("auto_challenge_sets", "de-en.baseline", split="wmt21", cache_dir=str(tmp_path / "hf"))
    finally:
        os.chdir(Path(__file__).parent)
    reference = (shared_path("data", "wmt21") / "references" / "newstest2021.de-en.ref.A.en").read_text(
        encoding="utf-8").splitlines()
    assert rows.num_rows == 1000 and rows["reference"][:3] == reference[:3]
    # the evaluation by name: the split is the test set's, the outputs are the ones sacrebleu carries
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "evaluate", "--testset", "wmt21",
                           "--pair", "de-en", "--system", "all", "--config", "de-en.reflexive.d1", "--json",
                           "--n-samples", "5", "--paired-samples", "20"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    payload = json.loads(done.stdout)
    assert sorted(payload["systems"]) == sorted(SYSTEMS) and payload["split"] == "wmt21"
    import sacrebleu

    hyp = (shared_path("data", "wmt21") / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en").read_text(
        encoding="utf-8").splitlines()
    assert payload["full"]["Online-B"]["bleu"] == pytest.approx(
        sacrebleu.corpus_bleu(hyp, [reference]).score, abs=1e-9)


# WMT's recent general directions (issue 35): every one the registry's WMT23 and WMT24 hold
DIRECTIONS = ("en-cs", "en-ja", "en-zh", "en-ru", "en-uk", "en-is", "en-hi", "en-es", "en-de", "cs-uk", "ja-zh")
WMT23 = ("cs-uk", "en-cs", "en-de", "en-ja", "en-ru", "en-uk", "en-zh")


@pytest.fixture(scope="module")
def xml_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("sacrebleu-xml")
    for name in ("wmt23", "wmt24"):
        fill_wmt_xml(cache, name)
    return cache


@pytest.fixture
def wmt23_24(xml_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("urllib.request.urlopen", _no_network)
    return point_at(xml_cache, ("wmt23", "wmt24"), monkeypatch)


def test_the_registry_holds_the_recent_directions() -> None:
    from sacrebleu.dataset import DATASETS

    assert set(DIRECTIONS) <= set(DATASETS["wmt24"].langpairs)
    assert set(DIRECTIONS) & set(DATASETS["wmt23"].langpairs) == set(WMT23)


@pytest.mark.parametrize(("name", "pair"), [("wmt24", pair) for pair in DIRECTIONS] + [("wmt23", p) for p in WMT23])
def test_wmt23_and_wmt24_paragraphs_by_name(wmt23_24: Path, name: str, pair: str) -> None:
    """Source, reference A and the outputs the set carries, one paragraph a line (its line break
    folded by sacrebleu), the test suite's document left out."""
    src, tgt = pair.split("-")
    files = resolve_testset(name, pair)
    assert files.split == name and list(files.references) == ["ref:refA"]
    expected = [" ".join(line.split()) for line in PARAGRAPHS[src]]
    assert files.source.read_text(encoding="utf-8").splitlines() == expected
    assert files.reference.read_text(encoding="utf-8").splitlines() == PARAGRAPHS[tgt]
    assert sorted(files.systems) == sorted(XML_SYSTEMS)
    assert resolve_systems(name, pair) == files.systems
    for system, path in files.systems.items():
        assert path.read_text(encoding="utf-8").splitlines() == [system_output(system, x) for x in PARAGRAPHS[tgt]]


def test_a_pair_missing_from_a_set_names_the_sets_that_have_it(wmt23_24: Path) -> None:
    with pytest.raises(InputError, match=r"'wmt23' has no pair 'en-hi' \(it has: .*; wmt24(, [^)]+)? ha(s|ve) it\)"):
        resolve_testset("wmt23", "en-hi")


def test_acs_build_and_evaluate_wmt24_en_zh_offline(wmt23_24: Path, tmp_path: Path) -> None:
    """`acs build --testset wmt24 --pair en-zh` (paragraph segments, gold-free: UDPipe's English model)
    and `acs evaluate --system all` with WMT24's own outputs, in fresh processes, offline."""
    env = {**os.environ, "SACREBLEU": str(wmt23_24), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "build", "--testset", "wmt24",
                           "--pair", "en-zh", "--parser", "udpipe", "--udpipe-model",
                           str(shared_path("models", "english.udpipe")), "--aligner", "none", "--quiet",
                           "--cache-dir", str(tmp_path / "cache")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "en-zh wmt24: 3 sentence pairs of 3 lines → auto_challenge_sets" in done.stdout
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "evaluate", "--testset", "wmt24",
                           "--pair", "en-zh", "--system", "all", "--config", "en-zh.subj_verb.d0", "--json",
                           "--n-samples", "5", "--paired-samples", "20"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    payload = json.loads(done.stdout)
    assert sorted(payload["systems"]) == sorted(XML_SYSTEMS) and payload["split"] == "wmt24"
    import sacrebleu

    hyp = [system_output("IOL-Research", line) for line in PARAGRAPHS["zh"]]
    assert payload["full"]["IOL-Research"]["bleu"] == pytest.approx(
        sacrebleu.corpus_bleu(hyp, [PARAGRAPHS["zh"]], tokenize="zh").score, abs=1e-9)
    assert "+random[n:5|tol:1|rel:0.02|seed:1]+" in payload["signature"]
    # no --tokenize: sacrebleu's own tokenizer for a Chinese target (13a would see one word a line)
    assert payload["settings"]["metric_options"]["bleu"]["tokenize"] == "zh" and "tok:zh" in payload["signature"]
