"""The streaming writer (dataset/writer.py) on gold German PUD: row groups and files cut by row
count alone (the same bytes whatever the stream's step), files that load_dataset reads, and a
stream that fails at its end leaving nothing behind."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datasets import load_dataset

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.dataset import writer
from auto_challenge_sets.dataset.features import features_for
from auto_challenge_sets.dataset.layout import DatasetFolder, folder_sizes, scan_folder, split_files
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.errors import ConlluError, InputError

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
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted((out / "data").rglob("*"))
            if path.is_file()}


def test_row_groups_depend_on_the_rows_not_on_the_step_of_the_stream(pud, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP", 300)
    monkeypatch.setattr(writer, "CHUNK", 7)
    _build(pud, tmp_path / "small_steps")
    monkeypatch.setattr(writer, "CHUNK", 450)
    _build(pud, tmp_path / "large_steps")
    small, large = _files(tmp_path / "small_steps"), _files(tmp_path / "large_steps")
    assert small == large and len(small) == 13  # baseline + 2 phenomena x D0..5
    [baseline] = scan_folder(tmp_path / "small_steps")["de-en.baseline"]["pud"]
    baseline = pq.ParquetFile(baseline)
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


def _small_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP", 100)
    monkeypatch.setattr(writer, "FILE_ROWS", 300)


def test_a_large_split_is_written_as_several_files_that_read_as_one(pud, tmp_path, monkeypatch) -> None:
    _build(pud, tmp_path / "one")
    _small_files(monkeypatch)
    _build(pud, tmp_path / "many")
    files = scan_folder(tmp_path / "many")["de-en.baseline"]["pud"]
    assert [path.name for path in files] == [f"pud-{k:05d}-of-00004.parquet" for k in range(4)]
    assert [pq.ParquetFile(path).metadata.num_rows for path in files] == [300, 300, 300, 100]
    assert folder_sizes(tmp_path / "many") == folder_sizes(tmp_path / "one")
    card = (tmp_path / "many" / "README.md").read_text(encoding="utf-8")
    assert "- data/de-en.baseline/pud-00003-of-00004.parquet" in card
    for config in ("de-en.baseline", "de-en.subj_verb.d0", "de-en.particle"):
        one = load_dataset(str(tmp_path / "one"), config, split="pud")
        many = load_dataset(str(tmp_path / "many"), config, split="pud")
        assert one.to_list() == many.to_list() and len(one) > 20
    assert DatasetFolder(tmp_path / "many").read("de-en.baseline", "pud", ["id"]) == \
        DatasetFolder(tmp_path / "one").read("de-en.baseline", "pud", ["id"])


def test_a_file_is_complete_on_disk_once_it_has_its_rows(pud, tmp_path, monkeypatch) -> None:
    """What bounds the writer's memory: the file of the first FILE_ROWS rows is closed (its footer
    written, the writer dropped) while the stream goes on."""
    _small_files(monkeypatch)
    sink = writer.ConfigSink(tmp_path, "de-en.baseline", "pud", features_for("baseline"))
    rows = [{"id": f"pud-{k}", "corpus": "pud", "line": k, "src_lang": "de", "tgt_lang": "en", "source": "a",
             "reference": "b", "source_tokens": ["a"], "alignment": None, "length": 1, "phenomenon": "baseline",
             "distance": 0, "instances": []} for k in range(1, 351)]
    sink.add(pa.Table.from_pylist(rows[:299], schema=sink.schema))
    assert sink._writer is not None and len(sink.partials) == 1
    sink.add(pa.Table.from_pylist(rows[299:], schema=sink.schema))
    assert sink._writer is None and pq.read_metadata(sink.partials[0]).num_rows == 300
    assert sink.close() == 350
    assert [p.name for p in split_files(tmp_path, "de-en.baseline", "pud")] == \
        ["pud-00000-of-00002.parquet", "pud-00001-of-00002.parquet"]


def test_a_rebuild_replaces_every_file_of_the_split(pud, tmp_path, monkeypatch) -> None:
    out = tmp_path / "out"
    _build(pud, out)
    with monkeypatch.context() as patch:
        _small_files(patch)
        _build(pud, out)
    assert len(scan_folder(out)["de-en.baseline"]["pud"]) == 4
    _build(pud, out)
    assert [p.name for p in scan_folder(out)["de-en.baseline"]["pud"]] == ["pud-00000-of-00001.parquet"]
    assert not list(out.rglob("*-of-00004.parquet")) and not list(out.rglob("*.partial"))


def test_a_split_with_a_file_missing_is_an_error_naming_its_folder(pud, tmp_path, monkeypatch) -> None:
    _small_files(monkeypatch)
    out = tmp_path / "out"
    _build(pud, out)
    (out / "data" / "de-en.baseline" / "pud-00001-of-00004.parquet").unlink()
    with pytest.raises(InputError, match=r"de-en\.baseline: holds pud-00000-of-00004\.parquet, "
                                         r"pud-00002-of-00004\.parquet, pud-00003-of-00004\.parquet: split 'pud' "
                                         r"needs its 4 files -00000-of-00004 to -00003-of-00004"):
        folder_sizes(out)
    (out / "data" / "de-en.baseline" / "pud-00001-of-00003.parquet").write_bytes(b"")
    with pytest.raises(InputError, match="split 'pud' needs its 4 files"):
        folder_sizes(out)


def test_a_stream_that_fails_after_its_first_files_leaves_no_file(pud, tmp_path, monkeypatch) -> None:
    _small_files(monkeypatch)
    blocks = pud["conllu"].read_text(encoding="utf-8").strip().split("\n\n")
    blocks[-1] = blocks[-1].replace("# text = ", "# text = Nicht ", 1)
    broken = tmp_path / "broken.conllu"
    broken.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    with pytest.raises(ConlluError):
        _build(pud, tmp_path / "out", broken)
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.partial"))


_FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.dataset import writer
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, 30_000))
writer.ROW_GROUP, writer.FILE_ROWS = 100, 300
de, en, conllu, out = map(Path, sys.argv[1:])
try:
    writer.build_into_folder(BuildSpec("de-en", "pud", de, en, source_conllu=conllu), out, license="other",
                             progress=False)
except OSError as error:
    print("OSError:", error)
"""


def test_a_write_that_fails_in_the_writer_thread_is_raised_and_leaves_no_file(pud, tmp_path) -> None:
    """The Parquet files are written in a thread of their own: a file that cannot be written (the
    size limit of the process stands for a full disk) fails the build with that error, after the
    other files' partial files are removed."""
    import subprocess
    import sys

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", _FULL_DISK, str(pud["de"]), str(pud["en"]), str(pud["conllu"]),
                           str(out)], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.startswith("OSError:") and "File too large" in done.stdout, done.stdout + done.stderr
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.partial"))
