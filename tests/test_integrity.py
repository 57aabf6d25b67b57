"""dataset/integrity.py on the wide toy folder (a build record with two corpora of one pair): each
recorded number is checked on its own, and a card's data_files are compared as a list."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from auto_challenge_sets.dataset.integrity import check_folder, describe_files
from auto_challenge_sets.errors import InputError

from toy_dataset import SPLIT

D2 = f"data/de-en.particle.d2/{SPLIT}-00000-of-00001.parquet"


@pytest.fixture()
def folder(wide_folder) -> Path:
    return wide_folder


def _record(root: Path, change) -> None:
    path = root / "acs_build.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    change(record)
    path.write_text(json.dumps(record), encoding="utf-8")


def test_the_untouched_wide_toy_passes(folder):
    check_folder(folder, verify=True)  # no error


def test_the_sizes_of_the_check_are_the_footers_read_once(folder, monkeypatch):
    """``acs stats``' check and table: the footers' row counts, each file's footer read once."""
    import pyarrow.parquet as pq

    from auto_challenge_sets.dataset.integrity import checked_sizes
    from auto_challenge_sets.dataset.layout import folder_sizes, scan_folder

    expected = folder_sizes(folder)
    reads: list[str] = []
    read_metadata = pq.read_metadata
    monkeypatch.setattr(pq, "read_metadata", lambda path, *a, **k: reads.append(str(path)) or read_metadata(path, *a, **k))
    assert checked_sizes(folder) == expected
    files = [str(p) for splits in scan_folder(folder).values() for paths in splits.values() for p in paths]
    assert sorted(reads) == sorted(files)


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
    *[(change, f"build de-en/{SPLIT}: 'files' is not a mapping of paths (built by an older acs?): build the "
      "folder again") for change in (lambda build: build.update(files=[D2]), lambda build: build.pop("files"))],
    (lambda build: build["files"][D2].pop("sha256"), f"the entry of {D2!r} is not {{bytes, rows, sha256}}"),
    (lambda build: build["files"][D2].update(rows="9"), f"the entry of {D2!r} is not {{bytes, rows, sha256}}"),
    (lambda build: build["files"].update({"data/../x.parquet": build["files"][D2]}),
     "records 'data/../x.parquet', not a data file of the folder (data/CONFIG/FILE)"),
    (lambda build: build["files"].update({"data/x.parquet": build["files"][D2]}),
     "records 'data/x.parquet', not a data file of the folder (data/CONFIG/FILE)"),
    (lambda build: build["files"].update({f"other/{D2[5:]}": build["files"][D2]}),
     f"records 'other/{D2[5:]}', not a data file of the folder (data/CONFIG/FILE)"),
])
def test_a_malformed_files_entry_of_the_build_record_is_refused(folder, change, message):
    _record(folder, lambda record: change(_files_of_the_split(record)))
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == f"{folder / 'acs_build.json'}: {message}"


def test_describe_files_lists_the_files_of_one_pairs_corpus(tmp_path):
    """Two pairs with a corpus of the same name: each build records its own pair's files only,
    each with its bytes, rows and sha256."""
    import hashlib

    import pyarrow.parquet as pq

    from toy_dataset import corpus, write_folder

    root = write_folder(tmp_path / "ldd", corpus(), {"de-en.baseline": [1, 2, 3], "de-en.particle.d0": [4, 5],
                                                     "en-de.baseline": [6], "en-de.particle.d1": [7, 8, 9, 10]})
    for pair in ("de-en", "en-de"):
        paths = sorted((root / "data").glob(f"{pair}.*/{SPLIT}-*.parquet"))
        assert len(paths) == 2
        assert describe_files(root, pair, SPLIT) == {
            path.relative_to(root).as_posix(): {"bytes": path.stat().st_size, "rows": pq.read_metadata(path).num_rows,
                                                "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
            for path in paths}
    assert describe_files(root, "de-en", "toydev") == {}


def _card(root: Path, change) -> None:
    readme = root / "README.md"
    readme.write_text(change(readme.read_text(encoding="utf-8")), encoding="utf-8")


def _entry(config: str, split: str = SPLIT) -> str:
    return f"  - split: {split}\n    path: data/{config}/{split}-*\n"


def _card_message(root: Path, config: str, split: str, found: int, recorded: int, differs: str) -> str:
    return (f"{root / 'README.md'}: config {config!r}, split {split!r}: data_files match {found} file(s), "
            f"acs_build.json records {recorded} ({differs} differs): the card must list exactly the recorded "
            "files; build again or restore README.md")


def test_a_widened_data_files_pattern_names_the_first_file_it_adds(folder):
    _card(folder, lambda text: text.replace(_entry("de-en.particle.d2"),
                                            f"  - split: {SPLIT}\n    path: data/de-en.particle.d*/{SPLIT}-*\n"))
    found = len(list((folder / "data").glob(f"de-en.particle.d*/{SPLIT}-*")))
    assert found > 2
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == _card_message(folder, "de-en.particle.d2", SPLIT, found, 1,
                                             f"data/de-en.particle.d0/{SPLIT}-00000-of-00001.parquet")


def test_a_data_files_pattern_that_matches_nothing_names_the_recorded_file_it_misses(folder):
    _card(folder, lambda text: text.replace(_entry("de-en.particle.d2"),
                                            f"  - split: {SPLIT}\n    path: data/de-en.particle.d2/nothing-*\n"))
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == _card_message(folder, "de-en.particle.d2", SPLIT, 0, 1, D2)


def _config_reading_d2(folder: Path, name: str) -> None:
    """A config added to the card by hand, reading particle.d2's file."""
    _card(folder, lambda text: text.replace(
        "---\n\n#", f"- config_name: {name}\n  data_files:\n  - split: {SPLIT}\n    path: {D2}\n---\n\n#"))


def test_a_config_the_record_has_no_file_of_is_refused_with_the_file_it_names(folder):
    """Under a name of ours: the record has no file of it."""
    _config_reading_d2(folder, "de-en.particle.d13")
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == _card_message(folder, "de-en.particle.d13", SPLIT, 1, 0, D2)


def test_a_config_name_that_is_not_ours_is_refused(folder):
    _config_reading_d2(folder, "my-extra")
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == (f"{folder / 'README.md'}: config 'my-extra' is not a config name of "
                                "auto_challenge_sets (added by hand?): its data_files are not in acs_build.json")


def test_a_fifo_in_a_recorded_files_place_is_named_as_one_not_as_missing(folder):
    """Checked before its size, without opening it (a FIFO blocks its reader)."""
    import os

    (folder / D2).unlink()
    os.mkfifo(folder / D2)
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == (f"{folder / D2}: is a pipe (a FIFO, or a process substitution such as <(...)), not a "
                                "regular file; a dataset folder holds only the files a build writes: build it again")


def test_a_recorded_split_is_checked_against_its_record_not_against_the_cards_dataset_info(folder):
    """The card's row counts are the check of the splits no record describes (and `acs
    publish`'s); a recorded split has its record."""
    _card(folder, lambda text: text.replace("---\n\n#", f"dataset_info:\n- config_name: de-en.particle.d2\n  splits:\n"
                                                       f"  - name: {SPLIT}\n    num_examples: 100000\n---\n\n#"))
    check_folder(folder)  # no error


def test_only_verify_reads_the_sha256(folder):
    """The cheap check, every reader's, compares sizes and rows; a byte changed in place is found
    with verify."""
    data = bytearray((folder / D2).read_bytes())
    data[len(data) // 4] ^= 0xFF
    (folder / D2).write_bytes(bytes(data))
    check_folder(folder)  # no error
    with pytest.raises(InputError) as error:
        check_folder(folder, verify=True)
    assert str(error.value) == (f"{folder / D2}: its sha256 differs from the one acs_build.json records (same size "
                                "and rows): changed since the build; build it again (or restore the file)")


def test_the_check_is_of_the_callers_card(folder):
    """``folder``, where the caller has it, is what the check reads: not a second reading of the
    card made after it."""
    from auto_challenge_sets.dataset.layout import DatasetFolder

    card = DatasetFolder(folder)
    _card(folder, lambda text: text.replace(_entry("de-en.particle.d2"),
                                            f"  - split: {SPLIT}\n    path: data/de-en.particle.d*/{SPLIT}-*\n"))
    check_folder(folder, folder=card)  # no error
    with pytest.raises(InputError, match="data_files match"):
        check_folder(folder)


@pytest.mark.parametrize("spelling", ["data/./{}", "data//{}", "./data/{}", "data/{}/"])
def test_a_file_recorded_twice_under_another_spelling_counts_twice_for_its_config(folder, spelling):
    """A record edited by hand to list particle.d2's file a second time (in toydev's build),
    spelled with an empty or `.` part: the path is the same file, and the card's one file is one
    fewer than the record's."""
    other = spelling.format(D2[len("data/"):])
    _record(folder, lambda record: next(b for b in record["builds"] if b["corpus"] == "toydev")["files"].update(
        {other: _files_of_the_split(record)["files"][D2]}))
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == _card_message(folder, "de-en.particle.d2", SPLIT, 1, 2, other)


# -- what ``acs stats`` runs: the check and the sizes of one scan ---------------------------------

def _stats_check(root: Path) -> dict[str, dict[str, int]]:
    from auto_challenge_sets.dataset.integrity import checked_sizes

    return checked_sizes(root)


def test_a_folder_name_that_is_not_utf8_is_named_in_the_error_not_a_traceback(plain_wide_folder):
    """A config folder whose name is not UTF-8 (surrogate-escaped, as the file system gave it): the
    file no build recorded is the error."""
    stray = Path(os.fsdecode(os.path.join(os.fsencode(plain_wide_folder / "data"), b"de-en.\xff")))
    stray.mkdir()
    shutil.copyfile(plain_wide_folder / D2, stray / f"{SPLIT}-00000-of-00001.parquet")
    with pytest.raises(InputError, match="is not in acs_build.json"):
        _stats_check(plain_wide_folder)


@pytest.mark.parametrize("older", [{"format": 2}, {}])
def test_a_record_of_an_older_format_is_one_rebuild_error(folder, older):
    _record(folder, lambda record: (record.pop("format"), record.update(older)))
    with pytest.raises(InputError) as error:
        check_folder(folder)
    assert str(error.value) == (f"{folder / 'acs_build.json'}: was written by an older acs (record format "
                                f"{older.get('format', 1)}, this acs reads 3): build the folder again")

