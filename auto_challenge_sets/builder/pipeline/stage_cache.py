"""Resumable, sharded processing of a long list of lines (the parse and alignment stages).

The input is cut into shards of ``shard_size`` lines; each processed shard is written atomically
(temporary file, fsync, rename) into a stage directory named by a hash of everything that
determines the output (backend, model, options, input checksum). A run that is killed, even with
SIGKILL, leaves only whole shards behind; the next run with the same key skips them, so the
final output is byte-identical to an uninterrupted run whenever the backend is deterministic.
Each shard's sha256 is kept beside it (``shard-N.jsonl.sha256``): a shard edited by hand is
computed again, with a note naming it, rather than built into a dataset.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from auto_challenge_sets.builder.pipeline.executors import Executor, ProcessExecutor
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.paths import default_cache_dir
from auto_challenge_sets.text_io import atomic_write_text

__all__ = ["ALIGN_SHARD_SIZE", "PARSE_SHARD_SIZE", "atomic_write_text", "default_cache_dir", "run_sharded",
           "stage_dir"]

# Lines per cached shard, the one place for both stages. A shard is the unit of resumption (a killed
# run redoes at most one) and of an executor's work; the size is part of each stage's cache key, so a
# change recomputes what is cached once but never changes a build's output. The two differ on purpose:
# the parse stage's (``acs parse`` / ``acs build --shard-size``) keeps a killed CPU parse from losing
# much, while simalign batches pairs of equal padded length (see its backend), so larger alignment
# shards give fuller batches: 2,000 pairs are a few seconds on a GPU and a few minutes on a CPU.
# (eflomal learns from the whole corpus and is run as one shard whatever the size.)
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


def write_hashed(path: Path, text: str) -> None:
    """Write a cached file and then its sha256 (a run killed between the two leaves a whole file
    without its hash, which is taken as it is: see :func:`changed_by_hand`)."""
    atomic_write_text(path, text)
    atomic_write_text(hash_path(path), hashlib.sha256(text.encode("utf-8")).hexdigest() + "\n")


def changed_by_hand(path: Path, data: bytes) -> bool:
    """Whether a cached file's bytes differ from the sha256 recorded when it was written. A file
    without a recorded hash (a cache of an older version, or a run killed after the file) is whole,
    since every file is written atomically."""
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
        data = path.read_bytes()
        if changed_by_hand(path, data):
            cache_note(path, f"{stage} shard")
            return None
        # split on "\n" only: json.dumps leaves U+2028, U+0085 ... unescaped, and splitlines() cuts there
        items = [json.loads(line) for line in data.decode("utf-8").split("\n")[:-1]]
    except (OSError, ValueError):
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
    """Apply ``process`` (a list of inputs → one output string per input) shard by shard.

    ``key`` must determine the output given the inputs; the input checksum is added to it here.
    ``executor`` runs the missing shards (default: here, in order). Returns the outputs of all
    inputs, in order.
    """
    if shard_size < 1:
        raise ValueError("shard_size must be >= 1")
    full_key = {**key, "inputs": checksum_lines(inputs), "n": len(inputs), "shard_size": shard_size}
    directory = stage_dir(cache_dir, stage, full_key)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # the hashed folder below would mean nothing to the user
        raise InputError("cannot hold the stage cache: it, or a folder above it, is a file", cache_dir) from None
    key_file = directory / "key.json"
    if not key_file.exists():
        atomic_write_text(key_file, json.dumps(full_key, sort_keys=True, indent=1, ensure_ascii=False) + "\n")

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
            write_hashed(directory / f"shard-{number:06d}.jsonl",
                         "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in result))
            outputs[number] = result
            if bar is not None:
                bar.update(batch_size)
    finally:
        if bar is not None:
            bar.close()
    return [item for shard in outputs for item in shard]  # type: ignore[union-attr]
