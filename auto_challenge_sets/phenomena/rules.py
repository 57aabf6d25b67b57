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


# Beyond the paper: agreement and verb placement, each a dependent whose head is a VERB.
# (the head's UPOS is tested first: a plain attribute, where DEPREL's base is computed per word)
def _aux_bracket(word: Token, head: Token) -> bool:
    return head.upos == "VERB" and word.deprel_base == "aux"


def _subj_verb(word: Token, head: Token) -> bool:
    return head.upos == "VERB" and word.deprel_base == "nsubj"


def _verb_final(word: Token, head: Token) -> bool:
    return word.upos == "SCONJ" and word.deprel == "mark" and head.upos == "VERB"


register_phenomenon("aux_bracket", "an auxiliary and its verb: DEPREL aux or aux:* with a VERB head "
                    "(the German verbal bracket 'hat ... gelesen')", WordTest("deprel", "startswith", "aux"))(_aux_bracket)
register_phenomenon("subj_verb", "a subject and its verb: DEPREL nsubj or nsubj:* with a VERB head "
                    "(agreement across intervening words)", WordTest("deprel", "startswith", "nsubj"))(_subj_verb)
register_phenomenon("verb_final", "a subordinating conjunction and its clause's verb: UPOS SCONJ, DEPREL mark, "
                    "a VERB head (German verb-final clauses)", WordTest("upos", "equals", "SCONJ"))(_verb_final)



def _relative_clause(word: Token) -> bool:
    return word.deprel == "acl:relcl"


register_phenomenon("relative_clause", "a relative clause and the word it modifies: DEPREL acl:relcl, from the "
                    "clause's head to the relativized word", WordTest("deprel", "equals", "acl:relcl"))(_relative_clause)
