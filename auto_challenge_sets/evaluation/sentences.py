"""The sentences behind each config, for the HTML page: every row's source with its instances'
words marked, the reference with the words aligned to them, each system's output and, with
targeted accuracy, the run's own verdicts (:attr:`.results.Evaluation.verdicts`: judging again
would cost a second alignment run). The engine keeps no rows, so this re-reads the dataset folder
and the systems' files into plain data (:mod:`.page_sentences`). The reference words marked from the
build's alignment are uncertain where its provenance says its links are noisy (``weak_alignment``:
a user's Pharaoh file is trusted), and checked against the source parse where they can be (:func:`_check`).
"""

from __future__ import annotations

from typing import Any

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.evaluation.output_alignment import UPOS
from auto_challenge_sets.evaluation.page_sentences import ConfigSentences, Sentences
from auto_challenge_sets.evaluation.report.name_text import isolate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.formats.target_languages import language_of, target_tokens
from auto_challenge_sets.scoring.targeted import CORRECT, UNALIGNED, WRONG

# a line's words, links and UPOS are the same in every config holding it: read once, from the full
# corpus (list columns are the slow part of a read); a config's own rows need only these
TEXT_COLUMNS = ["line", "source_tokens", "reference", "alignment", UPOS]
ROW_COLUMNS = ["line", "distance", "instances"]


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
        if str(path) == "-":  # standard input
            found[system] = None
            notes.append(f"{isolate(system)} was read from standard input: its sentences are not shown")
        else:
            found[system] = read_lines(path)
    return found, notes


# the parts of speech an alignment rarely folds into another word's link (unlike DET, ADP, AUX, ...)
CONTENT = ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM")


def _check(marks: list[dict[str, Any]], links: list[Link], upos: list[str], words: list[str]) -> list[list[Any]] | None:
    """The parse's check of a row's marked reference words (the reference has no parse of its own): one
    also aligned to a :data:`CONTENT` word outside its instance is checked, and contradicted where none
    of those has its source word's UPOS (*ein* → "night", also aligned to *Tränengas*, a PROPN). None
    where none could be checked, else [reference index, why] per contradicted word."""
    checked, found = False, {}
    for mark in marks:
        ours, source = {i for i, _ in mark["src"]}, {role: i for i, role in mark["src"]}
        for j, role in mark["ref"]:
            others = [k for k, t in links if t == j and k not in ours and upos[k] in CONTENT]
            checked = checked or bool(others)
            i = source[role]
            if others and upos[i] not in {upos[k] for k in others}:
                found[j] = f"also aligned to “{words[others[0]]}” ({upos[others[0]]}); “{words[i]}” is {upos[i]}"
    return [[j, why] for j, why in found.items()] if checked else None


# a verdict as one letter, upper-case when the dependent was judged with its head (absorbed)
VERDICT_CODES = {CORRECT: "c", WRONG: "w", UNALIGNED: "u"}


def _row(line: int, distance: int, instances: list[dict[str, Any]] | None, links: list[Link],
         verdicts: list[list[str]] | None, output_links: list[list[Link] | None] | None = None) -> dict[str, Any]:
    """A row's marks and, given the run's verdicts (per system, one per instance), their codes; with
    ``output_links`` (per system, the row's source-output links), ``o``: per system and instance,
    the output tokens aligned to the head and to the dependent, what a verdict rests on."""
    instances = instances or []
    entry: dict[str, Any] = {"line": line, "d": distance, "inst": [_marks(i, links) for i in instances]}
    if verdicts is not None:
        # absorbed: the dependent has no reference word of its own, so it was judged with its head
        absorbed = [not _aligned(links, i["dependent"] - 1) for i in instances]
        entry["v"] = [None if found is None else "".join(
            VERDICT_CODES[v].upper() if a else VERDICT_CODES[v] for v, a in zip(found, absorbed)) for found in verdicts]
        if output_links is not None:
            entry["o"] = [None if out is None else [[_aligned(out, i["head"] - 1), _aligned(out, i["dependent"] - 1)]
                                                    for i in instances] for out in output_links]
    return entry


def collect(request: EvaluationRequest, evaluation: Evaluation) -> Sentences:
    """Every scored config's rows with every system's output (and the run's verdicts, with
    targeted accuracy)."""
    systems = list(evaluation.systems)
    folder = DatasetFolder(request.dataset)
    outputs, notes = _outputs(request, systems)
    judged = evaluation.verdicts or {}
    pool = folder.read(evaluation.full_corpus_config, evaluation.split, TEXT_COLUMNS)
    by_line = {line: k for k, line in enumerate(pool["line"])}
    texts: dict[int, dict[str, Any]] = {}
    links_of: dict[int, list[Link] | None] = {}  # parsed once for every config holding the line
    configs = {}
    for name in evaluation.configs:
        rows = folder.read(name, evaluation.split, ROW_COLUMNS)
        per_system = judged.get(name)
        found = []
        for k, line in enumerate(rows["line"]):
            if line not in texts:
                at = by_line[line]
                # the reference in the tokens its links count (characters in Chinese and Japanese)
                texts[line] = {"src": pool["source_tokens"][at],
                               "ref": target_tokens(pool["reference"][at], language_of(evaluation.pair)),
                               "out": [None if outputs[s] is None else outputs[s][line - 1] for s in systems]}
                alignment = pool["alignment"][at]
                # "" is a row without links (every instance unaligned), None a dataset built without an aligner
                links_of[line] = None if alignment is None else parse_pharaoh(alignment) if alignment else []
            links = links_of[line]
            verdicts = out_links = None
            if per_system is not None and links is not None:
                verdicts = [None if outputs[s] is None else per_system[s][k] for s in systems]
                if evaluation.output_links is not None:
                    out_links = [None if outputs[s] is None else evaluation.output_links[s][by_line[line]]
                                 for s in systems]
            found.append(_row(line, rows["distance"][k], rows["instances"][k], links or [], verdicts, out_links))
            upos = pool[UPOS][by_line[line]] if links else None  # "c": the parse's check
            if upos and (checked := _check(found[-1]["inst"], links, upos, texts[line]["src"])) is not None:
                found[-1]["c"] = checked
        configs[name] = ConfigSentences(name, found, per_system is not None)
    uncertain = evaluation.provenance.warning if evaluation.provenance else None
    if uncertain:
        notes.append(f"The reference words marked from the build's alignment are uncertain (dashed; why on hover): {uncertain}.")
    if any(pool[UPOS]):
        notes.append(f"Links checked against the source parse (the reference has none): a marked reference word also aligned "
                     f"to a content word ({', '.join(CONTENT)}) outside its instance is checked, and contradicts the parse "
                     "(wavy underline) where none of those has its source word's UPOS; each config counts its rows checked.")
    return Sentences(systems, texts, configs, notes, uncertain)
