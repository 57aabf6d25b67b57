"""The reordering rule and Pharaoh parsing."""

from __future__ import annotations

import re

import pytest

from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.formats.pharaoh import format_pharaoh, parse_pharaoh
from auto_challenge_sets.phenomena.reordering import ReorderInstance, max_reorder_distance, reorder_instances

from conftest import shared_path


def test_parse_and_format() -> None:
    assert parse_pharaoh("2-3 0-1  0-1 1-0\n") == [(0, 1), (1, 0), (2, 3)]
    assert parse_pharaoh("") == []
    assert format_pharaoh([(2, 3), (0, 1)]) == "0-1 2-3"


@pytest.mark.parametrize(("text", "message"), [
    ("0-1 2", "malformed link '2'"),
    ("0-1 a-b", "malformed link 'a-b'"),
    ("0?1", "malformed link"),
    ("-1-2", "malformed link"),
    ("0-\u00b2", "malformed link '0-²'"),  # superscript two: isdigit() but no int()
    ("\u0663-1", "malformed link '٣-1'"),  # Arabic-Indic three: int() reads it as 3
    ("\uff11-1", "malformed link '１-1'"),  # fullwidth one
    ("1" * 5000 + "-0", "malformed link"),  # past int()'s 4,300-digit limit
    ("5-0", "source index 5 in link '5-0' is out of range: the source has 3 tokens"),
    ("0-4", "target index 4 in link '0-4' is out of range: the target has 4 tokens"),
])
def test_bad_links_name_file_and_line(text: str, message: str) -> None:
    with pytest.raises(AlignmentError, match=re.escape(message)) as caught:
        parse_pharaoh(text, n_source=3, n_target=4, path="a.pharaoh", line=12)
    assert message in str(caught.value)
    assert str(caught.value).startswith("a.pharaoh:12: ")


def test_reordering_on_a_real_newstest_pair() -> None:
    source = shared_path("data", "newstest2013", "newstest2013.de").read_text(encoding="utf-8").splitlines()[1]
    target = shared_path("data", "newstest2013", "newstest2013.en").read_text(encoding="utf-8").splitlines()[1]
    assert source == ("Die Führungskräfte der Republikaner rechtfertigen ihre Politik mit der Notwendigkeit , "
                      "den Wahlbetrug zu bekämpfen .")
    assert target == "Republican leaders justified their policy by the need to combat electoral fraud ."
    src, tgt = source.split(), target.split()
    # A hand alignment: "zu bekämpfen" (13, 14) → "to combat" (8, 9) moves five places forward.
    links = parse_pharaoh("1-1 3-0 4-2 5-3 6-4 7-5 8-6 9-7 12-10 12-11 13-8 14-9 15-12",
                          n_source=len(src), n_target=len(tgt))
    assert max_reorder_distance(links) == 5
    assert reorder_instances(links, src, tgt, min_distance=5) == [
        ReorderInstance(14, 9, "zu", "to", 5),
        ReorderInstance(15, 10, "bekämpfen", "combat", 5),
    ]
    assert len(reorder_instances(links, src, tgt, min_distance=0)) == len(links)
    assert reorder_instances(links, src, tgt, min_distance=6) == []


def test_every_link_by_default_and_none_without_links() -> None:
    links = [(0, 0), (2, 1)]
    assert [i.distance for i in reorder_instances(links, ["a", "b", "c"], ["x", "y"])] == [0, 1]
    assert max_reorder_distance([]) is None and max_reorder_distance(links) == 1


def test_normalised_displacement_scales_the_target_and_skips_punctuation() -> None:
    from auto_challenge_sets.phenomena.reordering import normalised_measure

    source = ["Er", "ruft", "sie", "an", "."]
    target = ["He", "is", "calling", "her", "up", "right", "now", "."]
    # (3, 4): |3*8 - 4*5| // 8 = 0 (raw |i - j| = 1); (0, 6): |0 - 30| // 8 = 3; (4, 7) links "." to "."
    score, found = normalised_measure([(0, 6), (3, 4), (4, 7)], source, target)
    assert score == 3
    assert [(i.source_index, i.target_index, i.distance) for i in found] == [(1, 7, 3), (4, 5, 0)]
    assert normalised_measure([(0, 6), (3, 4)], source, target, min_distance=1)[1] == [
        ReorderInstance(1, 7, "Er", "now", 3)]
    assert normalised_measure([(4, 7)], source, target) == (None, [])  # punctuation alone: no score


def test_normalised_displacement_is_exact_integer_arithmetic() -> None:
    from auto_challenge_sets.phenomena.reordering import normalised_measure

    # j*n/m = 2*3/6 = 1.0000000000000002 in floating point after some orders; here exactly 1
    source, target = ["a"] * 3, ["b"] * 6
    assert normalised_measure([(0, 2)], source, target)[0] == 1
    assert normalised_measure([(2, 0)], source, target)[0] == 2


def test_crossing_counts_pairs_of_word_links_that_cross() -> None:
    from auto_challenge_sets.phenomena.reordering import crossing_measure

    words = ["w1", "w2", "w3", "w4"]
    assert crossing_measure([(0, 0), (1, 1), (2, 2), (3, 3)], words, words) == (0, [])  # monotone
    score, found = crossing_measure([(0, 3), (1, 2), (2, 1), (3, 0)], words, words)  # fully reversed
    assert score == 100 and [i.distance for i in found] == [3, 3, 3, 3]
    score, found = crossing_measure([(0, 1), (1, 0), (2, 2)], words, words)  # 1 of 3 pairs crosses
    assert score == 33 and [(i.source_index, i.target_index, i.distance) for i in found] == [(1, 2, 1), (2, 1, 1)]
    assert crossing_measure([(0, 0)], words, words) == (0, [])
    assert crossing_measure([], words, words) == (None, [])
    # a link to punctuation does not count
    assert crossing_measure([(0, 1), (1, 0)], ["w1", ","], ["v1", "v2"]) == (0, [])  # one word link left


def test_crossing_equals_a_brute_force_count_on_newstest_like_alignments() -> None:
    import itertools
    import random

    from auto_challenge_sets.phenomena.reordering import crossing_measure

    rng = random.Random(3)
    for _ in range(200):
        n, m = rng.randint(1, 12), rng.randint(1, 12)
        links = sorted({(rng.randrange(n), rng.randrange(m)) for _ in range(rng.randint(0, 15))})
        source, target = [f"s{i}" for i in range(n)], [f"t{j}" for j in range(m)]
        pairs = list(itertools.combinations(links, 2))
        crossing = sum(1 for (a, b), (c, d) in pairs if (a - c) * (b - d) < 0)
        score, _ = crossing_measure(links, source, target)
        assert score == (None if not links else (0 if len(links) < 2 else 100 * crossing // len(pairs)))


def test_each_alignment_phenomenon_has_its_scale() -> None:
    from auto_challenge_sets.configs import parse_config_name
    from auto_challenge_sets.phenomena.registry import alignment_phenomena

    assert alignment_phenomena() == ["reorder", "reorder_norm", "crossing"]
    assert parse_config_name("de-en.crossing").min_distance == 5
    assert parse_config_name("de-en.crossing.d30").distances == (5, 10, 20, 30)
    assert parse_config_name("de-en.reorder_norm").distances == (5, 10, 15, 20)
