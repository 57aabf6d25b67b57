"""The aligner backends behind the registry, and symmetrization on hand-made examples."""

from __future__ import annotations

import pytest

from auto_challenge_sets.backends import (
    ALIGNER,
    Option,
    available_backends,
    register_backend,
    unregister_backend,
)
from auto_challenge_sets.backends.aligners import Aligner, AlignerError, get_aligner
from auto_challenge_sets.backends.aligners.symmetrize import symmetrize
from auto_challenge_sets.errors import AcsError

# -- registry ------------------------------------------------------------------------------------


def test_builtin_aligners_are_listed_without_importing_them():
    assert {"simalign", "eflomal"} <= set(available_backends(ALIGNER))


def test_unknown_aligner_names_the_choices():
    with pytest.raises(AlignerError, match="unknown aligner 'giza'.*eflomal.*simalign"):
        get_aligner("giza")


def test_an_option_the_backend_does_not_take_is_an_acs_error():
    with pytest.raises(AlignerError, match="eflomal.*layer") as caught:
        get_aligner("eflomal", layer=3)
    assert isinstance(caught.value, AcsError)


def test_bad_option_values_are_reported():
    with pytest.raises(AlignerError, match="symmetrization"):
        get_aligner("eflomal", symmetrization="grow")
    with pytest.raises(AlignerError, match="method"):
        get_aligner("simalign", method="fancy")


def test_register_a_new_backend():
    @register_backend(ALIGNER, "diagonal-test")
    class Diagonal(Aligner):
        options = (Option("offset", int, 0, "target index minus source index"),)

        def __init__(self, offset: int = 0):
            self.offset = offset

        def align(self, pairs):
            return [[(i, i + self.offset) for i in range(len(s)) if i + self.offset < len(t)] for s, t in pairs]

        def cache_key(self):
            return {"backend": self.name, "offset": self.offset}

    try:
        assert "diagonal-test" in available_backends(ALIGNER)
        aligner = get_aligner("diagonal-test", offset=None)  # None means "the default"
        assert aligner.align([(["a", "b"], ["x", "y", "z"])]) == [[(0, 0), (1, 1)]]
    finally:
        unregister_backend(ALIGNER, "diagonal-test")


# -- symmetrization ------------------------------------------------------------------------------


def test_intersection_and_union():
    fwd, rev = [(0, 0), (1, 2), (2, 1)], [(0, 0), (2, 1), (2, 2)]
    assert symmetrize(fwd, rev, "intersection") == [(0, 0), (2, 1)]
    assert symmetrize(fwd, rev, "union") == [(0, 0), (1, 2), (2, 1), (2, 2)]


def test_grow_diag_adds_union_neighbours_of_unaligned_words():
    # intersection (0,0) (1,1); (2,1) and (1,2) are union points next to (1,1), each with one
    # unaligned word: both grow in
    fwd, rev = [(0, 0), (1, 1), (2, 1)], [(0, 0), (1, 1), (1, 2)]
    assert symmetrize(fwd, rev, "grow-diag") == [(0, 0), (1, 1), (1, 2), (2, 1)]
    assert symmetrize(fwd, rev) == [(0, 0), (1, 1), (1, 2), (2, 1)]


def test_grow_diag_does_not_add_a_point_whose_words_are_both_aligned():
    fwd, rev = [(0, 0), (1, 1), (0, 1)], [(0, 0), (1, 1)]
    assert symmetrize(fwd, rev) == [(0, 0), (1, 1)]
    assert symmetrize(fwd, rev, "union") == [(0, 0), (0, 1), (1, 1)]


def test_growth_follows_diagonals_step_by_step():
    # a union diagonal (1,1) (2,2) (3,3) hanging off the intersection point (0,0) grows in fully
    fwd, rev = [(0, 0), (1, 1), (2, 2), (3, 3)], [(0, 0)]
    assert symmetrize(fwd, rev, "grow-diag") == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_final_and_adds_far_points_only_when_both_words_are_unaligned():
    # (2,2) is not next to anything: grow-diag leaves it, final(-and) adds it (both words free)
    fwd, rev = [(0, 0), (2, 2)], [(0, 0)]
    assert symmetrize(fwd, rev, "grow-diag") == [(0, 0)]
    assert symmetrize(fwd, rev, "grow-diag-final-and") == [(0, 0), (2, 2)]
    # (0,2): source word 0 is aligned already -> final adds it, final-and does not
    fwd, rev = [(0, 0), (0, 2)], [(0, 0)]
    assert symmetrize(fwd, rev, "grow-diag-final") == [(0, 0), (0, 2)]
    assert symmetrize(fwd, rev, "grow-diag-final-and") == [(0, 0)]


def test_final_and_takes_forward_points_before_reverse_points():
    # no intersection; forward (0,1) and reverse (0,0) compete for source word 0: forward wins
    fwd, rev = [(0, 1)], [(0, 0)]
    assert symmetrize(fwd, rev, "grow-diag-final-and") == [(0, 1)]
    assert symmetrize(rev, fwd, "grow-diag-final-and") == [(0, 0)]


def test_a_german_particle_verb():
    # Er ruft sie morgen an . / He calls her up tomorrow .
    # forward links "an" to "up" but misses "calls"; reverse links "calls" to "ruft"
    fwd = [(0, 0), (2, 2), (3, 4), (4, 3), (5, 5)]
    rev = [(0, 0), (1, 1), (2, 2), (3, 4), (5, 5)]
    assert symmetrize(fwd, rev, "intersection") == [(0, 0), (2, 2), (3, 4), (5, 5)]
    # (1,1) grows next to (0,0)/(2,2); (4,3) is diagonal to (3,4): words 4 and 3 are free
    assert symmetrize(fwd, rev) == [(0, 0), (1, 1), (2, 2), (3, 4), (4, 3), (5, 5)]


def test_symmetrize_rejects_unknown_methods():
    with pytest.raises(ValueError, match="unknown symmetrization"):
        symmetrize([], [], "grow-diagonal")


def test_empty_alignments():
    for method in ("grow-diag-final-and", "intersection", "union", "grow-diag"):
        assert symmetrize([], [], method) == []
    assert symmetrize([(0, 0)], [], "grow-diag-final-and") == [(0, 0)]
