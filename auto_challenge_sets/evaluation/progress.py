"""Progress bars of an evaluation's stages (tqdm, on stderr): shown only when asked for and stderr
is a terminal, so logs and pipes get none and ``acs evaluate --quiet`` turns them off."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress_bar(items: Iterable[T], enabled: bool, desc: str, total: int | None = None,
                 unit: str = "it") -> Iterator[T]:
    """``items``, with a bar named ``desc`` while they are consumed."""
    from tqdm import tqdm

    yield from tqdm(items, desc=desc, total=total, unit=f" {unit}", leave=False, file=sys.stderr,
                    disable=not enabled or not sys.stderr.isatty())
