"""Targeted accuracy: was the long-distance dependency itself translated? (the paper's Appendix B,
done automatically).

For each lexical instance (dependent, head; 1-based word ids) of a row, the reference tokens
aligned to the head and to the dependent are the expected translation, and the output tokens
aligned to them (a source-output alignment) are the system's; tokens are the target language's
(:func:`auto_challenge_sets.formats.target_languages.target_tokens`). An instance is

- ``unaligned`` when its head has no reference token aligned to it (nothing to compare with; the
  paper's annotators removed such instances too);
- ``correct`` when its head matches and its dependent matches, else ``wrong``. A dependent with no
  reference token of its own is judged with its head, and counted as ``absorbed``: a German
  particle or reflexive is often absorbed into the English verb ("hört ... auf" -> "stops").

A part matches when its output tokens are the reference's (lower-cased, end punctuation stripped,
as sets); or, with a target language ``lang``, their simplemma lemmas are ("gave up" for "give
up"); or the sentence chrF of the output tokens against the reference's is at least
``chrf_threshold`` ("reads" for "read" 73; "went" for "gone" 13 does not match). A part with no
output token aligned to it does not match.

With several references an instance is ``unaligned`` as against the dataset's reference, and
otherwise ``correct`` when it is correct against any reference that has words for the head.
Accuracy is correct / (correct + wrong), overall and per exact distance d.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from sacrebleu.metrics import CHRF

from auto_challenge_sets.formats.pharaoh import Link
from auto_challenge_sets.formats.target_languages import match_label, target_tokens, tokens_label

CHRF_THRESHOLD = 50.0
_CHRF = CHRF()
CORRECT, WRONG, UNALIGNED, ABSORBED = "correct", "wrong", "unaligned", "absorbed"


def _normal(token: str) -> str:
    """Lower-cased, with punctuation at both ends stripped (white-space tokens keep "read." whole)."""
    start, end = 0, len(token)
    while start < end and unicodedata.category(token[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(token[end - 1]).startswith("P"):
        end -= 1
    return token[start:end].lower()


def aligned_words(links: Sequence[Link], source_index: int, tokens: Sequence[str]) -> list[str]:
    """The normalised target tokens aligned to one source word, in target order (empty ones dropped)."""
    words = (_normal(tokens[j]) for j in sorted(j for i, j in links if i == source_index and j < len(tokens)))
    return [w for w in words if w]


@lru_cache(maxsize=1 << 20)
def lemma(word: str, lang: str) -> str:
    """simplemma's lemma of a normalised word; German nouns are looked up capitalised too, as
    simplemma's dictionary holds them ("häuser" -> "haus")."""
    import simplemma

    found = simplemma.lemmatize(word, lang=lang)
    if found == word and lang == "de":
        found = simplemma.lemmatize(word.capitalize(), lang=lang)
    return found.lower()


def _lemmas(words: Sequence[str], lang: str) -> set[str]:
    return {lemma(word, lang) for word in words}


def parts_match(output: Sequence[str], expected: Sequence[str], chrf_threshold: float = CHRF_THRESHOLD,
                lang: str | None = None) -> bool:
    """Whether the output words translate one part (head or dependent) as the reference does:
    the same words, else (with ``lang``) the same lemmas, else sentence chrF >= ``chrf_threshold``."""
    if not output:
        return False
    if set(output) == set(expected):
        return True
    if lang is not None and _lemmas(output, lang) == _lemmas(expected, lang):
        return True
    return _similarity(" ".join(output), " ".join(expected)) >= chrf_threshold


def present_words(expected: Sequence[str], output_tokens: Sequence[str],
                  chrf_threshold: float = CHRF_THRESHOLD, lang: str | None = None) -> list[str]:
    """Without an output alignment: the expected words the output has (or one with the same
    lemma, with ``lang``; or, the inflection fallback, a token of the output with sentence chrF
    >= ``chrf_threshold`` against the word)."""
    present = {w for w in map(_normal, output_tokens) if w}
    lemmas = _lemmas(sorted(present), lang) if lang is not None else set()
    return [word for word in expected
            if word in present or (lang is not None and lemma(word, lang) in lemmas)
            or any(_similarity(token, word) >= chrf_threshold for token in present)]


@lru_cache(maxsize=1 << 20)
def _similarity(output: str, expected: str) -> float:
    """Sentence chrF of output words against expected words (cached: systems share words)."""
    return _CHRF.sentence_score(output, [expected]).score


def accuracy(counts: Counter) -> float | None:
    """correct / (correct + wrong); None when nothing was judged."""
    judged = counts[CORRECT] + counts[WRONG]
    return counts[CORRECT] / judged if judged else None


def _entry(counts: Counter) -> dict[str, Any]:
    return {"instances": counts[CORRECT] + counts[WRONG] + counts[UNALIGNED], "correct": counts[CORRECT],
            "wrong": counts[WRONG], "unaligned": counts[UNALIGNED], "absorbed": counts[ABSORBED],
            "accuracy": accuracy(counts)}


def signature(chrf_threshold: float = CHRF_THRESHOLD, aligned: bool = True, lang: str | None = None,
              references: int = 1, target: str | None = None) -> str:
    """The judgement, its matching ladder read left to right (exact, or exact then the lemmas of
    ``lang``; then the chrF fallback), how many references an instance may match and how the
    ``target`` language's text was tokenized."""
    match = "aligned" if aligned else "present"
    refs = f"refs:{references}|" if references > 1 else ""
    return (f"targeted:{match}|case:lc|punct:strip|{match_label(lang)}|fallback:chrF>={chrf_threshold:g}|{refs}"
            f"{tokens_label(target)}")


Reference = tuple[Sequence[str], Sequence[Link]]  # one reference's tokens and its source-reference links


def part_table(references: Sequence[Reference], output_links: Sequence[Link] | None, output_tokens: Sequence[str],
               n_source: int, chrf_threshold: float = CHRF_THRESHOLD, lang: str | None = None,
               positions: Any = None) -> np.ndarray:
    """Per reference and source word (0-based, ``n_source`` of them): whether the reference has
    words aligned to it (``[..., 0]``) and whether the output translates it as they do
    (``[..., 1]``); ``positions``: only these source words (the rest stay False). The control's
    random pairs are judged by the very same matches."""
    table = np.zeros((len(references), n_source, 2), dtype=bool)
    wanted = range(n_source) if positions is None else sorted(set(positions))
    for r, (tokens, links) in enumerate(references):
        for index in wanted:
            expected = aligned_words(links, index, tokens)
            if expected:
                table[r, index, 0] = True
                table[r, index, 1] = (
                    len(present_words(expected, output_tokens, chrf_threshold, lang)) == len(expected)
                    if output_links is None else
                    parts_match(aligned_words(output_links, index, output_tokens), expected, chrf_threshold, lang))
    return table


def verdicts(table: np.ndarray, heads: np.ndarray, dependents: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``correct``, ``wrong`` and ``absorbed`` for the instances at 0-based ``heads`` and
    ``dependents`` (arrays of one shape) by :func:`part_table`'s table: judged when the first
    reference (the dataset's) has words for the head, correct against any reference that has, else
    wrong; absorbed as judged by the reference that decided (the first, for a wrong one). Extra
    references widen what is accepted, never which instances are judged."""
    expected_head, head_ok = table[:, heads, 0], table[:, heads, 1]
    expected_dep, dep_ok = table[:, dependents, 0], table[:, dependents, 1]
    correct_by_ref = expected_head & head_ok & (~expected_dep | dep_ok)
    judged = expected_head[0]
    correct = judged & correct_by_ref.any(axis=0)
    wrong = judged & ~correct
    deciding = np.where(correct, correct_by_ref.argmax(axis=0), 0)
    absorbed = judged & ~np.take_along_axis(expected_dep, deciding[None], axis=0)[0]
    return correct, wrong, absorbed


def tally(instances: Sequence[Sequence[Mapping[str, Any]]], tables: Sequence[np.ndarray],
          verdict_rows: list[list[str]] | None = None) -> dict[str, Any]:
    """The counts and accuracy of :func:`targeted_accuracy` from each row's table;
    ``verdict_rows``, when given, receives each row's verdicts (segment-level validity needs them)."""
    total: Counter = Counter()
    by_distance: dict[int, Counter] = {}
    for row_instances, table in zip(instances, tables, strict=True):
        row_verdicts: list[str] = []
        if verdict_rows is not None:
            verdict_rows.append(row_verdicts)
        if not row_instances:
            continue
        heads = np.asarray([x["head"] - 1 for x in row_instances])  # 1-based word ids; tables are 0-based
        dependents = np.asarray([x["dependent"] - 1 for x in row_instances])
        correct, wrong, absorbed = verdicts(table, heads, dependents)
        for instance, ok, bad, folded in zip(row_instances, correct, wrong, absorbed):
            verdict = CORRECT if ok else WRONG if bad else UNALIGNED
            row_verdicts.append(verdict)
            counts = by_distance.setdefault(int(instance["distance"]), Counter())
            for count in (total, counts):
                count[verdict] += 1
                count[ABSORBED] += bool(folded)
    return {**_entry(total), "by_distance": [{"distance": d, **_entry(by_distance[d])} for d in sorted(by_distance)]}


def targeted_accuracy(
    instances: Sequence[Sequence[Mapping[str, Any]]],
    references: Sequence[str],
    predictions: Sequence[str],
    source_alignments: Sequence[Sequence[Link]],
    hypothesis_alignments: Sequence[Sequence[Link]] | None,
    chrf_threshold: float = CHRF_THRESHOLD,
    lang: str | None = None,
    extra_references: Sequence[tuple[Sequence[str], Sequence[Sequence[Link]]]] = (),
    verdict_rows: list[list[str]] | None = None,
    target: str | None = None,
) -> dict[str, Any]:
    """Accuracy over every instance of every row, and per exact distance (``by_distance``).
    ``hypothesis_alignments`` None: the ``present`` match (see the module). ``lang``: the
    target language of the lemma step (None: none). ``extra_references``: more references, each
    (one text per row, one source-reference alignment per row). ``target``: the target language
    whose tokens the alignments count (None: white-space tokens)."""
    aligned = hypothesis_alignments is not None
    if hypothesis_alignments is None:
        hypothesis_alignments = [None] * len(predictions)
    per_ref = [(references, source_alignments), *extra_references]
    by_row = zip(*(zip(texts, links, strict=True) for texts, links in per_ref), strict=True)
    tables = []
    rows = zip(instances, predictions, hypothesis_alignments, by_row, strict=True)
    for row_instances, prediction, hyp_links, row_refs in rows:
        refs = [(target_tokens(text, target), links) for text, links in row_refs]
        n_source = max([i + 1 for _, links in refs for i, _ in links]
                       + [max(x["head"], x["dependent"]) for x in row_instances] + [0])
        positions = {x[key] - 1 for x in row_instances for key in ("head", "dependent")}  # instances' words
        output = target_tokens(prediction, target)
        tables.append(part_table(refs, hyp_links, output, n_source, chrf_threshold, lang, positions))
    return {**tally(instances, tables, verdict_rows), "signature": signature(chrf_threshold, aligned, lang, len(per_ref), target)}
