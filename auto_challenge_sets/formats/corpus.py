"""Parallel corpora: two plain-text files, one sentence per line, line N of one translating line N
of the other.

The policy, never silent (decoding as in :mod:`auto_challenge_sets.formats.text`; standard input,
``-``, read by it too as ``<stdin>``):

- invalid UTF-8, a file that cannot be read, and two files of different lengths are errors naming them;
- a BOM at the start of a file is dropped and a CRLF read as LF; a CR inside a line is read as a
  space, and so is every character tokenizers take for a line break or garbage (U+2028, U+2029,
  the C1 controls such as NEL, DEL, the C0 controls but TAB, a BOM past the start); each is
  counted in :class:`ReadReport` by file and line;
- a pair with an empty (or blank) side is skipped and its line kept in :attr:`ReadReport.empty_lines`;
  ``line`` is always the 1-based line of the original files.
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO

from auto_challenge_sets.errors import CorpusError, InputError, RequestError
from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS, line_excess
from auto_challenge_sets.formats.text import numbered_lines, open_binary

# read as spaces inside a line (CR is counted apart, with the line ends; TAB is text)
INNER_BREAKS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff]")
STDIN = "<stdin>"  # how errors and notes name standard input


def format_line_numbers(numbers: Sequence[int], shown: int = 10) -> str:
    """``3, 8, 9`` — the first ``shown`` line numbers, then how many there are in all."""
    text = ", ".join(map(str, numbers[:shown]))
    return text + (f", … ({len(numbers)} in all)" if len(numbers) > shown else "")


@dataclass
class ReadReport:
    """What the reading policy did, to be printed at the end of a run."""

    bom_files: list[str] = field(default_factory=list)
    crlf_lines: dict[str, int] = field(default_factory=dict)
    inner_cr_lines: dict[str, list[int]] = field(default_factory=dict)
    # the other line breaks and control characters read as spaces: lines, and the characters as
    # ``U+2028``, of each file
    control_lines: dict[str, list[int]] = field(default_factory=dict)
    control_chars: dict[str, list[str]] = field(default_factory=dict)
    empty_lines: list[int] = field(default_factory=list)

    def messages(self) -> list[str]:
        out = [f"{path}: dropped a UTF-8 byte-order mark" for path in self.bom_files]
        out += [f"{path}: read {count} CRLF line ends as LF" for path, count in self.crlf_lines.items()]
        out += [f"{path}: read carriage returns inside {len(lines)} line(s) as spaces: line "
                f"{format_line_numbers(lines)}" for path, lines in self.inner_cr_lines.items()]
        out += [f"{path}: read line separators or control characters ({', '.join(self.control_chars[path])}) "
                f"inside {len(lines)} line(s) as spaces: line {format_line_numbers(lines)}"
                for path, lines in self.control_lines.items()]
        if self.empty_lines:
            out.append(f"skipped {len(self.empty_lines)} pair(s) with an empty side: "
                       f"line {format_line_numbers(self.empty_lines)}")
        return out


@dataclass(frozen=True, slots=True)
class SentencePair:
    line: int  # 1-based line in both files
    source: str
    target: str


@dataclass
class ParallelCorpus:
    name: str
    source_path: str
    target_path: str
    pairs: Sequence[SentencePair] | PairStream  # a list (read_parallel) or a stream (stream_parallel)
    total_lines: int
    report: ReadReport
    # lines whose source side is not empty (a superset of the pairs' lines): what a parse of the
    # source file alone, such as `acs parse` writes, has one sentence for
    source_lines: Sequence[int] = field(default_factory=list)


def iter_lines(path: str | os.PathLike[str], report: ReadReport | None = None,
               error: type[InputError] = CorpusError, max_chars: int | None = None) -> Iterator[str]:
    """The lines of a UTF-8 text file by the module's policy, filling ``report``; problems raise
    ``error`` naming the file and line, and so does a line of more than ``max_chars`` characters."""
    with open_binary(path, error) as handle:
        yield from _handle_lines(handle, str(path), report, error, max_chars)


def read_stream_lines(handle: IO[bytes], report: ReadReport | None = None, name: str = STDIN,
                      error: type[InputError] = CorpusError) -> list[str]:
    """All lines of an open binary stream (``sys.stdin.buffer``) by the same policy, named ``name``."""
    return list(_handle_lines(handle, name, report, error))


def _handle_lines(handle: IO[bytes], name: str, report: ReadReport | None,
                  error: type[InputError], max_chars: int | None = None) -> Iterator[str]:
    crlf = 0
    inner_cr: list[int] = []
    controls: list[int] = []
    seen: set[str] = set()
    bom_files = None if report is None else report.bom_files
    for number, line in numbered_lines(handle, name, error, max_chars, bom_files=bom_files):
        if not line.isprintable():  # all of INNER_BREAKS and CR are not, nor TAB
            if line.endswith("\r"):
                line = line[:-1]
                crlf += 1
            if "\r" in line:
                line = line.replace("\r", " ")
                inner_cr.append(number)
            found = INNER_BREAKS.findall(line)
            if found:
                seen.update(found)
                controls.append(number)
                line = INNER_BREAKS.sub(" ", line)
        yield line
    if report is not None:
        if crlf:
            report.crlf_lines[name] = crlf
        if inner_cr:
            report.inner_cr_lines[name] = inner_cr
        if controls:
            report.control_lines[name] = controls
            report.control_chars[name] = [f"U+{ord(char):04X}" for char in sorted(seen)]


def read_lines(path: str | os.PathLike[str], report: ReadReport | None = None,
               error: type[InputError] = CorpusError, max_chars: int | None = None) -> list[str]:
    """All lines of a UTF-8 text file (:func:`iter_lines`)."""
    return list(iter_lines(path, report, error, max_chars))


class PairStream:
    """The kept pairs of a corpus, read from its files each time they are iterated, never held:
    what a build of millions of pairs needs. Made by :func:`stream_parallel`, which reads both
    files once first to check them and count the pairs."""

    def __init__(self, source: str | os.PathLike[str], target: str | os.PathLike[str], count: int):
        self.source, self.target, self.count = source, target, count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[SentencePair]:
        for number, (src, tgt) in enumerate(zip(iter_lines(self.source), iter_lines(self.target)), start=1):
            if src.strip() and tgt.strip():
                yield SentencePair(number, src, tgt)


def stream_parallel(
    source: str | os.PathLike[str], target: str | os.PathLike[str], name: str = "corpus",
    tokenize: Callable[[str], str] = str,
) -> ParallelCorpus:
    """Read a parallel corpus of any size (the module's policy): one pass over both files checks
    them, counts the pairs and fills the report; the pairs are a :class:`PairStream` (read again
    when iterated) and the non-empty source lines a compact array. A line over the limit
    (:mod:`~auto_challenge_sets.formats.line_limit`) is an error naming it: a source line's words
    counted, a target line's tokens under ``tokenize`` (the build passes the tokenizer evaluate
    counts a reference with, so that a set that builds can be scored)."""
    report = ReadReport()
    source_lines = array("q")
    total = kept = 0
    sources = iter_lines(source, report, max_chars=MAX_CHARACTERS)
    targets = iter_lines(target, report, max_chars=MAX_CHARACTERS)
    for total, src in enumerate(sources, start=1):  # noqa: B007 (total is the line count)
        tgt = next(targets, None)
        if tgt is None:
            rest = total + sum(1 for _ in sources)
            raise CorpusError(f"the source has {rest} lines but the target {target} has {total - 1}", source)
        for path, line, count, who in ((source, src, str, "a build reads"),
                                       (target, tgt, tokenize, "the metric scores (its tokens for the target language)")):
            try:
                why = line_excess(line, count)
            except RequestError as error:  # a tokenizer that cannot run here (ja-mecab without its package)
                raise CorpusError(f"cannot count the tokens of this long line: {error.detail}", path, total) from None
            if why is not None:
                raise CorpusError(f"the line {why} that {who}", path, total)
        if src.strip():
            source_lines.append(total)
        if not src.strip() or not tgt.strip():
            report.empty_lines.append(total)
        else:
            kept += 1
    more = sum(1 for _ in targets)
    if more:
        raise CorpusError(f"the source has {total} lines but the target {target} has {total + more}", source)
    return ParallelCorpus(name, str(source), str(target), PairStream(source, target, kept), total, report,
                          source_lines)


def read_parallel(
    source: str | os.PathLike[str], target: str | os.PathLike[str], name: str = "corpus"
) -> ParallelCorpus:
    """Read a parallel corpus that fits in memory; pairs with an empty side are skipped and counted
    (:func:`stream_parallel`, its pairs and line numbers read into lists)."""
    corpus = stream_parallel(source, target, name)
    corpus.pairs = list(corpus.pairs)
    corpus.source_lines = list(corpus.source_lines)
    return corpus
