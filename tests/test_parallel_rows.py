"""The selection and extraction of a build on worker processes (dataset/parallel_rows.py): gold PUD
German three times over (3,000 sentences, three chunks of 1,000 pairs on two workers) gives the
folder the build in this process gives, byte for byte, and the same errors for a parse that is not
its corpus's."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.pipeline.executors import ProcessExecutor
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.timings import recording

from conftest import shared_path


@pytest.fixture(scope="module")
def pud(tmp_path_factory) -> dict[str, Path]:
    """PUD's German trees and both sides' text; a Pharaoh file linking every third word to a token
    in reverse order (made up: it is the reorder configs' rows, not their truth, that are compared)."""
    folder = tmp_path_factory.mktemp("pud")
    files = {"conllu": folder / "pud.conllu"}
    german = shared_path("data", "pud", "de_pud-ud-test.conllu").read_text(encoding="utf-8")
    files["conllu"].write_text(3 * (german.rstrip("\n") + "\n\n"), encoding="utf-8")
    texts = {}
    for lang in ("de", "en"):
        path = shared_path("data", "pud", f"{lang}_pud-ud-test.conllu")
        texts[lang] = 3 * [line[len("# text = "):] for line in path.read_text(encoding="utf-8").split("\n")
                           if line.startswith("# text = ")]
        files[lang] = folder / f"pud.{lang}"
        files[lang].write_text("".join(x + "\n" for x in texts[lang]), encoding="utf-8")
    files["pharaoh"] = folder / "pud.pharaoh"
    files["pharaoh"].write_text("".join(
        " ".join(f"{k}-{m - 1 - k}" for k in range(0, m, 3)) + "\n"
        for m in (min(len(de.split()), len(en.split())) for de, en in zip(texts["de"], texts["en"]))),
        encoding="utf-8")
    return files


def _build(files: dict[str, Path], out: Path, jobs: int, conllu: Path | None = None) -> dict[str, bytes]:
    executor = ProcessExecutor(jobs=jobs) if jobs > 1 else None
    build_into_folder(BuildSpec(pair="de-en", corpus="pud", source=files["de"], target=files["en"],
                                source_conllu=conllu or files["conllu"], alignment=files["pharaoh"],
                                allow_token_mismatch=True, cache_dir=out.parent / f"cache-{out.name}",
                                executor=executor), out, license="other", progress=False)
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_two_workers_write_the_folder_of_one_process_and_count_their_cpu(pud, tmp_path):
    one = _build(pud, tmp_path / "one", 1)
    with recording() as timings:
        two = _build(pud, tmp_path / "two", 2)
    assert sorted(one) == sorted(two) and len(one) > 30
    assert [name for name in one if one[name] != two[name]] == []
    assert [name for name in one if ".reorder." in name]  # the links went with their pairs
    (selected,) = [s for s in timings.stages if s.name == "select and write"]
    assert selected.worker_cpu > 0  # the workers did the selection, and said how long it took


def _edited(pud: dict[str, Path], folder: Path, edit) -> Path:
    blocks = pud["conllu"].read_text(encoding="utf-8").split("\n\n")
    path = folder / "edited.conllu"
    path.write_text("\n\n".join(edit(blocks)), encoding="utf-8")
    return path


def _error(pud: dict[str, Path], out: Path, jobs: int, conllu: Path) -> str:
    with pytest.raises(AcsError) as raised:
        _build(pud, out, jobs, conllu)
    assert not out.exists() or not any((out / "data").glob("*/*.parquet"))  # nothing written
    return str(raised.value)


def _misspelled(blocks: list[str]) -> list[str]:
    """Sentences 1,300 and 2,900 (chunks 2 and 3) with a word that is not their line's."""
    for k in (1299, 2899):
        lines = blocks[k].split("\n")
        word = next(i for i, line in enumerate(lines) if line[:1].isdigit())
        columns = lines[word].split("\t")
        columns[1] = "Zzz" + columns[1]
        lines[word] = "\t".join(columns)
        blocks[k] = "\n".join(line for line in lines if not line.startswith("# text"))
    return blocks


def _broken(blocks: list[str]) -> list[str]:
    """Sentence 2,900 with a HEAD out of range, after a misspelled one: this error is raised first."""
    blocks = _misspelled(blocks)
    lines = blocks[2899].split("\n")
    word = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    columns = lines[word].split("\t")
    columns[6] = "999"
    lines[word] = "\t".join(columns)
    blocks[2899] = "\n".join(lines)
    return blocks


@pytest.mark.parametrize("edit", [_misspelled, _broken, lambda blocks: blocks[:1700] + blocks[1701:]],
                         ids=["mismatch", "parse error", "one sentence short"])
def test_a_parse_that_is_not_the_corpus_fails_with_the_error_of_one_process(pud, tmp_path, edit):
    conllu = _edited(pud, tmp_path, edit)
    one = _error(pud, tmp_path / "one", 1, conllu)
    two = _error(pud, tmp_path / "two", 2, conllu)
    assert one == two
    assert "edited.conllu" in one


def test_workers_cut_a_chinese_target_into_characters_as_one_process_does(tmp_path):
    """English trees into Chinese, three times over: the workers' rows hold the target's characters
    (auto_challenge_sets/formats/target_languages.py), byte for byte the rows of the build in one process."""
    from auto_challenge_sets.formats.target_languages import target_tokens

    files = {"conllu": tmp_path / "en.conllu", "en": tmp_path / "pud.en", "zh": tmp_path / "pud.zh",
             "pharaoh": tmp_path / "pud.pharaoh"}
    english = shared_path("data", "pud", "en_pud-ud-test.conllu").read_text(encoding="utf-8")
    files["conllu"].write_text(3 * (english.rstrip("\n") + "\n\n"), encoding="utf-8")
    texts = {lang: 3 * [line[len("# text = "):] for line in shared_path("data", "pud", f"{lang}_pud-ud-test.conllu")
                        .read_text(encoding="utf-8").split("\n") if line.startswith("# text = ")]
             for lang in ("en", "zh")}
    for lang in ("en", "zh"):
        files[lang].write_text("".join(x + "\n" for x in texts[lang]), encoding="utf-8")
    files["pharaoh"].write_text("".join(" ".join(f"{k}-{m - 1 - k}" for k in range(0, m, 3)) + "\n" for m in (
        min(len(en.split()), len(target_tokens(zh, "zh"))) for en, zh in zip(texts["en"], texts["zh"]))),
        encoding="utf-8")

    def build(out: Path, jobs: int) -> dict[str, bytes]:
        build_into_folder(BuildSpec(pair="en-zh", corpus="pud", source=files["en"], target=files["zh"],
                                    source_conllu=files["conllu"], alignment=files["pharaoh"],
                                    allow_token_mismatch=True, cache_dir=out.parent / f"cache-{out.name}",
                                    executor=ProcessExecutor(jobs=jobs) if jobs > 1 else None),
                          out, license="other", progress=False)
        return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}

    one = build(tmp_path / "one", 1)
    with recording() as timings:
        two = build(tmp_path / "two", 2)
    assert [s.worker_cpu > 0 for s in timings.stages if s.name == "select and write"] == [True]
    assert sorted(one) == sorted(two) and [name for name in one if one[name] != two[name]] == []
    import pyarrow.parquet as pq

    (path,) = sorted((tmp_path / "two" / "data").glob("en-zh.reorder.d5/*.parquet"))
    row = pq.read_table(path).to_pylist()[0]
    assert row["target_tokens"] == target_tokens(row["reference"], "zh") != row["reference"].split()
