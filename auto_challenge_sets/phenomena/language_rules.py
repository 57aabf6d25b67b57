"""The phenomena of one language's grammar and the languages' own rules of the generic phenomena,
each checked against that language's PUD treebank (docs/method.md, *Language profiles*; where each
applies: :mod:`auto_challenge_sets.phenomena.profiles`). Imported by the package
(:mod:`auto_challenge_sets.phenomena`) after the generic rules, so that they are built-in too.
"""

from __future__ import annotations

from collections.abc import Callable

from auto_challenge_sets.formats.ud import Token
from auto_challenge_sets.phenomena.registry import register_language_rule, register_phenomenon
from auto_challenge_sets.phenomena.rules import _particle, _predicate, _relative_clause, _verb_final
from auto_challenge_sets.phenomena.word_tests import WordTest


# Phenomena of one language's grammar (see auto_challenge_sets.phenomena.profiles for where each applies).
def _negation(word: Token) -> bool:
    return word.lemma == "ne" and word.upos == "ADV" and word.deprel == "advmod"


def _other_part(word: Token, words: list[Token]) -> Token | None:
    """The word that closes ne's negation (pas, plus, jamais, rien, aucun, personne: Polarity=Neg or
    PronType=Neg; French PUD mostly leaves plus, jamais and guère unmarked), a dependent of ne's
    predicate or the determiner of one ('aucune manifestation'): the first after ne, else a negative
    pronoun or determiner before it ('rien ne', 'aucun soldat n''); None where there is none (ne ...
    que, a restriction; an expletive ne)."""
    def closes(other: Token) -> bool:
        return (other.lemma != "ne" and (other.has_feature("Polarity", "Neg") or other.has_feature("PronType", "Neg")
                                         or other.lemma in ("plus", "jamais", "guère"))
                and (other.head == word.head or other.deprel == "det" and words[other.head - 1].head == word.head))
    parts = [other for other in words if closes(other)]
    return next((other for other in parts if other.id > word.id),
                next((other for other in reversed(parts) if other.has_feature("PronType", "Neg")), None))


def _light_verb(word: Token, head: Token) -> bool:
    return head.upos == "VERB" and word.deprel == "compound:lvc"


def _ba_bei(word: Token, head: Token) -> bool:
    # 將 is also the future 'will' (ADV), no marker
    return head.upos == "VERB" and (word.form in ("把", "被") or word.form in ("將", "将") and word.upos != "ADV")


def _marked_verb(word: Token, words: list[Token]) -> Token | None:
    """把 (or the formal 將) and an agent's 被 are the case markers of a noun whose head is the verb; a
    passive 被 is the verb's own auxiliary; a 把 or 將 tagged VERB (both in Chinese PUD are ordinary
    disposal) heads its object, and the verb it marks is its complement (xcomp or advcl)."""
    head = words[word.head - 1]
    if word.upos == "VERB":
        return next((other for other in words[word.id:] if other.head == word.id
                     and other.deprel in ("xcomp", "advcl")), None)
    if not word.deprel.startswith(("case", "mark")):
        return head
    return words[head.head - 1] if head.head else None


register_phenomenon("ne_pas", "a discontinuous negation (French 'ne ... pas') over its span: LEMMA ne, DEPREL "
                    "advmod, to the negative word of its predicate that closes it (pas, plus, jamais, rien, aucun, "
                    "...), the first after it, else a negative pronoun or determiner before it (rien ne)", WordTest("lemma", "equals", "ne"),
                    head_of=_other_part)(_negation)
register_phenomenon("light_verb_compound", "the noun or adjective of a light-verb compound and its verb (Hindi "
                    "'shuru kiya'): DEPREL compound:lvc, a VERB head",
                    WordTest("deprel", "equals", "compound:lvc"))(_light_verb)
register_phenomenon("ba_bei", "a Chinese 把, 將 or 被 marker and its verb (the head of the marked noun, or the "
                    "verb a passive 被 is the auxiliary of)", WordTest("form", "equals", ("把", "被", "將", "将")),
                    head_of=_marked_verb)(_ba_bei)


# Language rules: the generic phenomenon where the language annotates it otherwise.
def _reflexive_cs(word: Token, head: Token) -> bool:
    # the reflexive clitics se/si and sebe of a verb or of its participle (tagged ADJ: 'vyskytujícími
    # se'); not the possessive svůj (Reflex=Yes too), nor 'za sebou' ('in a row') under an adverb
    return (word.has_feature("Reflex", "Yes") and not word.has_feature("Poss", "Yes")
            and (head.upos == "VERB" or head.has_feature("VerbForm", "Part")))


def _reflexive_fr(word: Token) -> bool:
    return word.lemma == "se" and word.upos == "PRON"


def _reflexive_of_verb(word: Token, head: Token) -> bool:
    # Spanish PUD attaches the se of a copular or idiomatic verb to the predicative word ('se declaró
    # reserva'), Icelandic PUD the sig of an idiom to its noun ('hefur orð á sér'): read on PUD, those
    # pairs were no reflexive and its verb (extraction_precision.tsv), so only a verb head counts
    return head.upos == "VERB" and (word.has_feature("Reflex", "Yes") or word.lemma == "sig")


def _particle_verb(word: Token, words: list[Token]) -> Token | None:
    """The verb of an Icelandic particle, or None where the word is a preposition Icelandic PUD labels
    compound:prt too (extraction_precision.tsv): one governing an að-infinitive ('hjálpa okkur við að
    fylla') or, tagged ADP, an að-clause ('benti á að'), or one stranded at the end of its clause, a
    relative clause's ('sem hún dáðist að') or tagged ADP ('sem hún sjái eftir')."""
    head, later = words[word.head - 1], words[word.id:]
    if later and later[0].lemma == "að" and (later[0].upos == "PART" or word.upos == "ADP"):
        return None
    if (head.deprel == "acl:relcl" or word.upos == "ADP") and not any(
            _governed_by(other, head, words) for other in later if other.upos != "PUNCT"):
        return None
    return head


def _governed_by(word: Token, head: Token, words: list[Token]) -> bool:
    while word.head and word.head != head.id:
        word = words[word.head - 1]
    return word.head == head.id


def _subj_verb_hi(word: Token) -> bool:
    # a Hindi verb agrees with an unmarked (nominative) subject; an ergative or dative one blocks it
    return word.deprel_base == "nsubj" and word.has_feature("Case", "Nom")


register_language_rule("reflexive", "cs", "a reflexive pronoun (se, si, sebe): FEATS Reflex=Yes without Poss=Yes, "
                       "a verb or participle head", WordTest("feats", "contains", "Reflex="))(_reflexive_cs)
register_language_rule("reflexive", "fr", "a reflexive pronoun: LEMMA se, UPOS PRON (the treebank does not mark "
                       "Reflex=Yes)", WordTest("lemma", "equals", "se"))(_reflexive_fr)
# Words these treebanks tag SCONJ mark that subordinate nothing: the correlative of a conditional or
# temporal clause standing in the main clause (Hindi 'jab ... to', Russian 'esli ..., to'), and
# connectives and coordinators ('islie' therefore, 'lekin' but, sentence-initial 'haalaanki' however);
# read on PUD (extraction_precision.tsv)
NOT_SUBORDINATORS = {"hi": frozenset({"तो", "तब", "तबतक", "इसलिए", "ऐसा", "वैसे", "लेकिन", "या", "बल्कि", "हालांकि"}),
                     "ru": frozenset({"то", "тем"})}


def _verb_final_without(language: str) -> Callable[[Token], bool]:
    excluded = NOT_SUBORDINATORS[language]

    def verb_final(word: Token) -> bool:
        return _verb_final(word) and word.lemma not in excluded
    return verb_final


for _language, _name in (("hi", "verb_final"), ("ru", "subordinator_verb")):
    register_language_rule(_name, _language, "a subordinating conjunction and its clause's verb: UPOS SCONJ, "
                           "DEPREL mark, a verb or participle head or its copula, not a main clause's correlative or "
                           f"connective ({', '.join(sorted(NOT_SUBORDINATORS[_language]))})",
                           WordTest("upos", "equals", "SCONJ"), head_of=_predicate)(_verb_final_without(_language))
register_language_rule("particle", "is", "a particle: DEPREL compound:prt, not a preposition governing að or "
                       "stranded", WordTest("deprel", "equals", ("compound:prt", "prt")), head_of=_particle_verb)(_particle)
register_language_rule("reflexive", "is", "a reflexive pronoun of a verb: LEMMA sig (the treebank does not mark "
                       "Reflex=Yes), a VERB head", WordTest("lemma", "equals", "sig"))(_reflexive_of_verb)
register_language_rule("subj_verb", "hi", "a nominative subject and its verb: DEPREL nsubj or nsubj:*, FEATS "
                       "Case=Nom, a verb or participle head or its copula (Hindi verbs agree with unmarked subjects)",
                       WordTest("deprel", "startswith", "nsubj"), head_of=_predicate)(_subj_verb_hi)
register_language_rule("relative_clause", "zh", "a relative clause and the word it modifies: DEPREL acl:relcl, from "
                       "the clause's head to the relativized word, the distance not counting the relative marker 的 "
                       "(or 之: mark:rel), always between them", WordTest("deprel", "equals", "acl:relcl"),
                       uncounted=lambda word: word.deprel == "mark:rel")(_relative_clause)
