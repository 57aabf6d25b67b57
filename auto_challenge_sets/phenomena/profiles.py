"""Language profiles: which phenomena found on the source tree apply to which source language.

One table, :data:`PROFILES`. A phenomenon that cannot occur in a language is no config of that
language's builds: a German source has no stranded prepositions, Chinese verbs no agreement with
their subject, and Spanish ``compound:prt`` marks reflexive *se*, not a particle. Where a language
annotates a phenomenon otherwise than the generic rule reads it (French and Icelandic PUD mark no
``Reflex=Yes``), the phenomenon keeps its name and the language its own rule
(``register_language_rule`` in :mod:`auto_challenge_sets.phenomena.registry`). Each entry was checked on the
language's gold PUD treebank; what each finds there, and how precisely, is measured in
``auto_challenge_sets/dataset/extraction_precision.tsv`` (``studies/language_precision.py``).

A language the table does not name gets the generic rules of :data:`ANY`. A rule a user adds
(``--rule``, an entry point) applies to the languages it declares, or to every language. A code with a
region or script (``zh_TW``) has its language's profile; an ISO 639-2/3 code of a language written
here in ISO 639-1 (``zho``, ``cmn``) is refused (:data:`ISO_639_1`), so one language has one name.
"""

from __future__ import annotations

from auto_challenge_sets.phenomena.registry import BUILTIN, PHENOMENA, lexical_phenomena

ANY = "*"  # a source language the table does not name

# source language -> the built-in lexical phenomena a build from it makes configs for. verb_final where
# subordinate clauses are verb-final, subordinator_verb (the same pairs) elsewhere. Left out, from the
# share of D >= 1 instances on gold PUD whose gap holds only function words (extraction_precision.md):
# es reflexive 97 % ('se ha considerado'), hi aux_bracket 99 % (a fixed chain of auxiliaries), ru
# reflexive 91 % ('в себя'; the Russian reflexive is the suffix -ся, inside one word); cs aux_clitic:
# all 126 of its PUD instances are aux_bracket's auxiliaries. Kept: en reflexive, 100 % of 2, is the paper's.
PROFILES: dict[str, tuple[str, ...]] = {
    "cs": ("reflexive", "aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "de": ("reflexive", "particle", "aux_bracket", "subj_verb", "verb_final", "relative_clause"),
    "en": ("reflexive", "particle", "prep_stranding", "aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "es": ("aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "fr": ("reflexive", "ne_pas", "aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "hi": ("light_verb_compound", "subj_verb", "verb_final", "relative_clause"),
    "is": ("reflexive", "particle", "aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "ru": ("aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
    "zh": ("ba_bei", "aux_bracket", "relative_clause"),
    ANY: ("reflexive", "particle", "aux_bracket", "subj_verb", "subordinator_verb", "relative_clause"),
}

# ISO 639-2 (T and B) and 639-3 codes -> the ISO 639-1 code of the profiles and tokenizers (cmn: Mandarin)
ISO_639_1 = {"ces": "cs", "cze": "cs", "deu": "de", "ger": "de", "eng": "en", "spa": "es", "fra": "fr", "fre": "fr",
             "hin": "hi", "isl": "is", "ice": "is", "rus": "ru", "zho": "zh", "chi": "zh", "cmn": "zh", "jpn": "ja"}


def base_language(code: str) -> str:
    """The language of a code without its region or script: ``zh_TW`` -> ``zh``."""
    return code.split("_")[0]


def iso_639_1(code: str) -> str:
    """``code`` with its language in ISO 639-1 where :data:`ISO_639_1` has it: ``zho_TW`` -> ``zh_TW``."""
    base = base_language(code)
    return ISO_639_1.get(base, base) + code[len(base):]


def profile_note(language: str) -> str | None:
    """What a build from source ``language`` says when no profile names it (None when one does)."""
    if base_language(language) in PROFILES:
        return None
    named = ", ".join(sorted(set(PROFILES) - {ANY}))
    return f"no language profile for {language!r} (profiles: {named}): the generic rules apply"


def source_phenomena(language: str) -> list[str]:
    """The lexical phenomena a build from source ``language`` makes configs for, in registration
    order: the built-in ones of its profile, then every user's rule that declares the language (or
    its base language) or none."""
    base = base_language(language)
    profile = set(PROFILES.get(base, PROFILES[ANY]))

    def applies(name: str) -> bool:
        if name in BUILTIN:
            return name in profile
        declared = PHENOMENA[name].languages
        return declared is None or language in declared or base in declared

    return [name for name in lexical_phenomena() if applies(name)]


def profile_languages(phenomenon: str) -> list[str]:
    """The languages of the table whose builds make configs for ``phenomenon``."""
    return sorted(language for language, names in PROFILES.items() if language != ANY and phenomenon in names)

