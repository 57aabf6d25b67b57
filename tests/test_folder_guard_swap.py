"""dataset/folder_guard.locked_output's order of operations, in milliseconds on a hand-made folder:
the swap happens while the folder's lock is held, and a folder that a killed build renamed aside is
put back before the leftovers of killed builds are removed."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from auto_challenge_sets.dataset.folder_guard import locked_output
from auto_challenge_sets.dataset.record import BUILD_RECORD


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
    """Every rename that swaps the new folder in runs while the lock is held: released before,
    another build could copy the old folder and later swap its copy over this build's."""
    out = _made_by_a_build(tmp_path / "sets", "old\n")
    lock_path = tmp_path / ".sets.lock"
    renames: list[tuple[str, bool]] = []
    real_replace = os.replace

    def watched_replace(src, dst, *args, **kwargs):
        renames.append((Path(dst).name, _locked_elsewhere(lock_path)))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", watched_replace)
    with locked_output(out) as work:
        (work / "data.txt").write_text("new\n", encoding="utf-8")
    monkeypatch.undo()
    assert (out / "data.txt").read_text(encoding="utf-8") == "new\n"
    assert [name for name, _ in renames][-1] == "sets" and len(renames) >= 2  # aside, then in
    assert all(held for _, held in renames), renames
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
