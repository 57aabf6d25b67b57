"""Reading and writing CoNLL-U (https://universaldependencies.org/format.html).

Reading is strict where a wrong answer would follow (column count, IDs, HEAD) and lossless
otherwise: ``format_sentence(read(x)) == x`` for valid UD files. Every problem raises
:class:`~auto_challenge_sets.errors.ConlluError` naming the file and 1-based line. Numbers (IDs,
HEAD, multiword ranges, empty-node IDs) are ASCII digits only, and no column may hold a control
character (C0 but TAB, DEL, C1 such as NEL U+0085) or a Unicode line or paragraph separator. A
multiword-token range spans two words or more, comes right before its first word, and overlaps no
other range (the UD rules; the ``conllu`` package takes ``1-1`` and a range after its words, which
would not be written back as read).

Decoding follows :mod:`auto_challenge_sets.text_io` (BOM dropped, CRLF read as LF, invalid UTF-8
an error with its line number); output is always UTF-8 with LF.
"""

from __future__ import annotations

import io
import operator
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, NoReturn

from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.scoring.line_limit import MAX_CHARACTERS
from auto_challenge_sets.text_io import BOM as UTF8_BOM
from auto_challenge_sets.text_io import (
    MAX_DIGITS,
    LineTooLong,
    ascii_number,
    decode_line,
    has_control,
    is_ascii_digits,
    raw_blocks,
    require_regular_file,
    split_block,
)
from auto_challenge_sets.ud import EmptyNode, MultiwordToken, Sentence, Token

BOM = "\ufeff"
# C0 controls (TAB is the column separator), DEL, C1 controls (NEL U+0085 among them) and the
# Unicode line and paragraph separators: no column may hold one
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# the same but TAB: one search of a whole token line tells whether any column holds one
_CONTROL_BUT_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")

# the numbers a word line's ID and HEAD hold in all but huge sentences: one dict lookup reads and
# checks one (anything else, "01", "3-4" or "٣", takes the line reader's checks)
_SMALL_NUMBERS = {str(n): n for n in range(1024)}


class _SentenceReader:
    """Collects the lines of one sentence and checks them as it goes."""

    __slots__ = ("first_line", "mwt_lines", "pending_mwt", "sentence", "source", "word_lines")

    def __init__(self, source: str):
        self.source = source
        self.sentence: Sentence | None = None
        self.first_line = 0
        self.pending_mwt: MultiwordToken | None = None
        self.word_lines: list[int] = []
        self.mwt_lines: list[int] = []

    def _fail(self, message: str, line: int) -> NoReturn:
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
        # the whole line checked at once (the common case: nothing to report), each column only to
        # name the first bad one: the one pass of a large build reads millions of these lines
        if "" in columns or _CONTROL_BUT_TAB.search(line) is not None:
            self._check_columns(columns, number)
        if self.sentence is None:
            self.sentence = Sentence()
            self.first_line = number
        raw_id = columns[0]
        is_word = is_ascii_digits(raw_id)
        if self.pending_mwt is not None and not is_word:
            self._fail(f"multiword token {self.pending_mwt.first}-{self.pending_mwt.last} "
                       f"must be followed by word {self.pending_mwt.first}", number)
        if is_word:
            self._add_word(columns, number)
        elif "-" in raw_id:
            self._add_multiword_token(columns, number)
        elif "." in raw_id:
            self._add_empty_node(columns, number)
        else:
            self._fail(f"malformed ID {raw_id!r}", number)

    def _check_columns(self, columns: list[str], number: int) -> None:
        for index, value in enumerate(columns):
            if not value:
                self._fail(f"column {index + 1} is empty (write '_' for no value)", number)
            control = _CONTROL.search(value)
            if control is not None:
                self._fail(f"column {index + 1} contains the control character U+{ord(control.group()):04X} "
                           "(tokenizers read it as a line break or garbage)", number)

    def _number(self, text: str, what: str, number: int) -> int:
        value = ascii_number(text)
        if value is None:
            self._fail(f"{what} must be a non-negative integer in ASCII digits (at most {MAX_DIGITS}), "
                       f"found {text!r}", number)
        return value

    def _add_word(self, columns: list[str], number: int) -> None:
        words = self.sentence.words
        raw_id, raw_head = columns[0], columns[6]
        # int() directly where the text is a valid number (add_token_line saw the ID's digits):
        # _number's checks, with their error, only for the rest
        word_id = int(raw_id) if len(raw_id) <= MAX_DIGITS else self._number(raw_id, "a word ID", number)
        expected = len(words) + 1
        if word_id != expected:
            if word_id == 0:
                self._fail("word IDs start at 1, found 0", number)
            if word_id <= len(words):
                self._fail(f"duplicate word ID {word_id} (expected {expected})", number)
            self._fail(f"non-consecutive word ID {word_id} (expected {expected})", number)
        self.pending_mwt = None  # its first word (the IDs are consecutive)
        head = ascii_number(raw_head)
        if head is None:
            self._number(raw_head, "HEAD", number)  # raises, naming the problem
        if head == word_id:
            self._fail(f"word {word_id} is its own head", number)
        words.append(Token(word_id, columns[1], columns[2], columns[3], columns[4], columns[5],
                           head, columns[7], columns[8], columns[9]))
        self.word_lines.append(number)

    def _add_multiword_token(self, columns: list[str], number: int) -> None:
        raw_id = columns[0]
        first_text, _, last_text = raw_id.partition("-")
        first, last = ascii_number(first_text), ascii_number(last_text)
        if first is None or last is None:
            self._fail(f"malformed multiword token ID {raw_id!r}", number)
        if last <= first:
            self._fail(f"multiword token range {raw_id} spans fewer than two words", number)
        size = len(self.sentence.words)
        if first != size + 1:
            self._fail(f"multiword token range {raw_id} must come right before word {first}, "
                       f"found where word {size + 1} comes next", number)
        previous = self.sentence.multiword_tokens[-1] if self.sentence.multiword_tokens else None
        if previous is not None and previous.last >= first:
            self._fail(f"multiword token range {raw_id} overlaps {previous.first}-{previous.last}", number)
        mwt = MultiwordToken(first, last, columns)
        self.sentence.multiword_tokens.append(mwt)
        self.mwt_lines.append(number)
        self.pending_mwt = mwt

    def _add_empty_node(self, columns: list[str], number: int) -> None:
        raw_id = columns[0]
        major_text, _, minor_text = raw_id.partition(".")
        major, minor = ascii_number(major_text), ascii_number(minor_text)
        if major is None or minor is None:
            self._fail(f"malformed empty node ID {raw_id!r}", number)
        if major != len(self.sentence.words):
            self._fail(f"empty node {raw_id} must follow word {major}", number)
        self.sentence.empty_nodes.append(EmptyNode(major, columns))

    def finish(self) -> Sentence | None:
        """End the sentence at a blank line (or EOF); return it after the whole-sentence checks."""
        sentence = self.sentence
        if sentence is None:
            return None
        if not sentence.words:
            self._fail("sentence has no words", self.first_line)
        size = len(sentence.words)
        if max(map(_head, sentence.words)) > size:
            for word, line in zip(sentence.words, self.word_lines):
                if word.head > size:
                    self._fail(f"HEAD {word.head} of word {word.id} is out of range (sentence has {size} words)",
                               line)
        for mwt, line in zip(sentence.multiword_tokens, self.mwt_lines):
            if mwt.last > size:
                self._fail(f"multiword token {mwt.first}-{mwt.last} goes past the last word ({size})", line)
        self.sentence = None
        self.pending_mwt = None
        self.word_lines = []
        self.mwt_lines = []
        return sentence


_head = operator.attrgetter("head")


def iter_sentences(lines: Iterable[tuple[int, str]], source: str) -> Iterator[Sentence]:
    """Sentences from numbered, decoded lines (newline removed)."""
    reader = _SentenceReader(source)
    for number, line in lines:
        if not line:
            sentence = reader.finish()
            if sentence is not None:
                yield sentence
        elif line[0] == "#":
            reader.add_comment(line, number)
        else:
            reader.add_token_line(line, number)
    sentence = reader.finish()
    if sentence is not None:
        yield sentence


def _lines_one_by_one(block: bytes, path: str, first: int) -> Iterator[str]:
    """A block's lines decoded one at a time: invalid UTF-8 raises when its line is reached."""
    for number, raw in enumerate(split_block(block), start=first):
        yield decode_line(raw, path, number, ConlluError).removesuffix("\r")


def _blocks_within_the_limit(handle: IO[bytes], path: str, line: Callable[[], int]) -> Iterator[bytes]:
    """``raw_blocks`` with the build's line limit (the metric's, ``scoring.line_limit``: 4 bytes a
    character): a 100 MB ``# text`` line is an error naming its line, not a minute of reading."""
    try:
        yield from raw_blocks(handle, 4 * MAX_CHARACTERS + 2)
    except LineTooLong:
        raise ConlluError(f"the line has more than {MAX_CHARACTERS:,} characters, the longest a build reads",
                          path, line()) from None


def _numbered_blocks(handle: IO[bytes], path: str, first_line: int = 1) -> Iterator[tuple[int, Iterable[str], bool]]:
    """``(number of its first line, its lines, whether none holds a control character)`` for the
    blocks of ``text_io.raw_blocks``; the lines as ``text_io.numbered_lines`` gives them (BOM
    dropped, CRLF read as LF, invalid UTF-8 an error naming its line). ``first_line``: the number
    of the handle's first line, when it holds a part of a file (:func:`sentence_ends`)."""
    number = first_line
    for block in _blocks_within_the_limit(handle, path, lambda: number):  # noqa: B023 - the line being read
        if number == 1 and block.startswith(UTF8_BOM):
            block = block[len(UTF8_BOM):]
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            yield number, _lines_one_by_one(block, path, number), False
        else:
            lines = split_block(text)
            clean = not has_control(block)
            yield number, lines if clean else [line.removesuffix("\r") for line in lines], clean
        number += block.count(b"\n")


def iter_numbered_sentences(handle: IO[bytes], source: str, first_line: int = 1) -> Iterator[tuple[int, Sentence]]:
    """``(1-based line where it starts, sentence)`` for the sentences of a CoNLL-U file opened in
    binary mode (``source`` names it in errors): the same sentences and errors as
    :func:`iter_sentences` over its lines.

    In a block without control characters, the common word line (10 columns, none empty, the next
    ID and a HEAD under 1024 that is not the word's own) is added here, inline, without the
    per-column checks: a method call per word costs this loop 14%. Every other line, and every
    line of another block, takes the reader's checks."""
    reader = _SentenceReader(source)
    start = 0
    small = _SMALL_NUMBERS
    for first, lines, clean in _numbered_blocks(handle, source, first_line):
        for number, line in enumerate(lines, start=first):
            if not line:
                sentence = reader.finish()
                if sentence is not None:
                    yield start, sentence
                continue
            sentence = reader.sentence
            if sentence is None:
                start = number
            if line[0] == "#":
                reader.add_comment(line, number)
                continue
            if clean and sentence is not None:
                columns = line.split("\t")
                words = sentence.words
                word_id = len(words) + 1
                if len(columns) == 10 and small.get(columns[0]) == word_id and "" not in columns:
                    head = small.get(columns[6])
                    if head is not None and head != word_id:
                        words.append(Token(word_id, columns[1], columns[2], columns[3], columns[4], columns[5],
                                           head, columns[7], columns[8], columns[9]))
                        reader.word_lines.append(number)
                        reader.pending_mwt = None
                        continue
            reader.add_token_line(line, number)
    sentence = reader.finish()
    if sentence is not None:
        yield start, sentence


def read_conllu_with_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Sentence]]:
    """Stream ``(1-based line where it starts, sentence)`` for the sentences of a CoNLL-U file; a
    file that cannot be read (missing, a folder, no permission) is a :class:`ConlluError` naming it."""
    require_regular_file(path, ConlluError)
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise ConlluError(f"cannot read: {error.strerror or error}", path) from None
    with handle:
        yield from iter_numbered_sentences(handle, str(path))


def sentence_ends(path: str | os.PathLike[str]) -> Iterator[tuple[int, bytes, list[int]]]:
    """The file's bytes in blocks, without parsing them: ``(number of the block's first line, the
    block, the offsets in it where a sentence ends)``, an end being just after the line end of a
    sentence's last line (or the file's end). So a file can be cut into whole sentences that
    :func:`iter_numbered_sentences` (with ``first_line``) parses on their own, elsewhere, with
    the same sentences, line numbers and errors as the whole file (``acs build --jobs``): a
    sentence is a run of non-empty lines, a comment-only one included (an error when parsed)."""
    require_regular_file(path, ConlluError)
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise ConlluError(f"cannot read: {error.strerror or error}", path) from None
    number, last_open = 1, False  # whether the last line read is a sentence's
    with handle:
        for block in _blocks_within_the_limit(handle, str(path), lambda: number):  # noqa: B023
            skip = len(UTF8_BOM) if number == 1 and block.startswith(UTF8_BOM) else 0
            ends: list[int] = []
            if b"\r" in block:  # a CRLF line end, or a line of a CR alone (empty once read): line by line
                lines, offset = block[skip:].split(b"\n"), skip
                for line in lines[:-1] if block.endswith(b"\n") else lines:
                    empty = line in (b"", b"\r")
                    if empty and last_open:
                        ends.append(offset)
                    last_open, offset = not empty, offset + len(line) + 1
            else:
                if last_open and block.startswith(b"\n"):
                    ends.append(0)
                # each blank line after a non-empty one (bytes.find: a regular expression tried at
                # every byte took a third of the build's main process)
                at = block.find(b"\n\n", skip)
                while at != -1:
                    if at > skip and block[at - 1] != 10:  # 10: b"\n"
                        ends.append(at + 1)
                    at = block.find(b"\n\n", at + 1)
                last_open = (len(block) > skip + 1 and block[-2:-1] != b"\n") if block.endswith(b"\n") \
                    else len(block) > skip
            yield number, block, ends
            number += block.count(b"\n")
        if last_open:  # the file's last sentence ends with the file
            yield number, b"", [0]


def read_conllu(path: str | os.PathLike[str]) -> Iterator[Sentence]:
    """Stream the sentences of a CoNLL-U file; a file that cannot be read (missing, a folder, no
    permission) is a :class:`ConlluError` naming it."""
    for _, sentence in read_conllu_with_lines(path):
        yield sentence


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
