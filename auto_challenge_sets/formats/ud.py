"""The Universal Dependencies data model: sentences of syntactic words with a basic tree.

Multiword-token lines (``3-4``) and empty nodes (``8.1``) are kept so that a sentence is written
back exactly as read, but they are never words: rules, indices and distances see only
:attr:`Sentence.words`, whose IDs are 1..n.
"""

from __future__ import annotations

from dataclasses import dataclass, field

NO_VALUE = "_"


@dataclass(slots=True)
class Token:
    """One syntactic word: a CoNLL-U line whose ID is an integer."""

    id: int
    form: str
    lemma: str = NO_VALUE
    upos: str = NO_VALUE
    xpos: str = NO_VALUE
    feats: str = NO_VALUE
    head: int = 0
    deprel: str = NO_VALUE
    deps: str = NO_VALUE
    misc: str = NO_VALUE

    def has_feature(self, name: str, value: str) -> bool:
        """True when FEATS contains ``name=value`` (FEATS values may be lists: ``Case=Acc,Dat``)."""
        prefix = name + "="
        return prefix in self.feats and any(value in feature[len(prefix):].split(",")
                                            for feature in self.feats.split("|") if feature.startswith(prefix))

    @property
    def deprel_base(self) -> str:
        """The universal part of DEPREL: ``obl`` for ``obl:tmod``."""
        return self.deprel.partition(":")[0]

    def columns(self) -> list[str]:
        return [str(self.id), self.form, self.lemma, self.upos, self.xpos, self.feats, str(self.head), self.deprel,
                self.deps, self.misc]


@dataclass(slots=True)
class MultiwordToken:
    """A surface token spanning several words (``3-4 zum``); its columns are kept as read."""

    first: int
    last: int
    columns: list[str]

    @property
    def form(self) -> str:
        return self.columns[1]


@dataclass(slots=True)
class EmptyNode:
    """An enhanced-graph empty node (``8.1``), placed after word ``after``; kept as read."""

    after: int
    columns: list[str]


@dataclass(slots=True)
class Sentence:
    """A sentence: comment lines (without the newline), words, and the kept non-word lines."""

    words: list[Token] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    multiword_tokens: list[MultiwordToken] = field(default_factory=list)
    empty_nodes: list[EmptyNode] = field(default_factory=list)

    def metadata(self, key: str) -> str | None:
        """The value of a ``# key = value`` comment, or None."""
        prefix = f"# {key} ="
        for comment in self.comments:
            if comment.startswith(prefix):
                return comment[len(prefix) :].strip()
        return None

    def set_metadata(self, key: str, value: str) -> None:
        """Set ``# key = value``, replacing an existing comment of that key."""
        line, prefix = f"# {key} = {value}", f"# {key} ="
        at = next((i for i, comment in enumerate(self.comments) if comment.startswith(prefix)), len(self.comments))
        self.comments[at:at + 1] = [line]

    @property
    def sent_id(self) -> str | None:
        return self.metadata("sent_id")

    @property
    def text(self) -> str | None:
        return self.metadata("text")

    @property
    def forms(self) -> list[str]:
        """Word forms, in order: ``forms[i - 1]`` is the word with ID i."""
        return [word.form for word in self.words]

    def surface_forms(self) -> list[str]:
        """Surface tokens: a multiword token's form stands for the words it spans."""
        spans = {mwt.first: mwt for mwt in self.multiword_tokens}
        out: list[str] = []
        index = 1
        while index <= len(self.words):
            mwt = spans.get(index)
            if mwt is not None:
                out.append(mwt.form)
                index = mwt.last + 1
            else:
                out.append(self.words[index - 1].form)
                index += 1
        return out

    def __len__(self) -> int:
        return len(self.words)
