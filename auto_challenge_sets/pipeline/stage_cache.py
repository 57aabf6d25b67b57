"""Resumable, sharded processing of a list of lines (the parse and alignment stages).

Each processed shard is written atomically into a directory named by a hash of everything that
determines the output, so a killed run (even by SIGKILL) leaves only whole shards, the next run
skips them, and the output is byte-identical to an uninterrupted run. Each shard's sha256 is kept
beside it: a shard edited by hand is computed again, with a note, rather than built into a dataset.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from auto_challenge_sets.errors import AcsError, InputError
from auto_challenge_sets.formats.text import atomic_write_text, require_regular_file
from auto_challenge_sets.pipeline.executors import Executor, ProcessExecutor
from auto_challenge_sets.workers import WorkerLost

# Lines per cached shard: the unit of resumption and of an executor's work, part of the cache key,
# never of the output. Alignment shards are larger because simalign batches pairs of equal padded
# length (fuller batches); eflomal runs as one shard whatever the size.
PARSE_SHARD_SIZE = 1000
ALIGN_SHARD_SIZE = 2000


def checksum_lines(lines: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def stage_dir(cache_dir: str | os.PathLike[str], stage: str, key: dict) -> Path:
    """The directory of one stage run: ``{cache}/{stage}/{hash of key}``."""
    blob = json.dumps(key, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return Path(cache_dir) / stage / hashlib.sha256(blob).hexdigest()[:24]


def hash_path(path: Path) -> Path:
    """Where the sha256 of a cached file is kept, written after the file itself."""
    return path.with_name(path.name + ".sha256")


def changed_by_hand(path: Path, data: bytes) -> bool:
    """Whether a cached file's bytes differ from its recorded sha256. A file without one (a run killed
    between the two writes) is whole, since every file is written atomically."""
    try:
        recorded = hash_path(path).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    return hashlib.sha256(data).hexdigest() != recorded


def cache_note(path: Path, what: str) -> None:
    """Say that a cached file was found edited and is made again (stderr, as the build's notes)."""
    print(f"note: {path}: the cached {what} differs from the sha256 recorded when it was written "
          "(edited by hand?); computed again", file=sys.stderr)


def _read_shard(path: Path, expected: int, stage: str) -> list[str] | None:
    try:
        for file in (path, hash_path(path)):  # a pipe would block, a link to /dev/zero never end: made again
            require_regular_file(file)
        data = path.read_bytes()
        if changed_by_hand(path, data):
            cache_note(path, f"{stage} shard")
            return None
        # split on "\n" only: json.dumps leaves U+2028, U+0085 ... unescaped, and splitlines() cuts there
        items = [json.loads(line) for line in data.decode("utf-8").split("\n")[:-1]]
    except (OSError, ValueError, RecursionError):  # RecursionError: a line nested past the decoder's reach
        return None
    return items if len(items) == expected else None


def run_sharded(
    inputs: Sequence[str],
    process: Callable[[list[str]], list[str]],
    *,
    cache_dir: str | os.PathLike[str],
    stage: str,
    key: dict,
    shard_size: int = PARSE_SHARD_SIZE,  # each stage passes its own (above)
    progress: bool = True,
    unit: str = "line",
    executor: Executor | None = None,
) -> list[str]:
    """Apply ``process`` (inputs → one output string each) shard by shard, running the missing shards
    on ``executor`` (default: here); the outputs of all inputs, in order. ``key`` must determine the
    output given the inputs (whose checksum is added to it)."""
    if shard_size < 1:
        raise ValueError("shard_size must be >= 1")
    full_key = {**key, "inputs": checksum_lines(inputs), "n": len(inputs), "shard_size": shard_size}
    directory = stage_dir(cache_dir, stage, full_key)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # the hashed folder below would mean nothing to the user
        raise InputError("cannot hold the stage cache: it, or a folder above it, is a file", cache_dir) from None
    starts = list(range(0, len(inputs), shard_size))
    outputs: list[list[str] | None] = []
    done = 0
    for number, start in enumerate(starts):
        size = min(shard_size, len(inputs) - start)
        cached = _read_shard(directory / f"shard-{number:06d}.jsonl", size, stage)
        outputs.append(cached)
        done += size if cached is not None else 0

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(inputs), initial=done, desc=stage, unit=unit, dynamic_ncols=True)
    pending = ((number, list(inputs[start : start + shard_size]))
               for number, start in enumerate(starts) if outputs[number] is None)
    try:
        for number, result in (executor or ProcessExecutor(jobs=1)).map_shards(process, pending):
            batch_size = min(shard_size, len(inputs) - starts[number])
            if len(result) != batch_size:
                raise RuntimeError(f"{stage}: the backend returned {len(result)} outputs for {batch_size} inputs")
            shard = directory / f"shard-{number:06d}.jsonl"
            text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in result)
            atomic_write_text(shard, text)  # then its sha256: a shard without one is whole (changed_by_hand)
            atomic_write_text(hash_path(shard), hashlib.sha256(text.encode("utf-8")).hexdigest() + "\n")
            outputs[number] = result
            if bar is not None:
                bar.update(batch_size)
    except WorkerLost as lost:
        shards = ", ".join(str(number + 1) for number, _ in lost.items)
        raise AcsError(f"{stage}: {lost} on shard{'s' * (len(lost.items) > 1)} {shards} of {len(starts)}; the "
                       "finished shards are kept: run the command again, it resumes at the unfinished ones") from None
    finally:
        if bar is not None:
            bar.close()
    return [item for shard in outputs for item in shard]  # type: ignore[union-attr]
