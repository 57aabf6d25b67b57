"""Parser backends: a batch of corpus lines in, exactly one UD sentence per line out.

A row of a challenge set is a corpus line, so the sentences a parser cuts a line into are merged
back into one tree (:func:`merge_sentences`): words renumbered in order, heads shifted, and the
root of every later sentence attached to the first root as ``parataxis`` (UD's relation for
juxtaposed clauses). ``# acs_merged = N`` keeps the count through the stage cache.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from auto_challenge_sets.backends import (
    PARSER,
    BackendError,
    Option,
    backend_class,
    create_backend,
)
from auto_challenge_sets.backends.file_provenance import package_entry
from auto_challenge_sets.formats.corpus import format_line_numbers
from auto_challenge_sets.formats.ud import EmptyNode, MultiwordToken, Sentence, Token

MERGED_KEY = "acs_merged"  # comment key: how many parser sentences were merged into this line
CHUNKED_KEY = "acs_chunks"  # comment key: a long line parsed in this many pre-tokenized chunks
FALLBACK_KEY = "acs_fallback"  # comment key: the parser gave nothing, the line has a flat tree
MERGE_DEPREL = "parataxis"

# an option that more than one parser takes: declared once, shared
PRETOKENIZED = Option("pretokenized", bool, False,
                      "the input is tokenized: split words on white space, no tokenizer, one sentence per line")


class ParserError(BackendError):
    """A parser cannot run (bad option, missing library, missing model files)."""


@dataclass
class ParseStats:
    """What the one-line-one-sentence and long-line policies did, for a run's summary."""

    merged_lines: list[int] = field(default_factory=list)  # 1-based line numbers
    long_lines: list[int] = field(default_factory=list)
    fallback_lines: list[int] = field(default_factory=list)

    def messages(self) -> list[str]:
        return [f"{len(lines)} line(s) {what}: line {format_line_numbers(lines)}" for lines, what in (
            (self.merged_lines, "split into several sentences by the parser were merged into one tree "
                                f"(later roots attached as {MERGE_DEPREL})"),
            (self.long_lines, f"too long for the encoder were parsed in chunks joined as {MERGE_DEPREL}"),
            (self.fallback_lines, "the parser returned no words for got a flat tree")) if lines]


class Parser(ABC):
    """The backend interface; a constructor takes ``lang``, ``cache_dir`` and the declared ``options``."""

    name: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()

    @abstractmethod
    def parse(self, lines: list[str]) -> list[Sentence]:
        """Parse non-empty lines; return one sentence per line, in order."""

    @abstractmethod
    def signature(self) -> dict:
        """What determines the output besides the input: backend, model checksum or name, options."""

    def cache_key(self) -> dict:
        return {"parser": self.name, **self.signature()}

    def provenance(self) -> dict[str, Any]:
        """What the build record (``acs_build.json``) keeps of this parser."""
        return {"backend": self.name, **package_entry(self), "model": None, "file": None, "sha256": None,
                "options": {}}

    def check_ready(self) -> None:
        """Fail before any work when the model is missing."""
        return None

    def close(self) -> None:
        """Release the model; the parse stage calls it when it is done."""
        return None

    @classmethod
    def label(cls, options: dict[str, Any]) -> str:
        """How a dataset card names a parse by this backend with these options (default: its name)."""
        return cls.name


def parser_class(name: str) -> type[Parser]:
    return backend_class(PARSER, name, ParserError)


def get_parser(name: str, *, lang: str = "en", cache_dir: str | os.PathLike[str] | None = None,
               **options: Any) -> Parser:
    """An instance of the parser ``name`` for ``lang``; ``options`` are its declared options."""
    return create_backend(PARSER, name, {"lang": lang, "cache_dir": cache_dir}, error=ParserError, **options)


def _shift_deps(deps: str, offset: int, root_target: int | None) -> str:
    """Shift the heads of an enhanced DEPS value (``3:nsubj|0:root``)."""
    if deps == "_":
        return deps
    out = []
    for item in deps.split("|"):
        head, _, rel = item.partition(":")
        if head == "0":
            out.append(f"{root_target}:{MERGE_DEPREL}" if root_target is not None else item)
        elif "." in head:
            major, _, minor = head.partition(".")
            out.append(f"{int(major) + offset}.{minor}:{rel}")
        else:
            out.append(f"{int(head) + offset}:{rel}")
    return "|".join(out)


def merge_sentences(parts: Sequence[Sentence], *, key: str | None = MERGED_KEY) -> Sentence:
    """Join consecutive parser sentences into one tree (see the module); ``key`` names the comment
    that counts the parts when there are several (None: no mark)."""
    if not parts:
        raise ValueError("nothing to merge")
    merged = Sentence()
    first_root: int | None = None
    offset = 0
    for index, part in enumerate(parts):
        root_target = first_root if index > 0 else None
        for word in part.words:
            head = word.head + offset if word.head else 0
            deprel = word.deprel
            if word.head == 0 and root_target is not None:
                head, deprel = root_target, MERGE_DEPREL
            merged.words.append(Token(word.id + offset, word.form, word.lemma, word.upos, word.xpos, word.feats,
                                      head, deprel, _shift_deps(word.deps, offset, root_target), word.misc))
        if first_root is None:
            roots = [word.id for word in part.words if word.head == 0]
            first_root = (roots[0] if roots else 1) + offset
        for mwt in part.multiword_tokens:
            columns = [f"{mwt.first + offset}-{mwt.last + offset}", *mwt.columns[1:]]
            merged.multiword_tokens.append(MultiwordToken(mwt.first + offset, mwt.last + offset, columns))
        for node in part.empty_nodes:
            major, _, minor = node.columns[0].partition(".")
            columns = [f"{int(major) + offset}.{minor}", *node.columns[1:8],
                       _shift_deps(node.columns[8], offset, root_target), node.columns[9]]
            merged.empty_nodes.append(EmptyNode(node.after + offset, columns))
        offset += len(part.words)
    if len(parts) > 1 and key is not None:
        merged.set_metadata(key, str(len(parts)))
    return merged


def stats_from_sentences(sentences: Sequence[Sentence], line_numbers: Sequence[int]) -> ParseStats:
    """Count the merge and long-line marks of parsed sentences (cached shards included)."""
    stats = ParseStats()
    for number, sentence in zip(line_numbers, sentences, strict=True):
        for key, lines in ((MERGED_KEY, stats.merged_lines), (CHUNKED_KEY, stats.long_lines),
                           (FALLBACK_KEY, stats.fallback_lines)):
            if sentence.metadata(key) is not None:
                lines.append(number)
    return stats


def flat_sentence(forms: Sequence[str], *, deprel: str = "dep") -> Sentence:
    """A flat fallback tree: every word attached to the first."""
    words = [Token(i, form, head=0 if i == 1 else 1, deprel="root" if i == 1 else deprel)
             for i, form in enumerate(forms, start=1)]
    return Sentence(words=words)


def clean_field(value: object) -> str:
    """A CoNLL-U column value: no tab or newline, never empty (``_`` stands for no value)."""
    text = "" if value is None else str(value)
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ").strip()
    return text or "_"
