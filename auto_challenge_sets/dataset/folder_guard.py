"""Guarding a dataset folder while a build writes it: ownership, one writer at a time, and a swap.

- **Ownership.** ``--out`` must be absent, empty, or a folder this tool made (it holds the build
  record); anything else is an error, so a build never replaces someone's README or deletes their
  data. A symbolic link anywhere inside it is an error too: a build writes only real files, never
  through a link to somewhere else.
- **One writer.** Builds into one folder serialize through a file lock beside it
  (``.{name}.lock``, :mod:`filelock`), so two builds never mix their files or lose a record.
- **All or nothing.** A build writes a copy of the folder, a sibling ``.{name}.acs-new-{pid}``, and
  swaps it in with two renames; a build that fails or is killed leaves the previous folder as it
  was (at worst renamed aside for an instant: the next build, under the lock, puts it back).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import InputError

LOCK_TIMEOUT_S = 3600  # a build can take long; a lock held longer than this is reported, not broken


def _sibling(out: Path, kind: str) -> Path:
    return out.parent / f".{out.name}.acs-{kind}-{os.getpid()}"


def _package_folder() -> Path:
    import auto_challenge_sets

    return Path(auto_challenge_sets.__file__).resolve().parent


def check_output_folder(out: Path) -> None:
    """Refuse an ``--out`` this tool must not write (see the module docstring)."""
    package = _package_folder()
    if out.resolve() == package or out.resolve().is_relative_to(package):
        # `acs build` in a clone's root: the default --out, ./auto_challenge_sets, is the code itself
        raise InputError("is the source folder of the auto_challenge_sets Python package, not a dataset folder "
                         "(run from the repository's root?): build in another working folder, or give out "
                         "elsewhere, e.g. out challenge_sets", out, field="out")
    if out.is_symlink():
        raise InputError("is a symbolic link: give the real folder", out)
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a folder", out)
    if not out.exists():
        return
    entries = list(out.iterdir())
    if entries and not (out / BUILD_RECORD).is_file():
        raise InputError(f"is not empty and has no {BUILD_RECORD}: it was not made by acs build, and a build "
                         "would replace its README and data; choose a new or empty folder", out)
    for path in out.rglob("*"):
        if path.is_symlink():
            raise InputError("is a symbolic link inside the dataset folder: a build writes only real files "
                             "there, never through a link", path)


def prepare_output(out: Path) -> Path:
    """Check that a build may write ``out`` and create its lock file; fails before any work.

    filelock would retry a lock file it cannot create until its time-out: creating it here turns
    a read-only or missing place into an error at once.
    """
    check_output_folder(out)
    lock_path = out.parent / f".{out.name}.lock"
    out.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(lock_path, os.O_WRONLY | os.O_CREAT, 0o644))
    return lock_path


def _recover(out: Path) -> None:
    """Put back a folder that a killed build had renamed aside but not yet replaced."""
    if out.exists():
        return
    aside = sorted(out.parent.glob(f".{out.name}.acs-old-*"), key=lambda p: p.stat().st_mtime)
    if aside:
        os.replace(aside[-1], out)


def _clean_leftovers(out: Path) -> None:
    """Remove what killed builds left beside the folder (under the lock, nobody else is writing)."""
    for pattern in (f".{out.name}.acs-new-*", f".{out.name}.acs-old-*"):
        for path in out.parent.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


@contextmanager
def locked_output(out: str | os.PathLike[str]) -> Iterator[Path]:
    """Hold the folder's lock; yield a private copy to write; swap it in when the block succeeds."""
    from filelock import FileLock, Timeout

    out = Path(out).absolute()
    lock_path = prepare_output(out)
    try:
        lock = FileLock(str(lock_path))
        lock.acquire(timeout=LOCK_TIMEOUT_S)
    except Timeout:
        raise InputError(f"another build has held this folder's lock for over {LOCK_TIMEOUT_S} s", out) from None
    try:
        _recover(out)
        _clean_leftovers(out)
        check_output_folder(out)
        work = _sibling(out, "new")
        if out.exists():
            shutil.copytree(out, work, symlinks=True)
        else:
            work.mkdir()
        try:
            yield work
            _swap(work, out)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        lock.release()


def _swap(work: Path, out: Path) -> None:
    if not out.exists():
        os.replace(work, out)
        return
    aside = _sibling(out, "old")
    os.replace(out, aside)
    os.replace(work, out)
    shutil.rmtree(aside, ignore_errors=True)
