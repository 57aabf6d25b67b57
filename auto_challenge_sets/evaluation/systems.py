"""Many systems on the challenge sets of a dataset folder, in one process, with honest statistics.

Every system's output on the full corpus (the pool) is turned into per-sentence statistics once
(BLEU and chrF sufficient statistics, RIBES sentence scores: :mod:`auto_challenge_sets.scoring`).
A config's rows are a subset of the pool's, so its scores are sums over rows, and its
length-matched random corpora are drawn **once per config** and scored for every system and
metric from the same rows: one random baseline per (system, config, metric), reused everywhere,
and the very baseline :func:`~auto_challenge_sets.scoring.challenge.compute` gives for one system
with the same seed.

Honest statistics: a config with fewer than ``min_rows`` rows is scored but flagged ``small`` and
left out of trends and summaries; a config holding the very rows of another (``en-de.particle.d3``
and ``.d4`` when no instance has d = 3) is flagged ``same_rows_as`` and counted once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.configs import BASELINE, KIND_LEXICAL, parse_config_name
from auto_challenge_sets.corpus import ReadReport, read_lines
from auto_challenge_sets.dataset.layout import README, DatasetFolder
from auto_challenge_sets.dataset.record import corpus_lines
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.service import ALL, choose_configs
from auto_challenge_sets.evaluation.targeted import TargetedRequest, read_pool
from auto_challenge_sets.scoring.length_baseline import sample_length_matched, summarize

METRICS = ("bleu", "chrf", "ribes")
ROW_COLUMNS = ["id", "line", "reference", "length", "distance"]


@dataclass
class SystemsRequest:
    """Several systems' outputs of one test corpus, scored on the configs of a dataset folder."""

    dataset: str | os.PathLike[str]
    hypotheses: dict[str, str | os.PathLike[str]]  # system name -> its output, one line per corpus line
    config: str = ALL
    split: str | None = None
    pair: str | None = None
    references: list[str | os.PathLike[str]] = field(default_factory=list)
    ref_config: str | None = None
    metrics: tuple[str, ...] = METRICS
    n_samples: int = 100
    length_tolerance: int = 1
    seed: int = 1
    tokenize: str = "13a"
    lowercase_ribes: bool = True
    min_rows: int = 20
    baseline: str | None = None  # the system the others are tested against (default: best full BLEU)
    paired_test: str = "ar"  # sacrebleu's approximate randomization, or "bs" (paired bootstrap)
    paired_samples: int = 1000
    targeted: TargetedRequest | None = None  # also score the targeted accuracy of lexical configs

    def check(self) -> None:
        if self.targeted is not None:
            self.targeted.check()
        if len(self.hypotheses) < 1:
            raise InputError("no system output given (--hyp FILE ...)")
        unknown = [m for m in self.metrics if m not in METRICS]
        if unknown or not self.metrics:
            raise InputError(f"--metrics: unknown {', '.join(unknown) or 'empty list'} (choose from {', '.join(METRICS)})")
        if self.baseline is not None and self.baseline not in self.hypotheses:
            raise InputError(f"--baseline {self.baseline!r} is none of the systems ({', '.join(self.hypotheses)})")
        if self.paired_test not in ("ar", "bs"):
            raise InputError(f"--paired-test must be ar or bs, not {self.paired_test!r}")
        for name, value, low in (("--n-samples", self.n_samples, 1), ("--min-rows", self.min_rows, 0),
                                 ("--paired-samples", self.paired_samples, 1),
                                 ("--length-tolerance", self.length_tolerance, 0)):
            if value < low:
                raise InputError(f"{name} must be >= {low}, got {value}")


def name_systems(items: list[str]) -> dict[str, str]:
    """System names for ``--hyp`` items: ``NAME=FILE`` as given, otherwise the part of the file
    names that differs between the files (``newstest2021.de-en.hyp.Facebook-AI.en`` →
    ``Facebook-AI``); one file alone is named by its stem."""
    named: dict[str, str] = {}
    plain = [item for item in items if "=" not in item or Path(item).exists()]
    for item in items:
        if item not in plain:
            name, _, path = item.partition("=")
            named[name] = path
    if plain:
        parts = [Path(p).name.split(".") for p in plain]
        if len(plain) == 1:
            names = [Path(plain[0]).stem if plain[0] != "-" else "stdin"]
        else:
            same = min(len(p) for p in parts)
            keep = [i for i in range(same) if len({p[i] for p in parts}) > 1] if len(set(map(len, parts))) == 1 else []
            names = [".".join(p[i] for i in keep) if keep else Path(plain[k]).name for k, p in enumerate(parts)]
        for name, path in zip(names, plain):
            named[name] = path
    if len(named) != len(items):
        raise InputError("two --hyp files get the same system name; name them with NAME=FILE")
    return named


@dataclass
class ConfigRows:
    """A config's rows as positions in the pool, with what the statistics need."""

    name: str
    positions: np.ndarray
    lengths: np.ndarray
    lines: list[int]
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
    configs: list[ConfigRows]

    @property
    def pool_lengths(self) -> np.ndarray:
        return np.asarray(self.base["length"], dtype=np.int64)

    @property
    def total_lines(self) -> int:
        """The corpus's line count as the build recorded it (empty lines included), else the pool's rows."""
        return corpus_lines(self.folder.root, self.pair, self.split) or len(self.base["line"])


def read_corpus(request: SystemsRequest) -> Corpus:
    folder = DatasetFolder(request.dataset)
    names = choose_configs(folder, request.config, request.pair)
    pair = parse_config_name(names[0]).pair
    base_name = request.ref_config or f"{pair}.{BASELINE}"
    if base_name not in folder.files:
        raise InputError(f"has no config {base_name!r}, the full corpus", folder.root / README)
    split = request.split
    if split is None:
        splits = folder.splits(base_name)
        if len(splits) != 1:
            raise InputError(f"config {base_name!r} has splits {', '.join(splits)}; choose one with --split",
                             folder.root / README)
        split = splits[0]
    targeted = request.targeted is not None
    base = read_pool(folder, base_name, split, ROW_COLUMNS, targeted)
    position = {line: k for k, line in enumerate(base["line"])}
    configs, seen = [], {}
    for name in names:
        if split not in folder.splits(name):
            continue  # an empty challenge set is not exported
        lexical = targeted and parse_config_name(name).kind == KIND_LEXICAL
        rows = folder.read(name, split, ROW_COLUMNS + (["instances"] if lexical else []))
        missing = [line for line in rows["line"] if line not in position]
        if missing:
            raise InputError(f"row of line {missing[0]} is not in {base_name}", folder.where(name, split))
        positions = np.asarray([position[line] for line in rows["line"]], dtype=np.int64)
        key = tuple(sorted(rows["line"]))
        config = ConfigRows(name, positions, np.asarray(rows["length"], dtype=np.int64), list(rows["line"]),
                            small=len(positions) < request.min_rows, same_rows_as=seen.get(key),
                            instances=rows["instances"] if lexical else None)
        seen.setdefault(key, name)
        configs.append(config)
    return Corpus(folder, pair, split, base_name, base, configs)


def read_system(request: SystemsRequest, corpus: Corpus, name: str, path: str | os.PathLike[str],
                report: ReadReport) -> tuple[list[str], list[tuple[str, ...]]]:
    """A system's pool predictions and references, checked against the corpus's line count."""
    import sys

    lines = sys.stdin.read().split("\n")[:-1] if str(path) == "-" else read_lines(path, report)
    expected = corpus.total_lines
    if len(lines) != expected:
        raise InputError(f"({name}) has {len(lines)} lines but the corpus of {corpus.base_name}, split "
                         f"{corpus.split}, has {expected}: one line per corpus line", path)
    extra = []
    for ref_file in request.references:
        ref_lines = read_lines(ref_file, report)
        if len(ref_lines) != len(lines):
            raise InputError(f"has {len(ref_lines)} lines but the corpus has {len(lines)}", ref_file)
        extra.append(ref_lines)
    preds = [lines[line - 1] for line in corpus.base["line"]]
    refs = [(reference, *(e[line - 1] for e in extra)) for line, reference in
            zip(corpus.base["line"], corpus.base["reference"])]
    return preds, refs


def sample_index(corpus: Corpus, config: ConfigRows, request: SystemsRequest) -> np.ndarray:
    """The config's length-matched random corpora, once for all systems: the same draws as
    ``compute(..., seed=seed)`` makes for its main baseline (stream ``[seed, 0]``)."""
    exclude = np.zeros(len(corpus.base["line"]), dtype=bool)
    exclude[config.positions] = True
    samples = sample_length_matched(config.lengths, corpus.pool_lengths, request.n_samples,
                                    request.length_tolerance, exclude, np.random.default_rng([request.seed, 0]))
    return samples.index


def summarize_random(samples: np.ndarray, score: float) -> dict[str, float]:
    full = summarize(samples, score)
    return {key: full[key] for key in ("mean", "std", "p5", "p95", "percentile", "p_value")}
