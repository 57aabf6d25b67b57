"""The dataset card: generated blocks between markers, the user's text around them kept by every
rebuild (byte for byte), broken markers named by line; the configs in the order of their
distances, and a lexical config as the default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from auto_challenge_sets.cli import main
from auto_challenge_sets.configs import config_sort_key
from auto_challenge_sets.dataset.card import default_config
from auto_challenge_sets.dataset.card_blocks import (
    Segment,
    merge_body,
    read_card_segments,
    read_segments,
    split_front_matter,
)
from auto_challenge_sets.dataset.demo_folder import demo_file
from auto_challenge_sets.errors import InputError


def _block(name: str, text: str) -> str:
    return f"<!-- acs:begin {name} -->\n{text}<!-- acs:end {name} -->\n"


@pytest.mark.parametrize(("body", "line", "message"), [
    (_block("a", "x\n") + "<!-- acs:begin b -->\ny\n", 4, r"block 'b' has no end marker \(<!-- acs:end b -->\)"),
    ("mine\n<!-- acs:end a -->\n", 2, r"ends no block: no <!-- acs:begin a --> before it"),
    ("<!-- acs:begin a -->\n<!-- acs:begin b -->\n", 2, r"inside block 'a', which has no end marker"),
    ("<!-- acs:begin a -->\n<!-- acs:end b -->\n", 2, r"ends no block \(the open one is 'a'\)"),
    (_block("a", "x\n") + "\n" + _block("a", "y\n"), 5, r"block 'a' begins a second time"),
])
def test_a_marker_out_of_place_names_its_line(body: str, line: int, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        read_segments(body, "README.md", first_line=1)
    assert caught.value.line == line and str(caught.value).startswith(f"README.md:{line}: ")


def test_a_marker_is_a_whole_line_so_generated_text_never_reads_as_one() -> None:
    body = _block("a", "- rule `<!-- acs:end a -->`, added by the user\n")
    assert [segment.name for segment in read_segments(body)] == ["a"]


def test_the_new_blocks_go_in_the_old_places_and_the_users_text_stays() -> None:
    old = read_segments("\nmine first\n" + _block("a", "old a\n") + "\nbetween\n" + _block("gone", "g\n")
                        + _block("c", "old c\n") + "mine last\n")
    new = read_segments("\n" + _block("a", "new a\n") + "\n" + _block("b", "new b\n") + "\n"
                        + _block("c", "new c\n"))
    assert merge_body(old, new) == ("\nmine first\n" + _block("a", "new a\n") + _block("b", "new b\n") + "\n"
                                    + "\nbetween\n" + _block("c", "new c\n") + "mine last\n")
    # merged again with the same blocks: the same text (a rebuild writes the same bytes)
    assert merge_body(read_segments(merge_body(old, new)), new) == merge_body(old, new)


def test_a_new_first_block_goes_before_the_first_kept_block_or_after_all_the_users_text() -> None:
    new = read_segments(_block("a", "new a\n") + "\n" + _block("b", "new b\n"))
    # the template's first block has no block before it: it goes before the first block the old card keeps
    old = read_segments(_block("b", "old b\n") + "mine\n")
    assert merge_body(old, new) == _block("a", "new a\n") + "\n" + _block("b", "new b\n") + "mine\n"
    # an old card whose every block the template dropped keeps only the user's text: the blocks follow it
    old = read_segments("mine\n" + _block("gone", "g\n"))
    assert merge_body(old, read_segments(_block("a", "new a\n"))) == "mine\n" + _block("a", "new a\n")
    # a new block takes the template's text after it along, the template's last text too
    new = read_segments(_block("a", "new a\n") + _block("b", "new b\n") + "\n")
    assert merge_body(read_segments(_block("a", "old a\n")), new) == _block("a", "new a\n") + _block("b", "new b\n") + "\n"


def test_lines_count_from_1_unless_told() -> None:
    with pytest.raises(InputError) as caught:
        read_segments("mine\n<!-- acs:end a -->\n")
    assert caught.value.line == 2


def test_a_card_without_markers_is_generated_whole() -> None:
    new = read_segments(_block("a", "new\n"))
    assert merge_body([Segment(None, "an older card\n")], new) == _block("a", "new\n")
    assert merge_body(None, new) == _block("a", "new\n")


def test_the_front_matter_is_cut_where_it_ends() -> None:
    assert split_front_matter("---\na: 1\n---\n\nbody\n") == ("---\na: 1\n---\n", "\nbody\n", 4)
    assert split_front_matter("no header\n") == ("", "no header\n", 1)
    # a header with nothing in it ends on its second line; a "---" rule in the body is not its end
    assert split_front_matter("---\n---\nbody\n---\nmore\n") == ("---\n---\n", "body\n---\nmore\n", 3)
    # an opening "---" line that nothing closes is no header: the card is all body
    assert split_front_matter("---\nno end\n") == ("", "---\nno end\n", 1)


def test_reading_a_card_names_the_file_and_the_line_counted_from_its_top(tmp_path: Path) -> None:
    card = tmp_path / "README.md"
    card.write_text("---\na: 1\n---\nmine\n<!-- acs:end a -->\n", encoding="utf-8")
    with pytest.raises(InputError, match="ends no block") as caught:
        read_card_segments(card)
    assert (caught.value.path, caught.value.line) == (str(card), 5)
    card.write_bytes(b"---\na: 1\n---\n\xff\n")
    with pytest.raises(InputError, match="^" + re.escape(f"{card}: cannot read the dataset card: ") + ".*utf-8"):
        read_card_segments(card)
    assert read_card_segments(tmp_path / "absent.md") is None


def _build(out: Path, corpus: str, *extra: str) -> None:
    assert main(["build", "--pair", "de-en", "--corpus", corpus, "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--out", str(out), "--quiet", *extra]) == 0


def test_the_users_text_survives_rebuilds_and_a_rebuild_is_byte_identical(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sets"
    _build(out, "first", "--aligner", "none")
    card = out / "README.md"
    text = card.read_text(encoding="utf-8")
    header, body, _ = split_front_matter(text)
    mine = {"top": "\nRead this first: the sample is hand-made.\n",
            "between": "\nWe use these configs in our paper.\n\n",
            "end": "\n## Our notes\n\nThanks, reviewers.\n"}
    body = mine["top"] + body.replace("<!-- acs:end configs -->\n", "<!-- acs:end configs -->\n" + mine["between"])
    card.write_text(header + body + mine["end"], encoding="utf-8")
    edited = card.read_bytes()

    _build(out, "first", "--aligner", "none")
    assert card.read_bytes() == edited  # the same build: the same bytes, the user's text included

    _build(out, "second", "--alignment", str(demo_file("sample.de-en.pharaoh")))
    rebuilt = card.read_text(encoding="utf-8")
    assert "split `second`" in rebuilt and "de-en.reorder.d5" in rebuilt  # the generated parts are new
    _, new_body, _ = split_front_matter(rebuilt)
    assert new_body.startswith(mine["top"]) and new_body.endswith(mine["end"])
    assert "<!-- acs:end configs -->\n" + mine["between"] + "\n<!-- acs:begin reordering -->" in new_body


def test_configs_are_listed_by_distance_and_the_default_is_lexical(tmp_path: Path) -> None:
    """``verb_final`` sorts after ``crossing`` and ``reorder`` by name: the default is still it."""
    out = tmp_path / "sets"
    _build(out, "sample", "--phenomena", "verb_final", "--alignment", str(demo_file("sample.de-en.pharaoh")))
    header = yaml.safe_load(split_front_matter((out / "README.md").read_text(encoding="utf-8"))[0].strip("-\n"))
    for field in ("configs", "dataset_info"):
        names = [entry["config_name"] for entry in header[field]]
        assert names.index("de-en.reorder.d5") < names.index("de-en.reorder.d10")
        assert names.index("de-en.crossing.d5") < names.index("de-en.crossing.d10") < names.index("de-en.crossing.d20")
        assert names.index("de-en.verb_final.d1") < names.index("de-en.verb_final.d2")
        assert names[0] == "de-en.baseline" and names.index("de-en.verb_final.d5") < names.index("de-en.crossing")
    assert [entry["config_name"] for entry in header["configs"] if entry.get("default")] == ["de-en.verb_final"]


def test_distances_sort_as_numbers_and_lexical_configs_come_first() -> None:
    names = ["de-en.reorder.d10", "de-en.reorder.d5", "de-en.particle.d10", "de-en.particle.d2", "de-en.baseline"]
    assert sorted(names, key=config_sort_key) == ["de-en.baseline", "de-en.particle.d2", "de-en.particle.d10",
                                                  "de-en.reorder.d5", "de-en.reorder.d10"]
    assert default_config(["de-en.crossing.d5", "de-en.verb_final.d1", "de-en.baseline"]) == "de-en.verb_final"
    assert default_config(["en-de.particle.d1", "de-en.reorder.d5"]) == "de-en.reorder"  # the first pair's
    assert default_config(["de-en.baseline", "de-en.particle.d3"]) is None


def test_a_marker_with_anything_after_it_on_its_line_is_text() -> None:
    body = "<!-- acs:begin a -->\r\nx\n<!-- acs:end a --> \n<!-- acs:end a -->X\n<!-- acs:end a -->\r\n"
    assert read_segments(body) == [Segment("a", body)]
