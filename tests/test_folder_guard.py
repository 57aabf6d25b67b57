"""Which folder a build may write (dataset/folder_guard.py): absent, empty, or made by acs build,
never the package's own source, a link, or a folder with a link inside; a refused folder is left
as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.dataset.folder_guard import check_output_folder
from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import InputError

PACKAGE_REFUSED = ("is the source folder of the auto_challenge_sets Python package, not a dataset folder (run from "
                   "the repository's root?): build in another working folder, or give out elsewhere, e.g. out "
                   "challenge_sets")


def _made_by_a_build(folder: Path) -> Path:
    folder.mkdir()
    (folder / BUILD_RECORD).write_text('{"builds": []}\n', encoding="utf-8")
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_folder_this_tool_did_not_make_is_refused_and_left_as_it_was(tmp_path, capsys):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("my own dataset\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        build_demo(theirs)
    assert str(raised.value) == (f"{theirs}: is not empty and has no acs_build.json: it was not made by acs build, "
                                 "and a build would replace its README and data; choose a new or empty folder")
    assert _snapshot(theirs) == {"README.md": b"my own dataset\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs"]  # refused before its lock file is made
    (theirs / "acs_build.json").mkdir()  # a folder of that name is no record
    with pytest.raises(InputError, match="has no acs_build.json"):
        check_output_folder(theirs)
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    assert main(["demo", "--out", str(a_file)]) == 2
    assert f"{a_file}: exists and is not a folder" in capsys.readouterr().err


def test_the_packages_source_folder_and_anything_inside_it_are_refused():
    import auto_challenge_sets

    package = Path(auto_challenge_sets.__file__).resolve().parent
    for out in (package, package / "dataset", package / "not" / "made" / "yet"):
        with pytest.raises(InputError) as raised:
            check_output_folder(out)
        assert str(raised.value) == f"{out}: {PACKAGE_REFUSED}"
        assert raised.value.field == "out"
    assert not (package / "not").exists()


def test_a_missing_an_empty_or_a_built_folder_may_be_written(tmp_path):
    assert check_output_folder(tmp_path / "missing") is None
    (tmp_path / "empty").mkdir()
    assert check_output_folder(tmp_path / "empty") is None
    built = _made_by_a_build(tmp_path / "built")
    (built / "data" / "de-en.particle.d3").mkdir(parents=True)
    assert check_output_folder(built) is None


def test_a_link_as_the_folder_or_anywhere_inside_it_is_refused(tmp_path):
    built = _made_by_a_build(tmp_path / "built")
    link = tmp_path / "link"
    link.symlink_to(built, target_is_directory=True)
    with pytest.raises(InputError) as raised:
        check_output_folder(link)
    assert str(raised.value) == f"{link}: is a symbolic link: give the real folder"
    deep = built / "data" / "de-en.particle.d3"
    deep.mkdir(parents=True)
    (deep / "sample-00000-of-00001.parquet").symlink_to(tmp_path / "elsewhere.parquet")
    with pytest.raises(InputError) as raised:
        check_output_folder(built)
    assert str(raised.value) == (f"{deep}/sample-00000-of-00001.parquet: is a symbolic link inside the dataset "
                                 "folder: a build writes only real files there, never through a link")


def test_a_build_never_writes_through_a_link_inside_the_folder(tmp_path):
    out = tmp_path / "sets"
    build_demo(out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = out / "data" / "de-en.particle.d3"
    for path in target.iterdir():
        path.rename(elsewhere / path.name)
    target.rmdir()
    target.symlink_to(elsewhere, target_is_directory=True)
    before = _snapshot(elsewhere)
    with pytest.raises(InputError, match="symbolic link inside the dataset folder"):
        build_demo(out)
    assert _snapshot(elsewhere) == before
