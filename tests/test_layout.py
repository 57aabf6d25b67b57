"""The folder layout (dataset/layout.py): shard names, the scan of ``data/`` and its refusal of a
split with a file lost or added, sizes from the Parquet footers, the one-line error of an
unreadable file, and the card reader (:class:`DatasetFolder`) with every form of ``data_files``
and every way a card can be wrong. Files are written here with pyarrow; expected values are
literals or pyarrow's own reading of them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auto_challenge_sets.dataset.layout import (
    DatasetFolder,
    config_folder,
    folder_sizes,
    front_matter,
    parquet_rows,
    parquet_stats,
    require_complete,
    scan_folder,
    shard_path,
    split_files,
    unreadable_parquet,
)
from auto_challenge_sets.errors import InputError

REGULAR = "not a regular file; a dataset folder holds only the files a build writes: build it again"


def _rows(path: Path, lines: list[int], row_group_size: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"id": [f"c:{k}" for k in lines], "line": lines}), path, row_group_size=row_group_size)
    return path


def _touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def _message(call, *args) -> str:
    with pytest.raises(InputError) as caught:
        call(*args)
    return str(caught.value)


# -- names and the scan -----------------------------------------------------------------------

def test_shard_names_are_datasets_own(tmp_path: Path) -> None:
    assert config_folder(tmp_path, "de-en.baseline") == tmp_path / "data" / "de-en.baseline"
    assert config_folder(str(tmp_path), "x") == tmp_path / "data" / "x"
    assert shard_path(tmp_path, "c", "test") == tmp_path / "data" / "c" / "test-00000-of-00001.parquet"
    assert shard_path(tmp_path, "c", "test", 2, 13) == tmp_path / "data" / "c" / "test-00002-of-00013.parquet"
    assert shard_path(tmp_path, "c", "test", index=12345, count=99999).name == "test-12345-of-99999.parquet"


def test_split_files_keep_only_shard_names_in_order(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c"
    for name in ("b-00001-of-00002.parquet", "b-00000-of-00002.parquet", "a-00000-of-00001.parquet",
                 "notes.parquet", "a-0000-of-00001.parquet", "a-00000-of-00001.parquet.partial",
                 "a-00000-of-00001.txt", "my-split-00000-of-00001.parquet"):
        _touch(folder / name)
    assert split_files(tmp_path, "c", "b") == [folder / "b-00000-of-00002.parquet", folder / "b-00001-of-00002.parquet"]
    assert split_files(tmp_path, "c", "a") == [folder / "a-00000-of-00001.parquet"]
    assert split_files(tmp_path, "c", "my-split") == [folder / "my-split-00000-of-00001.parquet"]
    assert split_files(tmp_path, "c", "missing") == []
    assert split_files(tmp_path, "no-such-config", "a") == []
    assert scan_folder(tmp_path) == {"c": {"a": [folder / "a-00000-of-00001.parquet"],
                                           "b": [folder / "b-00000-of-00002.parquet", folder / "b-00001-of-00002.parquet"],
                                           "my-split": [folder / "my-split-00000-of-00001.parquet"]}}


def test_the_scan_skips_what_holds_no_shard(tmp_path: Path) -> None:
    assert scan_folder(tmp_path) == {}
    (tmp_path / "data").write_text("not a folder\n", encoding="utf-8")
    assert scan_folder(tmp_path) == {}
    (tmp_path / "data").unlink()
    _touch(tmp_path / "data" / "empty" / "readme.txt")
    _touch(tmp_path / "data" / "one" / "s-00000-of-00001.parquet")
    assert list(scan_folder(tmp_path)) == ["one"]


def test_a_pipe_in_a_config_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "s-00000-of-00001.parquet")
    assert _message(scan_folder, tmp_path) == (
        f"{folder / 's-00000-of-00001.parquet'}: is a pipe (a FIFO, or a process substitution such as <(...)), "
        + REGULAR)


@pytest.mark.parametrize(("names", "count", "last"), [
    (["s-00000-of-00003.parquet", "s-00002-of-00003.parquet"], 3, "00002"),  # a file lost
    (["s-00001-of-00002.parquet"], 2, "00001"),  # the first one lost
    (["s-00000-of-00001.parquet", "s-00001-of-00001.parquet"], 1, "00000"),  # one added
    (["s-00000-of-00002.parquet", "s-00001-of-00003.parquet"], 2, "00001"),  # counts that differ
])
def test_a_split_numbered_with_a_gap_is_an_error_naming_its_files(tmp_path: Path, names: list[str], count: int,
                                                                   last: str) -> None:
    folder = tmp_path / "data" / "de-en.baseline"
    for name in names:
        _touch(folder / name)
    _touch(tmp_path / "data" / "de-en.particle.d1" / "s-00000-of-00001.parquet")  # a complete split is no error
    expected = (f"{folder}: holds {', '.join(names)}: split 's' needs its {count} files -00000-of-{count:05d} "
                f"to -{last}-of-{count:05d}, no more and no fewer (a file lost or added by hand?); build it again")
    assert _message(scan_folder, tmp_path) == expected
    assert _message(folder_sizes, tmp_path) == expected


def test_a_split_of_several_files_numbered_in_full_is_scanned(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c"
    names = [f"s-{k:05d}-of-00003.parquet" for k in range(3)]
    for name in names:
        _touch(folder / name)
    assert scan_folder(tmp_path) == {"c": {"s": [folder / name for name in names]}}


# -- sizes from the footers -------------------------------------------------------------------

def test_rows_and_bytes_sum_every_file_and_row_group(tmp_path: Path) -> None:
    first = _rows(tmp_path / "a.parquet", list(range(10)), row_group_size=4)  # 3 row groups
    second = _rows(tmp_path / "b.parquet", list(range(5)), row_group_size=2)  # 3 row groups
    metadata = [pq.read_metadata(path) for path in (first, second)]
    assert [m.num_row_groups for m in metadata] == [3, 3]
    size = sum(m.row_group(i).total_byte_size for m in metadata for i in range(m.num_row_groups))
    assert parquet_stats([first, second]) == (15, size)
    assert parquet_stats([second]) == (5, sum(metadata[1].row_group(i).total_byte_size for i in range(3)))
    assert parquet_stats([]) == (0, 0)
    assert parquet_rows([first, second]) == 15 and parquet_rows([]) == 0


def test_folder_sizes_are_per_config_in_distance_order(tmp_path: Path) -> None:
    _rows(tmp_path / "data" / "de-en.reorder.d10" / "s-00000-of-00001.parquet", [1])
    _rows(tmp_path / "data" / "de-en.reorder.d5" / "s-00000-of-00001.parquet", [1, 2])
    _rows(tmp_path / "data" / "de-en.reorder.d5" / "t-00000-of-00002.parquet", [1, 2, 3])
    _rows(tmp_path / "data" / "de-en.reorder.d5" / "t-00001-of-00002.parquet", [4])
    _rows(tmp_path / "data" / "de-en.baseline" / "s-00000-of-00001.parquet", [1, 2, 3, 4, 5])
    sizes = folder_sizes(tmp_path)
    assert list(sizes) == ["de-en.baseline", "de-en.reorder.d5", "de-en.reorder.d10"]
    assert sizes == {"de-en.baseline": {"s": 5}, "de-en.reorder.d5": {"s": 2, "t": 4}, "de-en.reorder.d10": {"s": 1}}


def test_an_unreadable_parquet_file_is_one_line_naming_it(tmp_path: Path) -> None:
    good = _rows(tmp_path / "a.parquet", [1, 2])
    bad = tmp_path / "b.parquet"
    bad.write_bytes(b"")
    message = _message(parquet_stats, [good, bad])
    assert message == f"{bad}: not a readable Parquet file (Parquet file size is 0 bytes)"
    assert _message(parquet_rows, [bad]) == message


def _damage(path: Path, how: str) -> None:
    """The file's size kept; its footer's length, magic or Thrift bytes spoilt."""
    data = bytearray(path.read_bytes())
    length = int.from_bytes(data[-8:-4], "little")
    if how == "length":
        data[-8:-4] = (len(data) * 2).to_bytes(4, "little")
    elif how == "magic":
        data[-4:] = b"PAR2"
    elif how == "length zero":
        data[-8:-4] = bytes(4)
    else:
        data[-8 - length:-8] = b"\xff" * length
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["length", "magic", "length zero", "thrift"])
def test_a_damaged_footer_of_the_same_size_is_refused_as_pyarrow_refuses_it(tmp_path: Path, how: str) -> None:
    """The footer decoded alone must refuse whatever pyarrow's reader refuses, in pyarrow's words."""
    path = _rows(tmp_path / "a.parquet", [1, 2, 3])
    size = path.stat().st_size
    _damage(path, how)
    assert path.stat().st_size == size
    with pytest.raises((pa.ArrowException, OSError)) as pyarrow_error:
        pq.read_metadata(path)
    assert _message(parquet_rows, [path]) == str(unreadable_parquet(pyarrow_error.value, path))


def test_the_parquet_error_leaves_the_path_out_and_is_cut_short() -> None:
    where = Path("/folder/data/c/s-00000-of-00001.parquet")
    error = OSError(f"Failed to open local file '{where}'. Detail: broken\nsecond line")
    made = unreadable_parquet(error, where)
    assert isinstance(made, InputError) and made.path == str(where) and made.line is None
    assert made.reason == "not a readable Parquet file (Failed to open local file 'the file'. Detail: broken)"
    assert str(made) == f"{where}: {made.reason}"
    assert unreadable_parquet(ValueError(f"cannot open path '{where}' now"), str(where)).reason == \
        "not a readable Parquet file (cannot open it now)"
    long = unreadable_parquet(ValueError("x" * 119 + "yz"), where).reason
    assert long == "not a readable Parquet file (" + "x" * 119 + "y)"


# -- the card ---------------------------------------------------------------------------------

def _card(root: Path, text: str | bytes) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / "README.md"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_the_front_matter_of_a_card(tmp_path: Path) -> None:
    card = _card(tmp_path, "---\nconfigs:\n- config_name: a\n---\nbody\n---\nmore\n")
    assert front_matter(card) == {"configs": [{"config_name": "a"}]}
    assert front_matter(_card(tmp_path, "no header\n---\na: 1\n---\n")) == {}
    assert front_matter(_card(tmp_path, "---\n---\nbody\n")) == {}  # an empty header
    assert front_matter(_card(tmp_path, "---\n- a list\n---\n")) == {}  # not a mapping
    assert front_matter(_card(tmp_path, "---\nplain text\n---\n")) == {}


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("---\na: 1\n", 1, "YAML front matter is not closed by a `---` line"),
    ("---a: 1", 1, "YAML front matter is not closed by a `---` line"),
    ("---\na: 1\nb: : :\n---\n", 3, "bad YAML front matter: mapping values are not allowed in this context"),
    ("---\nconfigs:\n- config_name: a\n  data_files: : x\n---\n", 4,
     "bad YAML front matter: mapping values are not allowed in this context"),
    ("---\na: 1\n\tb: 2\n---\n", 3, "bad YAML front matter: found a tab character that violates indentation"),
])
def test_a_broken_front_matter_names_its_line(tmp_path: Path, text: str, line: int, reason: str) -> None:
    """The line is the file's (the YAML's first line is the `---` line's rest); the reasons are
    libyaml's, whose loader is used where PyYAML has it (the pure-Python one words them otherwise)."""
    import yaml

    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML without libyaml words its errors otherwise")
    card = _card(tmp_path, text)
    with pytest.raises(InputError) as caught:
        front_matter(card)
    assert (caught.value.reason, caught.value.line, caught.value.path) == (reason, line, str(card))


def test_a_yaml_error_without_a_place_or_problem_is_named_by_its_kind(tmp_path: Path) -> None:
    card = _card(tmp_path, "---\na: \x07\n---\n")  # a control character: PyYAML's reader refuses it
    with pytest.raises(InputError) as caught:
        front_matter(card)
    assert (caught.value.reason, caught.value.line) == ("bad YAML front matter: ReaderError", None)
    assert str(caught.value) == f"{card}: bad YAML front matter: ReaderError"


def test_a_card_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    card = _card(tmp_path, b"---\nab\xff\n---\n")
    assert _message(front_matter, card) == f"{card}: invalid UTF-8 (byte 7 of the file)"
    assert _message(front_matter, _card(tmp_path, b"\xfe")) == f"{card}: invalid UTF-8 (byte 1 of the file)"
    assert _message(front_matter, tmp_path) == f"{tmp_path}: cannot read: Is a directory"


def test_a_folder_without_its_card(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    assert _message(require_complete, missing) == (f"{missing}: no such dataset folder (make one with `acs build`, or "
                                                       "`acs demo` for the sample)")
    (tmp_path / "README.md").write_text("x", encoding="utf-8")
    assert _message(require_complete, tmp_path / "README.md") == (
        f"{tmp_path / 'README.md'}: no such dataset folder (make one with `acs build`, or `acs demo` for the sample)")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _message(require_complete, empty) == f"{empty}: has no README.md with `configs:` (is it a dataset folder?)"
    (empty / "data").mkdir()
    assert _message(require_complete, empty) == (
        f"{empty}: has data/ but no README.md: the folder is incomplete (a build that did not finish?); build it again")
    (empty / "README.md").mkdir()  # a folder named README.md is no card
    assert _message(DatasetFolder, empty).startswith(f"{empty}: has data/ but no README.md")
    assert require_complete(tmp_path) == tmp_path / "README.md"


def _folder(root: Path, configs: str) -> Path:
    _rows(root / "data" / "a" / "test-00000-of-00002.parquet", [1, 2])
    _rows(root / "data" / "a" / "test-00001-of-00002.parquet", [3])
    _rows(root / "data" / "a" / "dev-00000-of-00001.parquet", [7])
    _rows(root / "data" / "b" / "train-00000-of-00001.parquet", [4, 5])
    _card(root, f"---\nconfigs:\n{configs}---\n# a card\n")
    return root


def test_every_form_of_data_files_the_hub_accepts(tmp_path: Path) -> None:
    root = _folder(tmp_path, (
        "- config_name: listed\n  data_files:\n  - split: test\n    path: data/a/test-*.parquet\n"
        "  - split: dev\n    path: [data/a/dev-00000-of-00001.parquet]\n"
        "- config_name: mapping\n  data_files:\n    test: data/a/test-00001-of-00002.parquet\n    other: data/b/*\n"
        "- config_name: one\n  data_files: data/b/*.parquet\n"
        "- config_name: paths\n  data_files: [data/b/*.parquet, data/a/dev-*]\n"
        "- config_name: nosplit\n  data_files:\n  - path: data/b/*.parquet\n"
        "- config_name: none\n"
        "- config_name: nothing\n  data_files: []\n"
        "- config_name: unmatched\n  data_files: data/zzz/*.parquet\n"))
    folder = DatasetFolder(root)
    a, b = root / "data" / "a", root / "data" / "b"
    assert folder.root == root and folder.readme == root / "README.md"
    assert folder.files == {
        "listed": {"test": [a / "test-00000-of-00002.parquet", a / "test-00001-of-00002.parquet"],
                   "dev": [a / "dev-00000-of-00001.parquet"]},
        "mapping": {"test": [a / "test-00001-of-00002.parquet"], "other": [b / "train-00000-of-00001.parquet"]},
        "one": {"train": [b / "train-00000-of-00001.parquet"]},
        "paths": {"train": [b / "train-00000-of-00001.parquet", a / "dev-00000-of-00001.parquet"]},
        "nosplit": {"train": [b / "train-00000-of-00001.parquet"]},
        "none": {}, "nothing": {}, "unmatched": {"train": []},
    }
    assert folder.splits("listed") == ["dev", "test"] and folder.splits("absent") == []


def test_a_split_reads_as_one_table_over_its_files(tmp_path: Path) -> None:
    folder = DatasetFolder(_folder(tmp_path, "- config_name: a\n  data_files:\n  - split: test\n"
                                             "    path: data/a/test-*\n  - split: dev\n    path: data/a/dev-*\n"))
    assert folder.read("a", "test", ["line", "id"]) == {"line": [1, 2, 3], "id": ["c:1", "c:2", "c:3"]}
    assert folder.read("a", "dev", ["line"]) == {"line": [7]}
    assert folder.where("a", "test") == tmp_path / "data" / "a" / "test-00000-of-00002.parquet"
    assert folder.where("a", "gone") == tmp_path / "data" / "a"
    assert folder.where("zz", "test") == tmp_path / "data" / "zz"
    card = tmp_path / "README.md"
    assert _message(folder.read, "zz", "test", ["line"]) == f"{card}: has no config 'zz'"
    assert _message(folder.read, "a", "train", ["line"]) == f"{card}: config 'a' has no split 'train' (splits: dev, test)"
    first = tmp_path / "data" / "a" / "test-00000-of-00002.parquet"
    assert _message(folder.read, "a", "test", ["line", "nope"]).startswith(
        f"{first}: cannot read columns ['line', 'nope']: ")


def test_a_config_without_splits_says_none(tmp_path: Path) -> None:
    folder = DatasetFolder(_folder(tmp_path, "- config_name: a\n  data_files: []\n"))
    assert _message(folder.read, "a", "test", ["line"]) == \
        f"{tmp_path / 'README.md'}: config 'a' has no split 'test' (splits: none)"


def test_a_corrupt_file_of_a_split_is_named(tmp_path: Path) -> None:
    folder = DatasetFolder(_folder(tmp_path, "- config_name: a\n  data_files: data/a/dev-*\n"))
    bad = tmp_path / "data" / "a" / "dev-00000-of-00001.parquet"
    bad.write_bytes(b"PAR1")
    assert _message(folder.read, "a", "train", ["line"]).startswith(f"{bad}: cannot read columns ['line']: ")


@pytest.mark.parametrize(("configs", "reason"), [
    ("", "lists no configs (the YAML front matter needs a `configs:` list)"),
    ("  a: 1\n", "lists no configs (the YAML front matter needs a `configs:` list)"),
    ("- data_files: x\n", "a `configs:` entry has no config_name: {'data_files': 'x'}"),
    ("- config_name: ''\n", "a `configs:` entry has no config_name: {'config_name': ''}"),
    ("- config_name: 3\n", "a `configs:` entry has no config_name: {'config_name': 3}"),
    ("- just text\n", "a `configs:` entry has no config_name: 'just text'"),
    (f"- config_name: {'n' * 300}\n  x: 1\n- 1\n", "a `configs:` entry has no config_name: 1"),
    ("- config_name: a\n  data_files: 3\n", "data_files of a config must be paths, not 3"),
    ("- config_name: a\n  data_files: {test: {x: 1}}\n", "data_files of a config must be paths, not {'x': 1}"),
    ("- config_name: a\n  data_files: [3]\n", "data_files pattern 3 does not stay inside the dataset folder"),
    ("- config_name: a\n  data_files: ['']\n", "data_files pattern '' does not stay inside the dataset folder"),
    ("- config_name: a\n  data_files: /etc/*\n", "data_files pattern '/etc/*' does not stay inside the dataset folder"),
    ("- config_name: a\n  data_files: data/../../x\n",
     "data_files pattern 'data/../../x' does not stay inside the dataset folder"),
])
def test_a_card_with_wrong_configs_names_the_card(tmp_path: Path, configs: str, reason: str) -> None:
    root = _folder(tmp_path, configs if configs else "")
    if not configs:
        _card(root, "---\ntitle: no configs\n---\n")
    elif configs.startswith("  "):
        _card(root, f"---\nconfigs:\n{configs}---\n")
    assert _message(DatasetFolder, root) == f"{root / 'README.md'}: {reason}"


def test_a_long_config_entry_is_cut_short_in_the_error(tmp_path: Path) -> None:
    root = _folder(tmp_path, f"- data_files: {'x' * 300}\n")
    message = _message(DatasetFolder, root)
    assert message == f"{root / 'README.md'}: " + ("a `configs:` entry has no config_name: {'data_files': '"
                                                   + "x" * 300)[:200]


def test_a_long_data_files_value_is_cut_short_in_the_error(tmp_path: Path) -> None:
    root = _folder(tmp_path, f"- config_name: a\n  data_files: {{test: {{x: {'y' * 300}}}}}\n")
    assert _message(DatasetFolder, root) == f"{root / 'README.md'}: " + (
        "data_files of a config must be paths, not {'x': '" + "y" * 300)[:200]


def test_an_empty_configs_list_names_the_folder(tmp_path: Path) -> None:
    root = _folder(tmp_path, "")
    _card(root, "---\nconfigs: []\n---\n")
    assert _message(DatasetFolder, root) == f"{root}: lists no configs (README.md `configs:`)"


def test_a_pattern_that_reaches_outside_through_a_link_is_refused(tmp_path: Path) -> None:
    outside = _rows(tmp_path / "elsewhere" / "x-00000-of-00001.parquet", [1])
    root = _folder(tmp_path / "sets", "- config_name: a\n  data_files: data/link/*.parquet\n")
    (root / "data" / "link").symlink_to(outside.parent)
    assert _message(DatasetFolder, root) == (
        f"{root / 'README.md'}: data_files pattern 'data/link/*.parquet' reaches outside the dataset folder "
        f"({root / 'data' / 'link' / 'x-00000-of-00001.parquet'})")


def test_a_pipe_listed_by_the_card_is_refused(tmp_path: Path) -> None:
    root = _folder(tmp_path, "- config_name: a\n  data_files: data/p/*\n")
    (root / "data" / "p").mkdir()
    os.mkfifo(root / "data" / "p" / "x.parquet")
    assert _message(DatasetFolder, root) == (
        f"{root / 'data' / 'p' / 'x.parquet'}: is a pipe (a FIFO, or a process substitution such as <(...)), "
        + REGULAR)


def test_a_plain_path_listed_by_the_card_is_checked_as_a_pattern_is(tmp_path: Path) -> None:
    """A path without glob characters is not globbed, and is refused alike: a pipe, a link to a
    file outside the folder; a link to a file inside names the file it leads to."""
    outside = _rows(tmp_path / "elsewhere" / "x-00000-of-00001.parquet", [1])
    root = _folder(tmp_path / "sets", "- config_name: a\n  data_files: data/p/x.parquet\n")
    (root / "data" / "p").mkdir()
    os.mkfifo(root / "data" / "p" / "x.parquet")
    assert _message(DatasetFolder, root) == (
        f"{root / 'data' / 'p' / 'x.parquet'}: is a pipe (a FIFO, or a process substitution such as <(...)), "
        + REGULAR)
    (root / "data" / "p" / "x.parquet").unlink()
    (root / "data" / "p" / "x.parquet").symlink_to(outside)
    assert _message(DatasetFolder, root) == (
        f"{root / 'README.md'}: data_files pattern 'data/p/x.parquet' reaches outside the dataset folder "
        f"({root / 'data' / 'p' / 'x.parquet'})")
    (root / "data" / "p" / "x.parquet").unlink()
    (root / "data" / "p" / "x.parquet").symlink_to(root / "data" / "b" / "train-00000-of-00001.parquet")
    folder = DatasetFolder(root)
    assert folder.relative(folder.files["a"]["train"][0]) == "data/b/train-00000-of-00001.parquet"
    (root / "data" / "p" / "x.parquet").unlink()
    assert DatasetFolder(root).files == {"a": {"train": []}}  # a plain path that is not there matches nothing


def test_paths_relative_to_the_working_folder_read_as_absolute_ones(tmp_path: Path, monkeypatch) -> None:
    root = _folder(tmp_path / "sets", "- config_name: a\n  data_files: data/a/dev-00000-of-00001.parquet\n")
    monkeypatch.chdir(root)
    for where in (".", "./", "../sets"):
        folder = DatasetFolder(where)
        path = folder.files["a"]["train"][0]
        assert path.resolve() == (root / "data" / "a" / "dev-00000-of-00001.parquet").resolve()
        assert folder.relative(path) == "data/a/dev-00000-of-00001.parquet"


def test_a_card_reads_where_pyyaml_has_no_libyaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML built without libyaml (a source install, some platforms' wheels) has no CSafeLoader:
    the pure-Python SafeLoader reads the card."""
    import yaml

    readme = tmp_path / "README.md"
    readme.write_text("---\nconfigs:\n- config_name: de-en.baseline\nlicense: mit\n---\n# card\n", encoding="utf-8")
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    assert front_matter(readme) == {"configs": [{"config_name": "de-en.baseline"}], "license": "mit"}


def test_a_link_inside_the_folder_is_followed_for_the_files_path(tmp_path: Path) -> None:
    """A config folder that is a link to another config's folder names the files it leads to, so
    the card check sees the other config's files; a plain path keeps its own name."""
    root = _folder(tmp_path, "- config_name: a\n  data_files: data/a/dev-00000-of-00001.parquet\n"
                   "- config_name: c\n  data_files: data/c/train-00000-of-00001.parquet\n")
    (root / "data" / "c").symlink_to(root / "data" / "b")
    folder = DatasetFolder(root)
    assert folder.relative(folder.files["a"]["train"][0]) == "data/a/dev-00000-of-00001.parquet"
    assert folder.relative(folder.files["c"]["train"][0]) == "data/b/train-00000-of-00001.parquet"


def test_a_data_folder_linked_outside_is_refused_and_so_through_a_linked_root(tmp_path: Path) -> None:
    """`data` itself a link out of the folder: every plain path reaches outside. The folder opened
    through a link to it: the links inside it are still followed, not the root's alone."""
    plain = "- config_name: a\n  data_files: data/a/dev-00000-of-00001.parquet\n"
    elsewhere = _folder(tmp_path / "elsewhere", plain)
    root = _folder(tmp_path / "sets", plain)
    assert DatasetFolder(root).files["a"]["train"]
    shutil.rmtree(root / "data")
    (root / "data").symlink_to(elsewhere / "data")
    message = (f"{root / 'README.md'}: data_files pattern 'data/a/dev-00000-of-00001.parquet' reaches outside "
               f"the dataset folder ({root / 'data' / 'a' / 'dev-00000-of-00001.parquet'})")
    assert _message(DatasetFolder, root) == message
    (tmp_path / "via").symlink_to(root)
    via = tmp_path / "via"
    assert _message(DatasetFolder, via) == message.replace(str(root), str(via))


@pytest.mark.parametrize("pattern", ["data/a/test-0000?-of-00002.parquet", "data/a/test-0000[01]-of-00002.parquet",
                                     "data/a/test-*"])
def test_each_of_globs_magic_characters_makes_a_pattern(tmp_path: Path, pattern: str) -> None:
    """`?` and `[...]` glob as `*` does: not taken for a plain path that is not there."""
    root = _folder(tmp_path, f"- config_name: a\n  data_files: '{pattern}'\n")
    folder = DatasetFolder(root)
    assert [folder.relative(p) for p in folder.files["a"]["train"]] == [
        "data/a/test-00000-of-00002.parquet", "data/a/test-00001-of-00002.parquet"]
