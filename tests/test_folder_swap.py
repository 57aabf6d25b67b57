"""The promises of folder_swap, on hand-made folders and one real build: a swap replaces the folder
whole; writers of one folder serialize; a writer that crashes or is killed at any step leaves the
previous folder whole, or aside and named in one line; the next writer puts it back."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from auto_challenge_sets.dataset import writer
from auto_challenge_sets.dataset.layout import require_complete
from auto_challenge_sets.demo_data import SAMPLE, demo_file
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.report.saved_report import read_report
from auto_challenge_sets.folder_swap import left_aside, swapped_folder
from auto_challenge_sets.pipeline.run_build import BuildSpec

FORK = multiprocessing.get_context("fork")


def _any(out: Path) -> None:
    pass


def _folder(path: Path, **files: str) -> Path:
    path.mkdir(parents=True)
    for name, text in files.items():
        (path / name).write_text(text, encoding="utf-8")
    return path


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def test_a_swap_replaces_the_folder_whole(tmp_path):
    out = tmp_path / "sets"
    with swapped_folder(out, _any, keep=True) as work:  # no folder yet: the work folder becomes it
        (work / "a.txt").write_text("a\n", encoding="utf-8")
    with swapped_folder(out, _any, keep=True) as work:  # a copy of the folder, added to
        assert _contents(work) == {"a.txt": b"a\n"} and work.parent == tmp_path and work.name != "sets"
        (work / "b.txt").write_text("b\n", encoding="utf-8")
        assert _contents(out) == {"a.txt": b"a\n"}  # untouched until the block succeeds
    assert _contents(out) == {"a.txt": b"a\n", "b.txt": b"b\n"}
    with swapped_folder(out, _any, keep=False) as work:  # empty: the new folder replaces the whole
        assert list(work.iterdir()) == []
        (work / "c.txt").write_text("c\n", encoding="utf-8")
    assert _contents(out) == {"c.txt": b"c\n"}
    assert _beside(out) == [".sets.lock"]


def _increment(out: str) -> None:
    for _ in range(5):
        with swapped_folder(out, _any, keep=True) as work:
            count = int((work / "count").read_text(encoding="utf-8"))
            time.sleep(0.01)  # another writer, unlocked, would copy the same count meanwhile
            (work / "count").write_text(str(count + 1), encoding="utf-8")


def test_writers_of_one_folder_serialize(tmp_path):
    out = _folder(tmp_path / "sets", count="0")
    with FORK.Pool(4) as pool:
        pool.map(_increment, [str(out)] * 4)
    assert (out / "count").read_text(encoding="utf-8") == "20"  # no writer's update lost
    assert _beside(out) == [".sets.lock"]


def test_the_folder_is_swapped_while_the_lock_is_held(tmp_path, monkeypatch):
    """Released before, another writer could copy the old folder and swap its copy over this one."""
    out = _folder(tmp_path / "sets", **{"data.txt": "old\n"})
    held = []
    real_replace = os.replace

    def replace(source, target):
        fd = os.open(tmp_path / ".sets.lock", os.O_RDWR)  # another open file: filelock's flock blocks it
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(fd)
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with swapped_folder(out, _any, keep=True) as work:
        (work / "data.txt").write_text("new\n", encoding="utf-8")
    assert held == [True, True] and _contents(out) == {"data.txt": b"new\n"}


@pytest.mark.parametrize("step", ["copy", "block", "check", "aside", "in"])
def test_a_crash_at_any_step_leaves_the_previous_folder_and_names_the_users_folder(tmp_path, monkeypatch, step):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    checks, replaces = [], []
    real_replace = os.replace

    def check(folder: Path) -> None:
        checks.append(folder)
        if step == "check" and len(checks) == 3:  # before the lock, under it, before the swap: a file added by hand
            raise InputError("a file added by hand", folder / "notes.txt")

    def replace(source, target):
        replaces.append(target)
        if (step, len(replaces)) in (("aside", 1), ("in", 2)):
            raise OSError(28, "No space left on device")
        return real_replace(source, target)

    def failing_copy(source, target, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", replace)
    if step == "copy":
        monkeypatch.setattr(shutil, "copy2", failing_copy)
    with pytest.raises((InputError, OSError)) as raised:
        with swapped_folder(out, check, keep=True) as work:
            (work / "new.txt").write_text("never seen\n", encoding="utf-8")
            if step == "block":
                raise InputError("a bad row", work / "data.txt", 3)
    assert _contents(out) == {"data.txt": b"kept\n"} and _beside(out) == [".sets.lock"]
    assert str(raised.value) == {  # the user's folder, never the work folder (gone when the message is read)
        "copy": f"{out}/data.txt: cannot be copied (a build adds to a copy of the folder, made beside it): "
                "Input/output error",
        "block": f"{out}/data.txt:3: a bad row",
        "check": f"{out}/notes.txt: a file added by hand",
        "aside": f"[Errno 28] No space left on device: '{out}'",
        "in": f"[Errno 28] No space left on device: '{out}'",
    }[step]
    if step == "block":
        assert raised.value.path == f"{out}/data.txt"


def test_every_path_of_an_error_from_the_block_names_the_users_folder(tmp_path):
    """An OSError's second path too (a rename's target); an error's other arguments and a file
    descriptor's number pass as they were raised."""
    from auto_challenge_sets.backends import BackendError

    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    with pytest.raises(FileNotFoundError) as raised, swapped_folder(out, _any, keep=True) as work:
        os.rename(work / "missing.txt", work / "data.txt")
    assert str(raised.value) == f"[Errno 2] No such file or directory: '{out}/missing.txt' -> '{out}/data.txt'"
    with pytest.raises(BackendError) as raised, swapped_folder(out, _any, keep=True) as work:
        raise BackendError(f"the parser failed on {work / 'data.txt'}", 3)
    assert raised.value.args == (f"the parser failed on {out / 'data.txt'}", 3)
    with pytest.raises(OSError) as raised, swapped_folder(out, _any, keep=True) as work:
        fd = os.open(work / "data.txt", os.O_RDONLY)
        os.close(fd)
        os.stat(fd)  # a descriptor just closed
    assert raised.value.filename == fd and str(raised.value) == f"[Errno 9] Bad file descriptor: {fd}"
    with pytest.raises(InputError) as raised, swapped_folder(out, _any, keep=True):
        raise InputError("no path")
    assert str(raised.value) == "no path" and raised.value.path is None
    assert _contents(out) == {"data.txt": b"kept\n"} and _beside(out) == [".sets.lock"]


def _killed_between_the_renames(out: str) -> None:
    real_replace = os.replace

    def replace(source, target):
        if Path(target) == Path(out):
            os._exit(9)  # the kill: the folder is aside, the work folder not yet in its place
        return real_replace(source, target)

    os.replace = replace
    with swapped_folder(out, _any, keep=True) as work:
        (work / "new.txt").write_text("half\n", encoding="utf-8")


def test_a_writer_killed_between_the_renames_is_named_by_readers_and_undone_by_the_next_writer(tmp_path):
    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    child = FORK.Process(target=_killed_between_the_renames, args=(str(out),))
    child.start()
    child.join(120)
    assert child.exitcode == 9 and not out.exists()
    aside = tmp_path / f".sets.acs-old-{child.pid}"
    assert _contents(aside) == {"data.txt": b"kept\n"}
    for reader in (left_aside, require_complete, read_report):  # the folder's own, a dataset's, a report's
        with pytest.raises(InputError) as raised:
            reader(out)
        assert str(raised.value) == (f"{out}: is missing: a write into it was killed while swapping it in, and its "
                                     f"files are in {aside}: rename that back to sets (the next write into it "
                                     "does so)")
    assert not out.exists()  # a reader changes nothing
    with swapped_folder(out, _any, keep=True) as work:
        assert _contents(work) == {"data.txt": b"kept\n"}  # the previous folder, not the killed run's
    assert _contents(out) == {"data.txt": b"kept\n"} and _beside(out) == [".sets.lock"]


def _spec(src: str, tgt: str, alignment: Path) -> BuildSpec:
    return BuildSpec(pair=f"{src}-{tgt}", corpus=SAMPLE, source=demo_file(f"sample.{src}"),
                     target=demo_file(f"sample.{tgt}"), source_conllu=demo_file(f"sample.{src}.conllu"),
                     alignment=alignment, phenomena=("particle",))


def _build_and_hang(out: str, ready: str) -> None:
    original = writer.render_readme

    def render_then_hang(folder):
        original(folder)
        Path(ready).write_text("written", encoding="utf-8")
        time.sleep(600)

    writer.render_readme = render_then_hang
    writer.build_into_folder(_spec("de", "en", demo_file("sample.de-en.pharaoh")), out, license="x",
                             progress=False)


def test_a_build_killed_while_writing_leaves_the_previous_folder_and_the_next_build_goes_through(tmp_path):
    out = tmp_path / "sets"
    alignment = demo_file("sample.de-en.pharaoh")
    writer.build_into_folder(_spec("de", "en", alignment), out, progress=False)
    before = _contents(out)
    ready = tmp_path / "ready"
    child = FORK.Process(target=_build_and_hang, args=(str(out), str(ready)))
    child.start()
    deadline = time.monotonic() + 120
    while not ready.exists() and time.monotonic() < deadline and child.is_alive():
        time.sleep(0.05)
    assert ready.exists(), "the build never reached its last write"
    os.kill(child.pid, signal.SIGKILL)
    child.join()
    assert _contents(out) == before  # the killed build's files are in its own work folder
    assert _beside(out) == [f".sets.acs-new-{child.pid}", ".sets.lock"]
    writer.build_into_folder(_spec("de", "en", alignment), out, progress=False)
    assert _contents(out) == before  # the same build again: the same bytes
    assert _beside(out) == [".sets.lock"]


def test_a_writer_waits_for_the_lock_a_bounded_time_and_then_names_the_folder(tmp_path, monkeypatch):
    """A hung holder of the lock is named in one line after LOCK_TIMEOUT_S, not waited on forever."""
    from filelock import FileLock

    from auto_challenge_sets import folder_swap

    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    monkeypatch.setattr(folder_swap, "LOCK_TIMEOUT_S", 0.2)
    with FileLock(str(tmp_path / ".sets.lock")), pytest.raises(InputError) as raised:
        with swapped_folder(out, _any, keep=True):
            pass
    assert str(raised.value) == (f"{out}: another build has held this folder's lock for over 0.2 s: is one still "
                                 "running? (a killed one releases it)")
    assert _contents(out) == {"data.txt": b"kept\n"}


def _swap_and_die_under_the_lock(folder: str, started: str) -> None:
    from filelock import FileLock

    out = Path(folder)
    work = _folder(out.parent / ".sets.acs-new-1", **{"data.txt": "new\n"})
    with FileLock(str(out.parent / ".sets.lock")):
        os.replace(out, out.parent / ".sets.acs-old-1")  # the first rename of a live writer's swap
        Path(started).write_text("renamed", encoding="utf-8")
        time.sleep(0.5)
        os.replace(work, out)  # the second
        os._exit(9)  # killed before it deleted the old folder: the kill releases the lock


def test_a_reader_waits_for_a_live_writers_swap_instead_of_calling_it_killed(tmp_path, monkeypatch):
    """Between a live writer's two renames the folder is missing for a moment: a reader takes the
    writer's lock (held until the swap ends) before it calls the folder left aside. A folder that
    is there is read, whatever a killed writer left beside it and whoever holds the lock."""
    from filelock import FileLock

    from auto_challenge_sets import folder_swap

    out = _folder(tmp_path / "sets", **{"data.txt": "kept\n"})
    started = tmp_path / "started"
    child = FORK.Process(target=_swap_and_die_under_the_lock, args=(str(out), str(started)))
    child.start()
    while not started.exists():
        time.sleep(0.01)
    assert not out.exists()
    left_aside(out)  # no error: it waited for the swap, which ended under the lock
    child.join(60)
    assert child.exitcode == 9 and _contents(out) == {"data.txt": b"new\n"}
    assert _beside(out) == [".sets.acs-old-1", ".sets.lock"]
    monkeypatch.setattr(folder_swap, "READ_WAIT_S", 0.2)
    with FileLock(str(tmp_path / ".sets.lock")):  # a writer at work: the reader does not wait for it
        left_aside(out)
    with swapped_folder(out, _any, keep=True):  # the next writer removes what the killed one left
        pass
    assert _contents(out) == {"data.txt": b"new\n"} and _beside(out) == [".sets.lock"]


def test_a_reader_waits_for_a_held_lock_a_bounded_time_and_then_names_the_folder_aside(tmp_path, monkeypatch):
    """A hung writer does not hang its readers: after READ_WAIT_S, the folder left aside is named."""
    from auto_challenge_sets import folder_swap

    out = tmp_path / "sets"
    aside = _folder(tmp_path / ".sets.acs-old-7", **{"data.txt": "kept\n"})
    monkeypatch.setattr(folder_swap, "READ_WAIT_S", 0.2)
    fd = os.open(tmp_path / ".sets.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # the hung writer's lock, released (with the folder put back) in 1 s

    def put_back_and_release() -> None:
        os.replace(aside, out)
        os.close(fd)

    late_writer = threading.Timer(1.0, put_back_and_release)
    late_writer.start()
    try:
        with pytest.raises(InputError) as raised:
            left_aside(out)
    finally:
        late_writer.join()
    assert str(raised.value) == (f"{out}: is missing: a write into it was killed while swapping it in, and its "
                                 f"files are in {aside}: rename that back to sets (the next write into it does so)")
