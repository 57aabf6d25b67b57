"""The phenomenon rules on real sentences of the gold PUD treebanks (quoted below)."""

from __future__ import annotations

import pytest

from auto_challenge_sets.conllu_io import parse_conllu, read_conllu
from auto_challenge_sets.phenomena import (
    PHENOMENA,
    Instance,
    find_instances,
    get_phenomenon,
    is_selected,
    max_distance,
    register_phenomenon,
)
from auto_challenge_sets.ud import Token

from conftest import shared_path


@pytest.fixture(scope="module")
def pud() -> dict[str, dict]:
    return {
        lang: {s.sent_id: s for s in read_conllu(shared_path("data", "pud", f"{lang}_pud-ud-test.conllu"))}
        for lang in ("de", "en")
    }


def test_registry_has_the_papers_phenomena() -> None:
    assert {"reflexive", "particle", "prep_stranding"} <= set(PHENOMENA)
    with pytest.raises(KeyError, match="unknown phenomenon 'nope'"):
        get_phenomenon("nope")


def test_german_particle_and_reflexive(pud: dict) -> None:
    sentence = pud["de"]["n01013005"]
    assert sentence.text == ("Osborne meldete sich bei einer amerikanischen Redneragentur an, "
                             "nachdem er im Juli gefeuert wurde.")
    # "an" (8) is the particle of "meldete" (2): five words between.
    assert find_instances(sentence, "particle") == [Instance(8, 2, "an", "meldete", 5)]
    # "sich" (3) is right after "meldete": distance 0.
    assert find_instances(sentence, "reflexive") == [Instance(3, 2, "sich", "meldete", 0)]
    assert find_instances(sentence, "prep_stranding") == []


def test_two_particles_in_one_sentence(pud: dict) -> None:
    sentence = pud["de"]["n01016014"]
    assert sentence.text.startswith("Die südkoreanische Firma ging zunächst von einem Akkufehler aus und "
                                    "tauschte ihre eigene Komponente gegen eine Batterie")
    found = find_instances(sentence, "particle")
    assert [(i.dependent_form, i.head_form, i.distance) for i in found] == [("aus", "ging", 4), ("aus", "tauschte", 10)]
    assert max_distance(found) == 10
    assert is_selected(found, 10) and not is_selected(found, 11)
    assert is_selected(found, 4, exact=True) and not is_selected(found, 5, exact=True)


def test_reflexive_far_from_its_verb(pud: dict) -> None:
    # "... sagte er zu der Menschenmenge, die sich auf einem ... versammelt ..."
    sentence = pud["de"]["n01002032"]
    assert "die sich auf einem" in sentence.text
    (instance,) = find_instances(sentence, "reflexive")
    assert (instance.dependent_form, instance.head_form, instance.distance) == ("sich", "versammelt", 9)
    assert sentence.words[instance.dependent - 1].has_feature("Reflex", "Yes")


def test_english_particle_and_reflexive(pud: dict) -> None:
    assert pud["en"]["n01013005"].text == "Mr Osborne signed up with a US speakers agency after being sacked in July."
    assert find_instances(pud["en"]["n01013005"], "particle") == [Instance(4, 3, "up", "signed", 0)]
    sentence = pud["en"]["n01087018"]
    assert sentence.text == "I think that’s why they immersed themselves in pattern and colour."
    assert find_instances(sentence, "reflexive") == [Instance(8, 7, "themselves", "immersed", 0)]


def test_prep_stranding_on_gold_english(pud: dict) -> None:
    sentence = pud["en"]["w01027007"]
    assert sentence.text == "The climate is so dry that these plains are sometimes thought of as part of the Sahara."
    assert find_instances(sentence, "prep_stranding") == [Instance(12, 11, "of", "thought", 0)]
    # Gold UD attaches most stranded prepositions as `case`: the rule fires on few gold English trees.
    assert sum(bool(find_instances(s, "prep_stranding")) for s in pud["en"].values()) == 4


def test_root_is_never_an_instance() -> None:
    (sentence,) = parse_conllu("1\tan\tan\tADP\t_\t_\t0\tcompound:prt\t_\t_\n2\tx\tx\tX\t_\tReflex=Yes\t1\tdep\t_\t_\n")
    assert find_instances(sentence, "particle") == []
    assert find_instances(sentence, "reflexive") == [Instance(2, 1, "x", "an", 0)]


def test_feature_matching_is_exact() -> None:
    assert Token(1, "sich", feats="Case=Acc|PronType=Prs|Reflex=Yes").has_feature("Reflex", "Yes")
    assert not Token(1, "x", feats="Reflex=No").has_feature("Reflex", "Yes")
    assert not Token(1, "x", feats="NotReflex=Yes").has_feature("Reflex", "Yes")
    assert Token(1, "x", feats="Case=Acc,Dat").has_feature("Case", "Dat")
    assert Token(1, "x", deprel="prt").deprel_base == "prt"
    assert Token(1, "x", deprel="obl:tmod").deprel_base == "obl"


def test_adding_a_phenomenon_is_one_registered_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("auto_challenge_sets.phenomena.PHENOMENA", dict(PHENOMENA))

    @register_phenomenon("negation", "Polarity=Neg")
    def _negation(word: Token) -> bool:
        return word.has_feature("Polarity", "Neg")

    (sentence,) = parse_conllu("1\tnicht\tnicht\tPART\t_\tPolarity=Neg\t3\tadvmod\t_\t_\n"
                               "2\tso\tso\tADV\t_\t_\t3\tadvmod\t_\t_\n3\tgut\tgut\tADJ\t_\t_\t0\troot\t_\t_\n")
    assert find_instances(sentence, "negation") == [Instance(1, 3, "nicht", "gut", 1)]
    with pytest.raises(ValueError, match="already registered"):
        register_phenomenon("negation", "again")(_negation)
    with pytest.raises(ValueError, match="lower-case identifiers"):
        register_phenomenon("Bad-Name", "x")
