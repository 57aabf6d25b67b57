"""What a backend tells the build record of itself (``acs_build.json``, a build's ``provenance``):
its model or input file by name and sha256, and the version of the package that ran it.

A checksum is of the file's bytes, read in blocks (a model may be gigabytes); a version is the
installed distribution's, from :mod:`importlib.metadata` (None when it is not installed).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any


def file_checksum(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file, streamed: the cache key and the build record change when the file does."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def package_version(distribution: str) -> str | None:
    """The installed version of ``distribution`` (``ufal.udpipe``, ``eflomal``), None when absent."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def package_entry(distribution: str | None) -> dict[str, Any]:
    """``{"package": name, "version": its version}`` (both None for a backend without a package)."""
    return {"package": distribution, "version": None if distribution is None else package_version(distribution)}


def file_entry(path: str | os.PathLike[str]) -> dict[str, str]:
    """A file as the record names it: its base name (a record must not depend on where the build
    ran) and its sha256."""
    return {"file": Path(path).name, "sha256": file_checksum(path)}
