"""A phenomenon written as a small query on the command line (``acs build --rule``), e.g.

    name=light_verb deprel=compound:lvc head.upos=VERB

``name=`` names the phenomenon (a lower-case identifier, as a config name needs); every other term
is ``FIELD=VALUE`` (equal) or ``FIELD~VALUE`` (starts with: ``deprel~obl`` takes ``obl`` and
``obl:tmod``), on a field of the word (``form lemma upos xpos feats deprel misc``) or of its head
(``head.upos``, …). ``feats=Reflex=Yes`` means the FEATS contain that feature. All terms must hold;
the distance is the paper's, ``|i − h| − 1``. ``lang=cs,sk`` declares the source languages the rule
applies to (default: any; a build from another source language makes no configs of it). A bad query is a :class:`RuleQueryError` that says
which term and why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.formats.ud import Token
from auto_challenge_sets.phenomena.word_tests import WordTest

FIELDS = ("form", "lemma", "upos", "xpos", "feats", "deprel", "misc")
_TERM = re.compile(r"(?P<field>(?:head\.)?[a-z]+)(?P<op>[=~])(?P<value>\S+)", re.ASCII)
_NAME = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)
_LANGUAGES = re.compile(r"[a-z]{2,3}(?:_[A-Za-z]+)?(?:,[a-z]{2,3}(?:_[A-Za-z]+)?)*", re.ASCII)


class RuleQueryError(AcsError):
    """A rule query that cannot be read (``acs build --rule``); its message begins ``rule 'QUERY':``."""

    field = "rule"


@dataclass(frozen=True)
class Condition:
    on_head: bool
    field: str
    op: str  # "=" or "~"
    value: str

    def holds(self, word: Token, head: Token) -> bool:
        token = head if self.on_head else word
        if self.field == "feats" and self.op == "=" and "=" in self.value:
            name, value = self.value.split("=", 1)
            return token.has_feature(name, value)
        actual = getattr(token, self.field)
        return actual == self.value if self.op == "=" else actual.startswith(self.value)

    def word_test(self) -> WordTest:
        """A word test every token passes that :meth:`holds` for (the same three cases)."""
        if self.field == "feats" and self.op == "=" and "=" in self.value:  # has_feature's own pre-test
            return WordTest("feats", "contains", self.value.split("=", 1)[0] + "=")
        return WordTest(self.field, "equals" if self.op == "=" else "startswith", self.value)


@dataclass(frozen=True)
class RuleQuery:
    name: str
    conditions: tuple[Condition, ...]
    text: str
    languages: frozenset[str] | None = None  # lang=: the source languages it applies to (None: any)

    def rule(self) -> Callable[[Token, Token], bool]:
        conditions = self.conditions

        def matches(word: Token, head: Token) -> bool:
            return all(condition.holds(word, head) for condition in conditions)

        return matches

    def word_test(self) -> WordTest | None:
        """The first condition on the word itself as a word test (every word the query matches
        passes it: see :mod:`auto_challenge_sets.phenomena.word_tests`), or None when every condition is on
        the head."""
        on_word = [condition for condition in self.conditions if not condition.on_head]
        return on_word[0].word_test() if on_word else None

    def description(self) -> str:
        return f"user rule: {' '.join(t for t in self.text.split() if not t.startswith('name='))}"


def parse_rule_query(text: str) -> RuleQuery:
    """Read a query (see the module docstring)."""
    name = None
    languages: frozenset[str] | None = None
    conditions = []
    for term in text.split():
        if term.startswith("lang="):
            if languages is not None:
                raise RuleQueryError(f"rule {text!r}: lang= is given twice")
            if not _LANGUAGES.fullmatch(term[len("lang="):]):
                raise RuleQueryError(f"rule {text!r}: {term!r} must list language codes, e.g. lang=cs,sk")
            languages = frozenset(term[len("lang="):].split(","))
            continue
        if term.startswith("name="):
            if name is not None:
                raise RuleQueryError(f"rule {text!r}: name= is given twice")
            name = term[len("name="):]
            if not _NAME.fullmatch(name):
                raise RuleQueryError(f"rule {text!r}: the name {name!r} must be a lower-case identifier "
                                     "(letters, digits, _), as config names need")
            continue
        match = _TERM.fullmatch(term)
        if not match:
            raise RuleQueryError(f"rule {text!r}: cannot read {term!r}; terms are FIELD=VALUE or FIELD~VALUE")
        field = match["field"].removeprefix("head.")
        if field not in FIELDS:
            raise RuleQueryError(f"rule {text!r}: unknown field {match['field']!r} "
                                 f"(fields: {', '.join(FIELDS)}, and head.FIELD for the head word)")
        if field == "feats" and match["op"] == "=" and match["value"].count("=") > 1:
            raise RuleQueryError(f"rule {text!r}: {term!r} has more than one '='; a feature is Name=Value")
        conditions.append(Condition(match["field"].startswith("head."), field, match["op"], match["value"]))
    if name is None:
        raise RuleQueryError(f"rule {text!r}: give the phenomenon a name, e.g. name=light_verb")
    if not conditions:
        raise RuleQueryError(f"rule {text!r}: give at least one condition, e.g. deprel=compound:lvc")
    return RuleQuery(name, tuple(conditions), text, languages)
