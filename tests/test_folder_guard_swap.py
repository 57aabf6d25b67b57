"""dataset/folder_guard.locked_output's order of operations, in milliseconds on a hand-made folder:
the swap happens while the folder's lock is held, and a folder that a killed build renamed aside is
put back before the leftovers of killed builds are removed."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from auto_challenge_sets import folder_swap
from auto_challenge_sets.dataset.folder_guard import check_output_folder, locked_output, prepare_output
from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import InputError


def _made_by_a_build(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / BUILD_RECORD).write_text('{"builds": []}\n', encoding="utf-8")
    (folder / "data.txt").write_text(text, encoding="utf-8")
    return folder


def _locked_elsewhere(lock_path: Path) -> bool:
    """Whether another open file description holds the lock (filelock's flock on Linux)."""
    fd = os.open(lock_path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def test_the_swap_happens_under_the_lock(tmp_path, monkeypatch):
    """Every rename or exchange that swaps the new folder in runs while the lock is held: released
    before, another build could copy the old folder and later swap its copy over this build's."""
    out = _made_by_a_build(tmp_path / "sets", "old\n")
    lock_path = tmp_path / ".sets.lock"
    moves: list[tuple[str, bool]] = []
    real_replace, real_exchange = os.replace, folder_swap.exchange

    def watched_replace(src, dst, *args, **kwargs):
        moves.append((Path(dst).name, _locked_elsewhere(lock_path)))
        return real_replace(src, dst, *args, **kwargs)

    def watched_exchange(first, second):
        moves.append((Path(second).name, _locked_elsewhere(lock_path)))
        return real_exchange(first, second)

    monkeypatch.setattr(os, "replace", watched_replace)
    monkeypatch.setattr(folder_swap, "exchange", watched_exchange)  # a spy: the real exchange runs
    with locked_output(out) as work:
        (work / "data.txt").write_text("new\n", encoding="utf-8")
    monkeypatch.undo()
    assert (out / "data.txt").read_text(encoding="utf-8") == "new\n"
    assert [name for name, _ in moves][-1] == "sets"  # one exchange, or aside then in
    assert all(held for _, held in moves), moves
    assert not _locked_elsewhere(lock_path)  # and released afterwards


@pytest.mark.parametrize("with_work_folder", [False, True])
def test_a_folder_renamed_aside_by_a_killed_build_is_put_back_first(tmp_path, with_work_folder):
    """A build killed between its two renames leaves no ``sets``, only ``.sets.acs-old-PID`` (and
    maybe its ``.sets.acs-new-PID``): the next build starts from the recovered folder, not an
    empty one, and the leftovers go."""
    _made_by_a_build(tmp_path / ".sets.acs-old-99999", "kept\n")
    if with_work_folder:
        _made_by_a_build(tmp_path / ".sets.acs-new-99999", "half-made\n")
    out = tmp_path / "sets"
    with locked_output(out) as work:
        assert (work / "data.txt").read_text(encoding="utf-8") == "kept\n"
        (work / "more.txt").write_text("added\n", encoding="utf-8")
    assert (out / "data.txt").read_text(encoding="utf-8") == "kept\n"
    assert (out / "more.txt").read_text(encoding="utf-8") == "added\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "sets"]


# -- what check_output_folder refuses, and prepare_output -------------------------------------

PACKAGE_REFUSED = ("is the source folder of the auto_challenge_sets Python package, not a dataset folder (run from "
                   "the repository's root?): build in another working folder, or give out elsewhere, e.g. out "
                   "challenge_sets")


def test_the_packages_source_folder_and_anything_inside_it_are_refused():
    import auto_challenge_sets

    package = Path(auto_challenge_sets.__file__).resolve().parent
    for out in (package, package / "dataset", package / "not" / "made" / "yet"):
        with pytest.raises(InputError) as raised:
            check_output_folder(out)
        assert str(raised.value) == f"{out}: {PACKAGE_REFUSED}"
        assert raised.value.field == "out"
    assert not (package / "not").exists()


def test_a_folder_with_files_and_no_build_record_is_refused(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("mine\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        check_output_folder(theirs)
    assert str(raised.value) == (f"{theirs}: is not empty and has no acs_build.json: it was not made by acs build, "
                                 "and a build would replace its README and data; choose a new or empty folder")
    (theirs / "acs_build.json").mkdir()  # a folder of that name is no record
    with pytest.raises(InputError, match="has no acs_build.json"):
        check_output_folder(theirs)


def test_a_missing_an_empty_or_a_built_folder_may_be_written(tmp_path):
    assert check_output_folder(tmp_path / "missing") is None
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_output_folder(empty) is None
    built = _made_by_a_build(tmp_path / "built", "x\n")
    (built / "data" / "de-en.particle.d3").mkdir(parents=True)
    assert check_output_folder(built) is None


def test_a_link_as_the_folder_or_anywhere_inside_it_is_refused(tmp_path):
    built = _made_by_a_build(tmp_path / "built", "x\n")
    link = tmp_path / "link"
    link.symlink_to(built, target_is_directory=True)
    with pytest.raises(InputError) as raised:
        check_output_folder(link)
    assert str(raised.value) == f"{link}: is a symbolic link: give the real folder"
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        check_output_folder(a_file)
    assert str(raised.value) == f"{a_file}: exists and is not a folder"
    deep = built / "data" / "de-en.particle.d3"
    deep.mkdir(parents=True)
    (deep / "sample-00000-of-00001.parquet").symlink_to(tmp_path / "elsewhere.parquet")
    with pytest.raises(InputError) as raised:
        check_output_folder(built)
    assert str(raised.value) == (f"{deep}/sample-00000-of-00001.parquet: is a symbolic link inside the dataset "
                                 "folder: a build writes only real files there, never through a link")


def test_prepare_output_makes_the_lock_beside_a_folder_it_may_write_only(tmp_path):
    assert prepare_output(tmp_path / "sets") == tmp_path / ".sets.lock"
    assert (tmp_path / ".sets.lock").is_file() and not (tmp_path / "sets").exists()
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("mine\n", encoding="utf-8")
    with pytest.raises(InputError, match="not made by acs build"):
        prepare_output(theirs)
    assert not (tmp_path / ".theirs.lock").exists()


def test_locked_output_refuses_a_folder_it_did_not_make_and_copies_one_it_did(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("mine\n", encoding="utf-8")
    with pytest.raises(InputError, match="not made by acs build"):
        with locked_output(theirs):
            pytest.fail("the block must not run")
    out = _made_by_a_build(tmp_path / "sets", "old\n")
    with locked_output(str(out)) as work:
        assert work == tmp_path / f".sets.acs-new-{os.getpid()}"
        assert (work / "data.txt").read_text(encoding="utf-8") == "old\n"
