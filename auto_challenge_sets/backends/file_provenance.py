"""What a backend tells the build record (``acs_build.json``) of itself: its model or input file by
base name and sha256, and the version of the package that ran it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any


def file_checksum(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file, streamed (a model may be gigabytes)."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def package_version(distribution: str) -> str | None:
    """The installed version of ``distribution``, None when absent."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def package_entry(backend: Any) -> dict[str, Any]:
    """The distribution that runs ``backend``, the last of its ``requires``, and its version."""
    distribution = (getattr(backend, "requires", ()) or (None,))[-1]
    return {"package": distribution, "version": None if distribution is None else package_version(distribution)}


def file_entry(path: str | os.PathLike[str]) -> dict[str, str]:
    """A file by base name (a record must not depend on where the build ran) and sha256."""
    return {"file": Path(path).name, "sha256": file_checksum(path)}
