"""The phenomena of one language's grammar and the languages' own rules of the generic phenomena,
each checked against that language's PUD treebank (docs/method.md, *Language profiles*; where each
applies: :mod:`auto_challenge_sets.phenomena.profiles`). Imported by the package
(:mod:`auto_challenge_sets.phenomena`) after the generic rules, so that they are built-in too.
"""

from __future__ import annotations

from collections.abc import Callable

from auto_challenge_sets.formats.ud import Token
from auto_challenge_sets.phenomena.registry import register_language_rule, register_phenomenon
from auto_challenge_sets.phenomena.rules import _verb_final
from auto_challenge_sets.phenomena.word_tests import WordTest

# Phenomena of one language's grammar (see auto_challenge_sets.phenomena.profiles for where each applies).
CZECH_CLITIC_AUXILIARIES = frozenset({"jsem", "jsi", "jsme", "jste", "bych", "bys", "by", "bychom", "byste", "bysme"})


def _aux_clitic(word: Token) -> bool:
    return word.deprel == "aux" and word.form.lower() in CZECH_CLITIC_AUXILIARIES


def _negation(word: Token) -> bool:
    return word.lemma == "ne" and word.upos == "ADV" and word.deprel == "advmod"


def _light_verb(word: Token, head: Token) -> bool:
    return head.upos == "VERB" and word.deprel == "compound:lvc"


def _ba_bei(word: Token, head: Token) -> bool:
    # a 把 tagged VERB is a verb of its own (Chinese PUD has one: 'xcomp'), not a marker
    return head.upos == "VERB" and word.form in ("把", "被") and word.upos != "VERB"


def _marked_verb(word: Token, words: list[Token]) -> Token | None:
    """把 and an agent's 被 are the case markers of a noun whose head is the verb; a passive 被 is the
    verb's own auxiliary."""
    head = words[word.head - 1]
    if not word.deprel.startswith(("case", "mark")):
        return head
    return words[head.head - 1] if head.head else None


register_phenomenon("aux_clitic", "a Czech second-position auxiliary clitic (jsem, jsi, jsme, jste, bych, by, ...) "
                    "and its verb: DEPREL aux", WordTest("deprel", "equals", "aux"))(_aux_clitic)
register_phenomenon("ne_pas", "the first part of a discontinuous negation (French 'ne ... pas') and its "
                    "predicate: LEMMA ne, DEPREL advmod", WordTest("lemma", "equals", "ne"))(_negation)
register_phenomenon("light_verb_compound", "the noun or adjective of a light-verb compound and its verb (Hindi "
                    "'shuru kiya'): DEPREL compound:lvc, a VERB head",
                    WordTest("deprel", "equals", "compound:lvc"))(_light_verb)
register_phenomenon("ba_bei", "a Chinese 把 or 被 marker and its verb (the head of the marked noun, or the verb "
                    "a passive 被 is the auxiliary of)", WordTest("form", "equals", ("把", "被")),
                    head_of=_marked_verb)(_ba_bei)


# Language rules: the generic phenomenon where the language annotates it otherwise.
def _reflexive_cs(word: Token) -> bool:
    # the reflexive clitics se/si and sebe; not the possessive svůj (Reflex=Yes too)
    return word.has_feature("Reflex", "Yes") and not word.has_feature("Poss", "Yes")


def _reflexive_lemma(lemma: str) -> Callable[[Token], bool]:
    def reflexive(word: Token) -> bool:
        return word.lemma == lemma and word.upos == "PRON"
    reflexive.__doc__ = f"a reflexive pronoun: LEMMA {lemma}, UPOS PRON"
    return reflexive


def _reflexive_of_verb(word: Token, head: Token) -> bool:
    # Spanish PUD attaches the se of a copular or idiomatic verb to the predicative word ('se declaró
    # reserva'), Icelandic PUD the sig of an idiom to its noun ('hefur orð á sér'): read on PUD, those
    # pairs were no reflexive and its verb (extraction_precision.tsv), so only a verb head counts
    return head.upos == "VERB" and (word.has_feature("Reflex", "Yes") or word.lemma == "sig")


def _subj_verb_hi(word: Token, head: Token) -> bool:
    # a Hindi verb agrees with an unmarked (nominative) subject; an ergative or dative one blocks it
    return head.upos == "VERB" and word.deprel_base == "nsubj" and word.has_feature("Case", "Nom")


register_language_rule("reflexive", "cs", "a reflexive pronoun (se, si, sebe): FEATS Reflex=Yes without Poss=Yes",
                       WordTest("feats", "contains", "Reflex="))(_reflexive_cs)
for _language, _lemma in (("fr", "se"), ("ru", "себя")):
    register_language_rule("reflexive", _language, f"a reflexive pronoun: LEMMA {_lemma}, UPOS PRON "
                           "(the treebank does not mark Reflex=Yes)", WordTest("lemma", "equals", _lemma))(
        _reflexive_lemma(_lemma))
# Words these treebanks tag SCONJ mark that subordinate nothing: the correlative of a conditional or
# temporal clause standing in the main clause (Hindi 'jab ... to', Russian 'esli ..., to'), and
# connectives and coordinators ('islie' therefore, 'lekin' but); read on PUD (extraction_precision.tsv)
NOT_SUBORDINATORS = {"hi": frozenset({"तो", "तब", "तबतक", "इसलिए", "ऐसा", "वैसे", "लेकिन", "या", "बल्कि"}),
                     "ru": frozenset({"то", "тем"})}


def _verb_final_without(language: str) -> Callable[[Token, Token], bool]:
    excluded = NOT_SUBORDINATORS[language]

    def verb_final(word: Token, head: Token) -> bool:
        return _verb_final(word, head) and word.lemma not in excluded
    return verb_final


for _language in NOT_SUBORDINATORS:
    register_language_rule("verb_final", _language, "a subordinating conjunction and its clause's verb: UPOS SCONJ, "
                           "DEPREL mark, a VERB head, not a main clause's correlative or connective "
                           f"({', '.join(sorted(NOT_SUBORDINATORS[_language]))})",
                           WordTest("upos", "equals", "SCONJ"))(_verb_final_without(_language))
register_language_rule("reflexive", "es", "a reflexive pronoun of a verb: FEATS Reflex=Yes, a VERB head",
                       WordTest("feats", "contains", "Reflex="))(_reflexive_of_verb)
register_language_rule("reflexive", "is", "a reflexive pronoun of a verb: LEMMA sig (the treebank does not mark "
                       "Reflex=Yes), a VERB head", WordTest("lemma", "equals", "sig"))(_reflexive_of_verb)
register_language_rule("subj_verb", "hi", "a nominative subject and its verb: DEPREL nsubj or nsubj:*, FEATS "
                       "Case=Nom, a VERB head (Hindi verbs agree with unmarked subjects)",
                       WordTest("deprel", "startswith", "nsubj"))(_subj_verb_hi)
