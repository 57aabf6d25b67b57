"""Reading and writing CoNLL-U (https://universaldependencies.org/format.html).

Reading is strict where a wrong answer would follow (column count, IDs, HEAD) and lossless
otherwise: ``format_sentence(read(x)) == x`` for valid UD files. Every problem is a
:class:`~auto_challenge_sets.errors.ConlluError` naming the file and line. Numbers are ASCII digits
only; no column may hold a control character but TAB (nor U+2028, U+2029); a multiword-token range
spans two words or more, comes right before its first word and overlaps no other (UD's rules, which
the ``conllu`` package does not check). Decoding follows :mod:`auto_challenge_sets.formats.text`; output
is UTF-8 with LF.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, NoReturn

from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS
from auto_challenge_sets.formats.text import (
    BOM,
    MAX_DIGITS,
    ascii_number,
    numbered_lines,
    open_binary,
    raw_blocks,
)
from auto_challenge_sets.formats.ud import EmptyNode, MultiwordToken, Sentence, Token

_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")  # but TAB, the column separator


class _SentenceReader:
    """Collects the lines of one sentence, from ``first_line`` on, and checks them as it goes."""

    def __init__(self, source: str, first_line: int):
        self.source, self.first_line, self.sentence = source, first_line, Sentence()
        self.pending_mwt: MultiwordToken | None = None  # a range whose first word is the next line
        self.word_lines: list[int] = []  # the line of each word, and of each range: finish's errors name them
        self.mwt_lines: list[int] = []

    def _fail(self, message: str, line: int) -> NoReturn:
        raise ConlluError(message, self.source, line)

    def _number(self, text: str, what: str, number: int) -> int:
        value = ascii_number(text)
        if value is None:
            self._fail(f"{what} must be a non-negative integer in ASCII digits (at most {MAX_DIGITS}), "
                       f"found {text!r}", number)
        return value

    def add_comment(self, line: str, number: int) -> None:
        sentence = self.sentence
        if sentence.words or sentence.multiword_tokens or sentence.empty_nodes:
            self._fail("comment line inside a sentence (is a blank line missing before it?)", number)
        sentence.comments.append(line)

    def add_token_line(self, line: str, number: int) -> None:
        columns = line.split("\t")
        if len(columns) != 10:
            self._fail(f"expected 10 tab-separated columns, found {len(columns)}", number)
        if "" in columns or _CONTROL.search(line) is not None:  # one search of the common line
            for index, value in enumerate(columns, start=1):
                if not value:
                    self._fail(f"column {index} is empty (write '_' for no value)", number)
                if control := _CONTROL.search(value):
                    self._fail(f"column {index} contains the control character U+{ord(control.group()):04X} "
                               "(tokenizers read it as a line break or garbage)", number)
        raw_id, raw_head, sentence = columns[0], columns[6], self.sentence
        size = len(sentence.words)
        if raw_id.isascii() and raw_id.isdigit():
            word_id = int(raw_id) if len(raw_id) <= MAX_DIGITS else self._number(raw_id, "a word ID", number)
            if word_id != size + 1:
                if word_id == 0:
                    self._fail("word IDs start at 1, found 0", number)
                kind = "duplicate" if word_id <= size else "non-consecutive"
                self._fail(f"{kind} word ID {word_id} (expected {size + 1})", number)
            head = int(raw_head) if raw_head.isdigit() and raw_head.isascii() and len(raw_head) <= MAX_DIGITS \
                else self._number(raw_head, "HEAD", number)
            if head == word_id:
                self._fail(f"word {word_id} is its own head", number)
            sentence.words.append(Token(word_id, columns[1], columns[2], columns[3], columns[4], columns[5], head,
                                        columns[7], columns[8], columns[9]))
            self.word_lines.append(number)
            self.pending_mwt = None
        elif self.pending_mwt is not None:
            self._fail(f"multiword token {self.pending_mwt.first}-{self.pending_mwt.last} "
                       f"must be followed by word {self.pending_mwt.first}", number)
        elif "-" in raw_id:
            first, last = (ascii_number(part) for part in raw_id.split("-", 1))
            if first is None or last is None:
                self._fail(f"malformed multiword token ID {raw_id!r}", number)
            if last <= first:
                self._fail(f"multiword token range {raw_id} spans fewer than two words", number)
            if first != size + 1:
                self._fail(f"multiword token range {raw_id} must come right before word {first}, "
                           f"found where word {size + 1} comes next", number)
            previous = sentence.multiword_tokens[-1] if sentence.multiword_tokens else None
            if previous is not None and previous.last >= first:
                self._fail(f"multiword token range {raw_id} overlaps {previous.first}-{previous.last}", number)
            self.pending_mwt = MultiwordToken(first, last, columns)
            sentence.multiword_tokens.append(self.pending_mwt)
            self.mwt_lines.append(number)
        elif "." in raw_id:
            major, minor = (ascii_number(part) for part in raw_id.split(".", 1))
            if major is None or minor is None:
                self._fail(f"malformed empty node ID {raw_id!r}", number)
            if major != size:
                self._fail(f"empty node {raw_id} must follow word {major}", number)
            sentence.empty_nodes.append(EmptyNode(major, columns))
        else:
            self._fail(f"malformed ID {raw_id!r}", number)

    def finish(self) -> Sentence:
        """The sentence, at its end (a blank line or EOF), after the whole-sentence checks."""
        sentence, size = self.sentence, len(self.sentence.words)
        if not size:
            self._fail("sentence has no words", self.first_line)
        for word, line in zip(sentence.words, self.word_lines):
            if word.head > size:
                self._fail(f"HEAD {word.head} of word {word.id} is out of range (sentence has {size} words)", line)
        for mwt, line in zip(sentence.multiword_tokens, self.mwt_lines):
            if mwt.last > size:
                self._fail(f"multiword token {mwt.first}-{mwt.last} goes past the last word ({size})", line)
        return sentence


def _numbered(lines: Iterable[tuple[int, str]], source: str) -> Iterator[tuple[int, Sentence]]:
    reader = None
    for number, line in lines:
        line = line.removesuffix("\r")  # of a CRLF
        if line:
            if reader is None:
                reader = _SentenceReader(source, number)
            if line[0] == "#":
                reader.add_comment(line, number)
            else:
                reader.add_token_line(line, number)
        elif reader is not None:
            yield reader.first_line, reader.finish()
            reader = None
    if reader is not None:
        yield reader.first_line, reader.finish()


def iter_sentences(lines: Iterable[tuple[int, str]], source: str) -> Iterator[Sentence]:
    """Sentences from numbered, decoded lines (line ends removed)."""
    for _, sentence in _numbered(lines, source):
        yield sentence


def iter_numbered_sentences(handle: IO[bytes], source: str, first_line: int = 1) -> Iterator[tuple[int, Sentence]]:
    """``(line where it starts, sentence)`` of CoNLL-U opened in binary (``source`` names it in
    errors); ``first_line``: the number of its first line, when it holds a part of a file."""
    return _numbered(numbered_lines(handle, source, ConlluError, MAX_CHARACTERS, first_line), source)


def read_conllu_with_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Sentence]]:
    """Stream ``(line where it starts, sentence)`` of a CoNLL-U file."""
    with open_binary(path, ConlluError) as handle:
        yield from iter_numbered_sentences(handle, str(path))


def sentence_ends(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes, list[int]]]:
    """The file's bytes in blocks, unparsed: ``(number of the block's first line, the block, the
    offsets in it just after a sentence's last line)``, the file's end one too if a sentence is open
    there. Cut there, each piece parses alone (:func:`iter_numbered_sentences` with ``first_line``)
    to the sentences, line numbers and errors of the whole file (``acs build --jobs``)."""
    open_, following = False, 1  # whether the last line read is a sentence's; the next line's number
    with open_binary(path, ConlluError) as handle:
        for number, block in raw_blocks(handle, str(path), ConlluError, MAX_CHARACTERS):
            lines, offset, ends = block.split(b"\n"), 0, []
            if number == 1 and block[:3] == BOM:
                lines[0], offset = lines[0][3:], 3
            for line in lines if lines[-1] else lines[:-1]:  # the last: what follows the last LF
                empty = line in (b"", b"\r")
                if empty and open_:
                    ends.append(offset)
                open_, offset = not empty, offset + len(line) + 1
            yield number, block, ends
            following = number + len(lines) - 1
    if open_:
        yield following, b"", [0]


def read_conllu(path: str | os.PathLike[str]) -> Iterator[Sentence]:
    """Stream the sentences of a CoNLL-U file."""
    for _, sentence in read_conllu_with_lines(path):
        yield sentence


def parse_conllu(text: str, source: str = "<string>") -> list[Sentence]:
    """Parse CoNLL-U held in a string (``source`` names it in errors)."""
    return list(iter_sentences(enumerate(text.removeprefix("\ufeff").split("\n"), start=1), source))


def format_sentence(sentence: Sentence) -> str:
    """One sentence as CoNLL-U, ending with the blank line that closes it."""
    ranges = {mwt.first: mwt.columns for mwt in sentence.multiword_tokens}
    after: dict[int, list[list[str]]] = {}  # the empty nodes after each word (0: before the first)
    for node in sentence.empty_nodes:
        after.setdefault(node.after, []).append(node.columns)
    rows = list(after.get(0, ()))
    for word in sentence.words:
        rows += [ranges[word.id], word.columns()] if word.id in ranges else [word.columns()]
        rows += after.get(word.id, ())
    return "".join(line + "\n" for line in [*sentence.comments, *map("\t".join, rows)]) + "\n"

