"""folder_swap on hand-made folders, in milliseconds: the refusals and their messages, the lock
file, which folder a killed run left aside is put back, the copy's failures, the two renames of the
swap, and how an error raised while the work folder is written names the user's folder instead."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from auto_challenge_sets.errors import AcsError, InputError
from auto_challenge_sets.folder_swap import (
    exchange,
    prepare_folder,
    recover_folder,
    refuse_link_or_file,
    swap_in,
    swapped_folder,
)

PID = os.getpid()
COPY_FAILED = "cannot be copied (a build adds to a copy of the folder, made beside it)"


def _no_check(out: Path) -> None:
    pass


def _folder(path: Path, **files: str) -> Path:
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).write_text(text, encoding="utf-8")
    return path


def _contents(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*")) if p.is_file()}


# -- refuse_link_or_file ----------------------------------------------------------------------


def test_a_link_or_a_file_is_refused_a_folder_or_nothing_is_not(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(_folder(tmp_path / "real"), target_is_directory=True)
    with pytest.raises(InputError) as raised:
        refuse_link_or_file(link)
    assert str(raised.value) == f"{link}: is a symbolic link: give the real folder"
    assert raised.value.path == str(link)
    a_file = tmp_path / "a_file"
    a_file.write_text("x", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        refuse_link_or_file(a_file)
    assert str(raised.value) == f"{a_file}: exists and is not a folder"
    assert raised.value.path == str(a_file)
    assert refuse_link_or_file(tmp_path / "real") is None
    assert refuse_link_or_file(tmp_path / "missing") is None


# -- prepare_folder ---------------------------------------------------------------------------


def test_the_lock_file_is_made_beside_the_folder_with_its_missing_parents(tmp_path):
    checked: list[Path] = []
    out = tmp_path / "a" / "b" / "sets"
    old_mask = os.umask(0o022)
    try:
        lock = prepare_folder(out, checked.append)
    finally:
        os.umask(old_mask)
    assert lock == tmp_path / "a" / "b" / ".sets.lock"
    assert lock.is_file() and lock.read_bytes() == b""
    assert stat.S_IMODE(lock.stat().st_mode) == 0o644
    assert checked == [out]
    assert not out.exists()  # the folder itself is the writer's to make
    lock.write_text("kept", encoding="utf-8")
    assert prepare_folder(out, checked.append) == lock  # again: the parent and the lock file exist
    assert lock.read_text(encoding="utf-8") == "kept" and checked == [out, out]


def test_a_refused_folder_gets_no_lock_file(tmp_path):
    def refuse(out: Path) -> None:
        raise InputError("not yours", out)

    with pytest.raises(InputError, match="not yours"):
        prepare_folder(tmp_path / "sets", refuse)
    assert list(tmp_path.iterdir()) == []


def test_a_file_above_the_folder_is_named(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    out = afile / "a" / "sets"
    with pytest.raises(InputError) as raised:
        prepare_folder(out, _no_check)
    assert str(raised.value) == f"{out}: cannot be made: {afile} is a file, not a folder"


def test_a_dangling_link_above_the_folder_is_named_by_the_systems_error(tmp_path):
    """No file among the parents (a link to nowhere does not exist): the error's own file name."""
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    out = dangling / "sets"
    with pytest.raises(InputError) as raised:
        prepare_folder(out, _no_check)
    assert str(raised.value) == f"{out}: cannot be made: {dangling} is a file, not a folder"


@pytest.mark.parametrize("failure,why", [
    (PermissionError(13, "Permission denied"), "Permission denied"),
    (OSError("a failure without an errno"), "a failure without an errno"),
])
def test_a_lock_file_that_cannot_be_created_names_the_folder(tmp_path, monkeypatch, failure, why):
    real_open = os.open

    def refusing_open(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            raise failure
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)  # root may write anywhere: the failure is simulated
    out = tmp_path / "sets"
    with pytest.raises(InputError) as raised:
        prepare_folder(out, _no_check)
    assert str(raised.value) == f"{out}: cannot create its lock file beside it: {why}"
    assert raised.value.path == str(out)


# -- recovery and leftovers -------------------------------------------------------------------


def test_the_folder_renamed_aside_last_is_the_one_put_back(tmp_path):
    """Several killed runs: the newest folder aside is the previous folder (names sort otherwise)."""
    for name, mtime in (("1", 3_000_000), ("2", 1_000_000), ("3", 2_000_000)):
        aside = _folder(tmp_path / f".sets.acs-old-{name}", **{"data.txt": f"aside {name}\n"})
        os.utime(aside, (mtime, mtime))
    out = tmp_path / "sets"
    with swapped_folder(out, _no_check, keep=True, holder="build") as work:
        assert _contents(work) == {"data.txt": "aside 1\n"}
    assert _contents(out) == {"data.txt": "aside 1\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "sets"]


def test_a_reader_puts_back_the_folder_renamed_aside_last_and_nothing_else(tmp_path):
    for name, mtime in (("1", 1_000_000), ("2", 2_000_000)):
        os.utime(_folder(tmp_path / f".sets.acs-old-{name}", **{"data.txt": f"aside {name}\n"}), (mtime, mtime))
    out = tmp_path / "sets"
    recover_folder(out)
    assert _contents(out) == {"data.txt": "aside 2\n"}
    # the older one is a writer's to remove, under the lock; a reader only puts the folder back
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.acs-old-1", ".sets.lock", "sets"]
    recover_folder(out)  # a folder that is there is left as it is
    assert _contents(out) == {"data.txt": "aside 2\n"}
    assert (tmp_path / ".sets.acs-old-1").is_dir()


def test_a_reader_waits_for_the_writer_that_holds_the_lock_to_put_the_folder_back(tmp_path):
    import threading

    from filelock import FileLock

    aside = _folder(tmp_path / ".sets.acs-old-1", **{"data.txt": "aside\n"})
    out = tmp_path / "sets"
    moved: list[Path] = []

    def writers_second_rename() -> None:
        os.replace(aside, out)
        moved.append(out)

    with FileLock(str(tmp_path / ".sets.lock")):  # a writer between its two renames
        writer = threading.Timer(0.3, writers_second_rename)
        writer.start()
        recover_folder(out)
        assert out.is_dir()  # it returned once the folder was back, not before
        writer.join()
    assert moved == [out]  # the writer's rename, not the reader's, put it back: the reader waited
    assert _contents(out) == {"data.txt": "aside\n"}


def test_a_folder_aside_that_cannot_be_put_back_is_named_with_where_it_is(tmp_path, monkeypatch):
    _folder(tmp_path / ".sets.acs-old-1", **{"data.txt": "aside\n"})
    out = tmp_path / "sets"

    def read_only(src, dst, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(src))

    monkeypatch.setattr(os, "replace", read_only)  # root renames anywhere: the read-only place is simulated
    with pytest.raises(InputError) as raised:
        recover_folder(out)
    assert str(raised.value) == (f"{out}: is missing: a write into it was killed between two renames, and its files "
                                 "are in .sets.acs-old-1 beside it, which cannot be renamed back here (Permission "
                                 "denied): rename it back to sets, or give its path instead")


def test_an_existing_folder_is_kept_and_every_leftover_goes(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "current\n"})
    _folder(tmp_path / ".sets.acs-old-7" / "deep", **{"x.txt": "aside\n"})
    _folder(tmp_path / ".sets.acs-new-8", **{"y.txt": "half\n"})
    (tmp_path / ".sets.acs-new-9").write_text("a file, not a folder: left, never an error\n", encoding="utf-8")
    _folder(tmp_path / ".other.acs-new-8", **{"z.txt": "another folder's\n"})
    with swapped_folder(out, _no_check, keep=True, holder="build") as work:
        assert _contents(work) == {"data.txt": "current\n"}
    assert _contents(out) == {"data.txt": "current\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.acs-new-8", ".sets.acs-new-9", ".sets.lock",
                                                          "sets"]


# -- the work folder and the swap -------------------------------------------------------------


def _watch_renames(monkeypatch) -> list[tuple[str, str]]:
    renames: list[tuple[str, str]] = []
    real_replace = os.replace

    def watched(src, dst, *args, **kwargs):
        renames.append((Path(src).name, Path(dst).name))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", watched)
    return renames


def _exchange_works(tmp_path: Path) -> bool:
    return exchange(_folder(tmp_path / "probe-a"), _folder(tmp_path / "probe-b"))


def test_exchange_swaps_two_folders_in_one_step(tmp_path):
    first = _folder(tmp_path / "first", **{"a.txt": "a\n"})
    second = _folder(tmp_path / "second", **{"b.txt": "b\n"})
    if not exchange(first, second):
        pytest.skip("no renameat2(RENAME_EXCHANGE) here: the swap is two renames")
    assert _contents(first) == {"b.txt": "b\n"} and _contents(second) == {"a.txt": "a\n"}
    with pytest.raises(FileNotFoundError) as raised:  # both must exist: a real failure is raised, not "unsupported"
        exchange(first, tmp_path / "missing")
    assert raised.value.filename == str(tmp_path / "missing")
    assert _contents(first) == {"b.txt": "b\n"}


def test_an_existing_folder_is_exchanged_with_the_work_folder_in_one_step(tmp_path, monkeypatch):
    if not _exchange_works(tmp_path):
        pytest.skip("no renameat2(RENAME_EXCHANGE) here: the swap is two renames")
    out = _folder(tmp_path / "sets", **{"old.txt": "old\n"})
    renames = _watch_renames(monkeypatch)
    with swapped_folder(out, _no_check, keep=True, holder="build") as work:
        assert work == tmp_path / f".sets.acs-new-{PID}"
        (work / "new.txt").write_text("new\n", encoding="utf-8")
    assert renames == []  # no moment without a folder: the one exchange is no os.replace
    assert _contents(out) == {"new.txt": "new\n", "old.txt": "old\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "probe-a", "probe-b", "sets"]


def test_without_the_exchange_the_folder_goes_aside_then_the_work_folder_takes_its_place(tmp_path, monkeypatch):
    out = _folder(tmp_path / "sets", **{"old.txt": "old\n"})
    work = _folder(tmp_path / f".sets.acs-new-{PID}", **{"new.txt": "new\n"})
    renames = _watch_renames(monkeypatch)
    swap_in(work, out, atomic=False)
    assert renames == [("sets", f".sets.acs-old-{PID}"), (f".sets.acs-new-{PID}", "sets")]
    assert _contents(out) == {"new.txt": "new\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sets"]


def test_a_new_folder_is_the_work_folder_renamed(tmp_path, monkeypatch):
    out = tmp_path / "sets"
    renames = _watch_renames(monkeypatch)
    with swapped_folder(out, _no_check, keep=True, holder="build") as work:
        assert work.is_dir() and list(work.iterdir()) == []
        (work / "new.txt").write_text("new\n", encoding="utf-8")
    assert renames == [(f".sets.acs-new-{PID}", "sets")]
    assert _contents(out) == {"new.txt": "new\n"}


def test_without_keep_the_work_folder_starts_empty_and_replaces_the_whole_folder(tmp_path):
    out = _folder(tmp_path / "report", **{"old.txt": "old\n"})
    with swapped_folder(out, _no_check, keep=False, holder="evaluate") as work:
        assert list(work.iterdir()) == []
        (work / "new.txt").write_text("new\n", encoding="utf-8")
    assert _contents(out) == {"new.txt": "new\n"}


def test_a_lock_held_too_long_names_the_writer_that_waited(tmp_path, monkeypatch):
    from filelock import FileLock, Timeout

    waited: list[float] = []

    def timed_out(self, timeout=None, *args, **kwargs):
        waited.append(timeout)
        raise Timeout(self.lock_file)

    monkeypatch.setattr(FileLock, "acquire", timed_out)
    out = tmp_path / "sets"
    with pytest.raises(InputError) as raised:
        with swapped_folder(out, _no_check, keep=True, holder="report writer"):
            pass
    assert str(raised.value) == f"{out}: another report writer has held this folder's lock for over 3600 s"
    assert waited == [3600]


# -- the copy of the folder -------------------------------------------------------------------


def test_a_named_pipe_in_the_folder_is_named_and_nothing_changes(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    os.mkfifo(out / "notes")
    with pytest.raises(InputError) as raised:
        with swapped_folder(out, _no_check, keep=True, holder="build"):
            pytest.fail("the block must not run")
    assert str(raised.value) == (f"{out}/notes: {COPY_FAILED}: not a regular file (a named pipe?): a dataset "
                                 "folder holds only files and folders")
    assert raised.value.path == str(out / "notes")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "sets"]
    assert (out / "data.txt").read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize("failure,why", [
    (OSError(28, "No space left on device"), "No space left on device"),
    (OSError("an error without an errno"), "an error without an errno"),
])
def test_a_file_that_cannot_be_copied_is_named_with_the_reason(tmp_path, monkeypatch, failure, why):
    out = _folder(tmp_path / "sets", **{"a.txt": "a\n", "data.txt": "kept\n", "z.txt": "z\n"})
    real_copy2 = shutil.copy2

    def full_disk(source, target, *args, **kwargs):
        if Path(source).name == "data.txt":
            raise failure
        return real_copy2(source, target, *args, **kwargs)

    monkeypatch.setattr(shutil, "copy2", full_disk)
    with pytest.raises(InputError) as raised:
        with swapped_folder(out, _no_check, keep=True, holder="build"):
            pytest.fail("the block must not run")
    assert str(raised.value) == f"{out}/data.txt: {COPY_FAILED}: {why}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sets.lock", "sets"]


def test_a_link_in_the_folder_is_copied_as_a_link_not_as_its_target(tmp_path):
    """The ownership check decides whether links are allowed; the copy never follows one."""
    out = _folder(tmp_path / "report", **{"data.txt": "kept\n"})
    (out / "link.txt").symlink_to(out / "data.txt")
    with swapped_folder(out, _no_check, keep=True, holder="evaluate") as work:
        assert (work / "link.txt").is_symlink()
        assert os.readlink(work / "link.txt") == str(out / "data.txt")


def test_a_folder_whose_own_copy_fails_is_named(tmp_path, monkeypatch):
    """A folder's permissions or times that cannot be copied: shutil's collected error, first entry."""
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    real_copystat = shutil.copystat

    def refusing(source, target, *args, **kwargs):
        if os.path.isdir(source):
            raise PermissionError(1, "Operation not permitted")
        return real_copystat(source, target, *args, **kwargs)

    monkeypatch.setattr(shutil, "copystat", refusing)
    with pytest.raises(InputError) as raised:
        with swapped_folder(out, _no_check, keep=True, holder="build"):
            pytest.fail("the block must not run")
    assert str(raised.value) == f"{out}: {COPY_FAILED}: [Errno 1] Operation not permitted"
    assert raised.value.path == str(out)


# -- errors raised while the work folder is written -------------------------------------------


def _raised_in_block(out: Path, make_error) -> BaseException:
    with pytest.raises(BaseException) as raised:
        with swapped_folder(out, _no_check, keep=True, holder="build") as work:
            (work / "written.txt").write_text("never swapped in\n", encoding="utf-8")
            make_error(work)
    assert not (out / "written.txt").exists()
    assert not list(out.parent.glob(f".{out.name}.acs-*"))  # the work folder goes
    return raised.value


def test_a_system_error_names_the_users_files_not_the_work_folders(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})

    def missing(work):
        (work / "sub" / "x.txt").read_text(encoding="utf-8")

    error = _raised_in_block(out, missing)
    assert isinstance(error, FileNotFoundError)
    assert error.filename == str(out / "sub" / "x.txt") and error.filename2 is None
    assert str(error) == f"[Errno 2] No such file or directory: '{out}/sub/x.txt'"

    def renamed(work):
        os.rename(work / "gone.txt", work / "there.txt")

    error = _raised_in_block(out, renamed)
    assert (error.filename, error.filename2) == (str(out / "gone.txt"), str(out / "there.txt"))

    def outside(work):
        (tmp_path / "elsewhere" / "x.txt").read_text(encoding="utf-8")

    error = _raised_in_block(out, outside)
    assert error.filename == str(tmp_path / "elsewhere" / "x.txt")  # the user's own path already

    def full_disk(work):
        raise OSError(28, "No space left on device")

    error = _raised_in_block(out, full_disk)
    assert error.filename == str(out) and str(error) == f"[Errno 28] No space left on device: '{out}'"

    def by_number(work):
        raise OSError(9, "Bad file descriptor", 7)

    assert _raised_in_block(out, by_number).filename == 7
    assert (out / "data.txt").read_text(encoding="utf-8") == "kept\n"


def test_a_relative_folder_is_named_absolute_in_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _folder(tmp_path / "sets", **{"data.txt": "kept\n"})

    def missing(work):
        assert work == tmp_path / f".sets.acs-new-{PID}"
        (work / "x.txt").read_text(encoding="utf-8")

    assert _raised_in_block(Path("sets"), missing).filename == str(tmp_path / "sets" / "x.txt")


def test_our_errors_name_the_users_files_not_the_work_folders(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})

    def bad_line(work):
        raise InputError("a bad row", work / "data.txt", 3)

    error = _raised_in_block(out, bad_line)
    assert str(error) == f"{out}/data.txt:3: a bad row"
    assert error.path == str(out / "data.txt") and error.line == 3

    def with_a_number(work):
        raise AcsError(f"{work}/a.txt and {work}/b.txt differ", 5)

    error = _raised_in_block(out, with_a_number)
    assert error.args == (f"{out}/a.txt and {out}/b.txt differ", 5)


def test_any_error_after_the_folders_parent_was_deleted_says_so(tmp_path):
    parent = _folder(tmp_path / "p")
    out = _folder(parent / "out", **{"data.txt": "x\n"})
    expected = f"{out}: the folder that holds it ({parent}) was deleted while this ran: nothing was written"

    for make_error in (lambda work: (work / "more.txt").write_text("x", encoding="utf-8"),
                       lambda work: (_ for _ in ()).throw(InputError("a bad row", work / "data.txt")),
                       lambda work: (_ for _ in ()).throw(RuntimeError("anything else"))):
        if not parent.exists():
            _folder(out, **{"data.txt": "x\n"})

        def deleted_then(work, make_error=make_error):
            shutil.rmtree(parent)
            make_error(work)

        with pytest.raises(InputError) as raised:
            with swapped_folder(out, _no_check, keep=True, holder="build") as work:
                deleted_then(work)
        assert str(raised.value) == expected
        assert raised.value.__suppress_context__


def test_other_errors_pass_through_unchanged(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})

    def other(work):
        raise RuntimeError(f"about {work}")

    error = _raised_in_block(out, other)
    assert type(error) is RuntimeError and str(error) == f"about {tmp_path}/.sets.acs-new-{PID}"
