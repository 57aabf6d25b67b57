"""The alignment stage: sentence pairs (token lists) → Pharaoh links, in resumable shards
(:func:`~auto_challenge_sets.pipeline.stage_cache.run_sharded`, keyed by the aligner's
``cache_key()`` and the pairs). A corpus-level aligner (eflomal) runs as one shard, so its links
never depend on where shards end; a Pharaoh file is read, not cached.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from auto_challenge_sets.backends.aligners import Aligner
from auto_challenge_sets.formats.pharaoh import Link, format_pharaoh, parse_pharaoh
from auto_challenge_sets.formats.text import atomic_write_text, make_folder
from auto_challenge_sets.paths import default_cache_dir
from auto_challenge_sets.pipeline.corpus_inputs import AlignmentFile
from auto_challenge_sets.pipeline.executors import Executor, ShardWork
from auto_challenge_sets.pipeline.specs import AlignerSpec
from auto_challenge_sets.pipeline.stage_cache import ALIGN_SHARD_SIZE, run_sharded


def _align_shard(aligner: Aligner, batch: list[str]) -> list[str]:
    return [format_pharaoh(found) for found in aligner.align([tuple(json.loads(item)) for item in batch])]


def align_pairs(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    *,
    aligner: Aligner | AlignerSpec | AlignmentFile,
    cache_dir: str | os.PathLike[str] | None = None,
    shard_size: int | None = None,
    progress: bool = True,
    executor: Executor | None = None,
) -> list[list[Link]]:
    """Links for every pair (0-based ``(source, target)``). ``aligner``: a ready :class:`Aligner`,
    an :class:`AlignerSpec`, or a Pharaoh file."""
    factory = None  # how a worker of another process makes the aligner
    if isinstance(aligner, AlignerSpec):
        factory = aligner.create
        aligner = factory()
    pairs = [(list(source), list(target)) for source, target in pairs]
    if isinstance(aligner, AlignmentFile):  # read, not computed: nothing to cache
        return aligner.align(pairs)
    if aligner.corpus_level:
        shard_size = max(1, len(pairs))
    inputs = [json.dumps(pair, ensure_ascii=False, separators=(",", ":")) for pair in pairs]

    outputs = run_sharded(
        inputs, ShardWork(factory, _align_shard, ready=aligner),
        cache_dir=default_cache_dir() if cache_dir is None else cache_dir, stage="align",
        key={"stage": "align", "format": 1, **aligner.cache_key()},
        shard_size=shard_size or ALIGN_SHARD_SIZE, progress=progress, unit="pair", executor=executor,
    )
    return [parse_pharaoh(line) for line in outputs]


def write_pharaoh(path: str | os.PathLike[str], alignments: Sequence[Sequence[Link]]) -> None:
    """One Pharaoh line per pair (an empty line for none), written atomically."""
    path = Path(path)
    if path.parent != Path(""):
        make_folder(path.parent)
    atomic_write_text(path, "".join(format_pharaoh(links) + "\n" for links in alignments))
