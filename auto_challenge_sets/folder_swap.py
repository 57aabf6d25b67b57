"""An output folder replaced whole, one writer at a time (``acs build``, ``acs evaluate --out``).

Under a file lock beside it (``.{name}.lock``), a writer fills a work folder ``.{name}.acs-new-{pid}``,
moves the old folder aside (``.{name}.acs-old-{pid}``), renames the work folder into place and deletes
the old one. Killed before the first rename, the folder is as it was; killed between the renames, it
is aside: the next writer puts it back, and a reader names it (:func:`left_aside`) in one line.
"""

from __future__ import annotations

import glob
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from auto_challenge_sets.errors import AcsError, InputError

# a writer waits this long for another's lock: a hung holder is named, not waited on forever
LOCK_TIMEOUT_S = 3600
# a reader waits this long for a writer's swap: a hung holder gets the reader's one line, not a hang
READ_WAIT_S = 10


def refuse_link_or_file(out: Path) -> None:
    """What no writer may replace: a symbolic link (its target is elsewhere), or a file."""
    if out.is_symlink():
        raise InputError("is a symbolic link: give the real folder", out)
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a folder", out)


def prepare_folder(out: Path, check: Callable[[Path], None]) -> Path:
    """Run the ownership ``check`` and create the lock file beside ``out``: a place that cannot be
    written fails before any work (filelock would retry until its time-out)."""
    check(out)
    lock = _lock_of(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(lock, os.O_WRONLY | os.O_CREAT, 0o644))
    except (FileExistsError, NotADirectoryError) as error:  # a file where a folder above ``out`` should be
        blocking = next((p for p in reversed(out.parents) if p.exists() and not p.is_dir()), error.filename)
        raise InputError(f"cannot be made: {blocking} is a file, not a folder", out) from None
    except OSError as error:  # the lock file's name would mean nothing to the user: name ``out``
        raise InputError(f"cannot create its lock file beside it: {error.strerror or error}", out) from None
    return lock


def _lock_of(out: Path) -> Path:
    """The lock file every writer of ``out`` takes, and a reader waits on."""
    return out.parent / f".{out.name}.lock"


def _leftovers(out: Path, kind: str) -> list[Path]:
    return sorted(out.parent.glob(f".{glob.escape(out.name)}.acs-{kind}-*"), key=lambda p: p.lstat().st_mtime)


def left_aside(out: Path) -> None:
    """A reader's one line where ``out`` is missing because a swap was killed between its renames
    (a live writer's swap, between the same renames, is waited for under its lock, then read)."""
    from filelock import FileLock, Timeout

    aside: list[Path] = []
    try:
        aside = [] if out.exists() else _leftovers(out, "old")
        if aside and (lock := _lock_of(out)).exists():
            with FileLock(str(lock), timeout=READ_WAIT_S):
                aside = [] if out.exists() else _leftovers(out, "old")
    except (OSError, Timeout):  # a working folder deleted (the reader's own error says so), or a held lock
        pass
    if aside:
        raise InputError(f"is missing: a write into it was killed while swapping it in, and its files are in "
                         f"{aside[-1]}: rename that back to {out.name} (the next write into it does so)", out)


def _recover(out: Path) -> None:
    """Under the lock: put back the folder a killed swap left aside; remove what killed runs left."""
    if not out.exists() and (aside := _leftovers(out, "old")):
        os.replace(aside[-1], out)
    for leftover in _leftovers(out, "old") + _leftovers(out, "new"):
        shutil.rmtree(leftover, ignore_errors=True)


def _copy(source: str, target: str) -> object:
    """One file of ``copytree``: an InputError, not an OSError, stops it at the first failure."""
    try:
        return shutil.copy2(source, target)
    except OSError as error:
        raise InputError("cannot be copied (a build adds to a copy of the folder, made beside it): "
                         f"{error.strerror or error}", source) from None


def _name_user_paths(error: BaseException, work: Path, out: Path) -> None:
    """Errors name the user's folder, not the work folder (gone when the message is read)."""
    old, new = str(work), str(out)
    if isinstance(error, OSError):
        name = error.filename
        error.filename = new if name is None else name.replace(old, new) if isinstance(name, str) else name
        if isinstance(error.filename2, str):  # set, even to None, it would print as "-> None"
            error.filename2 = error.filename2.replace(old, new)
    elif isinstance(error, AcsError):
        error.args = tuple(arg.replace(old, new) if isinstance(arg, str) else arg for arg in error.args)
        if isinstance(error, InputError) and error.path is not None:
            error.path = error.path.replace(old, new)


@contextmanager
def swapped_folder(out: str | os.PathLike[str], check: Callable[[Path], None], *,
                   keep: bool) -> Iterator[Path]:
    """Hold ``out``'s lock and yield a work folder, a copy of ``out`` (``keep``) or empty, that
    replaces ``out`` when the block succeeds. ``check`` runs before the lock, under it, and again
    before the swap (a file added by hand meanwhile is refused, not lost)."""
    from filelock import FileLock, Timeout

    out = Path(out).absolute()
    work, aside = (out.parent / f".{out.name}.acs-{kind}-{os.getpid()}" for kind in ("new", "old"))
    try:
        held = FileLock(str(prepare_folder(out, check)), timeout=LOCK_TIMEOUT_S).acquire()
    except Timeout:
        raise InputError(f"another build has held this folder's lock for over {LOCK_TIMEOUT_S} s: is one still "
                         "running? (a killed one releases it)", out) from None
    with held:
        _recover(out)
        try:
            check(out)
            if keep and out.exists():
                shutil.copytree(out, work, symlinks=True, copy_function=_copy)
            else:
                work.mkdir()
            yield work
            check(out)
            if out.exists():
                os.replace(out, aside)
            os.replace(work, out)
        except BaseException as error:
            _recover(out)
            if isinstance(error, Exception) and not out.parent.is_dir():
                raise InputError(f"the folder that holds it ({out.parent}) was deleted while this ran: "
                                 "nothing was written", out) from None
            _name_user_paths(error, work, out)
            raise
        shutil.rmtree(aside, ignore_errors=True)
