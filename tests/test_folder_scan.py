"""dataset/folder_scan.py: one listing of ``data/`` that also says which files a reader may take
as they are (``plain``: regular files reached through no link), and its readers that ask the file
system nothing more: the card's plain paths (:class:`DatasetFolder` with ``scan``), the integrity
check's files, and the sizes of the rows the check confirmed. The scan's order and its refusals
are tested in test_layout.py."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from auto_challenge_sets.dataset import footers
from auto_challenge_sets.dataset.folder_scan import FolderScan, scan_folder, split_files
from auto_challenge_sets.dataset.integrity import check_files, check_folder
from auto_challenge_sets.dataset.layout import DatasetFolder, sizes_of

from toy_dataset import SPLIT

D2 = f"data/de-en.particle.d2/{SPLIT}-00000-of-00001.parquet"


@pytest.fixture()
def folder(plain_wide_folder: Path) -> Path:
    assert check_folder(plain_wide_folder) == []
    return plain_wide_folder


def _recorded(folder: Path) -> dict[str, dict]:
    record = json.loads((folder / "acs_build.json").read_text(encoding="utf-8"))
    return {rel: entry for build in record["builds"] for rel, entry in (build.get("files") or {}).items()}


def _every_file(found: dict) -> list[Path]:
    return [path for splits in found.values() for paths in splits.values() for path in paths]


def test_a_built_folder_is_listed_plainly_file_by_file(folder: Path) -> None:
    found = scan_folder(folder)
    assert isinstance(found, FolderScan) and found.checked_rows == {}
    files = _every_file(found)
    assert sorted(found.plain) == sorted(_recorded(folder)) == sorted(p.relative_to(folder).as_posix() for p in files)
    assert all(found.plain[path.relative_to(folder).as_posix()] is path for path in files)  # the same objects
    assert split_files(folder / "data" / "de-en.particle.d2", SPLIT) == [folder / D2]
    assert split_files(str(folder / "data" / "de-en.particle.d2"), "nosuch") == []


def test_a_link_on_the_way_keeps_a_file_out_of_plain(folder: Path, tmp_path: Path) -> None:
    """A file that is a link, a config folder that is one, or ``data/`` itself: listed, never plain."""
    (folder / D2).rename(tmp_path / "moved.parquet")
    (folder / D2).symlink_to(tmp_path / "moved.parquet")
    found = scan_folder(folder)
    assert folder / D2 in _every_file(found) and D2 not in found.plain
    assert len(found.plain) == len(_every_file(found)) - 1

    config = folder / "data" / "de-en.particle.d3"
    shutil.move(config, tmp_path / "d3")
    config.symlink_to(tmp_path / "d3")
    found = scan_folder(folder)
    assert found["de-en.particle.d3"] and not any(rel.startswith("data/de-en.particle.d3/") for rel in found.plain)

    shutil.move(folder / "data", tmp_path / "data")
    (folder / "data").symlink_to(tmp_path / "data")
    found = scan_folder(folder)
    assert _every_file(found) and found.plain == {}


def test_the_cards_plain_paths_are_answered_from_the_scan(folder: Path, monkeypatch) -> None:
    """No ``lstat`` per path (5,354 of 1,000 --rules): the listing said it is a regular file inside
    (the folder's own real path still takes one per component of it)."""
    found = scan_folder(folder)
    asked = []
    lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda path, *a, **k: asked.append(path) or lstat(path, *a, **k))
    reader = DatasetFolder(folder, found)
    assert not [path for path in asked if str(path).endswith(".parquet")] and reader.listed_only
    assert reader.files == DatasetFolder(folder).files  # what the file system says, path for path
    assert {id(p) for p in _every_file(reader.files)} <= {id(p) for p in found.plain.values()}
    assert not DatasetFolder(folder).listed_only  # without a scan nothing is answered by one


def test_a_path_the_scan_did_not_list_plainly_is_asked_and_so_noted(folder: Path, tmp_path: Path) -> None:
    found = scan_folder(folder)
    del found.plain[D2]
    reader = DatasetFolder(folder, found)
    assert not reader.listed_only and folder / D2 in _every_file(reader.files)
    readme = folder / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace(D2, D2.replace("-00000-of-00001", "-*")), encoding="utf-8")
    reader = DatasetFolder(folder, scan_folder(folder))
    assert not reader.listed_only and folder / D2 in _every_file(reader.files)  # a glob is globbed


def test_the_check_confirms_the_rows_the_sizes_then_show(folder: Path, monkeypatch) -> None:
    found = scan_folder(folder)
    files, _, _ = check_files(folder, False, found)
    assert found.checked_rows == {found.plain[rel]: entry["rows"] for rel, entry in files.items()}
    expected = sizes_of(scan_folder(folder))  # from the footers
    monkeypatch.setattr(footers, "_footer_stats", lambda *args: pytest.fail("a footer read again"))
    assert sizes_of(found) == expected and list(sizes_of(found)) == list(expected)


def test_sizes_of_a_split_the_check_did_not_confirm_come_from_its_footers(folder: Path) -> None:
    found = scan_folder(folder)
    expected = sizes_of(scan_folder(folder))
    check_files(folder, False, found)
    del found.checked_rows[found.plain[D2]]
    found.checked_rows[next(p for p in found.checked_rows if p != found.plain[D2])] += 1000  # only where all known
    changed = sizes_of(found)
    assert changed["de-en.particle.d2"][SPLIT] == expected["de-en.particle.d2"][SPLIT]
    assert sum(sum(s.values()) for s in changed.values()) == sum(sum(s.values()) for s in expected.values()) + 1000


def test_a_plain_dict_of_files_is_checked_as_before(folder: Path) -> None:
    """A caller's own ``{config: {split: files}}`` (not a scan): paths made from the record, no rows kept."""
    found = {config: dict(splits) for config, splits in scan_folder(folder).items()}
    files, owners, notes = check_files(folder, False, found)
    assert files.keys() == _recorded(folder).keys() and owners and notes == []
    assert check_folder(folder, found=found) == []
    assert sizes_of(found) == sizes_of(scan_folder(folder))


def test_a_hidden_file_of_a_shards_name_is_no_shard(folder: Path) -> None:
    hidden = folder / "data" / "de-en.particle.d2" / f".{SPLIT}-00000-of-00001.parquet"
    shutil.copyfile(folder / D2, hidden)
    found = scan_folder(folder)
    assert hidden not in _every_file(found) and found["de-en.particle.d2"][SPLIT] == [folder / D2]
    assert f".{SPLIT}" not in found["de-en.particle.d2"]


class _Unlistable:
    """A listed name whose file type the listing did not give and whose ``stat`` then failed (a
    file removed in between): ``os.DirEntry`` raises OSError from ``is_file``."""
    name = "x-00000-of-00001.parquet"

    def is_file(self) -> bool:
        raise OSError("gone")

    def is_symlink(self) -> bool:
        raise OSError("gone")


def test_a_name_whose_type_cannot_be_told_is_taken_for_a_link_and_no_file() -> None:
    from auto_challenge_sets.dataset.folder_scan import _listed_as

    assert _listed_as(_Unlistable()) == (False, True)  # type: ignore[arg-type]
