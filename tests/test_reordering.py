"""The reordering rule and Pharaoh parsing."""

from __future__ import annotations

import re

import pytest

from auto_challenge_sets.errors import AlignmentError
from auto_challenge_sets.pharaoh import format_pharaoh, parse_pharaoh
from auto_challenge_sets.reordering import ReorderInstance, max_reorder_distance, reorder_instances

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
