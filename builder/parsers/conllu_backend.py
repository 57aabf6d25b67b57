"""Pre-parsed input: a CoNLL-U file that must hold one sentence per corpus line, in order.

Nothing is parsed; the file is checked against the lines (sentence count, then each sentence's
``# text`` or surface tokens against its line, white space ignored) and the first place where they
come apart is an error naming the file, the CoNLL-U line where that sentence starts, and the
corpus line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from auto_challenge_sets.builder.parsers import Parser, ParserError, file_checksum, register_parser
from auto_challenge_sets.conllu_io import _decoded_lines, iter_sentences
from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.ud import Sentence

_SPACE = re.compile(r"\s+")


def read_with_lines(path: str | os.PathLike[str]) -> tuple[list[Sentence], list[int]]:
    """The sentences of a CoNLL-U file and the 1-based file line where each one starts."""
    starts: list[int] = []
    source = str(path)

    def numbered(handle) -> Iterator[tuple[int, str]]:
        in_sentence = False
        for number, line in _decoded_lines(handle, source):
            if line and not in_sentence:
                starts.append(number)
            in_sentence = bool(line)
            yield number, line

    try:
        with open(path, "rb") as handle:
            sentences = list(iter_sentences(numbered(handle), source))
    except OSError as error:
        raise ConlluError(f"cannot read: {error.strerror}", source) from None
    return sentences, starts[: len(sentences)]


def sentence_text(sentence: Sentence) -> str:
    return sentence.text if sentence.text is not None else " ".join(sentence.surface_forms())


@register_parser("conllu")
class ConlluParser(Parser):
    """Serves the sentences of ``path`` for the lines they were parsed from."""

    def __init__(self, path: str | os.PathLike[str] | None = None, **_ignored):
        if path is None:
            raise ParserError("--parser conllu needs the CoNLL-U file (--source-conllu FILE)")
        self.path = Path(path)
        self._sentences: list[Sentence] | None = None
        self._starts: list[int] = []

    def check_ready(self) -> None:
        if not self.path.is_file():
            raise ConlluError("no such file", self.path)

    def signature(self) -> dict:
        return {"file": self.path.name, "sha256": file_checksum(self.path)}

    def _load(self) -> list[Sentence]:
        if self._sentences is None:
            self.check_ready()
            self._sentences, self._starts = read_with_lines(self.path)
        return self._sentences

    def parse(self, lines: list[str], line_numbers: Sequence[int] | None = None) -> list[Sentence]:
        """The file's sentences, checked to be one per line of ``lines`` (all lines of the corpus)."""
        sentences = self._load()
        if len(sentences) != len(lines):
            raise ConlluError(
                f"has {len(sentences)} sentences but the input has {len(lines)} non-empty lines: a "
                "pre-parsed source needs exactly one sentence per corpus line, in order", self.path)
        for index, (sentence, line) in enumerate(zip(sentences, lines)):
            text = sentence_text(sentence)
            if _SPACE.sub("", text) != _SPACE.sub("", line):
                where = line_numbers[index] if line_numbers is not None else index + 1
                raise ConlluError(
                    f"sentence {index + 1} (sent_id {sentence.sent_id}) does not match corpus line {where}: "
                    f"{text[:60]!r} vs {line[:60]!r}", self.path, self._starts[index])
        return [Sentence(words=s.words, comments=list(s.comments), multiword_tokens=s.multiword_tokens,
                         empty_nodes=s.empty_nodes) for s in sentences]
