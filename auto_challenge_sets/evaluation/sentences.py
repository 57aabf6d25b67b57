"""The sentences behind each config, for the HTML page: every row's source with its instances'
words marked, the reference with the words aligned to them, each system's output and, with
targeted accuracy, each system's verdict per instance.

The engine keeps no rows (its results are numbers), so this re-reads what the run read: the
config's rows from the dataset folder and line N of each system's file for the row of line N.
Verdicts are judged again with :func:`auto_challenge_sets.scoring.targeted.judge` when the links
are cheap and the same as the run's (the ``present`` match and ``stored`` files); eflomal or
simalign links would cost a second alignment run and need not be the run's, so the page then
shows no verdicts and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.configs import KIND_LEXICAL, parse_config_name
from auto_challenge_sets.corpus import read_lines
from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.dataset.record import corpus_lines
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.evaluation.targeted import PRESENT, STORED, align_outputs, choose_aligner, read_pool
from auto_challenge_sets.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.scoring.targeted import CORRECT, UNALIGNED, WRONG, judge

COLUMNS = ["line", "source_tokens", "reference", "distance", "instances", "alignment"]
STDIN = "-"


@dataclass(frozen=True)
class ConfigSentences:
    """A config's rows in the dataset's order, each ``{"line", "d", "inst", "v"?}`` (see :func:`_row`);
    their words are in :attr:`Sentences.texts`, once per corpus line for every config."""

    config: str
    rows: list[dict[str, Any]]
    verdicts: bool  # whether rows carry a verdict per system and instance


@dataclass(frozen=True)
class Sentences:
    systems: list[str]  # the order of every text's ``out`` and every row's ``v``
    texts: dict[int, dict[str, Any]]  # corpus line -> {"src": tokens, "ref": tokens, "out": [output per system]}
    configs: dict[str, ConfigSentences]
    notes: list[str]


def _aligned(links: list[Link], source_index: int) -> list[int]:
    return sorted(j for i, j in links if i == source_index)


def _marks(instance: dict[str, Any], links: list[Link]) -> dict[str, Any]:
    """An instance as token marks: 0-based source and reference token indices with their role (a
    reordering instance is an aligned word pair, a lexical one a head and its dependent)."""
    if "source_index" in instance:
        source, target = instance["source_index"] - 1, instance["target_index"] - 1
        return {"d": instance["distance"], "src": [[source, "moved"]], "ref": [[target, "moved"]]}
    head, dependent = instance["head"] - 1, instance["dependent"] - 1
    return {"d": instance["distance"], "src": [[head, "head"], [dependent, "dependent"]],
            "ref": [[j, "head"] for j in _aligned(links, head)] + [[j, "dependent"] for j in _aligned(links, dependent)]}


def _outputs(request: EvaluationRequest, systems: list[str]) -> tuple[dict[str, list[str] | None], list[str]]:
    """Every system's lines (None for one read from standard input: it cannot be read twice)."""
    found, notes = {}, []
    for system in systems:
        path = request.hypotheses[system]
        if str(path) == STDIN:
            found[system] = None
            notes.append(f"{system} was read from standard input: its sentences are not shown")
        else:
            found[system] = read_lines(path)
    return found, notes


def _output_links(request: EvaluationRequest, evaluation: Evaluation, folder: DatasetFolder,
                  outputs: dict[str, list[str] | None]) -> tuple[dict[str, dict[int, list[Link]]] | None, bool, str | None]:
    """Per system, line -> its output links (None for the ``present`` match), whether verdicts can
    be shown, and a note when they cannot."""
    if request.targeted is None:
        return None, False, None
    aligner = choose_aligner(request.targeted)
    if aligner not in (PRESENT, STORED):
        return None, False, (f"targeted verdicts per sentence are not shown: the run aligned outputs with {aligner}, "
                             "and aligning them again would cost a second run")
    if aligner == PRESENT:
        return None, True, None
    base = read_pool(folder, evaluation.full_corpus_config, evaluation.split, ["id", "line", "reference"])
    total = corpus_lines(folder.root, evaluation.pair, evaluation.split) or len(base["line"])
    pool = {s: [lines[line - 1] for line in base["line"]] for s, lines in outputs.items() if lines is not None}
    links = align_outputs(request.targeted, base, pool, total, folder.where(evaluation.full_corpus_config, evaluation.split))
    by_line = {s: dict(zip(base["line"], per_row)) for s, per_row in (links.systems or {}).items()}
    return by_line, True, None


# a verdict as one letter, upper-case when the dependent was judged with its head (absorbed)
VERDICT_CODES = {CORRECT: "c", WRONG: "w", UNALIGNED: "u"}


def _text(row: dict[str, Any], systems: list[str], outputs: dict[str, list[str] | None]) -> dict[str, Any]:
    line = row["line"]
    return {"src": row["source_tokens"], "ref": row["reference"].split(),
            "out": [None if outputs[s] is None else outputs[s][line - 1] for s in systems]}


class _Judge:
    """Verdicts per (line, system, instance), judged once for every config that holds the row."""

    def __init__(self, output_links: dict[str, dict[int, list[Link]]] | None, threshold: float) -> None:
        self.output_links, self.threshold = output_links, threshold
        self.seen: dict[tuple[int, str, tuple[tuple[int, int], ...]], str | None] = {}

    def codes(self, line: int, system: str, instances: list[dict[str, Any]], links: list[Link],
              ref_tokens: list[str], output: str | None) -> str | None:
        key = (line, system, tuple((i["head"], i["dependent"]) for i in instances))
        if key not in self.seen:
            self.seen[key] = None if output is None else "".join(
                self._code(i, links, ref_tokens, output, line, system) for i in instances)
        return self.seen[key]

    def _code(self, instance: dict[str, Any], links: list[Link], ref_tokens: list[str], output: str,
              line: int, system: str) -> str:
        hyp_links = None if self.output_links is None else self.output_links[system].get(line, [])
        verdict, absorbed = judge(instance, links, hyp_links, ref_tokens, output.split(), self.threshold)
        code = VERDICT_CODES[verdict]
        return code.upper() if absorbed else code


def _row(row: dict[str, Any], text: dict[str, Any], systems: list[str], judging: _Judge | None) -> dict[str, Any]:
    """A row's marks and verdicts; its words are in ``text`` (:func:`_text`)."""
    line = row["line"]
    aligned = row.get("alignment") is not None  # "" is a row without links: every instance unaligned
    links = parse_pharaoh(row["alignment"]) if aligned else []
    instances = row.get("instances") or []
    entry: dict[str, Any] = {"line": line, "d": row["distance"], "inst": [_marks(i, links) for i in instances]}
    if judging is not None and aligned:
        entry["v"] = [judging.codes(line, system, instances, links, text["ref"], output)
                      for system, output in zip(systems, text["out"])]
    return entry


def _read_rows(folder: DatasetFolder, config: str, split: str) -> dict[str, list[Any]]:
    """The columns the page shows; a folder built before the ``alignment`` column existed has
    rows without it (no reference words marked, no verdicts)."""
    try:
        return folder.read(config, split, COLUMNS)
    except InputError:
        return folder.read(config, split, [c for c in COLUMNS if c != "alignment"])


def collect(request: EvaluationRequest, evaluation: Evaluation) -> Sentences:
    """Every scored config's rows with every system's output (and verdicts where they can be had)."""
    systems = list(evaluation.systems)
    folder = DatasetFolder(request.dataset)
    outputs, notes = _outputs(request, systems)
    output_links, verdicts, note = _output_links(request, evaluation, folder, outputs)
    notes += [note] if note else []
    threshold = request.targeted.chrf_threshold if request.targeted is not None else 0.0
    judging = _Judge(output_links, threshold) if verdicts else None
    texts: dict[int, dict[str, Any]] = {}
    configs = {}
    for name in evaluation.configs:
        lexical = parse_config_name(name).kind == KIND_LEXICAL
        rows = _read_rows(folder, name, evaluation.split)
        columns = list(rows)
        records = [{c: rows[c][k] for c in columns} for k in range(len(rows["line"]))]
        for record in records:
            if record["line"] not in texts:
                texts[record["line"]] = _text(record, systems, outputs)
        configs[name] = ConfigSentences(
            name, [_row(r, texts[r["line"]], systems, judging if lexical else None) for r in records],
            verdicts and lexical)
    return Sentences(systems, texts, configs, notes)
