"""The phenomenon rules on real sentences of the gold PUD treebanks (quoted below)."""

from __future__ import annotations

import pytest

from auto_challenge_sets.formats.conllu import parse_conllu, read_conllu
from auto_challenge_sets.formats.ud import Sentence, Token
from auto_challenge_sets.phenomena.registry import (
    PHENOMENA,
    Instance,
    Phenomenon,
    find_instances,
    get_phenomenon,
    lexical_phenomena,
    register_alignment_phenomenon,
    register_phenomenon,
)
from auto_challenge_sets.phenomena.reordering import raw_measure

from conftest import shared_path


@pytest.fixture(scope="module")
def pud() -> dict[str, dict]:
    return {
        lang: {s.sent_id: s for s in read_conllu(shared_path("data", "pud", f"{lang}_pud-ud-test.conllu"))}
        for lang in ("de", "en")
    }


def test_registry_has_the_papers_phenomena() -> None:
    assert {"reflexive", "particle", "prep_stranding"} <= set(PHENOMENA)
    with pytest.raises(KeyError, match=r"unknown phenomenon 'nope' \(known: aux_bracket, ba_bei, "
                                        r"crossing, light_verb_compound, ne_pas, particle, prep_stranding, reflexive, "
                                        r"relative_clause, reorder, reorder_norm, subj_verb, subordinator_verb, "
                                        r"verb_final\)"):
        get_phenomenon("nope")


def test_german_particle_and_reflexive(pud: dict) -> None:
    sentence = pud["de"]["n01013005"]
    assert sentence.text == ("Osborne meldete sich bei einer amerikanischen Redneragentur an, "
                             "nachdem er im Juli gefeuert wurde.")
    # "an" (8) is the particle of "meldete" (2): five words between.
    assert find_instances(sentence, "particle") == [Instance(8, 2, "an", "meldete", 5, 2)]
    # "sich" (3) is right after "meldete": distance 0.
    assert find_instances(sentence, "reflexive") == [Instance(3, 2, "sich", "meldete", 0, 0)]
    assert find_instances(sentence, "prep_stranding") == []


def test_two_particles_in_one_sentence(pud: dict) -> None:
    sentence = pud["de"]["n01016014"]
    assert sentence.text.startswith("Die südkoreanische Firma ging zunächst von einem Akkufehler aus und "
                                    "tauschte ihre eigene Komponente gegen eine Batterie")
    found = find_instances(sentence, "particle")
    assert [(i.dependent_form, i.head_form, i.distance) for i in found] == [("aus", "ging", 4), ("aus", "tauschte", 10)]


def test_reflexive_far_from_its_verb(pud: dict) -> None:
    # "... sagte er zu der Menschenmenge, die sich auf einem ... versammelt ..."
    sentence = pud["de"]["n01002032"]
    assert "die sich auf einem" in sentence.text
    (instance,) = find_instances(sentence, "reflexive")
    assert (instance.dependent_form, instance.head_form, instance.distance) == ("sich", "versammelt", 9)
    assert sentence.words[instance.dependent - 1].has_feature("Reflex", "Yes")


def test_english_particle_and_reflexive(pud: dict) -> None:
    assert pud["en"]["n01013005"].text == "Mr Osborne signed up with a US speakers agency after being sacked in July."
    assert find_instances(pud["en"]["n01013005"], "particle") == [Instance(4, 3, "up", "signed", 0, 0)]
    sentence = pud["en"]["n01087018"]
    assert sentence.text == "I think that’s why they immersed themselves in pattern and colour."
    assert find_instances(sentence, "reflexive") == [Instance(8, 7, "themselves", "immersed", 0, 0)]


def test_prep_stranding_on_gold_english(pud: dict) -> None:
    sentence = pud["en"]["w01027007"]
    assert sentence.text == "The climate is so dry that these plains are sometimes thought of as part of the Sahara."
    assert find_instances(sentence, "prep_stranding") == [Instance(12, 11, "of", "thought", 0, 0)]
    # Gold UD attaches most stranded prepositions as `case`: the rule fires on few gold English trees.
    assert sum(bool(find_instances(s, "prep_stranding")) for s in pud["en"].values()) == 4


def test_root_is_never_an_instance() -> None:
    (sentence,) = parse_conllu("1\tan\tan\tADP\t_\t_\t0\tcompound:prt\t_\t_\n2\tx\tx\tX\t_\tReflex=Yes\t1\tdep\t_\t_\n")
    assert find_instances(sentence, "particle") == []
    assert find_instances(sentence, "reflexive") == [Instance(2, 1, "x", "an", 0, 0)]


def test_feature_matching_is_exact() -> None:
    assert Token(1, "sich", feats="Case=Acc|PronType=Prs|Reflex=Yes").has_feature("Reflex", "Yes")
    assert not Token(1, "x", feats="Reflex=No").has_feature("Reflex", "Yes")
    assert not Token(1, "x", feats="NotReflex=Yes").has_feature("Reflex", "Yes")
    assert Token(1, "x", feats="Case=Acc,Dat").has_feature("Case", "Dat")
    assert Token(1, "x", deprel="prt").deprel_base == "prt"
    assert Token(1, "x", deprel="obl:tmod").deprel_base == "obl"


def test_adding_a_phenomenon_is_one_registered_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("auto_challenge_sets.phenomena.registry.PHENOMENA", dict(PHENOMENA))

    @register_phenomenon("negation", "Polarity=Neg")
    def _negation(word: Token) -> bool:
        return word.has_feature("Polarity", "Neg")

    (sentence,) = parse_conllu("1\tnicht\tnicht\tPART\t_\tPolarity=Neg\t3\tadvmod\t_\t_\n"
                               "2\tso\tso\tADV\t_\t_\t3\tadvmod\t_\t_\n3\tgut\tgut\tADJ\t_\t_\t0\troot\t_\t_\n")
    assert find_instances(sentence, "negation") == [Instance(1, 3, "nicht", "gut", 1, 1)]
    assert get_phenomenon("negation") == Phenomenon("negation", "Polarity=Neg", _negation, "lexical")
    with pytest.raises(ValueError, match="^phenomenon 'negation' is already registered$"):
        register_phenomenon("negation", "again")(_negation)
    for bad in ("Bad-Name", "Negation", "neg-ation", "2neg"):
        with pytest.raises(ValueError, match=f"^phenomenon names are lower-case identifiers, got '{bad}'$"):
            register_phenomenon(bad, "x")
    aligned = register_alignment_phenomenon("long_links", "long links")
    assert aligned == Phenomenon("long_links", "long links", None, "reorder", measure=raw_measure,
                                 distances=(5, 10, 15, 20)) == get_phenomenon("long_links")
    assert "long_links" not in lexical_phenomena() and "negation" in lexical_phenomena()


# A UD v1 tree (v1 labelled particles `prt`; parsers trained on v1 treebanks still do): "She turned
# the offer down", with the particle three words after its verb.
UD_V1 = ("1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tturned\tturn\tVERB\tVBD\t_\t0\troot\t_\t_\n"
         "3\tthe\tthe\tDET\tDT\t_\t4\tdet\t_\t_\n4\toffer\toffer\tNOUN\tNN\t_\t2\tdobj\t_\t_\n"
         "5\tdown\tdown\tADP\tRP\t_\t2\t{deprel}\t_\t_\n")


@pytest.mark.parametrize(("deprel", "found"), [("prt", True), ("compound:prt", True), ("compound", False),
                                               ("compound:svc", False), ("advmod", False), ("part", False)])
def test_particle_takes_ud_v1_prt_and_v2_compound_prt_only(deprel: str, found: bool) -> None:
    (sentence,) = parse_conllu(UD_V1.format(deprel=deprel))
    expected = [Instance(5, 2, "down", "turned", 2, 1)] if found else []
    assert find_instances(sentence, "particle") == expected
    assert find_instances(sentence, "prep_stranding") == []  # ADP, but not obl


@pytest.mark.parametrize(("upos", "deprel", "found"), [("ADP", "obl", True), ("ADP", "obl:tmod", True),
                                                       ("ADV", "obl", False), ("ADP", "nmod", False),
                                                       ("ADP", "oblique", False)])
def test_prep_stranding_needs_adp_and_obl(upos: str, deprel: str, found: bool) -> None:
    (sentence,) = parse_conllu(f"1\twho\twho\tPRON\t_\t_\t2\tobj\t_\t_\n2\ttalk\ttalk\tVERB\t_\t_\t0\troot\t_\t_\n"
                               f"3\tto\tto\t{upos}\t_\t_\t2\t{deprel}\t_\t_\n")
    assert find_instances(sentence, "prep_stranding") == ([Instance(3, 2, "to", "talk", 0, 0)] if found else [])


def test_reorder_is_registered_but_measured_on_the_alignment() -> None:
    (sentence,) = parse_conllu(UD_V1.format(deprel="prt"))
    assert get_phenomenon("reorder").rule is None and get_phenomenon("reorder").kind == "reorder"
    assert "reorder" in PHENOMENA and "reorder" not in lexical_phenomena()
    assert lexical_phenomena()[:3] == ["reflexive", "particle", "prep_stranding"]
    with pytest.raises(ValueError, match="'reorder' is measured on the word alignment, not on the tree"):
        find_instances(sentence, "reorder")
    with pytest.raises(ValueError, match="phenomenon 'reorder' is already registered"):
        register_alignment_phenomenon("reorder", "again")
    assert find_instances(sentence, get_phenomenon("particle")) == [Instance(5, 2, "down", "turned", 2, 1)]


def test_aux_bracket_on_the_german_verbal_bracket(pud: dict) -> None:
    # "Hier kann man Parallelen zwischen Spielen und unserem täglichen Leben ziehen ."
    sentence = pud["de"]["n01007012"]
    assert find_instances(sentence, "aux_bracket") == [Instance(2, 11, "kann", "ziehen", 8, 4)]
    # werden (aux:pass) ... finanziert: a subtype of aux counts
    assert find_instances(pud["de"]["n01002042"], "aux_bracket") == [Instance(4, 9, "werden", "finanziert", 4, 3)]


def test_subj_verb_and_verb_final_in_one_german_sentence(pud: dict) -> None:
    # "Ein Zeuge berichtete der Polizei , dass das Opfer den Verdächtigen in dem April angegriffen hatte ."
    sentence = pud["de"]["n01006011"]
    assert find_instances(sentence, "subj_verb") == [Instance(2, 3, "Zeuge", "berichtete", 0, 0),
                                                     Instance(9, 15, "Opfer", "angegriffen", 5, 2)]
    assert find_instances(sentence, "verb_final") == [Instance(7, 15, "dass", "angegriffen", 7, 3)]
    assert find_instances(sentence, "aux_bracket") == [Instance(16, 15, "hatte", "angegriffen", 0, 0)]


def test_a_rule_running_to_another_word_finds_the_same_without_its_word_test(pud: dict) -> None:
    # the word test only narrows the candidates: every word is one without it
    from dataclasses import replace

    from auto_challenge_sets.phenomena.registry import find_instances_in_block

    sentences = list(pud["de"].values())[:300]
    for name in ("subj_verb", "verb_final", "aux_bracket"):
        rule = get_phenomenon(name)
        assert rule.head_of is not None and rule.word_test is not None
        with_test = find_instances_in_block(sentences, [rule])
        assert find_instances_in_block(sentences, [replace(rule, word_test=None)]) == with_test
        assert sum(len(found[name]) for found in with_test) > 50


def test_english_subject_far_from_its_verb(pud: dict) -> None:
    # "First one of the Yazidi women started crying , ...": agreement across "of the Yazidi women"
    assert find_instances(pud["en"]["n01012003"], "subj_verb")[0] == Instance(2, 7, "one", "started", 4, 2)


def test_head_rules_need_a_verb_a_participle_or_a_copula() -> None:
    from auto_challenge_sets.formats.ud import Token

    words = [Token(1, "that", upos="SCONJ", head=3, deprel="mark"), Token(2, "he", upos="PRON", head=3, deprel="nsubj"),
             Token(3, "ill", upos="ADJ", head=0, deprel="root"), Token(4, "will", upos="AUX", head=3, deprel="aux")]
    for name in ("subj_verb", "verb_final", "aux_bracket"):
        assert find_instances(Sentence(words), name) == []
    copula = Token(5, "be", upos="AUX", head=3, deprel="cop")
    found = {name: find_instances(Sentence([*words, copula]), name) for name in ("subj_verb", "verb_final", "aux_bracket")}
    assert {name: [(i.dependent, i.head) for i in instances] for name, instances in found.items()} == {
        "subj_verb": [(2, 5)], "verb_final": [(1, 5)], "aux_bracket": [(4, 5)]}


def test_a_rule_takes_the_word_or_the_word_and_its_head() -> None:
    from auto_challenge_sets.phenomena.registry import register_phenomenon

    with pytest.raises(ValueError, match=r"takes \(word\) or \(word, head\), not 3"):
        register_phenomenon("three_args", "x")(lambda word, head, sentence: True)
    assert "three_args" not in PHENOMENA
    register_phenomenon("head_is_root", "a word whose head is the root word")(lambda word, head: head.head == 0)
    try:
        assert PHENOMENA["head_is_root"].takes_head
        assert [i.dependent for i in find_instances(Sentence([]), "head_is_root")] == []
    finally:
        PHENOMENA.pop("head_is_root", None)
