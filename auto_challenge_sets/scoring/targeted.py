"""Targeted accuracy: was the long-distance dependency itself translated? (the paper's Appendix B,
done automatically).

For each lexical instance (dependent, head; 1-based word ids, as the dataset's ``instances``) of a row, the reference tokens aligned to the head and
to the dependent are the expected translation, and the output tokens aligned to them (an
alignment of the source to the system output) are the system's. Tokens are the white-space tokens
of the reference and the output (the tokenization contract of the dataset's alignments).

An instance is

- ``unaligned`` when its head has no reference token aligned to it: there is no expected
  translation to compare with (the paper's annotators removed such instances too);
- ``correct`` when its head matches and its dependent matches, else ``wrong``. A dependent with no
  reference token of its own is judged with its head: a German particle or reflexive pronoun is
  often absorbed into the English verb ("hört ... auf" -> "stops", "erinnert sich" ->
  "remembers"), and requiring a link of its own would drop most particle and reflexive instances
  (measured on WMT21 de-en with eflomal: 62% of particle instances at d >= 1). Such instances are
  counted as ``absorbed`` too.

A part matches when the output tokens aligned to it are the reference's (lower-cased, punctuation
at the tokens' ends stripped, as sets), or, the documented fallback for inflection and partial
overlap, when the sentence chrF of the output tokens against the reference tokens (sacrebleu's,
each side joined by spaces) is at least ``chrf_threshold`` ("reads" for "read" 73, "starts" for
"started" 56; "gave up" for "give up" 38 and "went" for "gone" 13 do not match). A part with no
output token aligned to it does not match: the system dropped it, or its translation is not
recognisable.

Accuracy is correct / (correct + wrong), overall and per exact distance d.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.pharaoh import Link, parse_pharaoh
from auto_challenge_sets.scoring.validation import is_int, listlike

CHRF_THRESHOLD = 50.0
CORRECT, WRONG, UNALIGNED, ABSORBED = "correct", "wrong", "unaligned", "absorbed"
_INSTANCE_KEYS = {"head": 1, "dependent": 1, "distance": 0}  # each key's smallest value


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


@lru_cache(maxsize=1)
def _chrf():
    from sacrebleu.metrics import CHRF

    return CHRF()


def parts_match(output: Sequence[str], expected: Sequence[str], chrf_threshold: float = CHRF_THRESHOLD) -> bool:
    """Whether the output words translate one part (head or dependent) as the reference does."""
    if not output:
        return False
    if set(output) == set(expected):
        return True
    return _similarity(" ".join(output), " ".join(expected)) >= chrf_threshold


def present_words(expected: Sequence[str], output_tokens: Sequence[str],
                  chrf_threshold: float = CHRF_THRESHOLD) -> list[str]:
    """Without an output alignment: the expected words the output has (or, the inflection
    fallback, a token of the output with sentence chrF >= ``chrf_threshold`` against the word)."""
    present = {w for w in map(_normal, output_tokens) if w}
    return [word for word in expected
            if word in present or any(_similarity(token, word) >= chrf_threshold for token in present)]


@lru_cache(maxsize=1 << 20)
def _similarity(output: str, expected: str) -> float:
    """Sentence chrF of output words against expected words (cached: systems share words)."""
    return _chrf().sentence_score(output, [expected]).score


def _part_matches(index: int, expected: list[str], output_links: Sequence[Link] | None,
                  output_tokens: Sequence[str], chrf_threshold: float) -> bool:
    if output_links is None:
        return len(present_words(expected, output_tokens, chrf_threshold)) == len(expected)
    return parts_match(aligned_words(output_links, index, output_tokens), expected, chrf_threshold)


def judge(instance: Mapping[str, Any], reference_links: Sequence[Link], output_links: Sequence[Link] | None,
          reference_tokens: Sequence[str], output_tokens: Sequence[str],
          chrf_threshold: float = CHRF_THRESHOLD) -> tuple[str, bool]:
    """One instance: ``correct``, ``wrong`` or ``unaligned`` (see the module's definition), and
    whether its dependent was judged with its head (no reference token of its own).
    ``output_links`` None: the ``present`` match (every expected word is in the output)."""
    head, dependent = instance["head"] - 1, instance["dependent"] - 1  # 1-based word ids; links are 0-based
    expected_head = aligned_words(reference_links, head, reference_tokens)
    if not expected_head:
        return UNALIGNED, False
    expected_dependent = aligned_words(reference_links, dependent, reference_tokens)
    verdict = CORRECT
    for index, expected in ((head, expected_head), (dependent, expected_dependent)):
        if expected and not _part_matches(index, expected, output_links, output_tokens, chrf_threshold):
            verdict = WRONG
            break
    return verdict, not expected_dependent


def accuracy(counts: Counter) -> float | None:
    """correct / (correct + wrong); None when nothing was judged."""
    judged = counts[CORRECT] + counts[WRONG]
    return counts[CORRECT] / judged if judged else None


def _entry(counts: Counter) -> dict[str, Any]:
    return {"instances": counts[CORRECT] + counts[WRONG] + counts[UNALIGNED], "correct": counts[CORRECT],
            "wrong": counts[WRONG], "unaligned": counts[UNALIGNED], "absorbed": counts[ABSORBED],
            "accuracy": accuracy(counts)}


def signature(chrf_threshold: float = CHRF_THRESHOLD, aligned: bool = True) -> str:
    match = "aligned" if aligned else "present"
    return f"targeted:{match}|case:lc|punct:strip|fallback:chrF>={chrf_threshold:g}|tok:space"


def targeted_accuracy(
    instances: Sequence[Sequence[Mapping[str, Any]]],
    references: Sequence[str],
    predictions: Sequence[str],
    source_alignments: Sequence[Sequence[Link]],
    hypothesis_alignments: Sequence[Sequence[Link]] | None,
    chrf_threshold: float = CHRF_THRESHOLD,
) -> dict[str, Any]:
    """Accuracy over every instance of every row, and per exact distance (``by_distance``).
    ``hypothesis_alignments`` None: the ``present`` match (see the module)."""
    aligned = hypothesis_alignments is not None
    if hypothesis_alignments is None:
        hypothesis_alignments = [None] * len(predictions)
    total: Counter = Counter()
    by_distance: dict[int, Counter] = {}
    for row_instances, reference, prediction, ref_links, hyp_links in zip(
            instances, references, predictions, source_alignments, hypothesis_alignments, strict=True):
        ref_tokens, out_tokens = reference.split(), prediction.split()
        for instance in row_instances:
            verdict, absorbed = judge(instance, ref_links, hyp_links, ref_tokens, out_tokens, chrf_threshold)
            counts = by_distance.setdefault(int(instance["distance"]), Counter())
            for tally in (total, counts):
                tally[verdict] += 1
                tally[ABSORBED] += absorbed
    return {**_entry(total), "by_distance": [{"distance": d, **_entry(by_distance[d])} for d in sorted(by_distance)],
            "signature": signature(chrf_threshold, aligned)}


def check_instances(values: Any, count: int) -> list[list[dict[str, int]]]:
    """``instances``: per row, a list of {head, dependent, distance} (the dataset's column)."""
    if not listlike(values) or len(values) != count:
        got = len(values) if listlike(values) else type(values).__name__
        raise ValueError(f"instances must be a list with one list of instances per prediction ({count}), got {got}")
    rows = []
    for i, row in enumerate(values):
        if not listlike(row):
            raise ValueError(f"instances[{i}] must be a list of instances, got {type(row).__name__}")
        checked = []
        for k, item in enumerate(row):
            if not isinstance(item, Mapping) or not all(is_int(item.get(key)) and item[key] >= minimum
                                                        for key, minimum in _INSTANCE_KEYS.items()):
                raise ValueError(f"instances[{i}][{k}] must have integer head and dependent (1-based word ids) "
                                 f"and distance (>= 0), as a lexical config's instances, got {item!r}")
            checked.append({key: int(item[key]) for key in ("head", "dependent", "distance")})
        rows.append(checked)
    return rows


def check_alignments(name: str, values: Any, count: int) -> list[list[Link]]:
    """Per row, a Pharaoh line (``"0-1 2-3"``) or a list of (source, target) index pairs."""
    if not listlike(values) or len(values) != count:
        got = len(values) if listlike(values) else type(values).__name__
        raise ValueError(f"{name} must be a list with one alignment per prediction ({count}), got {got}")
    rows = []
    for i, value in enumerate(values):
        if value is None:
            raise ValueError(f"{name}[{i}] is None: the row has no alignment (a dataset built with "
                             "--aligner none has none; rebuild it with an aligner)")
        if isinstance(value, str):
            try:
                rows.append(parse_pharaoh(value))
            except AlignmentError as error:
                raise ValueError(f"{name}[{i}]: {error.reason}") from None
            continue
        if not listlike(value) or not all(listlike(link) and len(link) == 2 and all(is_int(x) and x >= 0 for x in link)
                                          for link in value):
            raise ValueError(f"{name}[{i}] must be a Pharaoh line or a list of (source, target) index pairs, "
                             f"got {value!r}")
        rows.append(sorted({(int(a), int(b)) for a, b in value}))
    return rows
