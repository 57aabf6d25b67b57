"""dataset/rule_record.py: a rule's meaning is one per config name, and a config name holds its
pair, so only another split of the same pair can conflict."""

from __future__ import annotations

import pytest

from auto_challenge_sets.dataset.rule_record import USER_RULES, check_rule_definitions, rule_conflicts
from auto_challenge_sets.errors import AcsError

RECORD = {"builds": [
    {"pair": "en-de", "corpus": "news", "lines": 10, USER_RULES: {"mine": "advmod < VERB"}},
    {"pair": "de-en", "corpus": "news", "lines": 10, USER_RULES: {"mine": "obj < VERB"}},
    {"pair": "de-en", "corpus": "pud", "lines": 10, USER_RULES: {"mine": "advmod < VERB"}},
]}


def test_a_rule_recorded_for_another_pair_is_no_conflict():
    # en-de's "mine" is config en-de.mine, not de-en.mine: a new pair may define it otherwise
    assert rule_conflicts(RECORD, "fr-en", "news", {"mine": "nsubj < VERB"}) == []
    assert rule_conflicts({"builds": RECORD["builds"][:1]}, "de-en", "pud", {"mine": "obj < VERB"}) == []


def test_another_split_of_the_same_pair_conflicts_and_a_rebuild_of_the_split_does_not():
    (conflict,) = rule_conflicts(RECORD, "de-en", "pud", {"mine": "advmod < VERB"})
    assert (conflict.pair, conflict.corpus, conflict.recorded, conflict.new) == (
        "de-en", "news", "obj < VERB", "advmod < VERB")
    with pytest.raises(AcsError, match="rule 'mine' means 'advmod < VERB' in this build but 'obj < VERB' in split "
                                       "'news'"):
        check_rule_definitions(RECORD, "de-en", "pud", {"mine": "advmod < VERB"}, ())
    assert check_rule_definitions(RECORD, "de-en", "pud", {"mine": "advmod < VERB"}, ("mine",)) == [conflict]
