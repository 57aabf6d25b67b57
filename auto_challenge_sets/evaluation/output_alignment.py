"""The alignments that targeted accuracy (:mod:`auto_challenge_sets.scoring.targeted`) needs to
judge every lexical instance, by ``--targeted-aligner`` (``auto``: ``stored`` with
``--hyp-alignment`` files, else ``present``):

- ``eflomal``: the source-reference and source-output pairs of every system, each distinct pair
  once, aligned in one run (one model for all of them);
- ``simalign``: each pair directly, the reference side too;
- ``stored``: the reference side is the dataset's ``alignment`` column, each system's a Pharaoh
  file (``--hyp-alignment NAME=FILE``, one line per corpus line, e.g. from ``acs align``);
- ``present``: the ``alignment`` column, and a part is translated when the output has every
  expected word: no output-side alignment noise.

eflomal and simalign re-align the reference side too: links of two aligners, or of two eflomal
runs, are not comparable. The judge's second translations (``--judge-ref``) have no stored links: with
``stored`` and ``present`` they are aligned with eflomal, in one corpus with the dataset's reference pairs.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.errors import AlignmentError, InputError, RequestError
from auto_challenge_sets.formats import target_languages
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.pipeline.specs import AlignerSpec
from auto_challenge_sets.scoring.targeted import CHRF_THRESHOLD

AUTO, STORED, PRESENT = "auto", "stored", "present"
RANDOM_PAIRS = 100  # draws of the random-pair control per config
ALIGNERS = (AUTO, "eflomal", "simalign", STORED, PRESENT)
COLUMNS = ["source_tokens", "alignment"]
UPOS = "source_upos"


@dataclass(frozen=True)
class TargetedRequest:
    """How to align the outputs for the targeted accuracy, and how to judge a match."""

    aligner: str = AUTO
    options: dict[str, Any] = field(default_factory=dict)  # the aligner's backend options (seed, priors, ...)
    hyp_alignments: dict[str, str | os.PathLike[str]] = field(default_factory=dict)  # system -> Pharaoh file
    chrf_threshold: float = CHRF_THRESHOLD
    lemma: bool = True  # the lemma step of the match (simplemma, the pair's target language)
    random_pairs: int = RANDOM_PAIRS  # draws of the random-pair control (0: none)
    # second human translations, one line per corpus line: the judge is checked on each as on a
    # system's output; the metrics never see them (their extra references are EvaluationRequest's)
    references: tuple[str | os.PathLike[str], ...] = ()
    # judge against those translations too; off by default: on WMT21 de-en their eflomal
    # links let 8-23% of reference A with the instances' words deleted pass (docs/method.md)
    all_references: bool = False

    def check(self) -> None:
        if self.aligner not in ALIGNERS:
            raise RequestError("targeted.aligner", f"must be one of {', '.join(ALIGNERS)}, not {self.aligner!r}")
        if self.hyp_alignments and self.aligner not in (AUTO, STORED):
            raise RequestError("targeted.hyp_alignments", f"files are read with the aligner stored, not {self.aligner}")
        if isinstance(self.chrf_threshold, bool) or not isinstance(self.chrf_threshold, int | float) \
                or not 0 <= self.chrf_threshold <= 100:
            raise RequestError("targeted.chrf_threshold", f"must be from 0 to 100, got {self.chrf_threshold}")
        if isinstance(self.random_pairs, bool) or not isinstance(self.random_pairs, int) \
                or not 0 <= self.random_pairs <= 100_000:
            raise RequestError("targeted.random_pairs", f"must be an integer from 0 to 100,000, got {self.random_pairs!r}")
        priors = self.options.get("priors") if self.aligner == "eflomal" else None
        if priors is not None and Path(priors).is_file():  # before any work, not once the outputs are read
            from auto_challenge_sets.backends.aligners.eflomal_priors import check_priors

            check_priors(priors)


@dataclass
class TargetedAlignments:
    """The links of every pool row: source-reference, and source-output per system."""

    aligner: str  # how they were made, for the report
    reference: list[list[Link]]
    systems: dict[str, list[list[Link]]] | None  # None: the ``present`` match
    extra: list[list[list[Link]]] = field(default_factory=list)  # per --judge-ref translation, per pool row
    # the aligner run here (eflomal, simalign) as the build record keeps one, with the pairs it
    # aligned; None: the reference side is the build's alignment column (stored, present)
    provenance: dict[str, Any] | None = None


def choose_aligner(request: TargetedRequest) -> str:
    """``auto``: ``stored`` with --hyp-alignment files, else ``present`` (eflomal's links are too
    noisy at test-set size: outputs without the expected words still pass, docs/method.md)."""
    if request.aligner != AUTO:
        return request.aligner
    return STORED if request.hyp_alignments else PRESENT


def _stored_reference(base: dict[str, list[Any]], where: Path) -> list[list[Link]]:
    links = []
    for row_id, text in zip(base["id"], base["alignment"]):
        if text is None:
            raise InputError(f"row {row_id!r} has no alignment: the dataset was built without an aligner, so "
                             "the aligner stored or present has no reference side (use eflomal or simalign)", where)
        links.append(parse_pharaoh(text))
    return links


def _read_hyp_alignment(path: str | os.PathLike[str], base: dict[str, list[Any]], outputs: list[str],
                        total_lines: int, target: str | None = None) -> list[list[Link]]:
    lines = read_lines(path)
    if len(lines) != total_lines:
        raise AlignmentError(f"has {len(lines)} lines but the corpus has {total_lines}: one Pharaoh line per "
                             "corpus line", path)
    return [parse_pharaoh(lines[line - 1], n_source=len(tokens), n_target=len(target_languages.target_tokens(output, target)),
                          path=str(path), line=line)
            for line, tokens, output in zip(base["line"], base["source_tokens"], outputs)]


def _align_jointly(aligner: AlignerSpec, base: dict[str, list[Any]], outputs: dict[str, list[str]],
                   extra: list[list[str]], target: str | None) -> tuple[list[list[Link]], dict[str, list[list[Link]]],
                                                                   list[list[list[Link]]], dict[str, Any]]:
    """Every (source, reference), (source, output) and (source, extra reference) pair, each distinct
    pair once, in one run, and the aligner's provenance with the pairs it aligned; targets cut into
    the ``target`` language's tokens."""
    from auto_challenge_sets.pipeline.align_stage import align_pairs

    unique: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}

    def slots(lines: list[str]) -> list[int]:
        return [unique.setdefault((tuple(tokens), tuple(target_languages.target_tokens(text, target))), len(unique))
                for tokens, text in zip(base["source_tokens"], lines)]

    reference = slots(base["reference"])
    systems = {name: slots(lines) for name, lines in outputs.items()}
    extras = [slots(lines) for lines in extra]
    print(f"targeted accuracy: aligning {len(unique):,} distinct sentence pairs with {aligner.name}",
          file=sys.stderr)
    made = aligner.create()
    links = align_pairs(list(unique), aligner=made, progress=True)
    return ([links[k] for k in reference], {name: [links[k] for k in row] for name, row in systems.items()},
            [[links[k] for k in row] for row in extras], {**made.provenance(), "pairs": len(unique)})


def align_outputs(request: TargetedRequest, base: dict[str, list[Any]], outputs: dict[str, list[str]],
                  total_lines: int, where: Path, extra: list[list[str]] | None = None,
                  target: str | None = None) -> TargetedAlignments:
    """Align every system's pool outputs (``outputs``: system -> one line per pool row) and the
    references, by the request's aligner. ``base`` holds the pool's rows with :data:`COLUMNS`;
    ``extra``: the extra references, each one line per pool row; ``target``: the target language
    (its tokens are what the links count); ``request`` as :meth:`TargetedRequest.check` passed it."""
    extra = extra or []
    name = choose_aligner(request)
    if name in (PRESENT, STORED):
        systems, label = None, "present (the dataset's alignment column; output words not aligned)"
        if name == STORED:
            missing = [system for system in outputs if system not in request.hyp_alignments]
            if missing:
                raise RequestError("targeted.hyp_alignments", f"the aligner stored needs an alignment file for "
                                   f"every system; none for {', '.join(missing)}")
            systems = {system: _read_hyp_alignment(request.hyp_alignments[system], base, lines, total_lines, target)
                       for system, lines in outputs.items()}
            label = "stored (the dataset's alignment column and --hyp-alignment files)"
        extra_links: list[list[list[Link]]] = []
        if extra:  # these aligners align no output: the extra references go through eflomal (see the module)
            aligner = AlignerSpec("eflomal", request.options)
            extra_links = _align_jointly(aligner, base, {}, extra, target)[2]
            label += f"; extra references: {aligner.describe()}"
        return TargetedAlignments(label, _stored_reference(base, where), systems, extra_links)
    aligner = AlignerSpec(name, request.options)
    reference, systems, extra_links, made = _align_jointly(aligner, base, outputs, extra, target)
    return TargetedAlignments(f"{aligner.describe()}: references and outputs aligned together", reference, systems,
                              extra_links, made)


def read_pool(folder: DatasetFolder, base_name: str, split: str, columns: list[str],
              targeted: bool) -> dict[str, list[Any]]:
    """The pool's rows: ``columns``, and with ``targeted`` :data:`COLUMNS` and :data:`UPOS`, which the
    judge and its control read. Every run checks the footers for those (the page's sentences read
    them too): a folder built by an older acs lacks some, and an error says so before any scoring."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    needed = [*columns, *COLUMNS, UPOS]
    try:  # from the footers, each read once
        schemas = [(path, set(pq.read_schema(path).names)) for path in folder.files[base_name].get(split, ())]
    except (pa.ArrowException, OSError):
        schemas = []  # unreadable: the read names the file
    missing = [(path, c) for path, names in schemas for c in needed if c not in names]
    if missing:
        raise InputError(f"has no {missing[0][1]} column (built by an older acs): rebuild the dataset", missing[0][0])
    return folder.read(base_name, split, needed if targeted else columns)  # list columns: the slow part
