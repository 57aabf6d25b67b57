"""The rows of a build's configs made on worker processes (``acs build --jobs N``).

This process cuts the parse, as bytes (:func:`~auto_challenge_sets.formats.conllu.sentence_ends`), into
chunks of whole sentences, each with its kept pairs and links; a worker parses a chunk, checks each
sentence against its line and makes the chunk's columns of each config. Tables are written in chunk
order and row groups are cut by row count alone, so the folder is byte-identical to ``--jobs 1``.
Errors are those of the single-process build, in the same order.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.configs import ConfigName
from auto_challenge_sets.dataset.arrow_rows import ChunkColumns, chunk_columns, tables_from
from auto_challenge_sets.formats.conllu import iter_numbered_sentences, sentence_ends
from auto_challenge_sets.formats.corpus import SentencePair
from auto_challenge_sets.formats.pharaoh import Link
from auto_challenge_sets.pipeline.executors import ProcessExecutor
from auto_challenge_sets.pipeline.run_build import AnalysedPairs, BuildOutput
from auto_challenge_sets.selection import (
    Mismatch,
    analyse_pairs,
    check_matched,
    sentence_layout,
    text_mismatch,
)
from auto_challenge_sets.workers import imap

# Pairs per chunk at least: a worker's start costs more than a smaller chunk's selection saves.
MIN_CHUNK = 1000


@dataclass
class Chunk:
    """What a worker gets: whole sentences as bytes, from file line ``first_line`` and sentence
    ``first_sentence`` on, each sentence's pair (None: not kept), and the kept pairs' links."""

    first_line: int
    data: bytes
    first_sentence: int
    pairs: list[SentencePair | None]
    links: list[list[Link]] | None


class ChunkRows:
    """The work of a worker: a chunk → ``(its columns, its mismatches)``; no columns once a sentence
    mismatches (the build fails then)."""

    def __init__(self, conllu_path: str, phenomena: list[Any], configs: Sequence[ConfigName], corpus: str,
                 schemas: Sequence[Any], target: str | None = None):
        self.conllu_path, self.phenomena, self.configs = conllu_path, phenomena, list(configs)
        self.corpus, self.schemas = corpus, list(schemas)
        self.target = target  # the target language: its tokens (characters in Chinese and Japanese)

    def __call__(self, chunk: Chunk) -> tuple[ChunkColumns | None, list[Mismatch]]:
        sentences = list(iter_numbered_sentences(io.BytesIO(chunk.data), self.conllu_path, chunk.first_line))
        if len(sentences) != len(chunk.pairs):  # sentence_ends and the reader disagree: a bug of ours
            raise RuntimeError(f"{self.conllu_path}: {len(sentences)} sentences parsed from line "
                               f"{chunk.first_line}, {len(chunk.pairs)} expected")
        matched, wrong = [], []
        for n, ((start, sentence), pair) in enumerate(zip(sentences, chunk.pairs), start=chunk.first_sentence):
            if pair is None:
                continue
            reason = text_mismatch(sentence, pair.source)
            if reason is not None:
                wrong.append((n, sentence.sent_id, pair, reason, start))
            elif not wrong:
                matched.append((pair, sentence))
        if wrong:
            return None, wrong
        analyses = list(analyse_pairs(matched, chunk.links, self.phenomena, self.target))
        return chunk_columns(analyses, self.configs, self.corpus, self.schemas), []


def parallel_tables(output: BuildOutput, configs: Sequence[ConfigName], schemas: Sequence[Any],
                    chunk: int) -> Iterator[list[Any]] | None:
    """Each chunk's table of each config (None: no row), in order, made on worker processes; None
    where the build runs in this process (one job, another executor, or a small corpus)."""
    executor, analyses = output.spec.executor, output.analyses
    if not isinstance(executor, ProcessExecutor) or executor.jobs <= 1 or not isinstance(analyses, AnalysedPairs):
        return None
    if len(analyses.corpus.pairs) < 2 * MIN_CHUNK:
        return None
    work = ChunkRows(str(analyses.path), analyses.phenomena(), configs, output.spec.corpus, schemas, analyses.target)
    size = max(MIN_CHUNK, min(chunk, -(-len(analyses.corpus.pairs) // (2 * executor.jobs))))
    return _in_order(executor.jobs, work, _Chunks(analyses, size))


class _Chunks:
    """The parse cut into chunks of ``size`` kept pairs, and, once read, its sentence count."""

    def __init__(self, analyses: AnalysedPairs, size: int):
        self.analyses, self.size = analyses, size
        self.wanted = sentence_layout(analyses.corpus, analyses.count, str(analyses.path))
        self.sentences = 0

    def __iter__(self) -> Iterator[Chunk]:
        corpus, alignments, wanted = self.analyses.corpus, self.analyses.alignments, self.wanted
        pairs = iter(corpus.pairs)
        n = kept = 0  # sentences read, and those given a pair
        first_line, first_kept = 1, 0
        parts: list[bytes] = []
        items: list[SentencePair | None] = []

        def cut() -> Chunk:
            links = None if alignments is None else alignments[first_kept:kept]
            return Chunk(first_line, b"".join(parts), n - len(items) + 1, items, links)

        for block_line, block, ends in sentence_ends(self.analyses.path):
            done = 0
            for end in ends:
                n += 1
                pair = None
                if wanted is None or (n <= len(corpus.source_lines) and corpus.source_lines[n - 1] in wanted):
                    pair = next(pairs, None)
                items.append(pair)
                if pair is not None:
                    kept += 1
                    if kept % self.size == 0:
                        parts.append(block[done:end])
                        yield cut()
                        first_kept, done, parts, items = kept, end, [], []
                        first_line = block_line + block.count(b"\n", 0, end)
            parts.append(block[done:])
        self.sentences = n
        if items:
            yield cut()


def _in_order(jobs: int, work: ChunkRows, chunks: _Chunks) -> Iterator[list[Any]]:
    """The workers' tables in chunk order; a parse error raised at its chunk's turn, then the
    sentence count's and the mismatches' (:func:`~auto_challenge_sets.selection.check_matched`)."""
    analyses = chunks.analyses
    wrong: list[Mismatch] = []
    bar = None
    if analyses.progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(analyses.corpus.pairs), desc="reading parse", unit="sent")
    try:
        for columns, mismatches in imap(work, chunks, jobs, fresh=True):
            wrong += mismatches
            if columns is not None and not wrong:
                if bar is not None:
                    bar.update(columns.pairs)
                yield tables_from(columns, work.configs, work.schemas)
    finally:
        if bar is not None:
            bar.close()
    check_matched(analyses.corpus, chunks.sentences, chunks.wanted is not None, [m[2].line for m in wrong],
                  wrong[0] if wrong else None, str(analyses.path))
