"""The aligner registry, symmetrization on hand-made examples, the Pharaoh backend, the CLI options."""

from __future__ import annotations

import argparse

import pytest

from auto_challenge_sets.builder.align_stage import AlignerSpec, add_aligner_arguments, aligner_spec_from_args
from auto_challenge_sets.builder.aligners import (
    _REGISTRY,
    Aligner,
    AlignerError,
    available_aligners,
    get_aligner,
    register_aligner,
)
from auto_challenge_sets.builder.aligners.symmetrize import symmetrize
from auto_challenge_sets.errors import AcsError, AlignmentError

# -- registry ------------------------------------------------------------------------------------


def test_builtin_aligners_are_listed_without_importing_them():
    assert {"simalign", "eflomal", "pharaoh"} <= set(available_aligners())


def test_unknown_aligner_names_the_choices():
    with pytest.raises(AlignerError, match="unknown aligner 'giza'.*eflomal.*pharaoh.*simalign"):
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
    @register_aligner("diagonal-test")
    class Diagonal(Aligner):
        name = "diagonal-test"

        def __init__(self, offset: int = 0):
            self.offset = offset

        def align(self, pairs):
            return [[(i, i + self.offset) for i in range(len(s)) if i + self.offset < len(t)] for s, t in pairs]

        def cache_key(self):
            return {"backend": self.name, "offset": self.offset}

    try:
        assert "diagonal-test" in available_aligners()
        aligner = get_aligner("diagonal-test", offset=None)  # None means "the default"
        assert aligner.align([(["a", "b"], ["x", "y", "z"])]) == [[(0, 0), (1, 1)]]
    finally:
        _REGISTRY.pop("diagonal-test")


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


# -- pharaoh backend -----------------------------------------------------------------------------

PAIRS = [(["Das", "Haus", "."], ["The", "house", "."]), (["Ja"], ["Yes", "!"])]


def test_pharaoh_reads_links(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n0-0 0-1\n", encoding="utf-8")
    aligner = get_aligner("pharaoh", path=path)
    assert aligner.align(PAIRS) == [[(0, 0), (1, 1), (2, 2)], [(0, 0), (0, 1)]]


def test_pharaoh_index_out_of_range_names_file_and_line(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n0-0 0-2\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: target index 2 .* has 2 tokens") as caught:
        get_aligner("pharaoh", path=path).align(PAIRS)
    assert caught.value.line == 2 and caught.value.path == str(path)
    path.write_text("0-0 3-1\n0-0\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:1: source index 3"):
        get_aligner("pharaoh", path=path).align(PAIRS)


def test_pharaoh_malformed_link(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0\n0:1\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match=r"a\.pharaoh:2: malformed link '0:1'"):
        get_aligner("pharaoh", path=path).align(PAIRS)


def test_pharaoh_line_count_must_match(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0\n", encoding="utf-8")
    with pytest.raises(AlignmentError, match="has 1 lines but 2 are expected"):
        get_aligner("pharaoh", path=path).align(PAIRS)


def test_pharaoh_missing_file_fails_when_made(tmp_path):
    with pytest.raises(AlignmentError, match="no such alignment file"):
        get_aligner("pharaoh", path=tmp_path / "none.pharaoh")


def test_pharaoh_with_corpus_line_numbers(tmp_path):
    # the corpus had an empty line 2: the file has 3 lines, the build keeps pairs of lines 1 and 3
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0 1-1 2-2\n\n0-1\n", encoding="utf-8")
    aligner = AlignerSpec("pharaoh", {"path": path}).create(line_numbers=[1, 3], total_lines=3)
    assert aligner.align(PAIRS) == [[(0, 0), (1, 1), (2, 2)], [(0, 1)]]
    short = AlignerSpec("pharaoh", {"path": path}).create(line_numbers=[1, 3], total_lines=4)
    with pytest.raises(AlignmentError, match="has 3 lines but 4 are expected"):
        short.align(PAIRS)


# -- command-line options --------------------------------------------------------------------------


def _parse(argv, standalone=False):
    parser = argparse.ArgumentParser()
    add_aligner_arguments(parser, standalone=standalone)
    return parser.parse_args(argv)


def test_build_options_default_to_simalign_or_pharaoh(tmp_path):
    assert aligner_spec_from_args(_parse([])) == AlignerSpec("simalign", {})
    path = tmp_path / "x.pharaoh"
    assert aligner_spec_from_args(_parse(["--alignment", str(path)])) == AlignerSpec("pharaoh", {"path": path})
    assert aligner_spec_from_args(_parse(["--aligner", "none"])) is None


def test_build_options_map_to_backend_options():
    args = _parse(["--aligner", "simalign", "--align-model", "/m", "--layer", "2", "--method", "itermax",
                   "--token-type", "word", "--align-batch-size", "8", "--align-device", "cpu"])
    assert aligner_spec_from_args(args) == AlignerSpec("simalign", {
        "model": "/m", "layer": 2, "method": "itermax", "token_type": "word", "batch_size": 8, "device": "cpu"})
    args = _parse(["--aligner", "eflomal", "--seed", "5", "--symmetrization", "intersection"])
    assert aligner_spec_from_args(args) == AlignerSpec("eflomal", {"seed": 5, "symmetrization": "intersection"})


def test_a_build_can_pass_its_device_to_simalign():
    assert aligner_spec_from_args(_parse([]), default_device="cuda") == AlignerSpec("simalign", {"device": "cuda"})
    args = _parse(["--align-device", "cpu"])
    assert aligner_spec_from_args(args, default_device="cuda") == AlignerSpec("simalign", {"device": "cpu"})
    assert aligner_spec_from_args(_parse(["--aligner", "eflomal"]), default_device="cuda") == AlignerSpec("eflomal")


def test_standalone_option_names():
    args = _parse(["--model", "/m", "--batch-size", "4", "--device", "cpu"], standalone=True)
    assert aligner_spec_from_args(args) == AlignerSpec("simalign", {"model": "/m", "batch_size": 4, "device": "cpu"})
    with pytest.raises(SystemExit):
        _parse(["--aligner", "pharaoh"], standalone=True)


def test_options_of_another_backend_are_errors(tmp_path):
    with pytest.raises(AlignerError, match="simalign option layer .* --aligner eflomal"):
        aligner_spec_from_args(_parse(["--aligner", "eflomal", "--layer", "3"]))
    with pytest.raises(AlignerError, match="eflomal option seed .* --aligner simalign"):
        aligner_spec_from_args(_parse(["--seed", "3"]))
    with pytest.raises(AlignerError, match="--alignment FILE is read by --aligner pharaoh"):
        aligner_spec_from_args(_parse(["--aligner", "eflomal", "--alignment", str(tmp_path / "a")]))
    with pytest.raises(AlignerError, match="needs --alignment FILE"):
        aligner_spec_from_args(_parse(["--aligner", "pharaoh"]))


def test_spec_describe():
    assert AlignerSpec("eflomal", {"seed": 2}).describe() == "eflomal (seed=2)"
    assert AlignerSpec("simalign").describe() == "simalign"
