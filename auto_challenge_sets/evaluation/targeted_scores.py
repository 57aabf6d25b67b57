"""Targeted accuracy in the engine: every lexical config × every system
(:func:`auto_challenge_sets.scoring.targeted.targeted_accuracy`'s judgement, against every
reference), its random-pair control (:mod:`auto_challenge_sets.scoring.targeted_control`), and a
summary per phenomenon by distance. The alignments come from :func:`.targeted.align_outputs`.

Each system's match of every source word of a row is computed once (a table per pool row) and
read by every config holding the row and by every random draw."""

from __future__ import annotations

import bisect
import zlib
from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np

from auto_challenge_sets.builder.pipeline.provenance import weak_alignment
from auto_challenge_sets.evaluation.results import Provenance, TargetedByDistance, TargetedRun, TargetedScore
from auto_challenge_sets.evaluation.targeted import TargetedRequest, align_outputs, lemma_language
from auto_challenge_sets.scoring.targeted import CORRECT, WRONG, accuracy, part_table, signature, tally
from auto_challenge_sets.scoring.targeted_control import draw_pairs, pair_accuracies, percentile

if TYPE_CHECKING:
    from auto_challenge_sets.evaluation.inputs import Corpus, SystemOutput
    from auto_challenge_sets.evaluation.results import ConfigResult


def score(request: TargetedRequest, corpus: Corpus, outputs: list[SystemOutput],
          verdicts: dict[str, dict[str, list[list[str]]]] | None = None, seed: int = 1,
          ) -> tuple[TargetedRun, dict[str, dict[str, TargetedScore]], dict[str, dict[str, np.ndarray]]]:
    """Each system's targeted accuracy on each lexical config (config -> system -> score), the
    run's description (its ``by_distance`` filled in by :func:`run_summary`), and each system's
    accuracies on the random-pair draws (config -> system -> draws; empty without the control).
    ``verdicts``, when given, receives config -> system -> per row the instances' verdicts."""
    predictions = {output.name: output.predictions for output in outputs}
    n_refs = len(outputs[0].references[0]) if outputs[0].references and request.all_references else 1
    extra = [[refs[k] for refs in outputs[0].references] for k in range(1, n_refs)]
    alignments = align_outputs(request, corpus.base, predictions, corpus.total_lines,
                               corpus.folder.where(corpus.base_name, corpus.split), extra)
    lang = lemma_language(corpus.pair) if request.lemma else None
    lexical = [config for config in corpus.configs if config.instances is not None]
    lengths = [len(tokens) for tokens in corpus.base["source_tokens"]]
    wanted: dict[int, set[int] | None] = {}  # pool row -> its source words to match (None: all, for the control)
    for config in lexical:
        for p, row in zip(config.positions.tolist(), config.instances):
            if request.random_pairs:
                wanted[p] = None
            elif wanted.get(p, set()) is not None:
                wanted[p] = wanted.get(p, set()) | {x[k] - 1 for x in row for k in ("head", "dependent")}
    tables = {output.name: _tables(output, alignments, wanted, lengths, request.chrf_threshold, lang)
              for output in outputs}
    per_config: dict[str, dict[str, TargetedScore]] = {}
    controls: dict[str, dict[str, np.ndarray]] = {}
    for config in lexical:
        positions = config.positions.tolist()
        pairs = None
        if request.random_pairs:
            rng = np.random.default_rng([seed, 3, zlib.crc32(config.name.encode())])  # one stream per config
            pairs = draw_pairs(config.instances, [lengths[p] for p in positions], request.random_pairs, rng)
        per_config[config.name], controls[config.name] = {}, {}
        for output in outputs:
            rows = [tables[output.name][p] for p in positions]
            kept = None if verdicts is None else verdicts.setdefault(config.name, {}).setdefault(output.name, [])
            found = tally(config.instances, rows, kept)
            if pairs is not None:
                samples = pair_accuracies(pairs, rows)
                controls[config.name][output.name] = samples
                found["random_pairs"] = percentile(samples, found["accuracy"])
            per_config[config.name][output.name] = TargetedScore.from_dict(found)
    judgement = signature(request.chrf_threshold, alignments.systems is not None, lang, n_refs)
    control = f"|control:random-pairs:{request.random_pairs}|seed:{seed}" if request.random_pairs else ""
    run = TargetedRun(alignments.aligner, judgement + control, {},
                      alignment_warning=alignment_warning(alignments.provenance, corpus.provenance))
    return run, per_config, controls


def alignment_warning(made_here: dict[str, Any] | None, provenance: Provenance | None) -> str | None:
    """The warning the targeted numbers carry when the links they rest on are eflomal's on too few
    pairs without priors: the aligner run here (``made_here``), else the build's, whose alignment
    column is the reference side (``stored``, ``present``)."""
    if made_here is not None:
        weak = weak_alignment(made_here)
        rests_on = "the links of the references and outputs aligned for this run"
    else:
        weak = None if provenance is None else provenance.warning
        rests_on = "the dataset's alignment column (the build's links)"
    return None if weak is None else f"these verdicts rest on {rests_on}: {weak}"


def _tables(output: SystemOutput, alignments, wanted: dict[int, set[int] | None], lengths: list[int],
            chrf_threshold: float, lang: str | None) -> dict[int, np.ndarray]:
    """One system's :func:`part_table` of every wanted pool row, against every reference."""
    tables = {}
    for p, positions in wanted.items():
        refs = [(output.references[p][0].split(), alignments.reference[p]),
                *((output.references[p][k + 1].split(), links[p]) for k, links in enumerate(alignments.extra))]
        out_links = None if alignments.systems is None else alignments.systems[output.name][p]
        n_source = max([lengths[p]] + [i + 1 for _, links in refs for i, _ in links])
        tables[p] = part_table(refs, out_links, output.predictions[p].split(), n_source, chrf_threshold, lang,
                               positions)
    return tables


def _bucket_label(edges: list[int], k: int) -> str:
    low = edges[k]
    if k + 1 == len(edges):
        return f"{low}+"
    high = edges[k + 1] - 1
    return str(low) if high == low else f"{low}-{high}"


def run_summary(run: TargetedRun, configs: dict[str, ConfigResult], systems: list[str]) -> TargetedRun:
    """Per phenomenon: each system's accuracy by distance, bucketed at the phenomenon's config
    boundaries (D = 1, 2, 3, 5, 10 gives d = 1, 2, 3-4, 5-9, 10+), from the config with the
    smallest D (it holds every instance at d >= that D)."""
    from dataclasses import replace

    by_phenomenon: dict[str, list[tuple[int, str]]] = {}
    for name, config in configs.items():
        scored = any(r.targeted is not None for r in config.systems.values())
        if scored and config.min_distance is not None:
            by_phenomenon.setdefault(config.phenomenon, []).append((config.min_distance, name))
    out = {}
    for phenomenon, found in sorted(by_phenomenon.items()):
        _, smallest = min(found)
        edges = sorted({d for d, _ in found})
        labels = [_bucket_label(edges, k) for k in range(len(edges))]
        table, judged = {}, {}
        for system in systems:
            counts = [Counter() for _ in edges]
            for item in configs[smallest].systems[system].targeted.by_distance:
                k = bisect.bisect_right(edges, item.distance) - 1  # the bucket whose lower edge is at or below d
                if k >= 0:
                    counts[k].update({CORRECT: item.correct, WRONG: item.wrong})
            table[system] = {label: accuracy(c) for label, c in zip(labels, counts)}
            judged[system] = {label: c[CORRECT] + c[WRONG] for label, c in zip(labels, counts)}
        means = {label: _mean([table[s][label] for s in systems]) for label in labels}
        out[phenomenon] = TargetedByDistance(smallest, tuple(labels), table, judged, means)
    return replace(run, by_distance=out)


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None
