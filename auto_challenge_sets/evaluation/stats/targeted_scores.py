"""Targeted accuracy in the engine: every lexical config × every system
(:func:`auto_challenge_sets.scoring.targeted.targeted_accuracy`'s judgement, against every
reference), its random-pair control (:mod:`auto_challenge_sets.scoring.targeted_control`), and a
summary per phenomenon by distance. Each system's match of a row's source words is a table per
pool row (:func:`~auto_challenge_sets.scoring.targeted.part_table`), read by every config holding
the row and by every random draw."""

from __future__ import annotations

import bisect
import zlib
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from auto_challenge_sets.evaluation.output_alignment import (
    PRESENT,
    STORED,
    UPOS,
    TargetedRequest,
    align_outputs,
    choose_aligner,
)
from auto_challenge_sets.evaluation.result_json import decode
from auto_challenge_sets.evaluation.results import (
    ControlMatching,
    JudgeCheck,
    Provenance,
    TargetedByDistance,
    TargetedRun,
    TargetedScore,
)
from auto_challenge_sets.evaluation.stats import SEED, STREAMS
from auto_challenge_sets.formats.target_languages import language_of, lemma_language, target_tokens
from auto_challenge_sets.pipeline.build_provenance import weak_alignment
from auto_challenge_sets.scoring.targeted import CORRECT, WRONG, accuracy, part_table, signature, tally
from auto_challenge_sets.scoring.targeted_control import LEVELS, draw_pairs, pair_accuracies, percentile

MEASURED, UNMEASURED = "measured", "unmeasured"

if TYPE_CHECKING:
    from collections.abc import Callable

    from auto_challenge_sets.evaluation.inputs import ConfigRows, Corpus, SystemOutput
    from auto_challenge_sets.evaluation.output_alignment import TargetedAlignments
    from auto_challenge_sets.evaluation.results import ConfigResult
    from auto_challenge_sets.scoring.targeted import Reference


def score(request: TargetedRequest, corpus: Corpus, outputs: list[SystemOutput],
          verdicts: dict[str, dict[str, list[list[str]]]] | None = None, seed: int = SEED,
          output_links: dict[str, list] | None = None,
          ) -> tuple[TargetedRun, dict[str, dict[str, TargetedScore]], dict[str, dict[str, np.ndarray]]]:
    """The run's description (its ``by_distance`` left to :func:`run_summary`), each system's
    targeted accuracy on each lexical config (config -> system -> score), and its accuracies on the
    random-pair draws (config -> system -> draws; empty without the control). ``verdicts``, when
    given, receives config -> system -> per row the instances' verdicts; ``output_links`` system ->
    per pool row the source-output links they rest on (nothing with the ``present`` match)."""
    predictions = {output.name: output.predictions for output in outputs}
    references = outputs[0].judge_references
    n_extra = len(references[0]) - 1 if references else 0
    extra = [[refs[k] for refs in references] for k in range(1, n_extra + 1)]
    aligner = choose_aligner(request)
    # eflomal and simalign align the extra references as outputs, so that the judge check reads
    # them as it reads a system (one more output in the joint run, as one more system would be);
    # stored and present align them (with eflomal) only to judge against them
    joint = aligner not in (STORED, PRESENT)
    target = language_of(corpus.pair)  # its tokens are what the build's and the outputs' links count
    alignments = align_outputs(request, corpus.base, predictions, corpus.total_lines,
                               corpus.folder.where(corpus.base_name, corpus.split),
                               extra if joint or request.all_references else [], target)
    judging = len(alignments.extra) if request.all_references else 0  # the extra references that judge
    if output_links is not None and alignments.systems is not None:
        output_links.update(alignments.systems)
    lang = lemma_language(target) if request.lemma else None  # None: an exact match (Chinese, Japanese)
    lexical = [config for config in corpus.configs if config.instances is not None]
    lengths = [len(tokens) for tokens in corpus.base["source_tokens"]]
    upos = corpus.base[UPOS]  # read_pool reads it for every targeted run
    wanted = _wanted(lexical, every_word=bool(request.random_pairs))  # the control draws from every word

    def references_of(p: int, leave_out: int | None = None) -> list[Reference]:
        """Pool row ``p``'s judging references: the dataset's, then the judging extra ones (the
        extra reference ``leave_out``, 0-based, left out)."""
        return [(target_tokens(references[p][0], target), alignments.reference[p]),
                *((target_tokens(references[p][k + 1], target), alignments.extra[k][p])
                  for k in range(judging) if k != leave_out)]

    tables = {output.name: _tables(output.predictions, None if alignments.systems is None
                                   else alignments.systems[output.name], references_of, wanted, lengths,
                                   request.chrf_threshold, lang, target)
              for output in outputs}
    per_config: dict[str, dict[str, TargetedScore]] = {}
    controls: dict[str, dict[str, np.ndarray]] = {}
    matching: dict[str, ControlMatching] = {}
    for config in lexical:
        positions = config.positions.tolist()
        pairs = None
        if request.random_pairs:
            rng = np.random.default_rng([seed, STREAMS["targeted_control"], zlib.crc32(config.name.encode())])  # one stream per config
            levels: Counter = Counter()
            pairs = draw_pairs(config.instances, [lengths[p] for p in positions], request.random_pairs, rng,
                               [upos[p] for p in positions], levels)
            matching[config.name] = ControlMatching(sum(levels.values()), *(levels[level] for level in LEVELS))
        per_config[config.name], controls[config.name] = {}, {}
        for output in outputs:
            rows = [tables[output.name][p] for p in positions]
            kept = None if verdicts is None else verdicts.setdefault(config.name, {}).setdefault(output.name, [])
            found = tally(config.instances, rows, kept)
            if pairs is not None:
                samples = pair_accuracies(pairs, rows)
                controls[config.name][output.name] = samples
                found["random_pairs"] = percentile(samples, found["accuracy"])
            per_config[config.name][output.name] = decode(TargetedScore, found)
    judgement = signature(request.chrf_threshold, alignments.systems is not None, lang, 1 + judging, target)
    control = f"|control:random-pairs:{request.random_pairs}|seed:{seed}" if request.random_pairs else ""
    check = judge_check(aligner, n_extra, lexical, references, alignments, references_of, lengths,
                        request.chrf_threshold, lang, request.all_references, target)
    run = TargetedRun(alignments.aligner, judgement + control, {}, judge=check, control_upos=any(upos),
                      control=matching,
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


def _wanted(lexical: list[ConfigRows], every_word: bool = False) -> dict[int, set[int] | None]:
    """Pool row -> the 0-based source words of its instances, to match (None: every word)."""
    wanted: dict[int, set[int] | None] = {}
    for config in lexical:
        for p, row in zip(config.positions.tolist(), config.instances):
            words = {x[k] - 1 for x in row for k in ("head", "dependent")}
            wanted[p] = None if every_word else wanted.get(p, set()) | words  # type: ignore[operator]
    return wanted


def judge_check(aligner: str, n_extra: int, lexical: list[ConfigRows], references: list[tuple[str, ...]],
                alignments: TargetedAlignments, references_of: Callable[[int, int | None], list[Reference]],
                lengths: list[int], chrf_threshold: float, lang: str | None, all_references: bool,
                target: str | None = None) -> JudgeCheck:
    """The judge on each extra reference as on a system's output (:class:`JudgeCheck`), on
    every lexical config's instances; unmeasured without one, or with the aligner ``stored``
    (the extra reference has no alignment file of its own)."""
    if not n_extra:
        return JudgeCheck(UNMEASURED, "no second human translation (--judge-ref): the judge's pass rate on one is "
                          "unknown", 0, 0, 0, None)
    if aligner == STORED:
        return JudgeCheck(UNMEASURED, "the aligner stored has no alignment of the second human translation "
                          "to judge it by", 0, 0, 0, None)
    wanted = _wanted(lexical)
    tables = [_tables([refs[k + 1] for refs in references], alignments.extra[k] if alignments.systems is not None
                      else None, lambda p, k=k: references_of(p, k), wanted, lengths, chrf_threshold, lang, target)
              for k in range(n_extra)]
    pooled: dict[str, TargetedScore] = {}  # the extra references pooled as one more system
    distinct: dict[tuple[int, int, int, int], str] = {}  # (reference, pool row, head, dependent) -> verdict
    for config in lexical:
        rows = [(k, p) for k in range(n_extra) for p in config.positions.tolist()]
        kept: list[list[str]] = []
        pooled[config.name] = decode(TargetedScore, tally(config.instances * n_extra, [tables[k][p] for k, p in rows],
                                                          kept))
        for (k, p), row, row_verdicts in zip(rows, config.instances * n_extra, kept):
            for x, verdict in zip(row, row_verdicts):
                distinct[(k, p, x["head"], x["dependent"])] = verdict
    counts = Counter(distinct.values())
    against = "the dataset's reference" + (" and the other extra references" if all_references and n_extra > 1 else "")
    reason = (f"{n_extra} extra reference{'s' if n_extra > 1 else ''} judged as a system's output, "
              f"against {against}")
    return JudgeCheck(MEASURED, reason, n_extra, counts[CORRECT] + counts[WRONG], counts[CORRECT],
                      accuracy(counts), pooled)


def _tables(predictions: list[str], links: list | None, references_of: Callable[[int], list[Reference]],
            wanted: dict[int, set[int] | None], lengths: list[int], chrf_threshold: float, lang: str | None,
            target: str | None = None) -> dict[int, np.ndarray]:
    """One output's :func:`part_table` of every wanted pool row against ``references_of(row)``
    (``links``: the output's links per pool row, None for the ``present`` match)."""
    tables = {}
    for p, positions in wanted.items():
        refs = references_of(p)
        n_source = max([lengths[p]] + [i + 1 for _, ref_links in refs for i, _ in ref_links])
        tables[p] = part_table(refs, None if links is None else links[p], target_tokens(predictions[p], target), n_source,
                               chrf_threshold, lang, positions)
    return tables


def _bucket_label(edges: list[int], k: int) -> str:
    low, high = edges[k], edges[k + 1] - 1 if k + 1 < len(edges) else None
    return f"{low}+" if high is None else str(low) if high == low else f"{low}-{high}"


def run_summary(run: TargetedRun, configs: dict[str, ConfigResult], systems: list[str]) -> TargetedRun:
    """Per phenomenon, each system's accuracy by distance bucketed at the configs' D (1, 2, 3, 5, 10
    gives d = 1, 2, 3-4, 5-9, 10+), from the config of the smallest D, which holds every instance."""
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
            counts = _buckets(configs[smallest].systems[system].targeted, edges)
            table[system] = {label: accuracy(c) for label, c in zip(labels, counts)}
            judged[system] = {label: c[CORRECT] + c[WRONG] for label, c in zip(labels, counts)}
        means = {label: _mean([table[s][label] for s in systems]) for label in labels}
        second = None
        if run.judge is not None and smallest in run.judge.by_config:
            second = {label: accuracy(c) for label, c in zip(labels, _buckets(run.judge.by_config[smallest], edges))}
        out[phenomenon] = TargetedByDistance(smallest, tuple(labels), table, judged, means, second)
    return replace(run, by_distance=out)


def _buckets(score: TargetedScore, edges: list[int]) -> list[Counter]:
    """Correct and wrong of ``score`` per bucket: the bucket whose lower edge is at or below d."""
    counts = [Counter() for _ in edges]
    for item in score.by_distance:
        k = bisect.bisect_right(edges, item.distance) - 1
        if k >= 0:
            counts[k].update({CORRECT: item.correct, WRONG: item.wrong})
    return counts


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None
