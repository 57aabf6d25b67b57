"""Each PUD language's rules on a few hand-written sentences, modelled on that treebank's annotation
(not copied from it), so that a fresh clone's suite, without ../shared, catches a rule that matches
the wrong relation: every phenomenon of the language's profile finds exactly the listed (dependent,
head) pairs in each sentence. The sentences are CoNLL-U written as ID FORM LEMMA UPOS FEATS HEAD
DEPREL, one word a line, columns separated by spaces (XPOS, DEPS and MISC are ``_``)."""

from __future__ import annotations

import pytest

from auto_challenge_sets.formats.conllu import iter_sentences
from auto_challenge_sets.phenomena.profiles import source_phenomena
from auto_challenge_sets.phenomena.registry import find_instances, find_instances_in_block, phenomenon_for

# language -> [(sentence, {phenomenon: [(dependent, head)]})]; a phenomenon not named finds nothing
SENTENCES: dict[str, list[tuple[str, dict[str, list[tuple[int, int]]]]]] = {
    "cs": [("""
1 Když když SCONJ _ 4 mark
2 jsem být AUX Mood=Ind|Number=Sing|Person=1|VerbForm=Fin 4 aux
3 byl být AUX Gender=Masc|Number=Sing|VerbForm=Part|Voice=Act 4 aux:pass
4 zvolen zvolený ADJ Gender=Masc|Number=Sing|Variant=Short|VerbForm=Part|Voice=Pass 6 advcl
5 , , PUNCT _ 4 punct
6 smál smát VERB Gender=Masc|Number=Sing|VerbForm=Part|Voice=Act 0 root
7 jsem být AUX Mood=Ind|Number=Sing|Person=1|VerbForm=Fin 6 aux
8 se se PRON Case=Acc|PronType=Prs|Reflex=Yes|Variant=Short 6 expl:pv
9 . . PUNCT _ 6 punct
""", {"aux_bracket": [(2, 4), (3, 4), (7, 6)], "subordinator_verb": [(1, 4)],
      "reflexive": [(8, 6)]}),
           # a genitive subject of a numeral does not agree; 'za sebou' (in a row) is no reflexive of a verb
           ("""
1 Pět pět NUM Case=Nom|NumType=Card 2 nummod:gov
2 lidí člověk NOUN Case=Gen|Number=Plur 3 nsubj
3 přišlo přijít VERB Gender=Neut|Number=Sing|VerbForm=Part 0 root
4 třikrát třikrát ADV NumType=Mult 3 advmod
5 za za ADP _ 6 case
6 sebou se PRON Case=Ins|PronType=Prs|Reflex=Yes 4 nmod
7 a a CCONJ _ 10 cc
8 matka matka NOUN Case=Nom|Gender=Fem|Number=Sing 10 nsubj
9 byla být AUX Gender=Fem|Number=Sing|VerbForm=Part 10 cop
10 ráda rád ADJ Gender=Fem|Number=Sing|Variant=Short 3 conj
""", {"subj_verb": [(8, 9)]})],
    "de": [("""
1 Wenn wenn SCONJ _ 4 mark
2 der der DET Case=Nom|Definite=Def 3 det
3 Name Name NOUN Case=Nom|Number=Sing 4 nsubj
4 selten selten ADJ Degree=Pos 10 advcl
5 ist sein AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 4 cop
6 , , PUNCT _ 4 punct
7 hat haben AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 10 aux
8 er er PRON Case=Nom|Number=Sing|Person=3|PronType=Prs 10 nsubj
9 sich er PRON Case=Acc|Person=3|PronType=Prs|Reflex=Yes 10 obj
10 geändert ändern VERB VerbForm=Part 0 root
11 . . PUNCT _ 10 punct
""", {"verb_final": [(1, 5)], "subj_verb": [(3, 5), (8, 10)], "aux_bracket": [(7, 10)], "reflexive": [(9, 10)]}),
           ("""
1 Sie sie PRON Case=Nom|Number=Sing|Person=3|PronType=Prs 2 nsubj
2 ruft rufen VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 0 root
3 ihn er PRON Case=Acc|Number=Sing|Person=3|PronType=Prs 2 obj
4 morgen morgen ADV _ 2 advmod
5 an an ADP _ 2 compound:prt
""", {"subj_verb": [(1, 2)], "particle": [(5, 2)]})],
    "en": [("""
1 If if SCONJ _ 5 mark
2 the the DET Definite=Def|PronType=Art 3 det
3 plan plan NOUN Number=Sing 5 nsubj
4 is be AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 5 cop
5 ready ready ADJ Degree=Pos 8 advcl
6 , , PUNCT _ 5 punct
7 she she PRON Case=Nom|Number=Sing|Person=3|PronType=Prs 9 nsubj
8 has have AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 9 aux
9 looked look VERB Tense=Past|VerbForm=Part 0 root
10 herself herself PRON Case=Acc|Person=3|PronType=Prs|Reflex=Yes 9 obj
11 up up ADP _ 9 compound:prt
12 . . PUNCT _ 9 punct
""", {"subordinator_verb": [(1, 4)], "subj_verb": [(3, 4), (7, 9)], "aux_bracket": [(8, 9)], "reflexive": [(10, 9)],
      "particle": [(11, 9)]}),
           ("""
1 the the DET Definite=Def|PronType=Art 2 det
2 house house NOUN Number=Sing 0 root
3 she she PRON Case=Nom|Number=Sing|Person=3|PronType=Prs 4 nsubj
4 lived live VERB Tense=Past|VerbForm=Fin 2 acl:relcl
5 in in ADP _ 4 obl
""", {"subj_verb": [(3, 4)], "relative_clause": [(4, 2)], "prep_stranding": [(5, 4)]})],
    "es": [("""
1 Cuando cuando SCONJ _ 5 mark
2 la el DET Definite=Def|Gender=Fem|Number=Sing|PronType=Art 3 det
3 casa casa NOUN Gender=Fem|Number=Sing 5 nsubj
4 está estar AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 5 cop
5 lista listo ADJ Gender=Fem|Number=Sing 8 advcl
6 , , PUNCT _ 5 punct
7 nos yo PRON Case=Acc,Dat|Number=Plur|Person=1|PrepCase=Npr|PronType=Prs 8 compound:prt
8 mudamos mudar VERB Mood=Ind|Number=Plur|Person=1|VerbForm=Fin 0 root
""", {"subordinator_verb": [(1, 4)], "subj_verb": [(3, 4)]})],  # no reflexive: 97 % fixed by grammar
    "fr": [("""
1 Quand quand SCONJ _ 4 mark
2 il il PRON Gender=Masc|Number=Sing|Person=3|PronType=Prs 4 nsubj
3 est être AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 4 cop
4 malade malade ADJ Number=Sing 9 advcl
5 , , PUNCT _ 4 punct
6 il il PRON Gender=Masc|Number=Sing|Person=3|PronType=Prs 9 nsubj
7 ne ne ADV Polarity=Neg 9 advmod
8 se se PRON Person=3|PronType=Prs 9 obj
9 lave laver VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 0 root
10 pas pas ADV Polarity=Neg 9 advmod
11 . . PUNCT _ 9 punct
""", {"subordinator_verb": [(1, 3)], "subj_verb": [(2, 3), (6, 9)], "reflexive": [(8, 9)], "ne_pas": [(7, 10)]}),
           # ne ... que restricts: no negation; 'rien ne': the negation's other part before ne
           ("""
1 Rien rien PRON PronType=Neg 4 nsubj
2 ne ne ADV Polarity=Neg 4 advmod
3 l' le PRON Person=3|PronType=Prs 4 obj
4 intéresse intéresser VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 0 root
5 , , PUNCT _ 8 punct
6 il il PRON Gender=Masc|Number=Sing|Person=3|PronType=Prs 8 nsubj
7 ne ne ADV Polarity=Neg 8 advmod
8 lit lire VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 4 conj
9 que que ADV _ 10 advmod
10 Proust Proust PROPN _ 8 obj
""", {"subj_verb": [(1, 4), (6, 8)], "ne_pas": [(2, 1)]})],
    "hi": [("""
1 हालांकि हालांकि SCONJ _ 3 mark
2 लड़का लड़का NOUN Case=Nom|Gender=Masc|Number=Sing 3 nsubj
3 बीमार बीमार ADJ Case=Nom 0 root
4 है होना AUX Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 3 cop
""", {"subj_verb": [(2, 4)]}),
           # an ergative subject blocks agreement
           ("""
1 क्योंकि क्योंकि SCONJ _ 6 mark
2 लड़के लड़का NOUN Case=Acc|Gender=Masc|Number=Sing 6 nsubj
3 ने ने ADP _ 2 case
4 काम काम NOUN Case=Nom|Gender=Masc|Number=Sing 6 obj
5 शुरू शुरू NOUN Case=Nom 6 compound:lvc
6 किया कर VERB Aspect=Perf|Gender=Masc|Number=Sing|VerbForm=Part 0 root
7 था था AUX Gender=Masc|Number=Sing|VerbForm=Fin 6 aux
""", {"verb_final": [(1, 6)], "light_verb_compound": [(5, 6)]})],  # no aux_bracket: a fixed chain
    "is": [("""
1 Hann hann PRON Case=Nom|Gender=Masc|Number=Sing|Person=3 2 nsubj
2 hjálpaði hjálpa VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 0 root
3 okkur ég PRON Case=Acc|Number=Plur|Person=1 2 obj
4 við við ADP _ 2 compound:prt
5 að að PART _ 6 mark
6 fylla fylla VERB VerbForm=Inf 2 xcomp
7 og og CCONJ _ 8 cc
8 bætti bæta VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 2 conj
9 svo svo ADV _ 8 advmod
10 við við ADV _ 8 compound:prt
11 . . PUNCT _ 2 punct
""", {"subj_verb": [(1, 2)], "particle": [(10, 8)]}),
           # a dative subject does not agree; sig of a verb is a reflexive
           ("""
1 Mér ég PRON Case=Dat|Number=Sing|Person=1 2 nsubj
2 líkar líka VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 0 root
3 að að SCONJ _ 5 mark
4 hann hann PRON Case=Nom|Gender=Masc|Number=Sing|Person=3 5 nsubj
5 klæði klæða VERB Mood=Sub|Number=Sing|Person=3|VerbForm=Fin 2 ccomp
6 sig sig PRON Case=Acc 5 obj
7 upp upp ADV _ 5 compound:prt
""", {"subordinator_verb": [(3, 5)], "subj_verb": [(4, 5)], "reflexive": [(6, 5)], "particle": [(7, 5)]})],
    "ru": [("""
1 Если если SCONJ _ 3 mark
2 он он PRON Case=Nom|Gender=Masc|Number=Sing|Person=3 3 nsubj
3 придёт прийти VERB Mood=Ind|Number=Sing|Person=3|VerbForm=Fin 7 advcl
4 , , PUNCT _ 3 punct
5 то то SCONJ _ 7 mark
6 я я PRON Case=Nom|Number=Sing|Person=1 7 nsubj
7 куплю купить VERB Mood=Ind|Number=Sing|Person=1|VerbForm=Fin 0 root
8 себе себя PRON Case=Dat 7 iobj
9 книгу книга NOUN Case=Acc|Gender=Fem|Number=Sing 7 obj
""", {"subordinator_verb": [(1, 3)], "subj_verb": [(2, 3), (6, 7)]}),  # no reflexive: себя is 91 % fixed
           # a genitive subject of a numeral does not agree
           ("""
1 Пять пять NUM Case=Nom 2 nummod:gov
2 человек человек NOUN Case=Gen|Number=Plur 4 nsubj
3 уже уже ADV _ 4 advmod
4 пришло прийти VERB Gender=Neut|Number=Sing|VerbForm=Fin 0 root
""", {})],
    "zh": [("""
1 他們 他們 PRON _ 5 nsubj
2 將 將 ADV _ 5 advmod
3 把 把 ADP _ 4 case
4 書 書 NOUN _ 5 obl:patient
5 放 放 VERB _ 0 root
6 。 。 PUNCT _ 5 punct
""", {"ba_bei": [(3, 5)]}),
           # the formal 將, and 把 tagged as a verb of its own whose complement is the verb it marks
           ("""
1 她 她 PRON _ 6 nsubj
2 將 將 ADP _ 3 case
3 家 家 NOUN _ 4 obl:patient
4 搬往 搬往 VERB _ 6 advcl
5 ， ， PUNCT _ 4 punct
6 試圖 試圖 VERB _ 0 root
7 把 把 VERB _ 6 xcomp
8 臉 臉 NOUN _ 7 obj
9 按進 按進 VERB _ 7 xcomp
10 了 了 AUX _ 9 aux
""", {"ba_bei": [(2, 4), (7, 9)], "aux_bracket": [(10, 9)]}),
           ("""
1 她 她 PRON _ 2 nsubj
2 寫 寫 VERB _ 4 acl:relcl
3 的 的 PART _ 2 mark:rel
4 歌 歌 NOUN _ 5 nsubj
5 成功 成功 VERB _ 0 root
""", {"relative_clause": [(2, 4)]})],
}


def _sentence(text: str):
    lines = []
    for line in text.strip().splitlines():
        word, form, lemma, upos, feats, head, deprel = line.split(" ")
        lines.append("\t".join((word, form, lemma, upos, "_", feats, head, deprel, "_", "_")))
    return next(iter_sentences(enumerate(lines, 1), "handwritten"))


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_each_rule_of_the_language_finds_exactly_the_written_pairs(language: str) -> None:
    names = source_phenomena(language)
    for text, expected in SENTENCES[language]:
        assert set(expected) <= set(names), language
        found = find_instances_in_block([_sentence(text)], [phenomenon_for(name, language) for name in names])[0]
        for name in names:
            pairs = [(instance.dependent, instance.head) for instance in found[name]]
            assert pairs == expected.get(name, []), f"{language} {name}: {pairs}\n{text}"


@pytest.mark.parametrize(("language", "sentence", "name", "distance", "content_distance"), [
    ("zh", 2, "relative_clause", 0, 0),  # 寫 的 歌: the relative marker 的 is not counted
    ("fr", 0, "ne_pas", 2, 1),  # ne se lave pas: over the negation's span, se a clitic
    ("de", 0, "aux_bracket", 2, 0),  # hat er sich geändert: pronouns are function words
])
def test_the_distance_and_the_content_distance_of_an_instance(language: str, sentence: int, name: str,
                                                              distance: int, content_distance: int) -> None:
    found = find_instances(_sentence(SENTENCES[language][sentence][0]), phenomenon_for(name, language))
    assert [(i.distance, i.content_distance) for i in found] == [(distance, content_distance)]
