"""The parse stage: corpus lines → one UD sentence per line, as CoNLL-U, in resumable shards
(:func:`~auto_challenge_sets.pipeline.stage_cache.run_sharded`). Cached blocks carry no line
numbers: ``# sent_id`` (the 1-based line number) and ``# text`` are set on the way out, so the same
lines parse once whatever their numbering. Empty lines have no sentence; the others keep their
line numbers as sent_ids.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from auto_challenge_sets.backends.file_provenance import file_checksum
from auto_challenge_sets.backends.parsers import Parser, ParseStats, stats_from_sentences
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.conllu import format_sentence, parse_conllu
from auto_challenge_sets.formats.corpus import format_line_numbers, read_lines
from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS
from auto_challenge_sets.formats.text import atomic_write_text, make_folder, read_json
from auto_challenge_sets.formats.ud import Sentence
from auto_challenge_sets.paths import default_cache_dir
from auto_challenge_sets.pipeline.corpus_inputs import PreParsedSource
from auto_challenge_sets.pipeline.executors import Executor, ShardWork
from auto_challenge_sets.pipeline.specs import ParserSpec
from auto_challenge_sets.pipeline.stage_cache import PARSE_SHARD_SIZE, cache_note, run_sharded

# The source parse: a parser to run (a ready backend or a spec) or a file.
SourceParse = Parser | ParserSpec | PreParsedSource

STAGE = "parse"
FORMAT_VERSION = 1  # bump when what a shard holds changes


def _annotate(sentence: Sentence, number: int, text: str) -> Sentence:
    """``# sent_id`` and ``# text`` first, then the backend's own ``acs_`` marks (merges, chunks)."""
    kept = [c for c in sentence.comments if c.startswith("# acs_")]
    sentence.comments = [f"# sent_id = {number}", f"# text = {text}", *kept]
    return sentence


def _check_lines(lines: Sequence[str], line_numbers: Sequence[int] | None) -> list[int]:
    numbers = list(line_numbers) if line_numbers is not None else list(range(1, len(lines) + 1))
    for number, line in zip(numbers, lines):
        if not line.strip():
            raise InputError("an empty line has no sentence (skip it before parsing)", line=number)
        if "\n" in line or "\r" in line:
            raise InputError("a line to parse must not contain a line break", line=number)
    return numbers


def _parse_shard(backend: Parser, batch: list[str]) -> list[str]:
    return [format_sentence(sentence) for sentence in backend.parse(batch)]


def parse_lines(
    lines: Sequence[str],
    *,
    lang: str,
    parser: SourceParse,
    line_numbers: Sequence[int] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    shard_size: int = PARSE_SHARD_SIZE,
    progress: bool = True,
    executor: Executor | None = None,
    factory: Callable[[], Parser] | None = None,
) -> list[Sentence]:
    """Parse non-empty lines into one sentence each (``# sent_id`` = its line number). ``cache_dir``
    is the stage cache, also told to the parser; ``executor`` runs the shards, making the parser in
    other processes with ``factory`` (default: from ``parser`` when it is a spec)."""
    numbers = _check_lines(lines, line_numbers)
    backend = parser.create(lang, cache_dir) if isinstance(parser, ParserSpec) else parser
    backend.check_ready()  # missing models fail here, before any work
    if isinstance(backend, PreParsedSource):  # nothing to compute: read and check, no cache
        sentences = backend.read(list(lines), line_numbers=numbers)
        return [_annotate(s, n, t) for s, n, t in zip(sentences, numbers, lines)]

    if factory is None and isinstance(parser, ParserSpec):
        factory = functools.partial(parser.create, lang, cache_dir)
    work = ShardWork(factory, _parse_shard, ready=backend)
    key = {**backend.cache_key(), "lang": lang, "format": FORMAT_VERSION}
    try:
        blocks = run_sharded(list(lines), work, cache_dir=cache_dir or default_cache_dir(), stage=STAGE,
                             key=key, shard_size=shard_size, progress=progress, executor=executor)
    finally:
        if backend is not parser:  # made here: release the model here
            backend.close()
    out = []
    for block, number, text in zip(blocks, numbers, lines):
        (sentence,) = parse_conllu(block, f"<cached parse of line {number}>")
        out.append(_annotate(sentence, number, text))
    return out


def write_parse(sentences: Sequence[Sentence], output: str | os.PathLike[str]) -> None:
    """Write the CoNLL-U file atomically (``-``: standard output)."""
    text = "".join(format_sentence(sentence) for sentence in sentences)
    if str(output) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(output)
    make_folder(path.parent)
    atomic_write_text(path, text)


@dataclass
class ParseSummary:
    lines: int = 0
    parsed: int = 0
    empty_lines: list[int] = field(default_factory=list)
    stats: ParseStats = field(default_factory=ParseStats)
    seconds: float = 0.0

    def messages(self) -> list[str]:
        rate = self.parsed / self.seconds if self.seconds > 0 else 0.0
        out = [f"parsed {self.parsed} of {self.lines} lines in {self.seconds:.1f} s ({rate:.1f} lines/s)"]
        if self.empty_lines:
            out.append(f"skipped {len(self.empty_lines)} empty line(s): line {format_line_numbers(self.empty_lines)}")
        return out + self.stats.messages()


def parse_file(
    input_path: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    lang: str,
    parser: SourceParse,
    cache_dir: str | os.PathLike[str] | None = None,
    shard_size: int = PARSE_SHARD_SIZE,
    progress: bool = True,
) -> ParseSummary:
    """Parse a text file (one sentence per line) into a CoNLL-U file."""
    start = time.monotonic()
    all_lines = read_lines(input_path, max_chars=MAX_CHARACTERS)  # the build's line limit: no parse of a 100 MB line
    summary = ParseSummary(lines=len(all_lines))
    numbers, lines = [], []
    for number, line in enumerate(all_lines, start=1):
        if line.strip():
            numbers.append(number)
            lines.append(line)
        else:
            summary.empty_lines.append(number)
    sentences = parse_lines(lines, lang=lang, parser=parser, line_numbers=numbers,
                            cache_dir=cache_dir, shard_size=shard_size, progress=progress)
    write_parse(sentences, output)
    summary.parsed = len(sentences)
    summary.stats = stats_from_sentences(sentences, numbers)
    summary.seconds = time.monotonic() - start
    return summary


def default_shard_size(lines: int, executor: Executor | None) -> int:
    """:data:`PARSE_SHARD_SIZE`, or fewer lines so that each of an executor's ``jobs`` workers gets
    two shards. The output is the same for every size."""
    jobs = getattr(executor, "jobs", 1)
    if jobs <= 1:
        return PARSE_SHARD_SIZE
    return max(1, min(PARSE_SHARD_SIZE, -(-lines // (2 * jobs))))


def parse_source_for_build(
    source_lines: Sequence[str],
    lang: str,
    parser: ParserSpec,
    *,
    line_numbers: Sequence[int] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    shard_size: int | None = None,
    progress: bool = True,
    executor: Executor | None = None,
) -> tuple[Path, list[str]]:
    """The build's parse of ``source_lines`` (the kept pairs' sources): a CoNLL-U file in the cache,
    named by the parse key and the line numbers, written once (its shards make a killed build resume),
    and its notes (lines merged into one tree, ...), whichever run parsed it."""
    shard_size = shard_size or default_shard_size(len(source_lines), executor)
    backend = parser.create(lang, cache_dir)
    try:
        backend.check_ready()
        numbers = list(line_numbers) if line_numbers is not None else list(range(1, len(source_lines) + 1))
        digest = hashlib.sha256(json.dumps(
            {**backend.cache_key(), "lang": lang, "format": FORMAT_VERSION, "shard_size": shard_size,
             "numbers": numbers}, sort_keys=True).encode("utf-8"))
        for line in source_lines:
            digest.update(line.encode("utf-8") + b"\n")
        name = f"{parser.name}-{lang}-{digest.hexdigest()[:24]}.conllu"
        target = Path(cache_dir or default_cache_dir()) / "parsed" / name
        notes = _cached_notes(target)
        if notes is None:
            sentences = parse_lines(source_lines, lang=lang, parser=backend, line_numbers=numbers,
                                    cache_dir=cache_dir, shard_size=shard_size, progress=progress,
                                    executor=executor, factory=functools.partial(parser.create, lang, cache_dir))
            write_parse(sentences, target)
            notes = stats_from_sentences(sentences, numbers).messages()
            atomic_write_text(_notes_path(target), json.dumps(
                {"sha256": file_checksum(target), "notes": notes}, ensure_ascii=False, indent=1) + "\n")
    finally:
        backend.close()
    return target, notes


def _notes_path(target: Path) -> Path:
    return target.with_name(target.name + ".json")


def _cached_notes(target: Path) -> list[str] | None:
    """The parse notes (lines merged into one tree, ...) kept beside a cached parse file; None when
    the file must be made: absent, without its notes, or changed since it was written."""
    try:
        info = read_json(_notes_path(target))  # bounded: what is not a regular JSON file is made again
        recorded, notes = info["sha256"], info["notes"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not target.is_file():
        return None
    if file_checksum(target) != recorded:
        cache_note(target, "parse")
        return None
    return [str(note) for note in notes]
