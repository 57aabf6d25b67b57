"""A rule's word test: a test of one column of a word that every word the rule matches passes (a
necessary condition), declared with the rule so that the one pass can skip the words that cannot
match without calling the rule on them.

Why: the one pass calls every rule on every word of the corpus, and a Python call per word and rule
was most of the cost of the rules. A word test is run on a column of a block of sentences as one
string (:class:`JoinedColumns`: the values of the block's words joined by tabs, made once for every
rule that reads the column) with ``str.find``, which runs in C over the whole block: ``equals``
looks for ``\tVALUE\t``, ``startswith`` for ``\tVALUE``, ``contains`` for ``VALUE``, and the word a
match falls in is the number of tabs before it. Only the words that pass cost Python code, and the
rule is called only on them: for the built-in rules about one word in twenty.

A word test only narrows where the rule looks; the rule decides. A test that fails on a word the
rule would match loses that match, so tests/test_word_tests.py holds every built-in rule's test to
its rule on the real treebanks, and the search on the joined column to the test on each word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal

from auto_challenge_sets.formats.ud import Token

FIELDS = ("form", "lemma", "upos", "xpos", "feats", "deprel", "deps", "misc")
Operation = Literal["equals", "startswith", "contains"]


@dataclass(frozen=True, slots=True)
class WordTest:
    """The word's ``column`` ``equals`` one of ``values``, ``startswith`` one of them, or
    ``contains`` one of them (a substring: ``WordTest("feats", "contains", "Reflex=")``)."""

    column: str
    operation: Operation
    values: tuple[str, ...]
    _read: attrgetter = field(init=False, repr=False, compare=False)
    _needles: tuple[str, ...] = field(init=False, repr=False, compare=False)  # what indices looks for

    def __post_init__(self) -> None:
        if self.column not in FIELDS:
            raise ValueError(f"a word test reads one of {', '.join(FIELDS)}, not {self.column!r}")
        if self.operation not in ("equals", "startswith", "contains"):
            raise ValueError(f"a word test equals, startswith or contains, not {self.operation!r}")
        if isinstance(self.values, str):  # one value given as a string
            object.__setattr__(self, "values", (self.values,))
        if not self.values or not all(isinstance(value, str) and value for value in self.values):
            raise ValueError(f"a word test needs one or more non-empty string values, got {self.values!r}")
        if any("\t" in value or "\n" in value for value in self.values):
            raise ValueError(f"a column value holds no tab or line break, so no word passes {self.values!r}")
        object.__setattr__(self, "_read", attrgetter(self.column))
        wrap = {"equals": "\t{}\t", "startswith": "\t{}", "contains": "{}"}[self.operation]
        object.__setattr__(self, "_needles", tuple(wrap.format(value) for value in self.values))

    def passes(self, word: Token) -> bool:
        """The test on one word (what :meth:`indices` does for many)."""
        value = self._read(word)
        if self.operation == "equals":
            return value in self.values
        if self.operation == "startswith":
            return value.startswith(self.values)
        return any(part in value for part in self.values)

    def indices(self, words: Sequence[Token], columns: JoinedColumns) -> list[int]:
        """The indices of the words that pass, in order (``columns``: the same words')."""
        text = columns.joined(self.column)
        if text is None:  # a value holds a tab: the words one by one
            return [index for index, word in enumerate(words) if self.passes(word)]
        found = []
        for needle in self._needles:
            # the joined column starts with a tab and each word's value is followed by one: the word
            # a match starts in is the number of tabs up to it, less one (counted on from the last)
            tabs, counted = -1, 0
            at = text.find(needle)
            while at != -1:
                tabs += text.count("\t", counted, at + 1)
                counted = at + 1
                found.append(tabs)
                at = text.find(needle, counted)
        if len(found) > 1:
            found = sorted(set(found))  # in word order, once each (one word can hold a value twice)
        return found


class JoinedColumns:
    """Columns of a list of words (the words of a block of sentences) as joined strings,
    ``\tv1\tv2\t…\tvn\t``, each made when a word test first reads it and kept for the others."""

    __slots__ = ("words", "_joined")

    def __init__(self, words: Sequence[Token]):
        self.words = words
        self._joined: dict[str, str | None] = {}

    def joined(self, column: str) -> str | None:
        """The column's values joined by tabs, or None when a value holds a tab itself (a word made
        by a parser rather than read from CoNLL-U might): a tab would no longer tell words apart."""
        try:
            return self._joined[column]
        except KeyError:
            text = "\t" + "\t".join(map(attrgetter(column), self.words)) + "\t"
            kept = text if text.count("\t") == len(self.words) + 1 else None
            self._joined[column] = kept
            return kept
