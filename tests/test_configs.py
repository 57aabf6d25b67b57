"""Config and split names as docs/method.md fixes them."""

from __future__ import annotations

import re

import pytest

from auto_challenge_sets.configs import (
    ConfigName,
    check_split_name,
    config_name,
    parse_config_name,
    parse_pair,
)
from auto_challenge_sets.errors import BadNameError


def test_names_round_trip() -> None:
    assert config_name("de", "en", "particle", 3) == "de-en.particle.d3"
    assert config_name("de", "en", "particle") == "de-en.particle.d1"
    assert config_name("en", "de", "baseline") == "en-de.baseline"
    assert parse_config_name("de-en.particle.d3") == ConfigName("de", "en", "particle", 3)
    assert parse_config_name("de-en.particle") == ConfigName("de", "en", "particle", 1)
    assert parse_config_name("de-en.reorder.d20").min_distance == 20
    assert parse_config_name("de-en.reorder").min_distance == 5  # the short name: reorder's smallest D
    assert parse_config_name("de-en.particle").min_distance == 1
    assert config_name("de", "en", "reorder") == "de-en.reorder.d5"
    assert parse_config_name("en-de.prep_stranding.d0").phenomenon == "prep_stranding"
    assert parse_config_name("en-de.baseline").is_baseline
    assert str(parse_config_name("de-en.reflexive")) == "de-en.reflexive.d1"


@pytest.mark.parametrize("name", ["de-en", "deen.particle", "de-en.Particle", "de-en.particle.3", "de-en.baseline.d1"])
def test_bad_config_names(name: str) -> None:
    with pytest.raises(BadNameError, match=r"^(not a config name|the baseline config has no distance): " + re.escape(repr(name))):
        parse_config_name(name)


def test_pairs_and_splits() -> None:
    assert parse_pair("de-en") == ("de", "en")
    with pytest.raises(BadNameError, match="^language pair must look like 'de-en', got 'german-english'$"):
        parse_pair("german-english")
    assert check_split_name("newstest2013") == "newstest2013"
    with pytest.raises(BadNameError, match=r"^corpus \(split\) names must match .* got 'news-test'$"):
        check_split_name("news-test")


@pytest.mark.parametrize("pair", ["de-en\n", "de-en ", " de-en", "de-en\t", "de\n-en", "dé-en", "de-ен", "de-en\u2028"])
def test_a_pair_is_matched_whole_and_in_ascii(pair: str) -> None:
    """`re.match` with `$` took 'de-en\\n' (a `$` matches before a final newline)."""
    with pytest.raises(BadNameError, match="^language pair must look like 'de-en', got " + re.escape(repr(pair))):
        parse_pair(pair)


@pytest.mark.parametrize("name", ["de-en.particle.d3\n", "de-en.particle\n", "de-en.baseline\n", "de-en.particle.d3 ",
                                  "de-en.particle.d\u0663", "de-en.particle.d\uff13", "de-en.partïcle.d3",
                                  "de-en.particle.d" + "9" * 5000])
def test_a_config_name_is_matched_whole_and_in_ascii(name: str) -> None:
    with pytest.raises(BadNameError, match="^not a config name: " + re.escape(repr(name))):
        parse_config_name(name)


@pytest.mark.parametrize("name", ["newstest2013\n", "newstest2013 ", "news test", "\tnews", "nëws", "новости",
                                  "news\u00b2", "news\u0663", ""])
def test_a_split_name_is_matched_whole_and_in_ascii(name: str) -> None:
    with pytest.raises(BadNameError, match=r"must match \\w\+ \(ASCII letters, digits and _\)"):
        check_split_name(name)
    assert check_split_name("News_2013") == "News_2013"
