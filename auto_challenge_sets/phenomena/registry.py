"""The registry of long-distance phenomena (the rules and distances: docs/method.md).

Two kinds. A *lexical* phenomenon is one small registered predicate over a word of the
source-side UD tree; everything else (distances, selection) is shared. The *reorder* phenomenon
is measured on a word alignment instead (:mod:`auto_challenge_sets.phenomena.reordering`); it is registered
here too, with no token rule, so that every phenomenon a config can name is known in one place. The distance of a matching word i with head h is the number of words
strictly between them, ``|i - h| - 1`` (a language's rule may leave out a word its grammar puts there
every time: ``uncounted``); the root (h = 0) has no distance and never matches. Beside it, an
instance's ``content_distance`` counts the words between them that are no function word
(:func:`is_function_word`).
To add a phenomenon::

    @register_phenomenon("my_phenomenon", "what it is, in one line")
    def _my_phenomenon(word: Token) -> bool:
        return ...

A rule that needs the head word too takes it as a second argument, ``(word, head) -> bool``
(the root, head 0, is never passed: it has no distance). A rule may declare a word test, a test of
one column that every word it matches passes (:mod:`auto_challenge_sets.phenomena.word_tests`): the one pass
then calls it only on the words that pass, ``register_phenomenon(name, description,
WordTest("deprel", "startswith", "aux"))``.

Then name it in the profile of each source language it applies to (``PROFILES`` in
:mod:`auto_challenge_sets.phenomena.profiles`): a built-in phenomenon no profile names is built for
no language. Where a language annotates it otherwise than the rule reads it, give that language its
own rule (``register_language_rule``). The dataset card's table of phenomena is rendered from both.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice, repeat
from typing import NamedTuple

from auto_challenge_sets.formats.ud import Sentence, Token
from auto_challenge_sets.phenomena.reordering import Measured, raw_measure
from auto_challenge_sets.phenomena.word_tests import JoinedColumns, WordTest

# a rule sees the word, and its head word when it takes a second argument
TokenRule = Callable[[Token], bool] | Callable[[Token, Token], bool]

LEXICAL = "lexical"
REORDER_KIND = "reorder"
# the full corpus's config ({pair}.baseline, configs.py): a phenomenon of this name would make its
# configs collide with that one, so no rule may take it
BASELINE = "baseline"


@dataclass(frozen=True, slots=True)
class Phenomenon:
    name: str
    description: str
    rule: TokenRule | None  # None for a phenomenon measured on the alignment
    kind: str = LEXICAL
    takes_head: bool = False  # the rule is called as rule(word, head)
    measure: Callable[..., Measured] | None = None  # an alignment phenomenon's (see reordering.py)
    distances: tuple[int, ...] = ()  # an alignment phenomenon's scale of D
    word_test: WordTest | None = None  # passed by every word the rule matches (see the module)
    # the source languages it applies to, None for any: a user's rule may declare them (a built-in
    # phenomenon's are in auto_challenge_sets.phenomena.profiles, the one table of them)
    languages: frozenset[str] | None = None
    # the word the instance runs to when not the dependent's own head (a 把 marker's verb is its
    # object's head), or None for the dependent's head; it returns None where there is no such word
    head_of: Callable[[Token, list[Token]], Token | None] | None = None
    language: str | None = None  # the source language of a language's own rule (see register_language_rule)
    # the words of the gap the distance leaves out, where a language's grammar puts one there every
    # time (Chinese 的 between a relative clause and its noun), or None: the paper's distance
    uncounted: Callable[[Token], bool] | None = None


# Function words, the one definition (docs/method.md, *Function words*): UD's closed classes but the
# numerals (adpositions, auxiliaries and copulas, conjunctions, determiners, particles, pronouns, the
# clitics among them), punctuation, negation (an ADV with Polarity=Neg: ne, pas, no) and, for a
# parser's other tag, the words of a function relation. Grammar puts them between a head and its
# dependent whatever the sentence says (Spanish 'se ha considerado', Hindi 'kiya jaa rahaa hai'): a
# gap of only these is no long dependency.
FUNCTION_UPOS = frozenset({"ADP", "AUX", "CCONJ", "DET", "PART", "PRON", "PUNCT", "SCONJ"})
FUNCTION_DEPRELS = frozenset({"aux", "case", "cc", "cop", "det", "expl", "mark", "punct"})


def is_function_word(word: Token) -> bool:
    return (word.upos in FUNCTION_UPOS or word.deprel_base in FUNCTION_DEPRELS
            or word.upos == "ADV" and word.has_feature("Polarity", "Neg"))


class Instance(NamedTuple):
    """A matching word and its head, 1-based word IDs, with the distance between them and the
    number of content words among those (``content_distance``)."""

    dependent: int
    head: int
    dependent_form: str
    head_form: str
    distance: int
    content_distance: int

    def to_dict(self) -> dict[str, int | str]:
        return self._asdict()


PHENOMENA: dict[str, Phenomenon] = {}
# (phenomenon, source language) -> that language's own rule for the phenomenon, where the generic UD
# query does not fit the language's annotation or grammar (French 'se' has no Reflex=Yes)
LANGUAGE_RULES: dict[tuple[str, str], Phenomenon] = {}


def register_phenomenon(name: str, description: str, word_test: WordTest | None = None,
                        languages: Iterable[str] | None = None,
                        head_of: Callable[[Token, list[Token]], Token | None] | None = None,
                        ) -> Callable[[TokenRule], TokenRule]:
    """Register a token rule under ``name`` (a config-name component: ``\\w+``), with the word test
    every word it matches passes, if it has one (see the module), and the source languages it
    applies to (None: any)."""
    _check_name(name)
    declared = None if languages is None else frozenset(languages)

    def decorate(rule: TokenRule) -> TokenRule:
        PHENOMENA[name] = Phenomenon(name, description, rule, takes_head=_arity(rule) == 2, word_test=word_test,
                                     languages=declared, head_of=head_of)
        return rule

    return decorate


def register_language_rule(name: str, language: str, description: str, word_test: WordTest | None = None,
                           head_of: Callable[[Token, list[Token]], Token | None] | None = None,
                           uncounted: Callable[[Token], bool] | None = None) -> Callable[[TokenRule], TokenRule]:
    """Register ``language``'s own rule for the registered phenomenon ``name``: a build from that
    source language finds the phenomenon with it instead of the generic rule
    (:func:`phenomenon_for`)."""

    def decorate(rule: TokenRule) -> TokenRule:
        if (name, language) in LANGUAGE_RULES:
            raise ValueError(f"{language!r} has a rule for {name!r} already")
        LANGUAGE_RULES[name, language] = Phenomenon(name, description, rule, takes_head=_arity(rule) == 2,
                                                    word_test=word_test, head_of=head_of, language=language,
                                                    uncounted=uncounted)
        return rule

    return decorate


def phenomenon_for(name: str, language: str | None) -> Phenomenon:
    """The phenomenon ``name`` as a build from source ``language`` finds it: the language's own
    rule where it has one, else the generic one."""
    return LANGUAGE_RULES.get((name, language or ""), None) or get_phenomenon(name)


def _check_name(name: str) -> None:
    if not name.isidentifier() or name != name.lower():
        raise ValueError(f"phenomenon names are lower-case identifiers, got {name!r}")
    if name == BASELINE:
        raise ValueError(f"{name!r} is the full corpus's config, not a phenomenon")
    if name in PHENOMENA:
        raise ValueError(f"phenomenon {name!r} is already registered")


def _arity(rule: TokenRule) -> int:
    """1 (word) or 2 (word, head): the rule's positional parameters, checked once at registration."""
    parameters = [p for p in inspect.signature(rule).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    if len(parameters) not in (1, 2):
        raise ValueError(f"a phenomenon rule takes (word) or (word, head), not {len(parameters)} arguments")
    return len(parameters)


def register_alignment_phenomenon(name: str, description: str, measure: Callable[..., Measured] = raw_measure,
                                  distances: tuple[int, ...] = (5, 10, 15, 20)) -> Phenomenon:
    """Register a phenomenon measured on the word alignment rather than the tree: ``measure`` gives
    a pair's score and instances (:mod:`auto_challenge_sets.phenomena.reordering`), ``distances`` the D its
    configs are built at (the first is the short name's)."""
    _check_name(name)
    PHENOMENA[name] = Phenomenon(name, description, None, REORDER_KIND, measure=measure, distances=tuple(distances))
    return PHENOMENA[name]


def alignment_phenomena() -> list[str]:
    """The names of the phenomena measured on the alignment, in registration order."""
    return [name for name, phenomenon in PHENOMENA.items() if phenomenon.kind == REORDER_KIND]


def lexical_phenomena() -> list[str]:
    """The names of the phenomena found on the source tree, in registration order."""
    return [name for name, phenomenon in PHENOMENA.items() if phenomenon.kind == LEXICAL]


def get_phenomenon(name: str) -> Phenomenon:
    try:
        return PHENOMENA[name]
    except KeyError:
        known = ", ".join(sorted(PHENOMENA))
        raise KeyError(f"unknown phenomenon {name!r} (known: {known})") from None


# The built-in phenomena's names, filled by the package (phenomena/__init__.py) once they are
# registered; anything registered later is a user's.
BUILTIN: set[str] = set()
ENTRY_POINT_GROUP = "auto_challenge_sets.phenomena"


def load_entry_point_phenomena() -> list[str]:
    """Register the rules other installed packages declare in the entry point group
    ``auto_challenge_sets.phenomena`` (``light_verb = my_rules:light_verb``): the entry point's
    name is the phenomenon's, the function's first docstring line its description, a
    :class:`WordTest` set as its ``word_test`` attribute its word test, and a ``languages``
    attribute (source language codes) the languages it applies to (default: any). A rule that cannot be loaded
    is skipped with a warning naming it, so one broken package breaks no build."""
    from importlib.metadata import EntryPoint

    from auto_challenge_sets.plugins import load_plugins

    def register(entry: EntryPoint, rule: Callable[..., bool]) -> None:
        doc = (getattr(rule, "__doc__", None) or "").strip().splitlines()
        word_test = getattr(rule, "word_test", None)
        if word_test is not None and not isinstance(word_test, WordTest):
            raise TypeError(f"its word_test is a {type(word_test).__name__}, not a WordTest")
        languages = getattr(rule, "languages", None)
        if languages is not None and (isinstance(languages, str) or not all(isinstance(x, str) for x in languages)):
            raise TypeError("its languages attribute is not a collection of language codes")
        register_phenomenon(entry.name, doc[0] if doc else f"a rule from {entry.value}", word_test, languages)(rule)

    return load_plugins(ENTRY_POINT_GROUP, PHENOMENA, register, "phenomenon")


def _rule_of(phenomenon: str | Phenomenon) -> Phenomenon:
    found_by = phenomenon if isinstance(phenomenon, Phenomenon) else get_phenomenon(phenomenon)
    if found_by.rule is None:
        raise ValueError(f"{found_by.name!r} is measured on the word alignment, not on the tree")
    return found_by


def _instance(word: Token, head: Token, words: list[Token], uncounted: Callable[[Token], bool] | None) -> Instance:
    first, last = sorted((word.id, head.id))
    gap = words[first:last - 1]
    distance = len(gap) - (sum(map(uncounted, gap)) if uncounted else 0)
    return Instance(word.id, head.id, word.form, head.form, distance, sum(not is_function_word(w) for w in gap))


def find_instances(sentence: Sentence, phenomenon: str | Phenomenon) -> list[Instance]:
    """Every word of ``sentence`` matching the phenomenon (root excluded), in word order."""
    found_by = _rule_of(phenomenon)
    return find_instances_in_block([sentence], [found_by])[0][found_by.name]


SENTENCE_BLOCK = 16  # sentences per find_instances_in_block: a few hundred words, the block's columns in cache


def find_instances_in_block(sentences: Sequence[Sentence],
                            phenomena: Sequence[str | Phenomenon]) -> list[dict[str, list[Instance]]]:
    """Per sentence, in order, :func:`find_instances` of each phenomenon by name, from one look at the block.

    A rule with a word test is called only on the words that pass it, found in C over the block's
    words at once (:mod:`auto_challenge_sets.phenomena.word_tests`): a block rather than a sentence, because
    the Python around each test and rule cost more than the test itself on a sentence of 20 words.
    A rule without one (a user's) is called on every dependent (the root has no distance and never
    matches)."""
    rules = list(map(_rule_of, phenomena))
    found = [{rule.name: [] for rule in rules} for _ in sentences]
    words = list(chain.from_iterable(sentence.words for sentence in sentences))
    owner = list(chain.from_iterable(repeat(k, len(sentence.words)) for k, sentence in enumerate(sentences)))
    columns = JoinedColumns(words)
    for rule in rules:
        name, matches, takes_head, head_of = rule.name, rule.rule, rule.takes_head, rule.head_of
        for index in range(len(words)) if rule.word_test is None else rule.word_test.indices(words, columns):
            word = words[index]
            if not word.head:
                continue
            k = owner[index]
            # the instance runs to the head, or to the word a rule's head_of names (None: no instance)
            head = sentences[k].words[word.head - 1] if head_of is None else head_of(word, sentences[k].words)
            if head is None:
                continue
            if matches(word, head) if takes_head else matches(word):
                found[k][name].append(_instance(word, head, sentences[k].words, rule.uncounted))
    return found


def iter_instances(sentences: Iterable[Sentence], phenomena: Sequence[str | Phenomenon],
                   block: int = SENTENCE_BLOCK) -> Iterator[tuple[Sentence, dict[str, list[Instance]]]]:
    """Each sentence of a stream with its instances by phenomenon, taken ``block`` sentences at a
    time (:func:`find_instances_in_block`)."""
    stream = iter(sentences)
    while taken := list(islice(stream, block)):
        yield from zip(taken, find_instances_in_block(taken, phenomena))

