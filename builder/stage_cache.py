"""Resumable, sharded processing of a long list of lines (the parse and alignment stages).

The input is cut into shards of ``shard_size`` lines; each processed shard is written atomically
(temporary file, fsync, rename) into a stage directory named by a hash of everything that
determines the output (backend, model, options, input checksum). A run that is killed, even with
SIGKILL, leaves only whole shards behind; the next run with the same key skips them, so the
final output is byte-identical to an uninterrupted run whenever the backend is deterministic.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

DEFAULT_SHARD_SIZE = 1000


def default_cache_dir() -> Path:
    """``$ACS_CACHE_DIR``, else ``$XDG_CACHE_HOME/auto_challenge_sets``, else ``~/.cache/auto_challenge_sets``."""
    if os.environ.get("ACS_CACHE_DIR"):
        return Path(os.environ["ACS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "auto_challenge_sets"


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


def atomic_write_text(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)


def _read_shard(path: Path, expected: int) -> list[str] | None:
    try:
        # split on "\n" only: json.dumps leaves U+2028, U+0085 ... unescaped, and splitlines() cuts there
        items = [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n")[:-1]]
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
    shard_size: int = DEFAULT_SHARD_SIZE,
    progress: bool = True,
    unit: str = "line",
) -> list[str]:
    """Apply ``process`` (a list of inputs → one output string per input) shard by shard.

    ``key`` must determine the output given the inputs; the input checksum is added to it here.
    Returns the outputs of all inputs, in order.
    """
    if shard_size < 1:
        raise ValueError("shard_size must be >= 1")
    full_key = {**key, "inputs": checksum_lines(inputs), "n": len(inputs), "shard_size": shard_size}
    directory = stage_dir(cache_dir, stage, full_key)
    directory.mkdir(parents=True, exist_ok=True)
    key_file = directory / "key.json"
    if not key_file.exists():
        atomic_write_text(key_file, json.dumps(full_key, sort_keys=True, indent=1, ensure_ascii=False) + "\n")

    starts = list(range(0, len(inputs), shard_size))
    outputs: list[list[str] | None] = []
    done = 0
    for number, start in enumerate(starts):
        size = min(shard_size, len(inputs) - start)
        cached = _read_shard(directory / f"shard-{number:06d}.jsonl", size)
        outputs.append(cached)
        done += size if cached is not None else 0

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(inputs), initial=done, desc=stage, unit=unit, dynamic_ncols=True)
    try:
        for number, start in enumerate(starts):
            if outputs[number] is not None:
                continue
            batch = list(inputs[start : start + shard_size])
            result = process(batch)
            if len(result) != len(batch):
                raise RuntimeError(f"{stage}: the backend returned {len(result)} outputs for {len(batch)} inputs")
            atomic_write_text(directory / f"shard-{number:06d}.jsonl",
                              "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in result))
            outputs[number] = result
            if bar is not None:
                bar.update(len(batch))
    finally:
        if bar is not None:
            bar.close()
    return [item for shard in outputs for item in shard]  # type: ignore[union-attr]
