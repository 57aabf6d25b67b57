"""The streaming writer (dataset/writer.py) on gold German PUD: row groups cut by row count alone
(the same bytes whatever the stream's step), files that load_dataset reads, and a stream that
fails at its end leaving nothing behind."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from datasets import load_dataset

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.dataset import writer
from auto_challenge_sets.dataset.layout import scan_folder
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.errors import ConlluError

from conftest import shared_path


@pytest.fixture(scope="module")
def pud(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The 1,000 German PUD trees with their German and English texts."""
    root = tmp_path_factory.mktemp("pud")
    conllu = shared_path("data", "pud", "de_pud-ud-test.conllu")
    blocks = conllu.read_text(encoding="utf-8").strip().split("\n\n")
    for key, name in (("text", "de"), ("text_en", "en")):
        prefix = f"# {key} = "
        lines = [next(x[len(prefix):] for x in block.split("\n") if x.startswith(prefix)) for block in blocks]
        (root / f"pud.{name}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return {"root": root, "conllu": conllu, "de": root / "pud.de", "en": root / "pud.en"}


def _build(pud: dict[str, Path], out: Path, conllu: Path | None = None) -> None:
    build_into_folder(BuildSpec("de-en", "pud", pud["de"], pud["en"], source_conllu=conllu or pud["conllu"],
                                phenomena=("particle", "subj_verb")), out, license="cc-by-sa-3.0", progress=False)


def _files(out: Path) -> dict[str, bytes]:
    return {name: splits["pud"].read_bytes() for name, splits in scan_folder(out).items()}


def test_row_groups_depend_on_the_rows_not_on_the_step_of_the_stream(pud, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP", 300)
    monkeypatch.setattr(writer, "CHUNK", 7)
    _build(pud, tmp_path / "small_steps")
    monkeypatch.setattr(writer, "CHUNK", 450)
    _build(pud, tmp_path / "large_steps")
    small, large = _files(tmp_path / "small_steps"), _files(tmp_path / "large_steps")
    assert small == large and len(small) == 13  # baseline + 2 phenomena x D0..5
    baseline = pq.ParquetFile(scan_folder(tmp_path / "small_steps")["de-en.baseline"]["pud"])
    assert [baseline.metadata.row_group(k).num_rows for k in range(baseline.num_row_groups)] == [300, 300, 300, 100]
    assert b"huggingface" in baseline.schema_arrow.metadata  # the features load_dataset reads


def test_the_rows_are_the_same_in_one_row_group_or_many(pud, tmp_path, monkeypatch) -> None:
    _build(pud, tmp_path / "default")
    monkeypatch.setattr(writer, "ROW_GROUP", 37)
    _build(pud, tmp_path / "many")
    for config in ("de-en.baseline", "de-en.particle.d3", "de-en.subj_verb.d0"):
        one = load_dataset(str(tmp_path / "default"), config, split="pud")
        many = load_dataset(str(tmp_path / "many"), config, split="pud")
        assert one.features == many.features and one.to_list() == many.to_list() and len(one) > 20


def test_a_stream_that_fails_at_its_end_leaves_no_file(pud, tmp_path) -> None:
    """The last tree does not match its line: the error comes once every config has rows written,
    and the folder is as it was (empty), with no partial file."""
    blocks = pud["conllu"].read_text(encoding="utf-8").strip().split("\n\n")
    blocks[-1] = blocks[-1].replace("# text = ", "# text = Nicht ", 1)
    broken = tmp_path / "broken.conllu"
    broken.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(ConlluError, match="sentence 1000 .* does not match line 1000"):
        _build(pud, out, broken)
    assert not out.exists() or not any(out.rglob("*"))
    assert not list(tmp_path.rglob("*.partial"))
