"""scoring/targeted_control.py: the random-pair control drawn with the instance's part of speech,
on hand-made sentences whose places at each distance are counted by hand (issue 34)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from auto_challenge_sets.scoring.targeted_control import draw_pairs

# "Er ruft sie an und sie holt ihn ab ." with a hand-made UPOS per word
UPOS = ["PRON", "VERB", "PRON", "ADP", "CCONJ", "PRON", "VERB", "PRON", "ADP", "PUNCT"]
RUFT_AN = {"head": 2, "dependent": 4, "distance": 1}  # ruft (2) ... an (4), one word between


def _drawn(instances, upos, draws: int = 300, length: int | None = None):
    levels: Counter = Counter()
    pairs = draw_pairs([instances], [length or len(UPOS)], draws, np.random.default_rng([4, 2]), [upos], levels)
    return {tuple(p) for p in pairs[0][:, 0]}, levels


def test_the_only_pair_with_both_parts_of_speech_is_the_one_drawn():
    """At distance 1 (dependent to the right) the sentence has 8 places; besides the instance
    itself (1, 3) only (6, 8), holt ... ab, is VERB then ADP: every draw is that pair."""
    drawn, levels = _drawn([RUFT_AN], UPOS)
    assert drawn == {(6, 8)} and levels == Counter(matched=1)


def test_the_head_alone_matches_when_no_pair_has_both():
    """ab (8) made a NOUN: no other VERB ... ADP pair at distance 1; holt (6) ... NOUN is the
    only place whose head is a VERB."""
    upos = UPOS[:8] + ["NOUN", "PUNCT"]
    drawn, levels = _drawn([RUFT_AN], upos)
    assert drawn == {(6, 8)} and levels == Counter(head_only=1)


def test_without_a_verb_at_any_place_every_other_pair_is_drawn_and_counted_as_the_fallback():
    """holt (6) made a NOUN: no place but the instance has a VERB head, so the draws fall back to
    the 7 other places at distance 1, all of them drawn in 300 draws."""
    upos = UPOS[:6] + ["NOUN"] + UPOS[7:]
    drawn, levels = _drawn([RUFT_AN], upos)
    assert drawn == {(k, k + 2) for k in range(8)} - {(1, 3)} and levels == Counter(unmatched=1)


def test_a_dataset_without_upos_or_with_tags_that_do_not_fit_is_unmatched():
    for upos in (None, UPOS[:-1]):  # no column; one tag short of the words
        drawn, levels = _drawn([RUFT_AN], upos)
        assert drawn == {(k, k + 2) for k in range(8)} - {(1, 3)} and levels == Counter(unmatched=1)
    levels: Counter = Counter()
    pairs = draw_pairs([[RUFT_AN]], [len(UPOS)], 5, np.random.default_rng(1), None, levels)  # no upos at all
    assert pairs[0].shape == (5, 1, 2) and levels == Counter(unmatched=1)


def test_an_empty_tag_matches_nothing():
    """CoNLL-U's "_" for the dependent and for ab: the pair is not matched on it (head only)."""
    upos = UPOS[:3] + ["_"] + UPOS[4:8] + ["_", "PUNCT"]
    drawn, levels = _drawn([RUFT_AN], upos)
    assert drawn == {(6, 8)} and levels == Counter(head_only=1)


def test_the_rows_own_instances_are_never_drawn():
    """Both particle verbs as instances of the row: each one's only place with a VERB head is the
    other instance, which is left out, so both fall back to every other place at distance 1."""
    holt_ab = {"head": 7, "dependent": 9, "distance": 1}
    levels: Counter = Counter()
    pairs = draw_pairs([[RUFT_AN, holt_ab]], [len(UPOS)], 300, np.random.default_rng(3), [UPOS], levels)
    for k in range(2):
        drawn = {tuple(p) for p in pairs[0][:, k]}
        assert drawn == {(j, j + 2) for j in range(8)} - {(1, 3), (6, 8)}
    assert levels == Counter(unmatched=2)


def test_a_pair_that_spans_the_sentence_is_its_own_control():
    """ruft (1) ... ab (4) in a 4-word sentence, two words between: no other place fits."""
    drawn, levels = _drawn([{"head": 1, "dependent": 4, "distance": 2}], ["VERB", "PRON", "PRON", "ADP"], length=4)
    assert drawn == {(0, 3)} and levels == Counter(itself=1)


def test_a_dependent_left_of_its_head_keeps_its_side():
    """an (4) as head and ruft (2) as its dependent, one word between, the dependent on the left:
    the matched place is (8, 6), holt on the left of ab."""
    drawn, levels = _drawn([{"head": 4, "dependent": 2, "distance": 1}], UPOS)
    assert drawn == {(8, 6)} and levels == Counter(matched=1)
