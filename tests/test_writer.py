"""The streaming writer (dataset/writer.py) on gold German PUD: row groups and files cut by row
count alone (the same bytes whatever the stream's step), files that load_dataset reads, and a
stream that fails at its end leaving nothing behind."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datasets import load_dataset

from auto_challenge_sets.dataset import writer
from auto_challenge_sets.dataset.features import features_for
from auto_challenge_sets.dataset.layout import DatasetFolder, folder_sizes, scan_folder, split_files
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.errors import ConlluError, InputError
from auto_challenge_sets.pipeline.run_build import BuildSpec

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
from auto_challenge_sets.pipeline.run_build import BuildSpec
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


# -- without shared data: the sink on hand-made rows, builds of the packaged sample ------------

def _sink_rows(lines: range) -> list[dict]:
    return [{"id": f"s:{k}", "corpus": "s", "line": k, "src_lang": "de", "tgt_lang": "en", "source": "a b",
             "reference": "b a", "source_tokens": ["a", "b"], "alignment": None, "length": 2,
             "phenomenon": "baseline", "distance": 0, "instances": []} for k in lines]


def _table(sink: writer.ConfigSink, lines: range) -> pa.Table:
    return pa.Table.from_pylist(_sink_rows(lines), schema=sink.schema)


def test_chunks_of_a_stream() -> None:
    assert list(writer._chunks(range(5), 2)) == [[0, 1], [2, 3], [4]]
    assert list(writer._chunks(range(4), 2)) == [[0, 1], [2, 3]]
    assert list(writer._chunks(iter("abc"), 3)) == [["a", "b", "c"]]
    assert list(writer._chunks([], 3)) == []


def test_the_sink_cuts_row_groups_and_files_by_row_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setattr(writer, "ROW_GROUP", 4)
    monkeypatch.setattr(writer, "FILE_ROWS", 8)
    sink = writer.ConfigSink(tmp_path, "de-en.baseline", "s", features_for("baseline"))
    folder = tmp_path / "data" / "de-en.baseline"
    sink.add(None)
    sink.add(_table(sink, range(1, 1)))
    assert (sink.rows, sink.partials, sink._writer) == (0, [], None) and not folder.exists()
    sink.add(_table(sink, range(1, 5)))  # exactly one row group: written at once
    assert sink.partials == [folder / f"s-00000.{os.getpid()}.partial"] and sink._writer is not None
    assert (sink.pending, sink.pending_rows, sink.rows, sink._file_rows) == ([], 0, 4, 4)
    sink.add(_table(sink, range(5, 8)))  # 3 rows wait
    assert (sink.pending_rows, sink._file_rows) == (3, 4)
    sink.add(_table(sink, range(8, 10)))  # the second group fills the first file, which is closed
    assert sink._writer is None and (sink.pending_rows, sink._file_rows, sink.rows) == (1, 0, 9)
    assert pq.read_metadata(sink.partials[0]).num_rows == 8
    sink.add(_table(sink, range(10, 14)))
    assert sink.partials[1] == folder / f"s-00001.{os.getpid()}.partial"
    assert (sink.pending_rows, sink._file_rows) == (1, 4)
    assert sink.close() == 13
    names = ["s-00000-of-00002.parquet", "s-00001-of-00002.parquet"]
    assert sorted(path.name for path in folder.iterdir()) == names
    files = [pq.ParquetFile(folder / name) for name in names]
    assert [[f.metadata.row_group(k).num_rows for k in range(f.num_row_groups)] for f in files] == [[4, 4], [4, 1]]
    assert [line for f in files for line in f.read().column("line").to_pylist()] == list(range(1, 14))
    column = files[0].metadata.row_group(0).column(0)  # datasets' settings: snappy, dictionaries, a page index
    assert column.compression == "SNAPPY" and column.has_dictionary_page and column.has_column_index
    assert files[0].schema_arrow == sink.schema and b"huggingface" in files[0].schema_arrow.metadata


def test_the_default_row_groups_and_files(tmp_path: Path) -> None:
    """2,000 rows a row group and 50,000 a file (25 groups), as the module says."""
    n = 50_001
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    columns = {"id": pa.array(["s:1"] * n), "corpus": pa.array(["s"] * n), "line": pa.array(range(n), pa.int32()),
               "src_lang": pa.array(["de"] * n), "tgt_lang": pa.array(["en"] * n), "source": pa.array(["a"] * n),
               "reference": pa.array(["b"] * n), "source_tokens": pa.array([["a"]] * n),
               "source_upos": pa.array([["X"]] * n), "alignment": pa.nulls(n, pa.string()), "length": pa.array([1] * n, pa.int32()),
               "phenomenon": pa.array(["baseline"] * n), "distance": pa.array([0] * n, pa.int32()),
               "instances": pa.array([[]] * n, sink.schema.field("instances").type)}
    sink.add(pa.Table.from_pydict(columns, schema=sink.schema))
    assert sink.close() == n
    files = [pq.read_metadata(path) for path in split_files(tmp_path, "c", "s")]
    assert [[m.row_group(k).num_rows for k in range(m.num_row_groups)] for m in files] == [[2_000] * 25, [1]]


def test_a_full_last_row_group_waits_for_close_only_when_short(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP", 3)
    monkeypatch.setattr(writer, "FILE_ROWS", 6)
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    sink.add(_table(sink, range(1, 7)))  # two whole groups: the file is complete
    assert sink._writer is None and len(sink.partials) == 1 and sink.pending_rows == 0
    assert sink.close() == 6
    assert [p.name for p in split_files(tmp_path, "c", "s")] == ["s-00000-of-00001.parquet"]
    metadata = pq.read_metadata(tmp_path / "data" / "c" / "s-00000-of-00001.parquet")
    assert [metadata.row_group(k).num_rows for k in range(metadata.num_row_groups)] == [3, 3]


def test_close_replaces_the_splits_earlier_files_and_keeps_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c"
    folder.mkdir(parents=True)
    for name in ("s-00000-of-00003.parquet", "s-00001-of-00003.parquet", "s-00002-of-00003.parquet",
                 "t-00000-of-00001.parquet"):
        (folder / name).write_bytes(b"old")
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    sink.add(_table(sink, range(1, 3)))
    assert sink.close() == 2
    assert sorted(path.name for path in folder.iterdir()) == ["s-00000-of-00001.parquet", "t-00000-of-00001.parquet"]
    assert pq.read_metadata(folder / "s-00000-of-00001.parquet").num_rows == 2
    assert (folder / "t-00000-of-00001.parquet").read_bytes() == b"old"


def test_an_empty_selection_removes_its_split_and_then_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c"
    folder.mkdir(parents=True)
    for name in ("s-00000-of-00002.parquet", "s-00001-of-00002.parquet", "t-00000-of-00001.parquet"):
        (folder / name).write_bytes(b"old")
    assert writer.ConfigSink(tmp_path, "c", "s", features_for("baseline")).close() == 0
    assert [path.name for path in folder.iterdir()] == ["t-00000-of-00001.parquet"]
    assert writer.ConfigSink(tmp_path, "c", "t", features_for("baseline")).close() == 0
    assert not folder.exists() and (tmp_path / "data").is_dir()
    assert writer.ConfigSink(tmp_path, "c", "t", features_for("baseline")).close() == 0  # nothing there: no error
    writer.remove_split(tmp_path, "gone", "s")


def test_a_folder_in_the_way_of_a_file_is_named_not_the_partial_file(tmp_path: Path) -> None:
    import errno

    in_the_way = tmp_path / "data" / "c" / "s-00000-of-00001.parquet"
    in_the_way.mkdir(parents=True)
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    sink.add(_table(sink, range(1, 3)))
    with pytest.raises(OSError) as caught:
        sink.close()
    assert type(caught.value) is IsADirectoryError and caught.value.errno == errno.EISDIR
    assert (caught.value.strerror, caught.value.filename) == ("Is a directory", str(in_the_way))


def test_an_aborted_sink_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "ROW_GROUP", 2)
    monkeypatch.setattr(writer, "FILE_ROWS", 4)
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    sink.add(_table(sink, range(1, 8)))  # one file closed, one open
    assert len(sink.partials) == 2 and sink._writer is not None
    sink.abort()
    assert sink._writer is None and list((tmp_path / "data" / "c").iterdir()) == []


def test_a_file_is_byte_for_byte_the_one_datasets_writes(tmp_path: Path) -> None:
    """The sink's Parquet settings are datasets' (content-defined chunking, page index, snappy,
    dictionaries, the key that records the chunking), checked against `Dataset.to_parquet` on one
    row group whose source column (about 900 kB) is long enough for the chunking to cut pages."""
    import random

    from datasets import Dataset

    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    rows = _sink_rows(range(1, writer.ROW_GROUP + 1))
    rng = random.Random(1)
    for row in rows:
        row["source"] = " ".join(f"{rng.choice(['der', 'Hund', 'sieht', 'den', 'Mann'])}{rng.randrange(10**6)}"
                                 for _ in range(60))
    table = pa.Table.from_pylist(rows, schema=sink.schema)
    sink.add(table)
    assert sink.close() == writer.ROW_GROUP
    (ours,) = split_files(tmp_path, "c", "s")
    theirs = tmp_path / "theirs.parquet"
    Dataset(table).to_parquet(str(theirs), batch_size=writer.ROW_GROUP)
    assert pq.ParquetFile(ours).metadata.num_row_groups == 1
    assert ours.read_bytes() == theirs.read_bytes()


def test_an_abort_passes_over_a_partial_file_that_is_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """abort runs while an error propagates (write_configs): a partial whose file was never made
    (a writer that failed to open it) or is gone must not replace that error by FileNotFoundError."""
    monkeypatch.setattr(writer, "ROW_GROUP", 2)
    monkeypatch.setattr(writer, "FILE_ROWS", 4)
    sink = writer.ConfigSink(tmp_path, "c", "s", features_for("baseline"))
    sink.add(_table(sink, range(1, 8)))  # one file closed, one open
    sink.partials[0].unlink()
    sink.abort()
    assert sink._writer is None and list((tmp_path / "data" / "c").iterdir()) == []


def _sample_spec(corpus: str, pair: str = "de-en", **extra) -> BuildSpec:
    from auto_challenge_sets.demo_data import demo_file

    src, tgt = pair.split("-")
    return BuildSpec(pair, corpus, demo_file(f"sample.{src}"), demo_file(f"sample.{tgt}"),
                     source_conllu=demo_file(f"sample.{src}.conllu"), **extra)


def test_a_build_shows_its_progress_unless_told_not_to(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """tqdm's bars on stderr ("reading parse" and the others), by default; none with progress=False."""
    build_into_folder(_sample_spec("one", phenomena=("particle",)), tmp_path / "shown", license="mit")
    assert "reading parse" in capsys.readouterr().err
    build_into_folder(_sample_spec("one", phenomena=("particle",)), tmp_path / "quiet", license="mit", progress=False)
    assert capsys.readouterr().err == ""


def test_a_build_returns_what_it_wrote(tmp_path: Path) -> None:
    from auto_challenge_sets.demo_data import demo_file

    out = tmp_path / "sets"
    result = build_into_folder(_sample_spec("one", phenomena=("particle", "prep_stranding"),
                                            lexical_distances=(0, 2, 10)), str(out), license="mit", progress=False)
    lines = len(demo_file("sample.de").read_text(encoding="utf-8").splitlines())
    assert (result.out, result.lines, result.pairs, result.warnings) == (out, lines, lines, [])
    assert not result.report.empty_lines
    names = ["de-en.baseline", "de-en.particle.d0", "de-en.particle.d2", "de-en.particle.d10",
             "de-en.prep_stranding.d0", "de-en.prep_stranding.d2", "de-en.prep_stranding.d10"]
    assert list(result.sizes) == names
    for name, rows in result.sizes.items():
        files = list((out / "data" / name).glob("*.parquet")) if (out / "data" / name).is_dir() else []
        assert rows == sum(pq.read_metadata(path).num_rows for path in files), name
    assert result.sizes["de-en.baseline"] == lines and result.sizes["de-en.prep_stranding.d0"] == 0
    import json

    [record] = json.loads((out / "acs_build.json").read_text(encoding="utf-8"))["builds"]
    empty = ["de-en.particle.d10", "de-en.prep_stranding.d0", "de-en.prep_stranding.d2", "de-en.prep_stranding.d10"]
    assert [name for name in names if not result.sizes[name]] == record["empty_configs"] == empty
    assert sorted(record["files"]) == sorted(f"data/{name}/one-00000-of-00001.parquet"
                                             for name in names if result.sizes[name])
    assert record["license"] == "mit" and (out / "README.md").is_file()


def test_a_rebuild_drops_only_its_own_splits_of_configs_it_no_longer_has(tmp_path: Path) -> None:
    out = tmp_path / "sets"
    both = {"phenomena": ("particle", "aux_bracket"), "lexical_distances": (0,)}
    for pair, corpus in (("de-en", "one"), ("de-en", "two"), ("en-de", "one")):
        build_into_folder(_sample_spec(corpus, pair, **both), out, license="mit", progress=False)
    assert set(scan_folder(out)["de-en.aux_bracket.d0"]) == {"one", "two"}
    result = build_into_folder(_sample_spec("one", phenomena=("particle",), lexical_distances=(0,)), out,
                               progress=False)
    assert list(result.sizes) == ["de-en.baseline", "de-en.particle.d0"]
    found = scan_folder(out)
    assert set(found["de-en.aux_bracket.d0"]) == {"two"}
    assert set(found["en-de.aux_bracket.d0"]) == {"one"}
    assert set(found["de-en.particle.d0"]) == {"one", "two"} and set(found["de-en.baseline"]) == {"one", "two"}


def test_a_stream_that_fails_midway_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from auto_challenge_sets.demo_data import demo_file

    monkeypatch.setattr(writer, "CHUNK", 5)
    monkeypatch.setattr(writer, "ROW_GROUP", 3)
    monkeypatch.setattr(writer, "FILE_ROWS", 6)
    blocks = demo_file("sample.de.conllu").read_text(encoding="utf-8").strip().split("\n\n")
    blocks[-1] = blocks[-1].replace("# text = ", "# text = Nicht ", 1)
    broken = tmp_path / "broken.conllu"
    broken.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    spec = BuildSpec("de-en", "one", demo_file("sample.de"), demo_file("sample.en"), source_conllu=broken,
                     phenomena=("particle",), lexical_distances=(0,))
    with pytest.raises(ConlluError, match=f"sentence {len(blocks)} .* does not match line {len(blocks)}"):
        build_into_folder(spec, tmp_path / "out", progress=False)
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.partial"))


def test_a_stream_that_breaks_leaves_no_partial_file_in_the_folder(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The sinks' files are removed by the writer itself (not only by the folder guard around it)."""
    import dataclasses

    from auto_challenge_sets.pipeline.run_build import build

    monkeypatch.setattr(writer, "CHUNK", 5)
    monkeypatch.setattr(writer, "ROW_GROUP", 3)
    output = build(_sample_spec("one", phenomena=("particle",), lexical_distances=(0,)), progress=False)

    def breaking():
        for k, analysis in enumerate(output.analyses):
            if k == 12:
                raise RuntimeError("the stream broke")
            yield analysis

    out = tmp_path / "out"
    with pytest.raises(RuntimeError, match="the stream broke"):
        writer._write_configs(dataclasses.replace(output, analyses=breaking()), out)
    assert (out / "data" / "de-en.baseline").is_dir()  # the sinks had begun writing
    assert [path for path in out.rglob("*") if path.is_file()] == []


def test_the_rows_and_schema_of_each_kind(tmp_path: Path) -> None:
    """Rows of the corpus given (id, corpus, line, text), lexical rows without and alignment rows with
    target_tokens; compared with the sample files as the standard library reads them."""
    from auto_challenge_sets.demo_data import demo_file

    out = tmp_path / "sets"
    build_into_folder(_sample_spec("one", phenomena=("particle",), lexical_distances=(0,),
                                   alignment=demo_file("sample.de-en.pharaoh")), out, progress=False)
    sources = demo_file("sample.de").read_text(encoding="utf-8").splitlines()
    baseline = pq.read_table(out / "data" / "de-en.baseline" / "one-00000-of-00001.parquet")
    assert baseline.column("id").to_pylist() == [f"one:{k}" for k in range(1, len(sources) + 1)]
    assert set(baseline.column("corpus").to_pylist()) == {"one"}
    assert baseline.column("line").to_pylist() == list(range(1, len(sources) + 1))
    assert baseline.column("source").to_pylist() == sources
    lexical = pq.read_schema(out / "data" / "de-en.particle.d0" / "one-00000-of-00001.parquet")
    for name in ("de-en.reorder.d5", "de-en.crossing.d5"):
        reorder = pq.read_schema(out / "data" / name / "one-00000-of-00001.parquet")
        assert "target_tokens" in reorder.names and "target_tokens" not in lexical.names, name
        assert reorder.field("instances").type.value_type.names == ["source_index", "target_index", "source_form",
                                                                    "target_form", "distance"], name
    assert lexical.field("instances").type.value_type.names == ["dependent", "head", "dependent_form", "head_form",
                                                                "distance", "content_distance"]


def test_a_build_passes_on_its_read_report_and_warnings(tmp_path: Path) -> None:
    from auto_challenge_sets.demo_data import demo_file

    source = tmp_path / "sample.de"
    source.write_bytes(demo_file("sample.de").read_bytes().replace(b"\n", b"\r\n"))
    lines = demo_file("sample.de").read_bytes().count(b"\n")
    spec = BuildSpec("de-en", "one", source, demo_file("sample.en"), source_conllu=demo_file("sample.de.conllu"),
                     phenomena=("particle",), lexical_distances=(0,), alignment=demo_file("sample.de-en.pharaoh"),
                     aligner_note="the note of the aligner policy")
    result = build_into_folder(spec, tmp_path / "sets", progress=False)
    assert result.report.crlf_lines == {str(source): lines}
    assert result.warnings == ["the note of the aligner policy"]


def test_a_write_that_fails_once_in_the_writer_thread_fails_the_build(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer thread's error is raised (not lost with the rows it was writing), and the files
    begun are removed. A full disk is simulated at pyarrow's write, once."""
    import errno

    monkeypatch.setattr(writer, "ROW_GROUP", 5)
    write_table = pq.ParquetWriter.write_table
    calls = []

    def full_once(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_table(self, *args, **kwargs)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full_once)
    out = tmp_path / "sets"
    with pytest.raises(OSError) as caught:
        build_into_folder(_sample_spec("one", phenomena=("particle",), lexical_distances=(0,)), out, progress=False)
    assert caught.value.errno == errno.ENOSPC
    assert not list(tmp_path.rglob("*.parquet")) and not list(tmp_path.rglob("*.partial"))
