"""Per-line analysis of a parallel corpus: the source tree's phenomenon instances and the
alignment links, from which every config's rows are drawn.

The source tokens are the words of the source-side UD parse (multiword tokens expanded); the
target tokens are the target line's (:func:`target_tokens`); alignment indices refer to these two
lists (docs/method.md, "Tokenization contract").

A parse must be a parse of its corpus line, or the rows' ``source_tokens`` would not be their
``source``: every sentence's surface forms, and its ``# text`` where it has one, must spell the
corpus line, ignoring white space, invisible format characters (soft hyphen, zero-width
characters, direction marks, U+FEFF) and Unicode normalization (NFC). There is no tolerance: one
mismatching sentence is a :class:`~auto_challenge_sets.errors.ConlluError` naming the first one
(the CoNLL-U file and line, its corpus line, where the two differ) and how many mismatch in all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import tee
from typing import Any

from auto_challenge_sets.configs import KIND_BASELINE, KIND_REORDER, ConfigName
from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.formats.corpus import ParallelCorpus, SentencePair, format_line_numbers
from auto_challenge_sets.formats.pharaoh import Link, format_pharaoh
from auto_challenge_sets.formats.target_languages import (
    target_tokens,  # white space; a character per token in zh, ja
)
from auto_challenge_sets.formats.ud import Sentence
from auto_challenge_sets.phenomena.registry import Instance, Phenomenon, get_phenomenon, iter_instances

# white space and the invisible format characters that tokenizers may drop (see the module's policy)
_IGNORED = re.compile("[\\s\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]+")


def _letters(text: str) -> str:
    return _IGNORED.sub("", unicodedata.normalize("NFC", text))


def same_text(parsed: str, line: str) -> bool:
    """Whether a parse's text is the corpus line's, by the module's policy."""
    if parsed == line or parsed == line.replace(" ", ""):
        return True  # the common case, without normalizing (equal strings stay equal when normalized)
    return _letters(parsed) == _letters(line)


def _where_they_differ(parsed: str, line: str) -> str:
    a, b = _letters(parsed), _letters(line)
    at = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, at - 20)
    return f"{'…' if start else ''}{a[start:at + 20]!r} vs {'…' if start else ''}{b[start:at + 20]!r}"


def text_mismatch(sentence: Sentence, line: str) -> str | None:
    """Why ``sentence`` is not a parse of the corpus line ``line`` (see the module's policy), or None."""
    text = sentence.text
    if text is not None and not same_text(text, line):
        return f"its # text is another text: {_where_they_differ(text, line)} (white space removed)"
    forms = "".join(sentence.surface_forms())
    if not same_text(forms, line):
        return (f"its word forms spell another text than the line: {_where_they_differ(forms, line)} "
                "(white space removed)")
    return None


@dataclass
class LineAnalysis:
    line: int
    source: str
    reference: str
    source_tokens: list[str]
    target_tokens: list[str]
    lexical: dict[str, list[Instance]] = field(default_factory=dict)
    links: list[Link] | None = None
    source_upos: list[str] = field(default_factory=list)  # the parse's UPOS of each word of source_tokens


def matched_pairs(corpus: ParallelCorpus, numbered: Iterable[tuple[int | None, Sentence]], conllu_path: str,
                  count: int | None = None) -> Iterator[tuple[SentencePair, Sentence]]:
    """The kept pairs with their sentences, checked against their corpus lines, as a stream.

    ``numbered`` yields ``(CoNLL-U line where the sentence starts or None, sentence)``: one sentence
    per non-empty source line (those of pairs with an empty target are dropped here) or one per
    kept pair; ``count``, the number of sentences, tells which when the two differ. A mismatching
    sentence, or another number of sentences, is an error raised when the stream ends (every
    sentence checked); no pair is yielded after the first mismatch.
    """
    wanted = sentence_layout(corpus, count, conllu_path)
    pairs = iter(corpus.pairs)
    wrong: list[int] = []
    first = None
    n = 0
    for n, (start, sentence) in enumerate(numbered, start=1):
        if wanted is not None and (n > len(corpus.source_lines) or corpus.source_lines[n - 1] not in wanted):
            continue
        pair = next(pairs, None)
        if pair is None:
            continue  # more sentences than pairs: counted, and reported below
        reason = text_mismatch(sentence, pair.source)
        if reason is not None:
            wrong.append(pair.line)
            first = first or (n, sentence.sent_id, pair, reason, start)
        elif not wrong:
            yield pair, sentence
    check_matched(corpus, n, wanted is not None, wrong, first, conllu_path)


def sentence_layout(corpus: ParallelCorpus, count: int | None, conllu_path: str) -> set[int] | None:
    """None when a parse of ``count`` sentences has one per kept pair, else the corpus lines of the
    kept pairs (it has one per non-empty source line); a count that fits neither is an error."""
    kept = len(corpus.pairs)
    per_source_line = count is not None and count == len(corpus.source_lines) and count != kept
    if count is not None and count != kept and not per_source_line:
        raise _count_error(corpus, count, conllu_path)
    if count is None and len(corpus.source_lines) != kept:
        raise ValueError("matched_pairs needs the number of sentences when some pairs have an empty target")
    return {pair.line for pair in corpus.pairs} if per_source_line else None


Mismatch = tuple[int, str | None, SentencePair, str, int | None]  # sentence number, sent_id, pair, reason, start


def check_matched(corpus: ParallelCorpus, n: int, per_source_line: bool, wrong: list[int],
                  first: Mismatch | None, conllu_path: str) -> None:
    """The errors of a stream that ended: ``n`` sentences read, the corpus lines of those that do
    not match (``wrong``), the first of them (``first``)."""
    kept = len(corpus.pairs)
    if n != (len(corpus.source_lines) if per_source_line else kept):
        raise _count_error(corpus, n, conllu_path)
    if first is not None:
        n, sent_id, pair, reason, start = first
        others = (f"; {len(wrong)} of {kept} sentences do not match their lines: line "
                  f"{format_line_numbers(wrong)}") if len(wrong) > 1 else ""
        raise ConlluError(f"sentence {n} (sent_id {sent_id}) does not match line {pair.line} of "
                          f"{corpus.source_path}: {reason}{others}", conllu_path, start)


def _count_error(corpus: ParallelCorpus, count: int, conllu_path: str) -> ConlluError:
    return ConlluError(f"has {count} sentences but {corpus.source_path} has {len(corpus.source_lines)} non-empty "
                       f"lines ({len(corpus.pairs)} pairs with both sides non-empty): a source-side CoNLL-U needs "
                       "one sentence per non-empty source line, in order", conllu_path)


def analyse_pairs(matched: Iterable[tuple[SentencePair, Sentence]], alignments: Sequence[Sequence[Link]] | None,
                  phenomena: Sequence[str | Phenomenon], target: str | None = None) -> Iterator[LineAnalysis]:
    """The analysis of each kept pair of a stream (``alignments``: each pair's links, in order, to
    the ``target`` language's tokens), the rules applied a block of sentences at a time
    (:func:`~auto_challenge_sets.phenomena.registry.iter_instances`; ``tee`` holds the block's pairs)."""
    for_pairs, for_sentences = tee(matched)
    found = iter_instances((sentence for _, sentence in for_sentences), phenomena)
    for index, ((pair, _), (sentence, lexical)) in enumerate(zip(for_pairs, found)):
        links = None if alignments is None else list(alignments[index])
        yield LineAnalysis(pair.line, pair.source, pair.target, sentence.forms, target_tokens(pair.target, target),
                           lexical, links, [word.upos for word in sentence.words])


@dataclass
class ConfigSelection:
    """What one config selects: the index of each selected pair, its row's distance and instances."""

    indices: list[int] = field(default_factory=list)
    distances: list[int] = field(default_factory=list)
    instances: list[list[dict]] = field(default_factory=list)


def shared_columns(analysis: LineAnalysis, corpus: str) -> dict:
    """The columns of a pair's row that every config shares; ``alignment`` is the pair's
    source-reference links as a Pharaoh line (None when the build had no alignment)."""
    return {
        "id": f"{corpus}:{analysis.line}",
        "corpus": corpus,
        "line": analysis.line,
        "source": analysis.source,
        "reference": analysis.reference,
        "source_tokens": analysis.source_tokens,
        "source_upos": analysis.source_upos or None,
        "alignment": None if analysis.links is None else format_pharaoh(analysis.links),
        "length": len(analysis.source_tokens),
    }


def config_columns(config: ConfigName) -> dict:
    """The columns whose value is the config's own, the same in all of its rows."""
    return {"src_lang": config.src, "tgt_lang": config.tgt, "phenomenon": config.phenomenon}


def select(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str) -> list[ConfigSelection]:
    """What each config in ``configs`` selects of ``analyses``, from one look at each pair: every
    pair with an instance at distance >= D, its row's ``instances`` those at distance >= D and its
    ``distance`` the largest (the baseline: every pair, no instances). Each phenomenon's instances
    are made once and cut at each of its configs' D, so a row's ``instances`` list may be the same
    object in several configs: read it, do not change it."""
    selections = [ConfigSelection() for _ in configs]
    lexical: dict[str, list[tuple[ConfigSelection, int]]] = {}  # phenomenon -> its configs and their D
    reorder: list[tuple[ConfigSelection, ConfigName, int, Any]] = []
    for config, selection in zip(configs, selections):
        minimum = config.min_distance or 0
        if config.kind == KIND_BASELINE:
            selection.indices = list(range(len(analyses)))
            selection.distances = [0] * len(analyses)
            selection.instances = [[]] * len(analyses)  # one empty list: see the docstring
        elif config.kind == KIND_REORDER:
            reorder.append((selection, config, minimum, get_phenomenon(config.phenomenon).measure))
        else:
            lexical.setdefault(config.phenomenon, []).append((selection, minimum))
    for index, analysis in enumerate(analyses):
        for phenomenon, members in lexical.items():
            found = analysis.lexical[phenomenon]
            if not found:
                continue
            distances = [i.distance for i in found]
            every = [i.to_dict() for i in found]
            top, low = max(distances), min(distances)  # the row's distance is the largest, whatever its D
            for selection, minimum in members:
                if top >= minimum:
                    selection.indices.append(index)
                    selection.distances.append(top)
                    selection.instances.append(every if low >= minimum else
                                               [i for d, i in zip(distances, every) if d >= minimum])
        for selection, config, minimum, measure in reorder:
            if analysis.links is None:
                raise ValueError(f"config {config} needs alignments, and {corpus} has none")
            score, found = measure(analysis.links, analysis.source_tokens, analysis.target_tokens, minimum)
            if score is not None and score >= minimum and found:
                selection.indices.append(index)
                selection.distances.append(score)
                selection.instances.append([i.to_dict() for i in found])
    return selections
