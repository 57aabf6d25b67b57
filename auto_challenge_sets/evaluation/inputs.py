"""What an evaluation reads: a dataset folder's full corpus (the pool) and chosen configs as row
positions in it, and each system's output: one line per line of the corpus the split was built
from (as the build recorded its count: pairs with an empty side are no rows but keep their line),
matched to rows by their ``line`` column.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.configs import BASELINE, KIND_LEXICAL, config_sort_key, parse_config_name
from auto_challenge_sets.dataset.integrity import check_folder
from auto_challenge_sets.dataset.layout import README, DatasetFolder
from auto_challenge_sets.dataset.record import BUILD_RECORD, build_entry, corpus_lines
from auto_challenge_sets.errors import CorpusError, InputError
from auto_challenge_sets.evaluation.memory import check_sample_size
from auto_challenge_sets.evaluation.output_alignment import read_pool
from auto_challenge_sets.evaluation.request import ALL, EvaluationRequest
from auto_challenge_sets.evaluation.results import (
    AlignerProvenance,
    FileDigest,
    ParserProvenance,
    Provenance,
)
from auto_challenge_sets.formats.corpus import STDIN, ReadReport, read_lines, read_stream_lines
from auto_challenge_sets.formats.line_limit import line_excess
from auto_challenge_sets.formats.target_languages import language_of
from auto_challenge_sets.formats.text import TO_A_FILE, require_regular_file
from auto_challenge_sets.pipeline.build_provenance import summary_line, weak_alignment

ROW_COLUMNS = ["id", "line", "reference", "length", "distance"]


def _closest(name: str, names: list[str]) -> str:
    """`` (did you mean X?)`` naming the nearest configs, else the first few: a large folder's whole
    list would bury the one name a user mistyped."""
    import difflib

    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if near:
        return f" (did you mean {' or '.join(near)}?)"
    shown = ", ".join(names[:8])
    more = f", … {len(names) - 8} more: `acs stats` lists them" if len(names) > 8 else ""
    return f" (configs: {shown}{more})"


def _one_pair(names: list[str], where: Path) -> str:
    pairs = sorted({parse_config_name(n).pair for n in names})
    if len(pairs) > 1:
        raise InputError(f"configs of several language pairs ({', '.join(pairs)}) cannot share one system "
                         "output; choose one pair", where)
    return pairs[0]


def choose_configs(folder: DatasetFolder, config: str, pair: str | None = None) -> list[str]:
    """The configs to score: named ones, or with ``all`` every non-baseline config of the pair, each
    once (``de-en.particle`` is an alias of ``de-en.particle.d1``), in numeric order of D."""
    readme = folder.root / README
    names = sorted(folder.files)
    if config == ALL:
        chosen = []
        for name in names:
            try:
                parsed = parse_config_name(name)
            except ValueError:
                continue
            if str(parsed) != name and str(parsed) in folder.files:
                continue  # an alias: score it once
            if not parsed.is_baseline and (pair is None or parsed.pair == pair):
                chosen.append(name)
        if not chosen:
            raise InputError("has no challenge configs" + (f" for {pair}" if pair else ""), readme)
        _one_pair(chosen, readme)
        return sorted(chosen, key=config_sort_key)
    chosen = list(dict.fromkeys(c.strip() for c in config.split(",") if c.strip()))  # one at least: the request's check
    for name in chosen:
        if name not in folder.files:
            raise InputError(f"has no config {name!r}{_closest(name, names)}", readme)
        try:
            parsed = parse_config_name(name)
        except ValueError as error:
            raise InputError(str(error), readme) from None
        if pair is not None and parsed.pair != pair:
            raise InputError(f"config {name!r} is not of the pair {pair}", readme)
    _one_pair(chosen, readme)
    return chosen


@dataclass
class ConfigRows:
    """A config's rows as positions in the pool, with what the statistics need."""

    name: str
    positions: np.ndarray
    lengths: np.ndarray
    small: bool = False
    same_rows_as: str | None = None
    instances: list[list[dict[str, int]]] | None = None  # lexical configs, with targeted accuracy


@dataclass
class Corpus:
    """The pool (the full corpus) and every chosen config of one split, read once."""

    folder: DatasetFolder
    pair: str
    split: str
    base_name: str
    base: dict[str, list[Any]]
    total_lines: int  # the corpus's line count as the build recorded it (empty lines included)
    configs: list[ConfigRows]
    notes: list[str] = field(default_factory=list)
    provenance: Provenance | None = None  # how the split's sets were made (the build record)

    @property
    def pool_lengths(self) -> np.ndarray:
        return np.asarray(self.base["length"], dtype=np.int64)


def _resolve_split(folder: DatasetFolder, base_name: str, split: str | None) -> str:
    readme = folder.root / README
    if base_name not in folder.files:
        raise InputError(f"has no config {base_name!r}, the full corpus the random baseline draws from", readme)
    splits = folder.splits(base_name)
    if split is None:
        if len(splits) != 1:
            raise InputError(f"config {base_name!r} has splits {', '.join(splits)}; choose one: split", readme,
                             field="split")
        return splits[0]
    return split  # one it does not have: the read names its splits


def _check_lines(lines: list[Any], ids: list[Any], total: int, where: Path) -> None:
    """Every row's line is a corpus line: 1..total (line 0 would read the last line of a file)."""
    for row_id, line in zip(ids, lines):
        if isinstance(line, bool) or not isinstance(line, int) or not 1 <= line <= total:
            raise InputError(f"row {row_id!r} has line {line!r}, outside the corpus's lines 1..{total}", where)


def read_corpus(request: EvaluationRequest) -> Corpus:
    """The pool and the chosen configs (one error naming the file for each bad input)."""
    folder = DatasetFolder(request.dataset)
    # sizes and footers only (no sha256): a widened data_files glob or a lost file would score
    # duplicated or missing rows
    check_folder(folder.root, verify=request.verify, folder=folder)
    names = choose_configs(folder, request.config, request.pair)
    pair = parse_config_name(names[0]).pair
    base_name = request.ref_config or f"{pair}.{BASELINE}"
    split = _resolve_split(folder, base_name, request.split)
    base = read_pool(folder, base_name, split, ROW_COLUMNS, request.targeted is not None)
    base_where = folder.where(base_name, split)
    if not base["line"]:
        raise InputError("has no rows: the full corpus is empty", base_where)
    total = corpus_lines(folder.root, pair, split) or len(base["line"])
    _check_lines(base["line"], base["id"], total, base_where)
    position = {line: k for k, line in enumerate(base["line"])}
    configs, seen, absent = [], {}, []
    for name in names:
        if split not in folder.splits(name) and request.config == ALL:
            absent.append(name)  # an empty challenge set is not exported (a named config's read says so)
            continue
        where = folder.where(name, split)
        lexical = request.targeted is not None and parse_config_name(name).kind == KIND_LEXICAL
        rows = folder.read(name, split, ROW_COLUMNS + (["instances"] if lexical else []))
        _check_lines(rows["line"], rows["id"], total, where)
        missing = [line for line in rows["line"] if line not in position]
        if missing:
            raise InputError(f"row of line {missing[0]} is not in {base_name}, the full corpus", where)
        try:
            check_sample_size(request.n_samples, len(rows["line"]), False)
        except ValueError as error:
            raise InputError(str(error), where) from None
        positions = np.asarray([position[line] for line in rows["line"]], dtype=np.int64)
        key = tuple(sorted(rows["line"]))
        configs.append(ConfigRows(name, positions, np.asarray(rows["length"], dtype=np.int64),
                                  small=len(positions) < request.min_rows, same_rows_as=seen.get(key),
                                  instances=rows["instances"] if lexical else None))
        seen.setdefault(key, name)
    if not configs:
        raise InputError(f"none of the chosen configs has rows in split {split!r}", folder.root / README)
    notes = [f"no rows in split {split} (not exported): {', '.join(absent)}"] if absent else []
    return Corpus(folder, pair, split, base_name, base, total, configs, notes,
                  read_provenance(build_entry(folder.root, pair, split), pair, split, folder.root / BUILD_RECORD))


def read_provenance(build: Mapping[str, Any] | None, pair: str, split: str, where: Path | None = None) -> Provenance:
    """The typed provenance of one build's record entry (None: no build of ``pair``/``split``); an
    entry without provenance gives ``recorded=False`` and its labels; one that is not what a build
    writes is an InputError naming the record (``where``)."""
    if build is None:
        return Provenance(False, f"provenance not recorded (the folder's acs_build.json has no build of {pair}, "
                                 f"split {split})")
    labels = {"parser_label": build.get("parser"), "aligner_label": build.get("aligner")}
    recorded = build.get("provenance")
    if recorded is None:
        return Provenance(False, summary_line(None, labels["parser_label"], labels["aligner_label"]), **labels)
    _check_provenance(recorded, f"{pair}/{split}", where)
    summary = summary_line(recorded)
    aligner = recorded.get("aligner")
    return Provenance(
        True, summary, **labels, parser=ParserProvenance(**_known(ParserProvenance, recorded["parser"])),
        aligner=None if aligner is None else AlignerProvenance(**{
            **_known(AlignerProvenance, aligner),
            "priors": None if aligner.get("priors") is None else FileDigest(**_known(FileDigest, aligner["priors"]))}),
        tokenization=recorded.get("tokenization"), packages=recorded.get("packages"), warning=weak_alignment(aligner))


def _check_provenance(recorded: Any, build: str, where: Path | None) -> None:
    """The shape the reports rely on: a parser and an aligner (or null) naming their backend, and
    priors (or null) naming their file."""
    def names_backend(entry: Any) -> bool:
        return isinstance(entry, Mapping) and isinstance(entry.get("backend"), str)

    aligner = recorded.get("aligner") if isinstance(recorded, Mapping) else None
    priors = aligner.get("priors") if isinstance(aligner, Mapping) else None
    if not (isinstance(recorded, Mapping) and names_backend(recorded.get("parser"))
            and (aligner is None or names_backend(aligner))
            and (priors is None or (isinstance(priors, Mapping) and isinstance(priors.get("file"), str)))):
        raise InputError(f"the provenance of build {build} is not what acs build records (a parser and an aligner "
                         "or null, each naming its backend): build again to record it", where)


def _known(cls: type, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``cls`` that ``entry`` has, the others None: a record of a later version may
    add keys, and an older one may lack some."""
    known = {f.name: entry.get(f.name) for f in dataclasses.fields(cls)}
    if "options" in known:
        known["options"] = dict(known["options"] or {})
    return known


@dataclass
class SystemOutput:
    """A system's output and references for the pool's rows (pool order): the metrics' (the dataset's,
    then ``--ref``'s), and the targeted judge's (the dataset's, then ``--judge-ref``'s translations)."""

    name: str
    predictions: list[str]
    references: list[tuple[str, ...]]
    judge_references: list[tuple[str, ...]] = field(default_factory=list)


def _read_text(path: str | os.PathLike[str], report: ReadReport) -> list[str]:
    if str(path) == "-":
        return read_stream_lines(sys.stdin.buffer, report)
    require_regular_file(path, CorpusError, hint=f"{TO_A_FILE} or give it on standard input as -")
    return read_lines(path, report)


def _check_line_lengths(lines: list[str], path: str | os.PathLike[str], tokenize: Callable[[str], str],
                        numbers: list[int] | None = None, what: str = "") -> None:
    """The first line too long to score (:mod:`auto_challenge_sets.formats.line_limit`) is an
    InputError naming the file and the line (``numbers[k]``: the line of ``lines[k]``)."""
    for k, line in enumerate(lines):
        why = line_excess(line, tokenize)
        if why is not None:
            raise InputError(f"{what}{why}", STDIN if str(path) == "-" else path, k + 1 if numbers is None else numbers[k])


def read_systems(request: EvaluationRequest, corpus: Corpus, report: ReadReport) -> list[SystemOutput]:
    """Every system's pool predictions and references, checked against the corpus's line count and
    the longest line the metric scores."""
    expected = corpus.total_lines
    tokenize = request.line_tokenizer(language_of(corpus.pair))
    _check_line_lengths(corpus.base["reference"], corpus.folder.where(corpus.base_name, corpus.split), tokenize,
                        corpus.base["line"], "the reference of this corpus line ")

    def checked(path: str | os.PathLike[str], label: str, lines: list[str]) -> list[str]:
        if len(lines) != expected:
            raise InputError(f"{label}has {len(lines)} lines but the corpus of {corpus.base_name}, split "
                             f"{corpus.split}, has {expected}: one line per corpus line",
                             STDIN if str(path) == "-" else path)
        _check_line_lengths(lines, path, tokenize)
        return lines

    def with_dataset_reference(files: Iterable[str | os.PathLike[str]]) -> list[tuple[str, ...]]:
        extra = [checked(path, "", read_lines(path, report)) for path in files]
        return [(reference, *(e[line - 1] for e in extra))
                for line, reference in zip(corpus.base["line"], corpus.base["reference"])]

    references = with_dataset_reference(request.references)
    judged = with_dataset_reference(request.targeted.references if request.targeted else ())
    outputs = []
    for name, path in request.hypotheses.items():
        lines = checked(path, f"({name}) ", _read_text(path, report))
        outputs.append(SystemOutput(name, [lines[line - 1] for line in corpus.base["line"]], references, judged))
    return outputs
