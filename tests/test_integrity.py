"""dataset/integrity.py on the wide toy folder (a build record with two corpora of one pair): each
recorded number is checked on its own, and a card's data_files are compared as a list."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from auto_challenge_sets.dataset.integrity import check_folder
from auto_challenge_sets.errors import InputError

from toy_dataset import SPLIT, make_wide

D2 = f"data/de-en.particle.d2/{SPLIT}-00000-of-00001.parquet"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return make_wide(tmp_path_factory.mktemp("wide"))["root"]


@pytest.fixture()
def folder(built, tmp_path) -> Path:
    return Path(shutil.copytree(built, tmp_path / "ldd"))


def _record(root: Path, change) -> None:
    path = root / "acs_build.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record)
    path.write_text(json.dumps(record), encoding="utf-8")


def test_the_untouched_wide_toy_passes(folder):
    assert check_folder(folder, verify=True) == []


def test_a_file_of_the_recorded_size_with_other_row_counts_is_refused(folder):
    """Bytes and rows are two checks: a record whose rows differ while the bytes match fails."""
    def one_row_more(record):
        entry = next(b for b in record["builds"] if b["corpus"] == SPLIT)["files"][D2]
        entry["rows"] += 1
    _record(folder, one_row_more)
    rows = json.loads((folder / "acs_build.json").read_text(encoding="utf-8"))["builds"][1]["files"][D2]["rows"]
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == (f"{folder / D2}: has {rows - 1:,} rows, acs_build.json records {rows:,}: changed "
                                "since the build; build it again (or restore the file)")


def test_a_file_listed_twice_in_a_configs_data_files_is_refused(folder):
    """The card's files are compared as lists: the same file twice would score its rows twice."""
    readme = folder / "README.md"
    text = readme.read_text(encoding="utf-8")
    entry = f"  - split: {SPLIT}\n    path: data/de-en.particle.d2/{SPLIT}-*\n"
    assert text.count(entry) == 1
    readme.write_text(text.replace(entry, entry + f"  - split: {SPLIT}\n    path: {D2}\n"), encoding="utf-8")
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert "config 'de-en.particle.d2', split 'toytest': data_files match 2 file(s), acs_build.json records 1 " \
           "(the same file twice differs)" in str(error.value)


def test_a_config_folder_linked_to_another_configs_is_refused(folder):
    """The card's files are compared with links followed: particle.d2's folder made a link to
    d3's reads d3's files under d2's names, which the record does not list for d2."""
    import os

    d2, d3 = folder / "data" / "de-en.particle.d2", folder / "data" / "de-en.particle.d3"
    shutil.rmtree(d2)
    os.symlink(d3.name, d2)
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert "de-en.particle.d" in str(error.value)


def _files_of_the_split(record) -> dict:
    return next(b for b in record["builds"] if b["corpus"] == SPLIT)


@pytest.mark.parametrize(("change", "message"), [
    (lambda build: build.update(files=[D2]), f"build de-en/{SPLIT}: 'files' is not a mapping of paths"),
    (lambda build: build["files"][D2].pop("sha256"), f"the entry of {D2!r} is not {{bytes, rows, sha256}}"),
    (lambda build: build["files"][D2].update(rows="9"), f"the entry of {D2!r} is not {{bytes, rows, sha256}}"),
    (lambda build: build["files"].update({"data/../x.parquet": build["files"][D2]}),
     "records 'data/../x.parquet', not a data file of the folder (data/CONFIG/FILE)"),
])
def test_a_malformed_files_entry_of_the_build_record_is_refused(folder, change, message):
    _record(folder, lambda record: change(_files_of_the_split(record)))
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == f"{folder / 'acs_build.json'}: {message}"
