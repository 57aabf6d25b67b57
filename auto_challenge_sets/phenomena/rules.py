"""The paper's rules (reflexive, particle, prep_stranding) and the generic ones beyond it, each one
small predicate over a word of the source-side UD tree (docs/method.md)."""

from __future__ import annotations

from auto_challenge_sets.formats.ud import Token
from auto_challenge_sets.phenomena.registry import register_phenomenon
from auto_challenge_sets.phenomena.word_tests import WordTest


# The paper's rules. Registered by a call rather than the decorator only so that mutation
# testing (`make mutate`; mutmut leaves decorated functions alone) reaches their bodies.
def _reflexive(word: Token) -> bool:
    return word.has_feature("Reflex", "Yes")


def _particle(word: Token) -> bool:
    return word.deprel == "compound:prt" or word.deprel == "prt"  # prt: UD v1 treebanks and parsers


def _prep_stranding(word: Token) -> bool:
    return word.upos == "ADP" and word.deprel_base == "obl"


register_phenomenon("reflexive", "a word whose FEATS contain Reflex=Yes (e.g. German 'sich')",
                    WordTest("feats", "contains", "Reflex="))(_reflexive)
register_phenomenon("particle", "a separable-verb / phrasal-verb particle: DEPREL compound:prt (or prt)",
                    WordTest("deprel", "equals", ("compound:prt", "prt")))(_particle)
register_phenomenon("prep_stranding", "a stranded preposition: UPOS ADP with DEPREL obl or obl:*",
                    WordTest("deprel", "startswith", "obl"))(_prep_stranding)


# Beyond the paper: agreement and verb placement, each a dependent of a clause's predicate.
def _predicate(word: Token, words: list[Token]) -> Token | None:
    """The verb a dependent of a predicate runs to: its head where that is a VERB or a participle
    (Czech PUD tags passive participles ADJ, VerbForm=Part); where UD makes a copula's complement the
    head ('wenn der Name ... selten ist'), the copula, the verb of the clause; else None."""
    head = words[word.head - 1]
    if head.upos == "VERB" or head.has_feature("VerbForm", "Part"):
        return head
    return next((other for other in words if other.head == head.id and other.deprel == "cop"), None)


def _aux_bracket(word: Token) -> bool:
    return word.deprel_base == "aux"


def _subj_verb(word: Token) -> bool:
    # a subject in another case than the nominative does not agree with its verb (Icelandic dative
    # subjects, Czech and Russian genitive subjects of a numeral or a negation)
    return word.deprel_base == "nsubj" and ("Case=" not in word.feats or word.has_feature("Case", "Nom"))


def _verb_final(word: Token) -> bool:
    return word.upos == "SCONJ" and word.deprel == "mark"


register_phenomenon("aux_bracket", "an auxiliary and its verb: DEPREL aux or aux:*, a verb or participle head or "
                    "its copula (the German verbal bracket 'hat ... gelesen')", WordTest("deprel", "startswith", "aux"),
                    head_of=_predicate)(_aux_bracket)
register_phenomenon("subj_verb", "a subject and its verb: DEPREL nsubj or nsubj:*, nominative or unmarked for case, "
                    "a verb or participle head or its copula (agreement across intervening words)",
                    WordTest("deprel", "startswith", "nsubj"), head_of=_predicate)(_subj_verb)
# one rule, two names: where subordinate clauses are verb-final (German, Hindi) the distance spans the
# clause; elsewhere it is what precedes the clause's verb, mostly its subject (profiles.py)
for _name, _what in (("verb_final", "German and Hindi verb-final clauses"),
                     ("subordinator_verb", "the subordinate clause's subject and what else precedes its verb")):
    register_phenomenon(_name, "a subordinating conjunction and its clause's verb: UPOS SCONJ, DEPREL mark, a verb "
                        f"or participle head or its copula ({_what})", WordTest("upos", "equals", "SCONJ"),
                        head_of=_predicate)(_verb_final)


def _relative_clause(word: Token) -> bool:
    return word.deprel == "acl:relcl"


register_phenomenon("relative_clause", "a relative clause and the word it modifies: DEPREL acl:relcl, from the "
                    "clause's head to the relativized word", WordTest("deprel", "equals", "acl:relcl"))(_relative_clause)
