"""The card's ``configs:`` block read by one pattern per config where it has the build's shape, and by YAML
otherwise: either way the result is YAML's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from auto_challenge_sets.dataset.configs_block import _is_string, read_configs_block
from auto_challenge_sets.dataset.layout import _top_level_block, front_matter

BUILT = """configs:
- config_name: de-en.baseline
  data_files:
  - split: newstest2013
    path: data/de-en.baseline/newstest2013-00000-of-00001.parquet
- config_name: de-en.particle
  data_files:
  - split: newstest2013
    path: data/de-en.particle.d1/newstest2013-00000-of-00002.parquet
  - split: newstest2013
    path: data/de-en.particle.d1/newstest2013-00001-of-00002.parquet
  - split: wmt21
    path: data/de-en.particle.d1/wmt21-00000-of-00001.parquet
  default: true
"""


def test_the_builds_shape_reads_as_yaml_reads_it() -> None:
    plain = read_configs_block(BUILT)
    assert plain == yaml.safe_load(BUILT)
    assert plain["configs"][1]["default"] is True and len(plain["configs"][1]["data_files"]) == 3


def test_a_built_cards_block_reads_without_yaml(demo_sets: Path) -> None:
    text = (demo_sets / "README.md").read_text(encoding="utf-8")
    block = _top_level_block(text[3:text.find("\n---", 3)], "configs")
    plain = read_configs_block(block)
    assert plain is not None and len(plain["configs"]) > 10
    assert plain == yaml.safe_load(block)
    assert front_matter(demo_sets / "README.md", only="configs") == plain


@pytest.mark.parametrize("change", [
    ("de-en.baseline\n", "'de-en.baseline'\n"),  # quoted: YAML strips the quotes
    ("de-en.baseline\n", "true\n"),  # YAML reads a boolean
    ("de-en.baseline\n", "1.5\n"),  # a float
    ("de-en.baseline\n", "null\n"),  # None
    ("de-en.baseline\n", "2001-12-14\n"),  # a date
    ("de-en.baseline\n", "de-en.baseline # a comment\n"),
    ("  default: true\n", "  default: false\n"),
    ("  default: true\n", "  default: true\n  extra: 1\n"),
    ("00000-of-00001.parquet\n- config_name: de-en.particle", "00000-of-00001.parquet\n    extra: x\n- config_name: de-en.particle"),
    ("- config_name: de-en.particle\n  data_files:\n", "- config_name: de-en.particle\n  data_files: []\n"),
    ("configs:\n", "configs: \n"),
])
def test_any_other_shape_is_left_to_yaml(change: tuple[str, str]) -> None:
    old, new = change
    assert old in BUILT
    assert read_configs_block(BUILT.replace(old, new, 1)) is None


def test_a_config_without_files_is_left_to_yaml() -> None:
    assert read_configs_block("configs:\n- config_name: a\n  data_files:\n") is None
    assert read_configs_block("") is None
    assert read_configs_block("configs:\n") == {"configs": []}


def test_front_matter_gives_yamls_reading_of_a_quoted_card(tmp_path: Path) -> None:
    """The line reader declines, YAML reads: the same configs as an unquoted card's."""
    quoted = BUILT.replace("de-en.baseline\n", "'de-en.baseline'\n", 1)
    cards = {}
    for name, block in (("plain", BUILT), ("quoted", quoted)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "README.md").write_text(f"---\n{block}license: other\n---\n# card\n", encoding="utf-8")
        cards[name] = front_matter(tmp_path / name / "README.md", only="configs")
    assert cards["plain"] == cards["quoted"] == yaml.safe_load(BUILT)


@pytest.mark.parametrize("pair", ["fr-en", "nl-tr", "on-yo", "te-ta"])
def test_names_with_a_first_character_yaml_looks_at_read_as_strings(pair: str) -> None:
    """`f`, `n`, `o`, `t`, `y` start YAML's booleans and nulls: such values are asked one by one."""
    block = BUILT.replace("de-en", pair)
    assert read_configs_block(block) == yaml.safe_load(block)
    assert read_configs_block(block)["configs"][0]["config_name"] == f"{pair}.baseline"


@pytest.mark.parametrize("first", ["d", None])
def test_a_resolver_added_for_the_paths_is_asked(monkeypatch: pytest.MonkeyPatch, first: str | None) -> None:
    """A resolver a plug-in adds (for `d`, or a wildcard) that reads the paths as another type:
    the block is left to YAML, as YAML would not read strings there."""
    resolvers = {**yaml.resolver.Resolver.yaml_implicit_resolvers}
    resolvers[first] = [*resolvers.get(first, []), ("tag:yaml.org,2002:int", re.compile(r"data/.*"))]
    monkeypatch.setattr(yaml.resolver.Resolver, "yaml_implicit_resolvers", resolvers)
    _is_string.cache_clear()
    try:
        assert read_configs_block(BUILT) is None
    finally:
        _is_string.cache_clear()
    monkeypatch.undo()
    assert read_configs_block(BUILT) == yaml.safe_load(BUILT)


def test_a_last_path_ending_in_x_keeps_its_x() -> None:
    """Only the block's trailing newlines go: a value at its very end keeps every character."""
    block = "configs:\n- config_name: de-en.baseline\n  data_files:\n  - split: test\n    path: data/de-en.baseline/X\n\n"
    assert read_configs_block(block) == yaml.safe_load(block)
    assert read_configs_block(block)["configs"][0]["data_files"][0]["path"] == "data/de-en.baseline/X"
