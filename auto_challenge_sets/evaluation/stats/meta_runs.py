"""``acs meta-evaluate``'s work: read several runs' ``results.json`` (each with its own human
scores) and per measure pool their agreement with humans within run (:mod:`.meta_evaluation`),
with the difference to full-test BLEU.

A measure is a metric or targeted accuracy on a config, or a metric on the full test set (config
:data:`FULL`), matched across runs by config name; it is pooled when every run scores at least 3
of its human-scored systems on it, else listed as left out. Benjamini–Hochberg corrects each kind
of p per metric across the pooled configs, leaving out the full test set (one pre-specified test),
a config small in any run and one holding the rows of another config in every run.

What is pooled: the same run given twice (the same human scores and scores, whatever the file) is
refused; a non-finite score or human score is an error naming the file and system. Runs that
differ in their metrics, settings or provenance (how their sets were made) are pooled as given,
with a note naming each field that differs: a measure not every run scores is left out anyway,
and the rest is the user's choice, said aloud."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.results import DIAGNOSTIC
from auto_challenge_sets.evaluation.stats import SEED
from auto_challenge_sets.evaluation.stats.meta_evaluation import (
    Agreement,
    RunScores,
    agreement,
)
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA, benjamini_hochberg, verdict
from auto_challenge_sets.evaluation.stats.power import Power, power
from auto_challenge_sets.evaluation.stats.versus_full import REFERENCE, oriented
from auto_challenge_sets.formats.text import read_json

FULL = "(full test set)"
TARGETED = "targeted"


@dataclass(frozen=True)
class Run:
    """One results.json: its human scores and every measure's oriented score per system."""

    path: str
    pair: str
    split: str
    human: Mapping[str, float]
    measures: Mapping[tuple[str, str], Mapping[str, float]]  # (config, metric) -> system -> score
    flags: Mapping[str, tuple[str, ...]]  # config -> its marks in this run
    metrics: tuple[str, ...]
    labels: Mapping[str, str] = field(default_factory=dict)  # metric -> its label, as results.json names it
    provenance: str = "not recorded"  # how the run's sets were made (its summary line)
    recorded: Mapping[str, str] = field(default_factory=dict)  # "settings/seed" etc. -> its value, as JSON


@dataclass(frozen=True)
class MetaRow:
    config: str
    metric: str
    flags: tuple[str, ...]
    in_family: bool  # corrected with the metric's configs (not the full test set, small or a duplicate)
    found: Agreement
    # BH-corrected p of accuracy, τ, Δaccuracy, Δτ (None outside the family or untested)
    corrected: tuple[float | None, float | None, float | None, float | None] = (None, None, None, None)

    @property
    def verdict(self) -> str | None:
        """Better, no different or worse than the reference by Δτ: at its corrected p in the family,
        its raw p on the full test set (one test), None elsewhere (small, a duplicate, the reference)."""
        tau = self.found.kendall_difference
        p = self.corrected[3] if self.in_family else tau.p_value if tau is not None and self.config == FULL else None
        return None if tau is None else verdict(tau.value, p)


@dataclass(frozen=True)
class MetaEvaluation:
    runs: tuple[Run, ...]
    reference: str  # the metric whose full-test scores every measure is compared with
    seed: int
    rows: tuple[MetaRow, ...]
    power: Mapping[str, Power]  # metric -> the τ its pooled rows need
    systems: tuple[int, ...] = ()  # per run, the human-scored systems with a full-test reference score
    left_out: tuple[str, ...] = field(default=())  # measures some run does not score on 3 systems
    differ: tuple[str, ...] = ()  # the metrics, settings and provenance fields not every run shares

    def label(self, metric: str) -> str:
        """How the runs name a metric (results.json's ``metric_info``, else the metric's name)."""
        if metric == TARGETED:
            return f"targeted accuracy ({DIAGNOSTIC})"
        return next((run.labels[metric] for run in self.runs if metric in run.labels), metric)


def _numbers(entries: Iterable[tuple[str, Any]], path: str | os.PathLike[str], what: str) -> dict[str, float]:
    """The entries whose value is a number (not a boolean), as floats; a non-finite one is an error."""
    found = {k: float(v) for k, v in entries if isinstance(v, int | float) and not isinstance(v, bool)}
    for system, value in found.items():
        if not np.isfinite(value):
            raise InputError(f"the {what} of system {system!r} is {value}, not a finite number", path)
    return found


def read_run(path: str | os.PathLike[str], label_of: Callable[[str], str] = str) -> Run:
    """One ``results.json`` of ``acs evaluate --human``; an error names the file and what is missing.
    ``label_of``: a metric's label where the run does not carry it (results.json before schema 4)."""
    document = read_json(path)
    if not isinstance(document, dict) or not str(document.get("schema", "")).startswith("acs-evaluation/"):
        raise InputError("is not a results.json of `acs evaluate` (no \"schema\": \"acs-evaluation/…\")", path)
    human = document.get("human_scores")
    if not isinstance(human, dict) or not human:
        raise InputError("has no human_scores: run `acs evaluate --human FILE --out DIR` (this version or later) "
                         "and give DIR/results.json", path)
    try:
        better = {m: document["higher_is_better"][m] for m in document["metrics"]}
        for metric, value in better.items():
            if not isinstance(value, bool):
                raise InputError(f"higher_is_better/{metric} is {value!r}, not true or false", path)
        measures: dict[tuple[str, str], dict[str, float]] = {}
        for metric in better:
            measures[(FULL, metric)] = oriented(_numbers(((s, scores.get(metric)) for s, scores in document["full"].items()),
                                                         path, f"full-test {metric} score"), better[metric])
        flags: dict[str, tuple[str, ...]] = {}
        for name, config in document["configs"].items():
            flags[name] = tuple(mark for mark, on in (
                ("small", config.get("small")), (f"same rows as {config.get('same_rows_as')}", config.get("same_rows_as")),
                ("degenerate baseline", config.get("degenerate_baseline"))) if on)
            for metric in better:
                measures[(name, metric)] = oriented(_numbers(((s, result["scores"].get(metric, {}).get("score"))
                                                              for s, result in config["systems"].items()),
                                                             path, f"{metric} score on {name}"), better[metric])
            targeted = _numbers(((s, (result.get("targeted") or {}).get("accuracy"))
                                 for s, result in config["systems"].items()), path, f"targeted accuracy on {name}")
            if targeted:
                measures[(name, TARGETED)] = targeted
    except (KeyError, TypeError, AttributeError) as error:
        raise InputError(f"is not a complete results.json of `acs evaluate` ({type(error).__name__}: {error})",
                         path) from None
    scores = _numbers(human.items(), path, "human score")
    info = document.get("metric_info") if isinstance(document.get("metric_info"), dict) else {}
    labels = {m: str(info[m]["label"]) if isinstance(info.get(m), dict) and info[m].get("label") else label_of(m)
              for m in better}
    made = document.get("provenance") if isinstance(document.get("provenance"), dict) else {}
    recorded = {"metrics": json.dumps(sorted(better))}
    for section in ("settings", "provenance"):
        part = document.get(section) if isinstance(document.get(section), dict) else {}
        recorded.update({f"{section}/{k}": json.dumps(v, sort_keys=True) for k, v in part.items()})
    return Run(str(path), str(document.get("pair", "")), str(document.get("split", "")), scores, measures, flags,
               tuple(better), labels, str(made.get("summary") or "not recorded"), recorded)


def _scores(run: Run, key: tuple[str, str], systems: Sequence[str]) -> RunScores:
    return RunScores(np.asarray([run.measures[key][s] for s in systems], dtype=np.float64),
                     np.asarray([run.human[s] for s in systems], dtype=np.float64))


def _systems(run: Run, key: tuple[str, str], reference: tuple[str, str]) -> list[str]:
    """The run's systems with a human score, a score on the measure and one on the reference."""
    scored, ref = run.measures.get(key, {}), run.measures.get(reference, {})
    return [s for s in run.human if s in scored and s in ref]


def meta_evaluate(paths: Sequence[str | os.PathLike[str]], reference: str = REFERENCE, seed: int = SEED,
                  label_of: Callable[[str], str] = str) -> MetaEvaluation:
    """Every measure the runs share, pooled (see the module); ``label_of`` as :func:`read_run`'s."""
    runs = tuple(read_run(p, label_of) for p in paths)
    for k, run in enumerate(runs):
        same = next((other for other in runs[:k] if (other.human, other.measures) == (run.human, run.measures)), None)
        if same is not None:
            raise InputError(f"is the same run as {same.path} (the same human scores and scores): give each run once",
                             run.path)
    fields = sorted({key for run in runs for key in run.recorded})
    differ = tuple(f for f in fields if len({run.recorded.get(f) for run in runs}) > 1)
    ref_key = (FULL, reference)
    for run in runs:
        if ref_key not in run.measures:
            raise InputError(f"has no full-test {reference} scores (metrics: {', '.join(run.metrics)}): choose "
                             "reference among them", run.path, field="reference")
    keys = sorted({k for run in runs for k in run.measures},
                  key=lambda k: (k[0] != FULL, () if k[0] == FULL else config_sort_key(k[0]), k[1] == TARGETED, k[1]))
    rows, left_out = [], []
    for key in keys:
        chosen = [_systems(run, key, ref_key) for run in runs]
        if any(len(systems) < 3 for systems in chosen):
            left_out.append(f"{key[0]} {key[1]}")
            continue
        measure = [_scores(run, key, systems) for run, systems in zip(runs, chosen)]
        base = None if key == ref_key else [_scores(run, ref_key, systems) for run, systems in zip(runs, chosen)]
        flags = _flags(runs, key[0])
        in_family = key[0] != FULL and not any(f == "small" or f.startswith("same rows") for f in flags)
        rows.append(MetaRow(key[0], key[1], flags, in_family, agreement(measure, base, seed)))
    rows = _corrected(rows)
    systems = [len(_systems(run, ref_key, ref_key)) for run in runs]
    family = {metric: sum(r.in_family and r.metric == metric for r in rows) for metric in {r.metric for r in rows}}
    return MetaEvaluation(runs, reference, seed, tuple(rows),
                          {metric: power(systems, size) for metric, size in sorted(family.items())}, tuple(systems),
                          tuple(left_out), differ)


def _flags(runs: Sequence[Run], config: str) -> tuple[str, ...]:
    """A config's marks, in the order every report prints them (``ConfigResult.flags``): small in
    any run, a degenerate baseline in any run, the rows of another config in every run (counted once)."""
    if config == FULL:
        return ()
    marks = [run.flags.get(config, ()) for run in runs]
    out = [mark for mark in ("small", "degenerate baseline") if any(mark in m for m in marks)]
    same = [next((f for f in m if f.startswith("same rows")), None) for m in marks]
    return tuple(out + ([same[0]] if all(same) else []))  # type: ignore[list-item]


def _corrected(rows: list[MetaRow]) -> list[MetaRow]:
    """BH per metric and kind of p across the family's rows."""
    out = list(rows)
    for metric in {r.metric for r in rows}:
        at = [k for k, r in enumerate(rows) if r.metric == metric and r.in_family]
        estimates = [[getattr(rows[k].found, kind) for k in at]
                     for kind in ("accuracy", "kendall", "accuracy_difference", "kendall_difference")]
        columns = [benjamini_hochberg([None if e is None else e.p_value for e in column]) for column in estimates]
        for j, k in enumerate(at):
            out[k] = replace(rows[k], corrected=tuple(column[j] for column in columns))  # type: ignore[arg-type]
    return out


def exploratory(p: float | None) -> bool:
    return p is None or p >= ALPHA
