"""The alignment stage: sentence pairs (token lists) → Pharaoh links, resumable, with progress.

Pairs go through :func:`~auto_challenge_sets.builder.stage_cache.run_sharded`: each shard's links
are stored as Pharaoh lines in ``{cache}/align/{hash}/``, the hash covering the aligner's
``cache_key()`` (backend, model and its weights, options, seed) and the input pairs. A killed run
resumes from its finished shards; a rerun with the same inputs reads everything from the cache.
A corpus-level aligner (eflomal learns from the whole corpus) is run as one shard, so its links
never depend on where shards happen to end. A Pharaoh file is read directly, not cached.

Tokens: the build aligns the words of the source UD parse with the white-space tokens of the
target (see :mod:`auto_challenge_sets.builder.analysis`); ``acs align`` aligns white-space tokens
on both sides, like fast_align.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.builder.aligners import Aligner, Link, aligner_class, available_aligners, get_aligner
from auto_challenge_sets.builder.stage_cache import atomic_write_text, default_cache_dir, run_sharded
from auto_challenge_sets.reordering import format_pharaoh, parse_pharaoh

DEFAULT_ALIGNER = "simalign"
# simalign batches pairs of equal padded length (see simalign_backend), so larger shards give
# fuller batches; 2,000 pairs are a few seconds on a GPU and a few minutes on a CPU.
DEFAULT_SHARD_SIZE = 2000


@dataclass(frozen=True)
class AlignerSpec:
    """A backend name and its options: what a build records and creates its aligner from."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    def create(self, **context: Any) -> Aligner:
        """The aligner; ``context`` (e.g. ``line_numbers``, ``total_lines`` of a corpus) is passed
        on only to backends that take it (the Pharaoh reader)."""
        accepted = inspect.signature(aligner_class(self.name)).parameters
        extra = {key: value for key, value in context.items() if key in accepted}
        return get_aligner(self.name, **self.options, **extra)

    def describe(self) -> str:
        # a file is named by its base name: the card must not depend on where the build ran
        shown = ", ".join(f"{key}={Path(value).name if isinstance(value, os.PathLike) else value}"
                          for key, value in sorted(self.options.items()) if value is not None)
        return f"{self.name} ({shown})" if shown else self.name


def align_pairs(
    pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
    *,
    aligner: Aligner | AlignerSpec | str = DEFAULT_ALIGNER,
    cache_dir: str | os.PathLike[str] | None = None,
    shard_size: int | None = None,
    progress: bool = True,
    **options: Any,
) -> list[list[Link]]:
    """Links for every pair (0-based ``(source, target)``), through the resumable stage cache.

    ``aligner``: a ready :class:`Aligner`, an :class:`AlignerSpec`, or a backend name whose
    ``options`` are given here (``align_pairs(pairs, aligner="eflomal", seed=3)``).
    """
    if isinstance(aligner, str):
        aligner = get_aligner(aligner, **options)
    elif options:
        raise TypeError("options are only taken with an aligner name")
    elif isinstance(aligner, AlignerSpec):
        aligner = aligner.create()
    pairs = [(list(source), list(target)) for source, target in pairs]
    if not aligner.cacheable:
        return aligner.align(pairs)
    if aligner.corpus_level:
        shard_size = max(1, len(pairs))
    inputs = [json.dumps(pair, ensure_ascii=False, separators=(",", ":")) for pair in pairs]

    def process(batch: list[str]) -> list[str]:
        links = aligner.align([tuple(json.loads(item)) for item in batch])
        return [format_pharaoh(found) for found in links]

    outputs = run_sharded(
        inputs, process, cache_dir=default_cache_dir() if cache_dir is None else cache_dir, stage="align",
        key={"stage": "align", "format": 1, **aligner.cache_key()},
        shard_size=shard_size or DEFAULT_SHARD_SIZE, progress=progress, unit="pair",
    )
    return [parse_pharaoh(line) for line in outputs]


def align_corpus(
    source_tokens: Sequence[Sequence[str]],
    target_tokens: Sequence[Sequence[str]],
    aligner: Aligner | AlignerSpec,
    *,
    line_numbers: Sequence[int] | None = None,
    total_lines: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
) -> list[list[Link]]:
    """What the build calls: the links of its kept pairs, given as two parallel token lists.

    ``line_numbers``/``total_lines`` locate the pairs in the corpus files; only a Pharaoh file
    needs them (it has one line per corpus line, empty lines included).
    """
    if len(source_tokens) != len(target_tokens):
        raise ValueError(f"{len(source_tokens)} source but {len(target_tokens)} target token lists")
    if isinstance(aligner, AlignerSpec):
        aligner = aligner.create(line_numbers=line_numbers, total_lines=total_lines)
    return align_pairs(list(zip(source_tokens, target_tokens)), aligner=aligner, cache_dir=cache_dir,
                       progress=progress)


def write_pharaoh(path: str | os.PathLike[str], alignments: Sequence[Sequence[Link]]) -> None:
    """One Pharaoh line per pair (an empty line for none), written atomically."""
    path = Path(path)
    if path.parent != Path(""):
        path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, "".join(format_pharaoh(links) + "\n" for links in alignments))


# -- command-line options, shared by `acs align` and `acs build` -----------------------------------


def add_aligner_arguments(parser: argparse.ArgumentParser, *, standalone: bool = False) -> None:
    """Add the aligner options to ``parser``.

    ``standalone=False`` (for ``acs build``): ``--aligner`` (simalign, eflomal, pharaoh or none),
    ``--alignment FILE`` and the model options prefixed ``--align-`` where a bare name would be
    ambiguous in a build (``--align-model``, ``--align-batch-size``, ``--align-device``).
    ``standalone=True`` (for ``acs align``): ``--model``, ``--batch-size``, ``--device``, no Pharaoh.
    Read them back with :func:`aligner_spec_from_args`.
    """
    group = parser.add_argument_group("alignment")
    names = [name for name in available_aligners() if not (standalone and name == "pharaoh")]
    if standalone:
        group.add_argument("--aligner", choices=names, default=DEFAULT_ALIGNER,
                           help="simalign: contextual embeddings (best with a GPU); eflomal: a fast "
                           "statistical aligner for CPUs, learnt on the input itself (give it thousands of pairs)")
    else:
        group.add_argument("--aligner", choices=names + ["none"], default=None,
                           help="how to word-align source and target for the reorder configs: simalign "
                           "(contextual embeddings, best with a GPU), eflomal (statistical, CPU), pharaoh "
                           "(read --alignment FILE), none (no reorder configs). Default: pharaoh when "
                           f"--alignment is given, else {DEFAULT_ALIGNER}")
        group.add_argument("--alignment", type=Path, metavar="FILE",
                           help="precomputed Pharaoh alignment (0-based i-j, one line per corpus line) from "
                           "the parse's words to the white-space tokens of the target (fast_align, "
                           "awesome-align, `acs align` ...)")
    prefix = "" if standalone else "align-"
    group.add_argument(f"--{prefix}model", dest="align_model", metavar="NAME_OR_PATH",
                       help="simalign: a Hugging Face model name or a local folder (save_pretrained) "
                       "(default: bert-base-multilingual-cased)")
    group.add_argument("--layer", type=int, metavar="N",
                       help="simalign: hidden layer to embed with, 0 = embeddings (default: 8)")
    group.add_argument("--method", choices=["argmax", "itermax", "match"],
                       help="simalign: argmax (intersection of both argmax directions; precise), itermax "
                       "(more links), match (max-weight matching; slow on long sentences) (default: argmax)")
    group.add_argument("--token-type", choices=["bpe", "word"],
                       help="simalign: align subwords and map to words (bpe), or average subwords into "
                       "words first (word) (default: bpe)")
    group.add_argument(f"--{prefix}batch-size", dest="align_batch_size", type=int, metavar="N",
                       help="simalign: sentences per forward pass (default: 64)")
    group.add_argument(f"--{prefix}device", dest="align_device", metavar="DEVICE",
                       help="simalign: cpu, cuda, cuda:1 ... (default: cpu)")
    group.add_argument("--seed", type=int, metavar="N",
                       help="eflomal: random seed; the same seed gives the same links (default: 1)")
    group.add_argument("--symmetrization", choices=["grow-diag-final-and", "grow-diag-final", "grow-diag",
                                                    "intersection", "union"],
                       help="eflomal: how to combine its two directions (default: grow-diag-final-and)")


_SIMALIGN_OPTIONS = {"align_model": "model", "layer": "layer", "method": "method", "token_type": "token_type",
                     "align_batch_size": "batch_size", "align_device": "device"}
_EFLOMAL_OPTIONS = {"seed": "seed", "symmetrization": "symmetrization"}


def aligner_spec_from_args(args: argparse.Namespace, *, default_device: str | None = None) -> AlignerSpec | None:
    """The aligner the options ask for; ``None`` for ``--aligner none`` (no reorder configs).

    Options of another backend than the chosen one are an error rather than silently ignored.
    ``default_device``: simalign's device when ``--align-device`` is not given (a build can pass
    its parser's ``--device``, so one flag puts both models on the GPU).
    """
    name = args.aligner
    alignment = getattr(args, "alignment", None)
    if name is None:
        name = "pharaoh" if alignment is not None else DEFAULT_ALIGNER
    if name == "none":
        return None
    from auto_challenge_sets.builder.aligners import AlignerError

    if alignment is not None and name != "pharaoh":
        raise AlignerError(f"--alignment FILE is read by --aligner pharaoh, not --aligner {name}")
    own = {"simalign": _SIMALIGN_OPTIONS, "eflomal": _EFLOMAL_OPTIONS}.get(name, {})
    for backend, table in (("simalign", _SIMALIGN_OPTIONS), ("eflomal", _EFLOMAL_OPTIONS)):
        for attribute, key in table.items():
            if attribute not in own and getattr(args, attribute, None) is not None:
                raise AlignerError(f"the {backend} option {key.replace('_', ' ')} "
                                   f"({getattr(args, attribute)}) does not apply to --aligner {name}")
    options = {key: getattr(args, attribute) for attribute, key in own.items()
               if getattr(args, attribute, None) is not None}
    if name == "simalign" and default_device is not None:
        options.setdefault("device", default_device)
    if name == "pharaoh":
        if alignment is None:
            raise AlignerError("--aligner pharaoh needs --alignment FILE")
        options["path"] = alignment
    return AlignerSpec(name, options)
