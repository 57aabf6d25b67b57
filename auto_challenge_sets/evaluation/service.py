"""The evaluation service: one system's output scored on the challenge sets of a dataset folder.

The folder is what ``acs build`` exports (:mod:`auto_challenge_sets.dataset.layout`). The
hypothesis file has one line per line of the split's corpus (the system's translation of the
whole test set); rows are matched to it by their ``line`` column, and its length must be the
corpus's line count as the build recorded it (pairs with an empty side are not rows, but their
lines are still in the file). The ``{pair}.baseline`` config (the full corpus) is the pool of the
length-matched random baseline and gives the full-corpus scores; its statistics are computed once
and shared by every config scored.

Used by ``acs evaluate`` and by the examples; the command line only turns flags into an
:class:`EvaluationRequest` and prints the :class:`Evaluation`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.configs import BASELINE, KIND_LEXICAL, ConfigName, config_sort_key, parse_config_name
from auto_challenge_sets.corpus import ReadReport, read_lines
from auto_challenge_sets.dataset.layout import README, DatasetFolder
from auto_challenge_sets.dataset.record import corpus_lines
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.report import ConfigResult, breakdown_summary
from auto_challenge_sets.evaluation.targeted import (
    TargetedAlignments,
    TargetedRequest,
    align_outputs,
    read_pool,
)
from auto_challenge_sets.scoring.challenge import compute, corpus_scores

ALL = "all"
ROW_COLUMNS = ["id", "line", "reference", "length", "distance"]


@dataclass
class EvaluationRequest:
    """What to score: a dataset folder, a system's output, which configs, and how."""

    dataset: str | os.PathLike[str]
    hypothesis: str | os.PathLike[str]
    config: str = ALL  # a config name, several separated by commas, or "all"
    split: str | None = None  # default: the baseline config's only split
    pair: str | None = None  # with "all": the language pair, when the folder holds several
    references: list[str | os.PathLike[str]] = field(default_factory=list)  # extra reference files
    ref_config: str | None = None  # the full corpus (default: {pair}.baseline)
    n_samples: int = 100
    length_tolerance: int = 1
    seed: int | None = 1
    tokenize: str = "13a"
    lowercase_ribes: bool = True
    targeted: TargetedRequest | None = None  # also score the targeted accuracy of lexical configs

    def check(self) -> None:
        if self.targeted is not None:
            self.targeted.check()
        if self.n_samples < 1:
            raise InputError(f"--n-samples must be at least 1, got {self.n_samples}")
        if self.length_tolerance < 0:
            raise InputError(f"--length-tolerance must be >= 0, got {self.length_tolerance}")


@dataclass
class Evaluation:
    """The scores of one system: the full corpus, every config, and the trend with D."""

    request: EvaluationRequest
    split: str
    base_name: str
    full: dict[str, Any]
    results: list[ConfigResult]
    breakdowns: dict[str, list[dict[str, Any]]] | None = None
    notes: list[str] = field(default_factory=list)  # what reading the system's output changed
    targeted_aligner: str | None = None  # how the targeted accuracy's alignments were made

    @property
    def summary(self) -> dict[str, dict[str, Any]]:
        return breakdown_summary(self.results, self.breakdowns)

    @property
    def meta(self) -> dict[str, str]:
        return {"dataset": str(self.request.dataset), "split": self.split,
                "hypothesis": str(self.request.hypothesis), "full corpus": self.base_name,
                "samples": str(self.request.n_samples), "seed": str(self.request.seed)}

    def payload(self) -> dict[str, Any]:
        """Everything, as JSON-ready data (``results.json``): numbers as numbers, one key per thing."""
        request = self.request
        return {"dataset": str(request.dataset), "split": self.split, "hypothesis": str(request.hypothesis),
                "full_corpus_config": self.base_name, "n_samples": request.n_samples, "seed": request.seed,
                "full_corpus": self.full, "configs": {r.config: r.result for r in self.results},
                "by_phenomenon": self.summary,
                **({"targeted_aligner": self.targeted_aligner} if self.targeted_aligner else {})}


def _one_pair(names: list[str], where: Path | None) -> str:
    pairs = sorted({parse_config_name(n).pair for n in names})
    if len(pairs) > 1:
        if where is None:
            raise InputError(f"configs of several language pairs ({', '.join(pairs)}) cannot share one --hyp file")
        raise InputError(f"holds several language pairs ({', '.join(pairs)}); choose one with --pair", where)
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
    chosen = [c.strip() for c in config.split(",") if c.strip()]
    for name in chosen:
        if name not in folder.files:
            raise InputError(f"has no config {name!r} (configs: {', '.join(names)})", readme)
        try:
            parse_config_name(name)
        except ValueError as error:
            raise InputError(str(error), readme) from None
    _one_pair(chosen, None)
    return chosen


def _resolve_split(folder: DatasetFolder, base_name: str, split: str | None) -> str:
    if base_name not in folder.files:
        raise InputError(f"has no config {base_name!r}, the full corpus the random baseline draws from",
                         folder.root / README)
    if split is not None:
        return split
    splits = folder.splits(base_name)
    if len(splits) != 1:
        raise InputError(f"config {base_name!r} has splits {', '.join(splits)}; choose one with --split",
                         folder.root / README)
    return splits[0]


class _Hypotheses:
    """The system's output and any extra references, one line per corpus line, matched to rows."""

    def __init__(self, request: EvaluationRequest, folder: DatasetFolder, pair: str, split: str,
                 base_name: str, base_rows: int):
        self.path = request.hypothesis
        self.report = ReadReport()  # what the reading policy did (control characters read as spaces ...)
        self.lines = read_lines(request.hypothesis, self.report)
        expected = corpus_lines(folder.root, pair, split)
        expected = base_rows if expected is None else expected
        if len(self.lines) != expected:
            raise InputError(f"has {len(self.lines)} lines but the corpus of {base_name}, split {split}, has "
                             f"{expected}; the hypothesis file needs one line per corpus line", request.hypothesis)
        self.extra = []
        for ref_file in request.references:
            lines = read_lines(ref_file, self.report)
            if len(lines) != len(self.lines):
                raise InputError(f"has {len(lines)} lines but {request.hypothesis} has {len(self.lines)}", ref_file)
            self.extra.append(lines)

    def gather(self, rows: dict[str, list[Any]], where: Path) -> tuple[list[str], list[tuple[str, ...]]]:
        preds, refs = [], []
        for row_id, line, reference in zip(rows["id"], rows["line"], rows["reference"]):
            if not isinstance(line, int) or not 1 <= line <= len(self.lines):
                raise InputError(f"row {row_id!r} has line {line!r}, outside the hypothesis file's "
                                 f"1..{len(self.lines)}", where)
            preds.append(self.lines[line - 1])
            refs.append((reference, *(lines[line - 1] for lines in self.extra)))
        return preds, refs


def _own_breakdown(parsed: ConfigName, rows: dict[str, list[Any]]) -> dict[str, Any]:
    """One config scored alone: its own breakdown by D (rows with distance >= D' are config d{D'})."""
    ds = sorted({parsed.min_distance, *(d for d in parsed.distances if d >= parsed.min_distance)})
    return {"distances": rows["distance"], "min_distances": ds}


def _targeted_inputs(alignments: TargetedAlignments, targeted: TargetedRequest, rows: dict[str, list[Any]],
                     position: dict[int, int]) -> dict[str, Any]:
    """``compute``'s targeted-accuracy arguments for a lexical config's rows."""
    positions = [position[line] for line in rows["line"]]
    return {"instances": rows["instances"], "targeted_chrf": targeted.chrf_threshold,
            **alignments.inputs("system", positions)}


def evaluate_system(request: EvaluationRequest) -> Evaluation:
    """Score one system's output on the requested configs of a dataset folder."""
    request.check()
    folder = DatasetFolder(request.dataset)
    configs = choose_configs(folder, request.config, request.pair)
    pair = parse_config_name(configs[0]).pair
    base_name = request.ref_config or f"{pair}.{BASELINE}"
    split = _resolve_split(folder, base_name, request.split)
    base = read_pool(folder, base_name, split, ROW_COLUMNS, targeted=request.targeted is not None)
    hyps = _Hypotheses(request, folder, pair, split, base_name, len(base["line"]))
    pool_preds, pool_refs = hyps.gather(base, folder.where(base_name, split))
    alignments = None
    if request.targeted is not None:
        alignments = align_outputs(request.targeted, base, {"system": pool_preds}, len(hyps.lines),
                                   folder.where(base_name, split))
    options = {"tokenize": request.tokenize, "lowercase_ribes": request.lowercase_ribes}
    try:
        full = corpus_scores(pool_preds, pool_refs, **options)
    except ValueError as error:
        raise InputError(str(error), request.hypothesis) from None
    pool = {"pool_predictions": pool_preds, "pool_references": pool_refs, "pool_lengths": base["length"],
            "pool_ids": base["id"], "n_samples": request.n_samples, "length_tolerance": request.length_tolerance,
            "seed": request.seed, **options}
    evaluation = Evaluation(request, split, base_name, full, [], notes=hyps.report.messages(),
                            targeted_aligner=None if alignments is None else alignments.aligner)
    position = {line: k for k, line in enumerate(base["line"])}
    for name in configs:
        if split not in folder.splits(name):
            if request.config == ALL:
                continue  # an empty challenge set is not exported
            raise InputError(f"config {name!r} has no split {split!r}", folder.root / README)
        parsed = parse_config_name(name)
        targeted = alignments is not None and parsed.kind == KIND_LEXICAL
        rows = folder.read(name, split, ROW_COLUMNS + (["instances"] if targeted else []))
        preds, refs = hyps.gather(rows, folder.where(name, split))
        single = len(configs) == 1 and parsed.min_distance is not None
        extra = _targeted_inputs(alignments, request.targeted, rows, position) if targeted else {}
        try:
            result = compute(preds, refs, lengths=rows["length"], ids=rows["id"], **pool, **extra,
                             **(_own_breakdown(parsed, rows) if single else {}))
        except ValueError as error:
            raise InputError(str(error), folder.where(name, split)) from None
        evaluation.results.append(ConfigResult(name, parsed.pair, parsed.phenomenon, parsed.min_distance, result))
        if single:
            evaluation.breakdowns = {f"{parsed.pair}.{parsed.phenomenon}":
                                     [r for r in result["distance_breakdown"] if r["n"]]}
    return evaluation
