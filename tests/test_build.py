"""The build on the gold PUD treebanks, checked against an independent reading of the rules
(the `conllu` package, not our reader), loaded back with `datasets.load_dataset`."""

from __future__ import annotations

import json
from pathlib import Path

import conllu
import pytest
import yaml
from datasets import load_dataset

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.layout import folder_sizes, scan_folder
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.pipeline.run_build import BuildSpec

from conftest import shared_path
from fake_hub import cache_mbert_snapshot
from independent import independent_selection


@pytest.fixture(scope="module")
def pud_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """de→en with the German trees and en→de with the English trees, in one folder, via `acs build`."""
    root = tmp_path_factory.mktemp("pud")
    conllu_files = {lang: shared_path("data", "pud", f"{lang}_pud-ud-test.conllu") for lang in ("de", "en")}
    texts = {}
    for lang, path in conllu_files.items():
        with open(path, encoding="utf-8") as handle:
            texts[lang] = [t.metadata["text"] for t in conllu.parse_incr(handle)]
        (root / f"pud.{lang}").write_text("".join(line + "\n" for line in texts[lang]), encoding="utf-8")
    out = root / "out"
    for src, tgt in (("de", "en"), ("en", "de")):
        assert main(["build", "--pair", f"{src}-{tgt}", "--corpus", "pud", "--source", str(root / f"pud.{src}"),
                     "--target", str(root / f"pud.{tgt}"), "--source-conllu", str(conllu_files[src]),
                     "--out", str(out), "--license", "cc-by-sa-3.0", "--quiet", "--aligner", "none"]) == 0
    return out


@pytest.mark.parametrize(("src", "tgt"), [("de", "en"), ("en", "de")])
def test_every_config_loads_with_the_independent_row_count(pud_folder: Path, src: str, tgt: str,
                                                           tmp_path: Path) -> None:
    sizes, instances = independent_selection(shared_path("data", "pud", f"{src}_pud-ud-test.conllu"), src)
    built = scan_folder(pud_folder)
    for (phenomenon, minimum), expected in sizes.items():
        name = f"{src}-{tgt}.baseline" if phenomenon == "baseline" else f"{src}-{tgt}.{phenomenon}.d{minimum}"
        if expected == 0:
            assert name not in built, f"{name} is empty and must not be exported"
            continue
        dataset = load_dataset(str(pud_folder), name, split="pud", cache_dir=str(tmp_path / "hf"))
        assert dataset.num_rows == expected, name
        if phenomenon == "baseline":
            continue
        ids = {s: i for i, s in enumerate(instances)}  # sent_id order = corpus line order
        for row in dataset:
            sent_id = list(instances)[row["line"] - 1]
            assert ids[sent_id] == row["line"] - 1
            wanted = [e for e in instances[sent_id][phenomenon] if e[2] >= minimum]
            assert [(i["dependent"], i["head"], i["distance"], i["content_distance"]) for i in row["instances"]] == wanted
            assert row["distance"] == max(e[2] for e in wanted)
            for instance in row["instances"]:
                assert row["source_tokens"][instance["dependent"] - 1] == instance["dependent_form"]
                assert row["source_tokens"][instance["head"] - 1] == instance["head_form"]
            assert row["length"] == len(row["source_tokens"])
            assert row["id"] == f"pud:{row['line']}" and (row["src_lang"], row["tgt_lang"]) == (src, tgt)


def test_expected_sizes_on_gold_pud(pud_folder: Path, tmp_path: Path) -> None:
    """The built folder's sizes (Parquet footers and the rows datasets loads), against the counts
    known for gold German PUD and the independent reading."""
    sizes, _ = independent_selection(shared_path("data", "pud", "de_pud-ud-test.conllu"), "de")
    built = folder_sizes(pud_folder)
    # Gold German PUD: 119 compound:prt tokens in 112 sentences; reflexives in 131 sentences.
    assert built["de-en.particle.d0"] == {"pud": 112} == {"pud": sizes["particle", 0]}
    assert built["de-en.reflexive.d0"] == {"pud": 131} == {"pud": sizes["reflexive", 0]}
    assert built["de-en.baseline"] == {"pud": 1000}
    assert "de-en.prep_stranding.d0" not in built and sizes["prep_stranding", 0] == 0  # not in German's profile
    particles = load_dataset(str(pud_folder), "de-en.particle.d0", split="pud", cache_dir=str(tmp_path / "hf"))
    assert particles.num_rows == 112
    assert sum(len(row["instances"]) for row in particles) == 119
    assert all(i["dependent_form"] and i["distance"] >= 0 for row in particles for i in row["instances"])


def test_readme_passes_datasets_own_metadata_validation(pud_folder: Path) -> None:
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(pud_folder / "README.md")
    configs = MetadataConfigs.from_dataset_card_data(card.data)  # raises on invalid data_files
    infos = DatasetInfosDict.from_dataset_card_data(card.data)
    assert set(configs) == set(infos)
    assert {"de-en.baseline", "en-de.baseline", "de-en.particle", "de-en.particle.d3",
            "en-de.prep_stranding.d0"} <= set(configs)
    assert configs["de-en.particle"]["data_files"] == configs["de-en.particle.d1"]["data_files"]
    front = yaml.safe_load((pud_folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    assert front["license"] == "cc-by-sa-3.0"
    assert front["language"] == ["de", "en"]
    assert front["task_categories"] == ["translation"]
    assert front["size_categories"] == ["1K<n<10K"]
    for name, info in infos.items():
        for split in info.splits.values():
            assert split.num_examples > 0, name
    assert "| de-en | particle | pud | 1000 | 112 |" in card.text


def test_loading_without_a_config_opens_the_default_one(pud_folder: Path, tmp_path: Path) -> None:
    """The card marks the short name of the first pair's first lexical phenomenon as the default,
    which the Hub viewer and a nameless load_dataset open."""
    front = yaml.safe_load((pud_folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    defaults = [entry["config_name"] for entry in front["configs"] if entry.get("default")]
    assert defaults == ["de-en.aux_bracket"]  # the first config of the card's order at D = 1
    loaded = load_dataset(str(pud_folder), split="pud", cache_dir=str(tmp_path / "hf"))
    assert loaded.num_rows == folder_sizes(pud_folder)["de-en.aux_bracket.d1"]["pud"]


def test_card_sizes_are_the_files_real_sizes(pud_folder: Path) -> None:
    import pyarrow.parquet as pq

    front = yaml.safe_load((pud_folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    info = {entry["config_name"]: entry for entry in front["dataset_info"]}["de-en.particle.d3"]
    path = pud_folder / "data" / "de-en.particle.d3" / "pud-00000-of-00001.parquet"
    metadata = pq.read_metadata(path)
    assert info["splits"] == [{"name": "pud", "num_bytes": metadata.row_group(0).total_byte_size,
                               "num_examples": metadata.num_rows}]
    assert info["download_size"] == path.stat().st_size > 0
    assert info["dataset_size"] == metadata.row_group(0).total_byte_size > 0


def test_an_empty_selection_is_named_in_the_card_and_the_record(pud_folder: Path) -> None:
    """datasets cannot load an empty split, so an empty selection is no config; the card says which.
    German has no stranded prepositions: its profile has no such config (language_profiles.py), and
    English PUD's four are all at D 0."""
    record = json.loads((pud_folder / "acs_build.json").read_text(encoding="utf-8"))
    builds = {b["pair"]: b for b in record["builds"]}
    assert builds["de-en"]["empty_configs"] == []
    assert builds["en-de"]["empty_configs"][:4] == ["en-de.particle.d4", "en-de.particle.d5", "en-de.prep_stranding.d1",
                                                     "en-de.prep_stranding.d2"]
    text = (pud_folder / "README.md").read_text(encoding="utf-8")
    assert "`en-de.prep_stranding.d1` (pud)" in text and "de-en.prep_stranding" not in text
    assert "| en-de | prep_stranding | pud | 1000 | 4 | 0 | 0 | 0 | 0 | 0 |" in text


def test_rebuild_is_byte_identical(pud_folder: Path, tmp_path: Path) -> None:
    before = {p.relative_to(pud_folder): p.read_bytes() for p in pud_folder.rglob("*") if p.is_file()}
    root = pud_folder.parent
    build_into_folder(BuildSpec("de-en", "pud", root / "pud.de", root / "pud.en",
                                source_conllu=shared_path("data", "pud", "de_pud-ud-test.conllu")), pud_folder,
                      progress=False)
    after = {p.relative_to(pud_folder): p.read_bytes() for p in pud_folder.rglob("*") if p.is_file()}
    assert after == before


def test_a_parse_that_does_not_match_the_corpus_is_an_error(pud_folder: Path, tmp_path: Path) -> None:
    root = pud_folder.parent
    with pytest.raises(ConlluError, match="does not match line 1"):
        build_into_folder(BuildSpec("de-en", "pud", root / "pud.en", root / "pud.de",
                                    source_conllu=shared_path("data", "pud", "de_pud-ud-test.conllu")),
                          tmp_path / "x", progress=False)
    short = tmp_path / "short.de"
    short.write_text("".join((root / "pud.de").read_text(encoding="utf-8").splitlines(True)[:10]), encoding="utf-8")
    (tmp_path / "short.en").write_text("".join((root / "pud.en").read_text(encoding="utf-8").splitlines(True)[:10]),
                                       encoding="utf-8")
    with pytest.raises(ConlluError, match=r"has 1000 sentences but .* has 10 non-empty lines \(10 pairs"):
        build_into_folder(BuildSpec("de-en", "pud", short, tmp_path / "short.en",
                                    source_conllu=shared_path("data", "pud", "de_pud-ud-test.conllu")),
                          tmp_path / "x", progress=False)


def _flat_parse(lines: list[str], path: Path) -> Path:
    """A pre-parsed source of white-space tokens with a flat tree, one sentence per line."""
    from auto_challenge_sets.backends.parsers import flat_sentence
    from auto_challenge_sets.pipeline.parse_stage import write_parse

    sentences = []
    for line in lines:
        sentence = flat_sentence(line.split())
        sentence.set_metadata("text", line)
        sentences.append(sentence)
    write_parse(sentences, path)
    return path


def test_a_pair_too_long_for_eflomal_is_reported_by_line(tmp_path: Path) -> None:
    pytest.importorskip("eflomal")
    from auto_challenge_sets.pipeline.run_build import build
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    folder = shared_path("data", "newstest2013")
    de = (folder / "newstest2013.de").read_text(encoding="utf-8").splitlines()[:200]
    en = (folder / "newstest2013.en").read_text(encoding="utf-8").splitlines()[:200]
    de.insert(150, " ".join(" ".join(de).split()[:1100]))  # line 151: 1,100 tokens
    en.insert(150, " ".join(" ".join(en).split()[:900]))
    (tmp_path / "news.de").write_text("".join(x + "\n" for x in de), encoding="utf-8")
    (tmp_path / "news.en").write_text("".join(x + "\n" for x in en), encoding="utf-8")
    spec = BuildSpec("de-en", "news", tmp_path / "news.de", tmp_path / "news.en",
                     source_conllu=_flat_parse(de, tmp_path / "news.de.conllu"), cache_dir=tmp_path / "cache",
                     aligner=AlignerSpec("eflomal", {"seed": 1, "model": 1, "n_samplers": 1, "rel_iterations": 0.05}))
    expected = "1 pair(s) longer than 1,023 tokens were aligned on their first 1,023 tokens: line 151"
    first = build(spec, progress=False)
    assert first.warnings[0] == expected and "without priors" in first.warnings[1]
    long = list(first.analyses)[150]
    assert long.line == 151 and len(long.source_tokens) == 1100 and len(long.links) > 400
    assert max(i for i, _ in long.links) < 1023
    assert build(spec, progress=False).warnings[0] == expected  # read from the cache: still reported


def test_eflomal_without_priors_on_a_test_set_sized_corpus_says_how_to_get_them(tmp_path: Path) -> None:
    pytest.importorskip("eflomal")
    from auto_challenge_sets.backends.aligners.eflomal import make_priors
    from auto_challenge_sets.demo_data import demo_file
    from auto_challenge_sets.pipeline.build_provenance import EFLOMAL_PRIORS_ADVISED_BELOW
    from auto_challenge_sets.pipeline.run_build import build
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    files = {"pair": "de-en", "corpus": "sample", "source": demo_file("sample.de"),
             "target": demo_file("sample.en"), "source_conllu": demo_file("sample.de.conllu"),
             "cache_dir": tmp_path / "cache"}
    fast = {"seed": 1, "model": 1, "n_samplers": 1, "rel_iterations": 0.05}
    (note,) = build(BuildSpec(**files, aligner=AlignerSpec("eflomal", fast)), progress=False).warnings
    assert note.startswith(f"eflomal aligned 29 pairs without priors (fewer than {EFLOMAL_PRIORS_ADVISED_BELOW:,})")
    assert "`acs align --aligner eflomal" in note and "--make-priors" in note and "--eflomal-priors" in note
    pairs = [(s.split(), t.split()) for s, t in zip(Path(files["source"]).read_text(encoding="utf-8").splitlines(),
                                                    Path(files["target"]).read_text(encoding="utf-8").splitlines())]
    make_priors(pairs, tmp_path / "de-en.priors")
    with_priors = AlignerSpec("eflomal", {**fast, "priors": tmp_path / "de-en.priors"})
    assert build(BuildSpec(**files, aligner=with_priors), progress=False).warnings == []


def _pud_subset(tmp_path: Path, count: int = 20) -> tuple[list[str], list[str]]:
    """The first ``count`` German PUD trees as CoNLL-U blocks and their texts; pud.en holds the
    English texts."""
    de = shared_path("data", "pud", "de_pud-ud-test.conllu").read_text(encoding="utf-8")
    blocks = de.split("\n\n")[:count]
    texts = [line[len("# text = "):] for block in blocks for line in block.split("\n") if line.startswith("# text = ")]
    english = [line[len("# text_en = "):] for block in blocks for line in block.split("\n")
               if line.startswith("# text_en = ")]
    (tmp_path / "pud.en").write_text("".join(x + "\n" for x in english), encoding="utf-8")
    return blocks, texts


def _build_pud(tmp_path: Path, blocks: list[str], source_lines: list[str]):
    from auto_challenge_sets.pipeline.run_build import build

    (tmp_path / "pud.de").write_text("".join(x + "\n" for x in source_lines), encoding="utf-8")
    (tmp_path / "pud.conllu").write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    output = build(BuildSpec("de-en", "pud", tmp_path / "pud.de", tmp_path / "pud.en",
                             source_conllu=tmp_path / "pud.conllu"), progress=False)
    output.analyses = list(output.analyses)  # a stream: the parse is read (and checked) as it is consumed
    return output


def test_a_conllu_whose_forms_are_not_its_text_is_an_error(tmp_path: Path) -> None:
    """FORMs edited apart from `# text` would give rows whose source_tokens are not their source."""
    blocks, texts = _pud_subset(tmp_path)
    edited = list(blocks)
    for k in (4, 8):  # sentences 5 and 9: the second word's FORM is no longer what # text says
        lines = edited[k].split("\n")
        word = next(i for i, line in enumerate(lines) if line.startswith("2\t"))
        columns = lines[word].split("\t")
        columns[1] = columns[1] + "x"
        lines[word] = "\t".join(columns)
        edited[k] = "\n".join(lines)
    start = sum(block.count("\n") + 2 for block in blocks[:4]) + 1  # the 5th block's first line
    with pytest.raises(ConlluError, match="does not match line 5 of ") as caught:
        _build_pud(tmp_path, edited, texts)
    error = caught.value
    assert error.path == str(tmp_path / "pud.conllu") and error.line == start
    sent_id = next(line for line in blocks[4].split("\n") if line.startswith("# sent_id = "))[len("# sent_id = "):]
    assert f"sentence 5 (sent_id {sent_id}) does not match line 5 of {tmp_path / 'pud.de'}" in str(error)
    assert "its word forms spell another text than the line" in str(error)
    assert "2 of 20 sentences do not match their lines: line 5, 9" in str(error)


def test_a_conllu_whose_text_is_another_line_is_an_error(tmp_path: Path) -> None:
    blocks, texts = _pud_subset(tmp_path)
    edited = list(blocks)
    edited[2] = edited[2].replace("# text = ", "# text = Nicht ", 1)
    with pytest.raises(ConlluError, match=r"sentence 3 .* does not match line 3 .*its # text is another text"):
        _build_pud(tmp_path, edited, texts)


def test_white_space_and_invisible_characters_are_no_mismatch(tmp_path: Path) -> None:
    import unicodedata

    blocks, texts = _pud_subset(tmp_path)
    lines = list(texts)
    lines[0] = lines[0].replace(" ", "  ").replace(", ", ",")  # spaces moved, as tokenizers do
    lines[1] = unicodedata.normalize("NFD", lines[1]) + "\u200b"  # another normalization, a zero-width space
    output = _build_pud(tmp_path, blocks, lines)
    assert output.pairs == 20 and next(iter(output.analyses)).source == lines[0]


def _empty_hub_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))


def test_the_python_api_and_the_cli_choose_the_default_aligner_alike(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """One default-aligner policy (pipeline/defaults.py): offline (the suite sets
    HF_HUB_OFFLINE) and without mBERT in the cache, BuildSpec(aligner="auto") and `acs build` with
    no --aligner both choose eflomal, with the same note; the build reports the note."""
    import argparse

    from auto_challenge_sets.cli.backend_flags import add_aligner_arguments, aligner_spec_from_args
    from auto_challenge_sets.demo_data import demo_file
    from auto_challenge_sets.pipeline.defaults import AUTO_ALIGNER, default_aligner
    from auto_challenge_sets.pipeline.run_build import build
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    _empty_hub_cache(monkeypatch, tmp_path)
    files = {"pair": "de-en", "corpus": "sample", "source": demo_file("sample.de"),
             "target": demo_file("sample.en"), "source_conllu": demo_file("sample.de.conllu")}
    spec = BuildSpec(**files, aligner=AUTO_ALIGNER, cache_dir=tmp_path / "cache")
    command_line = argparse.ArgumentParser()
    add_aligner_arguments(command_line)
    args = command_line.parse_args([])
    assert aligner_spec_from_args(args) == spec.aligner == AlignerSpec("eflomal")
    assert args.aligner_note == spec.aligner_note == default_aligner().note
    assert "aligned with eflomal instead" in spec.aligner_note
    pytest.importorskip("eflomal")
    output = build(spec, progress=False)
    assert output.warnings[0] == spec.aligner_note and output.record["aligner"] == "eflomal"
    # a Pharaoh file wins over the policy, as --alignment does; "none" and None are no alignment
    pharaoh = BuildSpec(**files, aligner=AUTO_ALIGNER, alignment=demo_file("sample.de-en.pharaoh"))
    assert pharaoh.aligner is None and pharaoh.aligner_note is None and pharaoh.aligned
    for unaligned in ("none", None):
        assert BuildSpec(**files, aligner=unaligned).aligned is False
    assert BuildSpec(**files, aligner="eflomal").aligner == AlignerSpec("eflomal")


def test_with_simaligns_model_cached_both_choose_simalign_without_a_note(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from auto_challenge_sets.cli.backend_flags import add_aligner_arguments, aligner_spec_from_args
    from auto_challenge_sets.demo_data import demo_file
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    cache_mbert_snapshot(tmp_path / "hub")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    spec = BuildSpec("de-en", "sample", demo_file("sample.de"), demo_file("sample.en"),
                     source_conllu=demo_file("sample.de.conllu"), aligner="auto")
    command_line = argparse.ArgumentParser()
    add_aligner_arguments(command_line)
    args = command_line.parse_args([])
    assert aligner_spec_from_args(args) == spec.aligner == AlignerSpec("simalign")
    assert getattr(args, "aligner_note", None) is None and spec.aligner_note is None


def test_the_truncation_warning_names_pairs_too_long_on_either_side():
    """eflomal reads 1,023 tokens a sentence: a source or a target over that is aligned on its first
    1,023 tokens, and the build says which corpus lines; exactly 1,023 fits."""
    from auto_challenge_sets.backends.aligners.eflomal import MAX_TOKENS, EflomalAligner
    from auto_challenge_sets.formats.corpus import ParallelCorpus, ReadReport, SentencePair
    from auto_challenge_sets.pipeline.run_build import _truncation_warnings

    def words(n: int) -> str:
        return " ".join(f"w{k}" for k in range(n))

    pairs = [SentencePair(2, "a", "b"), SentencePair(3, "a", words(MAX_TOKENS + 1)), SentencePair(5, "a", "b"),
             SentencePair(6, "a", words(MAX_TOKENS)), SentencePair(8, "a", "b")]
    corpus = ParallelCorpus("toy", "s", "t", pairs, 8, ReadReport())
    source_words = [1, 1, MAX_TOKENS + 1, 1, MAX_TOKENS]  # the parse's word counts, per pair
    assert _truncation_warnings(EflomalAligner(), corpus, source_words) == [
        "2 pair(s) longer than 1,023 tokens were aligned on their first 1,023 tokens: line 3, 5"]
    assert _truncation_warnings(None, corpus, source_words) == []
