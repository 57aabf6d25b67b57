"""dataset/footers.py: the footers of a checked folder kept between commands, trusted only while
``stat`` says the file is the one read, and never a reason for a check to fail or pass."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from auto_challenge_sets.dataset import footers
from auto_challenge_sets.dataset.footers import FooterCache, cache_file
from auto_challenge_sets.dataset.integrity import check_folder
from auto_challenge_sets.dataset.layout import parquet_stats
from auto_challenge_sets.errors import InputError

from toy_dataset import SPLIT

D2 = f"data/de-en.particle.d2/{SPLIT}-00000-of-00001.parquet"


@pytest.fixture()
def folder(wide_folder) -> Path:
    return wide_folder


@pytest.fixture()
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The footers pyarrow reads (this process's memory of them forgotten first, as in a new
    command); files older than RACY_NS are kept, so every file of a fresh copy is."""
    monkeypatch.setattr(footers, "_FOOTERS", {})
    monkeypatch.setattr(footers, "RACY_NS", 0)
    read, seen = footers._read_stats, []

    def counted(path: Path) -> tuple[int, int]:
        seen.append(Path(path).relative_to(path.parents[2]).as_posix())
        return read(path)
    monkeypatch.setattr(footers, "_read_stats", counted)
    return seen


def _recorded(folder: Path) -> dict[str, dict]:
    record = json.loads((folder / "acs_build.json").read_text(encoding="utf-8"))
    return {rel: entry for build in record["builds"] for rel, entry in (build.get("files") or {}).items()}


def _new_command() -> None:
    footers._FOOTERS.clear()


def test_a_checked_folders_footers_are_read_once_across_commands(folder, reads):
    recorded = _recorded(folder)
    assert check_folder(folder) == []
    assert sorted(reads) == sorted(recorded)  # the first command reads each
    kept = json.loads(cache_file(folder).read_text(encoding="utf-8"))
    assert kept["folder"] == os.path.realpath(folder) and kept["files"].keys() == recorded.keys()
    assert all(kept["files"][rel][5] == entry["rows"] for rel, entry in recorded.items())
    _new_command()
    reads.clear()
    assert check_folder(folder) == [] and reads == []  # the next reads none
    paths = [folder / rel for rel in sorted(recorded)]
    assert parquet_stats(paths)[0] == sum(recorded[rel]["rows"] for rel in sorted(recorded)) and reads == []


def test_footers_read_before_the_check_in_the_same_process_are_kept_too(folder, reads):
    """A reader that took the sizes first (or a second check in one process): the check finds the
    footers in this process's memory, and still keeps every one of them, not an emptied cache."""
    recorded = _recorded(folder)
    parquet_stats([folder / rel for rel in recorded])
    assert check_folder(folder) == [] and check_folder(folder) == []
    assert sorted(reads) == sorted(recorded)  # each read once, by parquet_stats
    kept = json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]
    assert kept.keys() == recorded.keys() and all(kept[rel][5] == entry["rows"] for rel, entry in recorded.items())
    _new_command()
    reads.clear()
    assert check_folder(folder) == [] and reads == []


def test_a_file_replaced_since_is_found_changed(folder, reads):
    """A file replaced by another config's, its mtime set back: the check fails, whatever was kept."""
    check_folder(folder)
    _new_command()
    reads.clear()
    other = next(rel for rel in _recorded(folder) if rel != D2 and SPLIT in rel)
    before = os.stat(folder / D2)
    shutil.copyfile(folder / other, folder / D2)
    os.utime(folder / D2, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(InputError, match="changed since the build"):
        check_folder(folder)


def test_a_touched_file_is_read_again_and_kept_anew_with_the_others(folder, reads):
    check_folder(folder)
    _new_command()
    reads.clear()
    status = os.stat(folder / D2)
    os.utime(folder / D2, ns=(status.st_atime_ns, status.st_mtime_ns))  # same times, a new ctime
    assert check_folder(folder) == [] and reads == [D2]
    _new_command()
    reads.clear()
    assert check_folder(folder) == [] and reads == []  # the others' entries saved again beside D2's new one


def test_a_file_changed_within_the_racy_window_is_not_kept(folder, monkeypatch):
    """A file whose ctime is younger than RACY_NS when its footer is read is read again next time:
    a change in the same timestamp tick could not be told from it."""
    monkeypatch.setattr(footers, "_FOOTERS", {})
    time.sleep(0.05)  # past a timestamp tick after the copy's files
    (folder / D2).touch()
    young = os.stat(folder / D2).st_ctime_ns
    monkeypatch.setattr(footers.time, "time_ns", lambda: young + footers.RACY_NS - 1)
    check_folder(folder)
    kept = json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]
    assert D2 not in kept and kept.keys() == _recorded(folder).keys() - {D2}
    assert footers.RACY_NS == 2_000_000_000
    footers._FOOTERS.clear()
    monkeypatch.setattr(footers.time, "time_ns", lambda: young + footers.RACY_NS)  # exactly the window: kept
    check_folder(folder)
    assert D2 in json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]


@pytest.mark.parametrize("text", [
    "not json", "[]", '{"format": 2, "files": {}}', '{"format": 1, "folder": "/elsewhere", "files": {}}',
    '{"format": 1, "folder": "FOLDER", "files": []}',
])
def test_an_unreadable_or_foreign_cache_file_is_no_cache(folder, reads, text):
    path = cache_file(folder)
    path.parent.mkdir(parents=True)
    path.write_text(text.replace("FOLDER", os.path.realpath(folder)), encoding="utf-8")
    assert check_folder(folder) == [] and len(reads) == len(_recorded(folder))
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == footers.FORMAT  # written anew


@pytest.mark.parametrize("spoil", [
    lambda entry: entry[:6], lambda entry: [*entry[:5], True, entry[6]], lambda entry: [*entry[:5], "9", entry[6]],
    lambda entry: [*entry[:5], 1.0, entry[6]], lambda entry: {"rows": entry[5]},
])
def test_a_malformed_entry_is_read_again(folder, reads, spoil):
    check_folder(folder)
    path = cache_file(folder)
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["files"][D2] = spoil(kept["files"][D2])
    path.write_text(json.dumps(kept), encoding="utf-8")
    _new_command()
    reads.clear()
    assert check_folder(folder) == [] and reads == [D2]


def test_kept_rows_that_differ_from_the_record_fail_the_check(folder, reads):
    """The cache answers for the footer, not for the record: a wrong count kept is still compared."""
    check_folder(folder)
    path = cache_file(folder)
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["files"][D2][5] += 1
    path.write_text(json.dumps(kept), encoding="utf-8")
    _new_command()
    with pytest.raises(InputError, match="rows, acs_build.json records"):
        check_folder(folder)


def test_a_failed_check_saves_nothing(folder, reads):
    (folder / D2).unlink()
    with pytest.raises(InputError, match="is missing"):
        check_folder(folder)
    assert not cache_file(folder).exists()


def test_a_removed_files_entry_leaves_with_the_next_save(folder, reads):
    check_folder(folder)
    kept = json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]
    kept["data/gone/x-00000-of-00001.parquet"] = kept[D2]
    cache_file(folder).write_text(json.dumps({"format": 1, "folder": os.path.realpath(folder), "files": kept}),
                                  encoding="utf-8")
    _new_command()
    check_folder(folder)
    assert "data/gone/x-00000-of-00001.parquet" not in json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]


def test_a_cache_directory_that_cannot_be_written_is_no_error(folder, reads, monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("ACS_CACHE_DIR", str(blocked))
    assert check_folder(folder) == []


def test_the_cache_file_is_written_beside_itself_not_in_the_temporary_folder(folder, reads, monkeypatch, tmp_path):
    """Renamed into place from the cache's own folder: from the system's temporary folder (here
    one that does not exist), across file systems, the rename could fail."""
    monkeypatch.setattr(footers.tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    check_folder(folder)
    assert sorted(p.name for p in cache_file(folder).parent.iterdir()) == [cache_file(folder).name]


def test_the_key_is_device_inode_size_mtime_and_ctime(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(footers, "RACY_NS", 0)
    path = folder / D2
    status = os.stat(path)
    cache = FooterCache(folder)
    cache.put(path, status, (7, 70))
    fields = list(status)
    assert cache.get(path, status) is None  # only what was loaded is answered; put keeps for the next
    cache.save()
    again = FooterCache(folder)
    assert again.get(path, status) == (7, 70)
    for index in (2, 1, 6, 8, 9):  # st_dev, st_ino, st_size, st_mtime, st_ctime (whole seconds)
        changed = fields.copy()
        changed[index] += 1
        other = os.stat_result((*changed[:7], changed[7], changed[8], changed[9]),
                               {"st_mtime_ns": status.st_mtime_ns + (index == 8) * 10**9,
                                "st_ctime_ns": status.st_ctime_ns + (index == 9) * 10**9})
        assert again.get(path, other) is None, index
    assert again.get(tmp_path / "elsewhere.parquet", status) is None  # outside the folder
    outside = tmp_path / "ldd-other" / "data" / "x" / "y.parquet"  # its text starts like the folder's
    again.put(outside, status, (1, 10))
    again.save()
    assert list(json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]) == [D2]


def test_a_folder_just_written_leaves_no_cache_file(folder):
    for path in (folder / "data").rglob("*.parquet"):
        path.touch()
    check_folder(folder)
    assert not cache_file(folder).exists()


def test_a_file_older_than_the_racy_window_is_kept(folder, monkeypatch):
    monkeypatch.setattr(footers, "_FOOTERS", {})
    real = time.time_ns
    monkeypatch.setattr(footers.time, "time_ns", lambda: real() + footers.RACY_NS)
    check_folder(folder)
    assert D2 in json.loads(cache_file(folder).read_text(encoding="utf-8"))["files"]


def test_a_cache_file_that_cannot_be_put_in_place_leaves_no_temporary(folder, reads, monkeypatch):
    def full(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(footers.os, "replace", full)
    assert check_folder(folder) == []
    assert list(cache_file(folder).parent.iterdir()) == []


def test_each_folder_has_its_own_cache_file_whatever_its_name(tmp_path):
    odd = tmp_path / os.fsdecode(b"sets-\xff")  # a name that is no UTF-8: surrogate-escaped
    odd.mkdir()
    names = {cache_file(path).name for path in (tmp_path / "a", tmp_path / "b", odd)}
    assert len(names) == 3 and all(len(name) == len("0" * 32 + ".json") for name in names)
    assert cache_file(tmp_path / "a") == cache_file(tmp_path / "x" / ".." / "a")  # by its real path


def test_a_command_that_reads_no_footer_leaves_the_cache_file_as_it_was(folder, reads):
    check_folder(folder)
    before = os.stat(cache_file(folder))
    _new_command()
    reads.clear()
    time.sleep(0.01)
    assert check_folder(folder) == [] and reads == []
    after = os.stat(cache_file(folder))
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_cache_opened_within_another_for_the_same_folder_is_that_one(folder, tmp_path):
    """The card check keeps its key beside the footers the file check keeps: one cache, saved once
    when the outer one is left; another folder's within it is its own."""
    saves = []
    with footers.kept_footers(folder) as outer:
        outer.save = lambda: saves.append("outer")  # type: ignore[method-assign]
        with footers.kept_footers(os.path.join(folder, "")) as inner:
            assert inner is outer and footers._KEPT == [outer]
        assert saves == []
        with footers.kept_footers(tmp_path) as other:
            assert other is not outer and footers._KEPT == [outer, other]
        assert footers._KEPT == [outer]
    assert saves == ["outer"] and footers._KEPT == []


def test_a_kept_card_key_is_saved_and_kept_while_it_answers(folder, reads):
    key = {"card": [1, 2, 3], "listing": "x"}
    check_folder(folder)
    cache = FooterCache(folder)
    assert not cache.card_checked(key)
    cache.keep_card(key)
    cache.save()
    path = cache_file(folder)
    assert json.loads(path.read_text(encoding="utf-8"))["card"] == key
    before = path.stat().st_mtime_ns
    again = FooterCache(folder)
    for rel in _recorded(folder):  # the same files asked, the key answered: nothing to write
        again.get(folder / rel, os.stat(folder / rel))
    assert again.card_checked(dict(key)) and not again.card_checked({**key, "listing": "y"})
    time.sleep(0.01)
    again.save()
    assert path.stat().st_mtime_ns == before
    dropped = FooterCache(folder)  # the key not asked for: the next save leaves it out
    for rel in _recorded(folder):
        dropped.get(folder / rel, os.stat(folder / rel))
    dropped.save()
    assert "card" not in json.loads(path.read_text(encoding="utf-8"))


def test_a_key_alone_is_saved_and_its_loss_too(folder, tmp_path):
    """A cache with no footers but a key is written; one that had a key and no longer does is too."""
    cache = FooterCache(tmp_path)
    cache.keep_card({"k": 1})
    cache.save()
    assert json.loads(cache_file(tmp_path).read_text(encoding="utf-8")) == {
        "format": footers.FORMAT, "folder": os.path.realpath(tmp_path), "files": {}, "card": {"k": 1}}
    FooterCache(tmp_path).save()
    assert json.loads(cache_file(tmp_path).read_text(encoding="utf-8"))["files"] == {}
    assert "card" not in json.loads(cache_file(tmp_path).read_text(encoding="utf-8"))


def test_settled_is_racy_nss_old(monkeypatch, folder):
    status = os.stat(folder / D2)
    monkeypatch.setattr(footers.time, "time_ns", lambda: status.st_ctime_ns + footers.RACY_NS)
    assert footers.settled(status)
    monkeypatch.setattr(footers.time, "time_ns", lambda: status.st_ctime_ns + footers.RACY_NS - 1)
    assert not footers.settled(status)


def test_a_file_gone_before_its_footer_is_read_is_one_line_naming_it(folder):
    gone = folder / D2
    gone.unlink()
    with pytest.raises(InputError) as caught:
        parquet_stats([gone])
    assert str(caught.value).startswith(f"{gone}: not a readable Parquet file (") and "No such file" in str(caught.value)


def test_the_memory_of_footers_stays_within_its_bound(folder, monkeypatch):
    monkeypatch.setattr(footers, "_FOOTERS", {})
    monkeypatch.setattr(footers, "_FOOTERS_KEPT", 2)
    for rel in sorted(_recorded(folder))[:5]:
        parquet_stats([folder / rel])
        assert len(footers._FOOTERS) <= 2


def test_footers_read_with_pyarrows_public_call_where_its_reader_is_not_there(folder, reads, monkeypatch):
    """Another pyarrow release without ``pyarrow._parquet.ParquetReader``: ``read_metadata``."""
    import pyarrow._parquet

    monkeypatch.delattr(pyarrow._parquet, "ParquetReader")
    recorded = _recorded(folder)
    assert parquet_stats([folder / D2])[0] == recorded[D2]["rows"] and reads == [D2]
