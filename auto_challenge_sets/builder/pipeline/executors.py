"""Where the shards of a stage run: the seam a distributed executor (Ray Data) plugs into.

An executor maps a function over the pending shards and yields ``(shard, result)`` as each one
finishes, in any order; the stage cache writes each result as it comes, so a killed run keeps
every finished shard whichever executor ran it. :class:`LocalExecutor`, the default, runs them one
after another in this process, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        """``(shard number, process(shard))`` for every shard, as each one finishes."""
        ...


class LocalExecutor:
    """In this process, one shard after another."""

    def map_shards(self, process: Callable[[T], R], shards: Iterable[tuple[int, T]]) -> Iterator[tuple[int, R]]:
        for number, shard in shards:
            yield number, process(shard)
