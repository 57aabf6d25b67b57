"""An output folder written all or nothing, one writer at a time: what ``acs build`` and
``acs evaluate --out`` share (each adds its own ownership check).

- **One writer.** Writers of one folder serialize through a file lock beside it (``.{name}.lock``,
  :mod:`filelock`), so two runs never mix their files.
- **All or nothing.** A run writes a sibling work folder, ``.{name}.acs-new-{pid}``, and swaps it
  in with one atomic exchange (``renameat2(RENAME_EXCHANGE)``, Linux); a run that fails or is
  killed leaves the previous folder as it was. Where the system has no exchange the swap is two
  renames, and a kill between them leaves the folder renamed aside, ``.{name}.acs-old-{pid}``: the
  next writer, and every reader (:func:`recover_folder`), puts it back under the lock.
- **The user's path in errors.** A system error about a file of the work folder names the file
  under the user's folder instead, and one naming no file names the folder: the work folder is
  gone when the message is read.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from auto_challenge_sets.errors import AcsError, InputError

LOCK_TIMEOUT_S = 3600  # a build can take long; a lock held longer than this is reported, not broken
RECOVER_WAIT_S = 30  # how long a reader waits for a writer that holds the lock to put a folder back
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2  # <fcntl.h>, <linux/fs.h>


def _sibling(out: Path, kind: str) -> Path:
    return out.parent / f".{out.name}.acs-{kind}-{os.getpid()}"


def refuse_link_or_file(out: Path) -> None:
    """What neither a build nor a report may write: a symbolic link (its target is elsewhere) or a
    file where the folder should be."""
    if out.is_symlink():
        raise InputError("is a symbolic link: give the real folder", out)
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a folder", out)


def _lock_path(out: Path) -> Path:
    return out.parent / f".{out.name}.lock"


def prepare_folder(out: Path, check: Callable[[Path], None]) -> Path:
    """Run the ownership ``check`` on ``out`` (put back first if a killed swap left it aside) and
    create its lock file; return the lock's path.

    filelock would retry a lock file it cannot create until its time-out: creating it here turns
    a read-only or missing place into an error at once.
    """
    recover_folder(out)
    check(out)
    lock_path = _lock_path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(lock_path, os.O_WRONLY | os.O_CREAT, 0o644))
    except (FileExistsError, NotADirectoryError) as error:  # a file where a folder above ``out`` should be
        blocking = next((p for p in reversed(out.parents) if p.exists() and not p.is_dir()), error.filename)
        raise InputError(f"cannot be made: {blocking} is a file, not a folder", out) from None
    except OSError as error:  # the lock file's name would mean nothing to the user: name ``out``
        raise InputError(f"cannot create its lock file beside it: {error.strerror or error}", out) from None
    return lock_path


def _aside(out: Path) -> list[Path]:
    """Folders a killed swap left aside, the newest (the folder as it was last) last."""
    return sorted(out.parent.glob(f".{out.name}.acs-old-*"), key=lambda p: p.stat().st_mtime)


def _recover(out: Path) -> None:
    """Put back a folder that a killed run had renamed aside but not yet replaced."""
    if out.exists() or out.is_symlink():
        return
    if aside := _aside(out):
        os.replace(aside[-1], out)


def recover_folder(out: str | os.PathLike[str]) -> None:
    """What a reader does first: where ``out`` is missing but a swap killed between its two renames
    left it aside, put it back under the lock, so that "no such folder" is never said of a folder
    that is only renamed.

    A writer holding the lock puts the folder back itself at once (it recovers first, and swaps in
    an instant), so the reader waits for whichever comes first: the folder back, or the lock. A
    place it cannot write (no lock file, no rename) is an error naming where the folder is.
    """
    from filelock import FileLock, Timeout

    try:
        out = Path(out).absolute()
    except FileNotFoundError:  # a relative path in a deleted working folder: the reader's own error says so
        return
    if out.exists() or out.is_symlink() or not _aside(out):
        return
    deadline = time.monotonic() + RECOVER_WAIT_S
    try:
        while True:
            try:
                with FileLock(str(_lock_path(out)), timeout=0.1):
                    _recover(out)
                return
            except Timeout:
                if out.exists() or time.monotonic() > deadline:
                    return  # back, or the writer still holds it: the reader's own error says what is there
    except OSError as error:
        aside = _aside(out)
        if out.exists() or not aside:
            return
        raise InputError(f"is missing: a write into it was killed between two renames, and its files are in "
                         f"{aside[-1].name} beside it, which cannot be renamed back here ({error.strerror or error}): "
                         f"rename it back to {out.name}, or give its path instead", out) from None


def _clean_leftovers(out: Path) -> None:
    """Remove what killed runs left beside the folder (under the lock, nobody else is writing)."""
    for pattern in (f".{out.name}.acs-new-*", f".{out.name}.acs-old-*"):
        for path in out.parent.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


class _CopyFailed(Exception):
    """Stops :func:`shutil.copytree` at the first file it cannot copy: it would otherwise try
    every other file and raise one ``shutil.Error`` that prints as "Error", naming nothing."""

    def __init__(self, source: str, cause: OSError) -> None:
        super().__init__(source)
        self.source, self.cause = source, cause


def _copy_folder(out: Path, work: Path) -> None:
    """Copy ``out`` into the new ``work`` folder; a failure names the file of ``out`` and why."""

    def copy(source: str, target: str) -> object:
        try:
            return shutil.copy2(source, target)
        except OSError as error:
            raise _CopyFailed(source, error) from error

    try:
        shutil.copytree(out, work, symlinks=True, copy_function=copy)
    except _CopyFailed as failed:
        if isinstance(failed.cause, shutil.SpecialFileError):
            why = "not a regular file (a named pipe?): a dataset folder holds only files and folders"
        else:
            why = failed.cause.strerror or str(failed.cause)
        raise InputError(f"cannot be copied (a build adds to a copy of the folder, made beside it): {why}", failed.source) from None
    except shutil.Error as error:  # a folder's own copy (its permissions, times) failed
        source, _, why = error.args[0][0]
        raise InputError(f"cannot be copied (a build adds to a copy of the folder, made beside it): {why}", source) from None


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """libc's ``renameat2`` (glibc 2.28+, musl 1.2.2+; the kernel's since 3.15), None where there
    is none. Python's ``os`` has no renameat2, and the syscall's number differs per architecture:
    ctypes on libc is the one portable way in."""
    if not sys.platform.startswith("linux"):  # RENAME_EXCHANGE's value is Linux's; macOS has renamex_np
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # an older libc
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one atomic step; False (and nothing changed) where the system
    cannot: no renameat2, a kernel without it (ENOSYS) or a file system without RENAME_EXCHANGE
    (EINVAL). Any other failure is the OSError it is."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def swap_in(work: Path, out: Path, *, atomic: bool = True) -> None:
    """Put the folder ``work`` in ``out``'s place and remove the old ``out``.

    One atomic exchange where the system has it (``atomic=False`` skips it, to test the rest):
    ``out`` always exists, and the old folder sits at ``work``'s name until it is removed (a kill
    there leaves a leftover the next writer removes). Elsewhere two renames: a kill between them
    leaves ``out`` missing, aside; :func:`recover_folder` and the next writer put it back.
    """
    if not out.exists():
        os.replace(work, out)
        return
    if atomic and exchange(work, out):
        shutil.rmtree(work, ignore_errors=True)
        return
    aside = _sibling(out, "old")
    os.replace(out, aside)
    os.replace(work, out)
    shutil.rmtree(aside, ignore_errors=True)


def _user_path(path: str | bytes | int | None, work: Path, out: Path) -> str | bytes | int | None:
    if not isinstance(path, str):
        return path
    try:
        return str(out / Path(path).absolute().relative_to(work))
    except ValueError:  # not under the work folder: the user's own path already
        return path


def _check_parent(out: Path) -> None:
    """Whatever failed while the folder that holds ``out`` (and the work folder) was deleted,
    failed because of that: say so, rather than what the missing work folder looked like."""
    if not out.parent.is_dir():
        raise InputError(f"the folder that holds it ({out.parent}) was deleted while this ran: nothing was "
                         "written", out) from None


def _name_user_paths(error: AcsError, work: Path, out: Path) -> None:
    """Rewrite in place an error's mentions of the work folder (which is gone when the message is
    read) as the user's folder."""
    error.args = tuple(arg.replace(str(work), str(out)) if isinstance(arg, str) else arg for arg in error.args)
    if isinstance(getattr(error, "path", None), str):
        error.path = error.path.replace(str(work), str(out))


@contextmanager
def swapped_folder(out: str | os.PathLike[str], check: Callable[[Path], None], *, keep: bool,
                   holder: str) -> Iterator[Path]:
    """Hold ``out``'s lock and yield a work folder to write; swap it in when the block succeeds.

    ``check``: the ownership check (raises naming ``out``), run before the lock and again under it.
    ``keep``: the work folder starts as a copy of ``out`` (a build adds to a dataset) rather than
    empty (a report is one run's whole). ``holder`` names the writer in the lock's time-out error.
    """
    from filelock import FileLock, Timeout

    out = Path(out).absolute()
    lock_path = prepare_folder(out, check)
    try:
        lock = FileLock(str(lock_path))
        lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout:
        raise InputError(f"another {holder} has held this folder's lock for over {LOCK_TIMEOUT_S} s", out) from None
    try:
        _recover(out)
        _clean_leftovers(out)
        check(out)
        work = _sibling(out, "new")
        try:
            if keep and out.exists():
                _copy_folder(out, work)
            else:
                work.mkdir()
            yield work
            check(out)  # again: a file added by hand while the work folder was written is not lost
            swap_in(work, out)
        except OSError as error:
            _check_parent(out)
            error.filename = _user_path(error.filename, work, out) if error.filename is not None else str(out)
            if error.filename2 is not None:  # set, even to None, it would print as "-> None"
                error.filename2 = _user_path(error.filename2, work, out)
            raise
        except AcsError as error:  # a message about a file of the copy: the user's file, the same name
            _check_parent(out)
            _name_user_paths(error, work, out)
            raise
        except Exception:
            _check_parent(out)
            raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()
