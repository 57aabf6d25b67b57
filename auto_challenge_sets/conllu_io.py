"""Reading and writing CoNLL-U (https://universaldependencies.org/format.html).

Reading is strict where a wrong answer would follow (column count, IDs, HEAD) and lossless
otherwise: ``format_sentence(read(x)) == x`` for valid UD files. Every problem raises
:class:`~auto_challenge_sets.errors.ConlluError` naming the file and 1-based line.

Decoding follows :mod:`auto_challenge_sets.text_io` (BOM dropped, CRLF read as LF, invalid UTF-8
an error with its line number); output is always UTF-8 with LF.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.text_io import numbered_lines
from auto_challenge_sets.ud import EmptyNode, MultiwordToken, Sentence, Token

BOM = "\ufeff"


class _SentenceReader:
    """Collects the lines of one sentence and checks them as it goes."""

    __slots__ = ("first_line", "pending_mwt", "sentence", "source", "word_lines")

    def __init__(self, source: str):
        self.source = source
        self.sentence: Sentence | None = None
        self.first_line = 0
        self.pending_mwt: MultiwordToken | None = None
        self.word_lines: list[int] = []

    def _fail(self, message: str, line: int) -> None:
        raise ConlluError(message, self.source, line)

    def add_comment(self, line: str, number: int) -> None:
        if self.sentence is None:
            self.sentence = Sentence()
            self.first_line = number
        elif self.sentence.words or self.sentence.multiword_tokens or self.sentence.empty_nodes:
            self._fail("comment line inside a sentence (is a blank line missing before it?)", number)
        self.sentence.comments.append(line)

    def add_token_line(self, line: str, number: int) -> None:
        columns = line.split("\t")
        if len(columns) != 10:
            self._fail(f"expected 10 tab-separated columns, found {len(columns)}", number)
        for index, value in enumerate(columns):
            if not value:
                self._fail(f"column {index + 1} is empty (write '_' for no value)", number)
        if self.sentence is None:
            self.sentence = Sentence()
            self.first_line = number
        sentence = self.sentence
        words = sentence.words
        raw_id = columns[0]
        if raw_id.isdigit():
            word_id = int(raw_id)
            expected = len(words) + 1
            if word_id != expected:
                if word_id <= len(words):
                    self._fail(f"duplicate word ID {word_id} (expected {expected})", number)
                self._fail(f"non-consecutive word ID {word_id} (expected {expected})", number)
            if self.pending_mwt is not None and self.pending_mwt.first != word_id:
                self._fail(f"multiword token {self.pending_mwt.first}-{self.pending_mwt.last} "
                           f"must be followed by word {self.pending_mwt.first}", number)
            self.pending_mwt = None
            raw_head = columns[6]
            if not raw_head.isdigit():
                self._fail(f"HEAD must be a non-negative integer, found {raw_head!r}", number)
            head = int(raw_head)
            if head == word_id:
                self._fail(f"word {word_id} is its own head", number)
            words.append(Token(word_id, columns[1], columns[2], columns[3], columns[4], columns[5],
                               head, columns[7], columns[8], columns[9]))
            self.word_lines.append(number)
        elif "-" in raw_id:
            first_text, _, last_text = raw_id.partition("-")
            if not (first_text.isdigit() and last_text.isdigit()):
                self._fail(f"malformed multiword token ID {raw_id!r}", number)
            first, last = int(first_text), int(last_text)
            if first != len(words) + 1 or last <= first:
                self._fail(f"multiword token range {raw_id} does not start at the next word "
                           f"({len(words) + 1}) or is empty", number)
            mwt = MultiwordToken(first, last, columns)
            sentence.multiword_tokens.append(mwt)
            self.pending_mwt = mwt
        elif "." in raw_id:
            major, _, minor = raw_id.partition(".")
            if not (major.isdigit() and minor.isdigit()):
                self._fail(f"malformed empty node ID {raw_id!r}", number)
            if int(major) != len(words):
                self._fail(f"empty node {raw_id} must follow word {major}", number)
            sentence.empty_nodes.append(EmptyNode(int(major), columns))
        else:
            self._fail(f"malformed ID {raw_id!r}", number)

    def finish(self, number: int) -> Sentence | None:
        """End the sentence at a blank line (or EOF); return it after the whole-sentence checks."""
        sentence = self.sentence
        if sentence is None:
            return None
        if not sentence.words:
            self._fail("sentence has no words", self.first_line)
        size = len(sentence.words)
        for word, line in zip(sentence.words, self.word_lines):
            if word.head > size:
                self._fail(f"HEAD {word.head} of word {word.id} is out of range (sentence has {size} words)",
                           line)
        for mwt in sentence.multiword_tokens:
            if mwt.last > size:
                self._fail(f"multiword token {mwt.first}-{mwt.last} goes past the last word ({size})",
                           self.first_line)
        self.sentence = None
        self.pending_mwt = None
        self.word_lines = []
        return sentence


def iter_sentences(lines: Iterable[tuple[int, str]], source: str) -> Iterator[Sentence]:
    """Sentences from numbered, decoded lines (newline removed)."""
    reader = _SentenceReader(source)
    number = 0
    for number, line in lines:
        if not line:
            sentence = reader.finish(number)
            if sentence is not None:
                yield sentence
        elif line[0] == "#":
            reader.add_comment(line, number)
        else:
            reader.add_token_line(line, number)
    sentence = reader.finish(number)
    if sentence is not None:
        yield sentence


def read_conllu(path: str | os.PathLike[str]) -> Iterator[Sentence]:
    """Stream the sentences of a CoNLL-U file."""
    with open(path, "rb") as handle:
        yield from iter_sentences(numbered_lines(handle, str(path), ConlluError), str(path))


def parse_conllu(text: str, source: str = "<string>") -> list[Sentence]:
    """Parse CoNLL-U held in a string (``source`` names it in errors)."""
    if text.startswith(BOM):
        text = text[1:]
    numbered = ((n, line.removesuffix("\r")) for n, line in enumerate(text.split("\n"), start=1))
    return list(iter_sentences(numbered, source))


def format_sentence(sentence: Sentence) -> str:
    """One sentence as CoNLL-U, ending with the blank line that closes it."""
    out = io.StringIO()
    for comment in sentence.comments:
        out.write(comment)
        out.write("\n")
    mwts = {mwt.first: mwt for mwt in sentence.multiword_tokens}
    empties: dict[int, list[EmptyNode]] = {}
    for node in sentence.empty_nodes:
        empties.setdefault(node.after, []).append(node)
    for node in empties.get(0, ()):
        out.write("\t".join(node.columns) + "\n")
    for word in sentence.words:
        mwt = mwts.get(word.id)
        if mwt is not None:
            out.write("\t".join(mwt.columns) + "\n")
        out.write("\t".join(word.columns()) + "\n")
        for node in empties.get(word.id, ()):
            out.write("\t".join(node.columns) + "\n")
    out.write("\n")
    return out.getvalue()


def write_conllu(sentences: Iterable[Sentence], target: str | os.PathLike[str] | IO[str]) -> int:
    """Write sentences as UTF-8 CoNLL-U with LF line ends; return how many were written."""
    count = 0
    if isinstance(target, (str, os.PathLike)):
        with open(Path(target), "w", encoding="utf-8", newline="\n") as handle:
            return write_conllu(sentences, handle)
    for sentence in sentences:
        target.write(format_sentence(sentence))
        count += 1
    return count
