"""The dataset card (dataset/card.py) on small builds of the packaged sample: every field of the
YAML header against what pyarrow and os read from the files, the generated text to the letter,
the license file of a folder whose splits differ, and the helpers at their boundaries. Expected
values are literals counted by hand, or read from the written files by pyarrow, yaml and os."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from auto_challenge_sets import __version__
from auto_challenge_sets.dataset import card as card_module
from auto_challenge_sets.dataset.card import (
    PRETTY_NAME,
    _data_path,
    _empty_note,
    _in_config_order,
    _licenses,
    _provenance,
    default_config,
    phenomenon_table,
    render_readme,
    size_category,
    yaml_order,
)
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.pipeline.build_provenance import NOT_RECORDED
from auto_challenge_sets.pipeline.run_build import BuildSpec

from mutation_scope import per_test_under_mutmut

TAGS = ["challenge-set", "long-distance-dependencies", "machine-translation-evaluation"]


def _build(out: Path, corpus: str, license: str | None, distances: tuple[int, ...], aligned: bool = False,
           phenomena: tuple[str, ...] = ("particle", "prep_stranding")) -> None:
    build_into_folder(BuildSpec("de-en", corpus, demo_file("sample.de"), demo_file("sample.en"),
                                source_conllu=demo_file("sample.de.conllu"), phenomena=phenomena,
                                lexical_distances=distances,
                                alignment=demo_file("sample.de-en.pharaoh") if aligned else None),
                      out, license=license, progress=False)


def _card(out: Path) -> tuple[dict, str]:
    text = (out / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    header, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(header), body


@pytest.fixture(scope=per_test_under_mutmut)
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Split ``first`` (cc-by-4.0, no aligner) and ``second`` (mit, the hand alignment)."""
    out = tmp_path_factory.mktemp("card") / "sets"
    _build(out, "first", "cc-by-4.0", (0, 1, 3))
    _build(out, "second", "mit", (0, 1, 3), aligned=True, phenomena=("particle",))
    return out


# -- the helpers ------------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "label"), [
    (0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (9_999, "1K<n<10K"), (10_000, "10K<n<100K"),
    (99_999, "10K<n<100K"), (100_000, "100K<n<1M"), (999_999, "100K<n<1M"), (1_000_000, "1M<n<10M"),
    (9_999_999, "1M<n<10M"), (10_000_000, "10M<n<100M"), (50_000_000, "10M<n<100M"),
])
def test_size_category_at_each_boundary(n: int, label: str) -> None:
    assert size_category(n) == label


def test_provenance_names_every_build_with_its_defaults_and_the_last_version() -> None:
    record = {"license": "mit", "builds": [
        {"pair": "de-en", "corpus": "a", "lines": 3, "source": "s.de", "target": "t.en", "parser": "conllu",
         "aligner": None, "pairs": 2, "license": None, "user_rules": {"zz": "last", "aa": "first"},
         "parse_notes": ["n1", "n2"], "version": "1.0"},
        {"pair": "de-en", "corpus": "b", "lines": 4, "aligner": "eflomal", "license": "cc-by-4.0", "version": "1.5"},
        {"pair": "en-de", "corpus": "c", "lines": 5, "version": "2.0"},
    ]}
    assert _provenance(record) == (
        "- `de-en`, split `a`: source `s.de`; target `t.en`; parser: conllu; aligner: none; 2 pairs of 3 lines; "
        "license: mit\n"
        "  - phenomenon `aa`, added by the user: first\n"
        "  - phenomenon `zz`, added by the user: last\n"
        "  - parse: n1\n"
        "  - parse: n2\n"
        f"  - made with: {NOT_RECORDED}\n"
        "- `de-en`, split `b`: source `?`; target `?`; parser: ?; aligner: eflomal; ? pairs of 4 lines; "
        "license: cc-by-4.0\n"
        f"  - made with: {NOT_RECORDED}\n"
        "- `en-de`, split `c`: source `?`; target `?`; parser: ?; aligner: none; ? pairs of 5 lines; license: mit\n"
        f"  - made with: {NOT_RECORDED}\n"
        "\nBuilt with auto_challenge_sets 2.0.")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_provenance_without_a_license_or_version_or_builds() -> None:
    record = {"license": None, "builds": [{"pair": "de-en", "corpus": "a", "lines": 1}]}
    assert _provenance(record) == ("- `de-en`, split `a`: source `?`; target `?`; parser: ?; aligner: none; "
                                   f"? pairs of 1 lines; license: other\n  - made with: {NOT_RECORDED}\n"
                                   "\nBuilt with auto_challenge_sets ?.")
    assert _provenance({"license": "mit", "builds": []}) == ""


def test_default_config_needs_the_default_distance() -> None:
    assert default_config([]) is None
    assert default_config(["de-en.baseline", "de-en.particle.d0", "de-en.particle.d2"]) is None
    assert default_config(["de-en.particle.d0", "de-en.particle.d1"]) == "de-en.particle"
    assert default_config(["en-de.reflexive.d1", "de-en.subj_verb.d1", "de-en.particle.d1"]) == "de-en.particle"
    assert default_config(["de-en.reorder.d10", "de-en.crossing.d5"]) == "de-en.crossing"


def test_the_short_name_goes_just_before_the_config_it_aliases() -> None:
    assert yaml_order("de-en.particle")[1] == 1 and yaml_order("de-en.particle.d1")[1] == 2
    names = ["de-en.particle.d3", "de-en.particle.d1", "de-en.particle", "de-en.particle.d0", "de-en.baseline"]
    assert sorted(names, key=yaml_order) == ["de-en.baseline", "de-en.particle.d0", "de-en.particle",
                                             "de-en.particle.d1", "de-en.particle.d3"]


def test_both_lists_of_the_header_are_put_in_config_order() -> None:
    entries = [{"config_name": name} for name in ("de-en.reorder.d10", "de-en.reorder.d5", "de-en.reorder")]
    card_data = {"configs": list(entries), "dataset_info": list(entries), "tags": ["b", "a"],
                 "language": "not a list"}
    _in_config_order(card_data)
    order = ["de-en.reorder", "de-en.reorder.d5", "de-en.reorder.d10"]
    assert [entry["config_name"] for entry in card_data["configs"]] == order
    assert [entry["config_name"] for entry in card_data["dataset_info"]] == order
    assert card_data["tags"] == ["b", "a"] and card_data["language"] == "not a list"
    _in_config_order({"configs": None})  # no list: left alone


def test_the_empty_note_lists_the_empty_selections_in_config_order() -> None:
    assert _empty_note({}) == "Every selection of the builds below has rows."
    assert _empty_note({"de-en.reorder.d10": {"b": 0, "a": 0}, "de-en.reorder.d5": {"a": 0}}) == (
        "A selection with no sentence pair is not a config, since `datasets` cannot load an empty split; "
        "the table shows it as 0. Empty here: `de-en.reorder.d5` (a), `de-en.reorder.d10` (a, b).")


def test_a_split_of_one_file_is_a_path_and_of_several_a_list(tmp_path: Path) -> None:
    one = [tmp_path / "data" / "c" / "s-00000-of-00001.parquet"]
    assert _data_path(one, tmp_path) == "data/c/s-00000-of-00001.parquet"
    two = [tmp_path / "data" / "c" / f"s-0000{k}-of-00002.parquet" for k in range(2)]
    assert _data_path(two, str(tmp_path)) == ["data/c/s-00000-of-00002.parquet", "data/c/s-00001-of-00002.parquet"]


def test_one_license_writes_no_license_file_and_removes_an_old_one(tmp_path: Path) -> None:
    builds = [{"pair": "de-en", "corpus": "a", "license": "mit"}, {"pair": "en-de", "corpus": "a", "license": None}]
    assert _licenses({"license": "mit", "builds": builds}, tmp_path) == ("mit", {})
    assert not (tmp_path / "LICENSE.md").exists()
    (tmp_path / "LICENSE.md").write_text("old\n", encoding="utf-8")
    assert _licenses({"license": None, "builds": builds[:1]}, tmp_path) == ("mit", {})
    assert not (tmp_path / "LICENSE.md").exists()


def test_several_licenses_write_the_license_file_the_card_links(tmp_path: Path) -> None:
    builds = [{"pair": "en-de", "corpus": "b", "license": "mit"}, {"pair": "de-en", "corpus": "a", "license": None}]
    assert _licenses({"license": "cc-by-4.0", "builds": builds}, tmp_path) == ("other", {
        "license_name": "mixed", "license_link": "LICENSE.md",
        "license_details": "de-en/a: cc-by-4.0; en-de/b: mit"})
    assert (tmp_path / "LICENSE.md").read_text(encoding="utf-8") == (
        "# Licenses\n\nThe splits of this dataset come from corpora under different licenses:\n\n"
        "- `de-en/a`: cc-by-4.0\n- `en-de/b`: mit\n")


# -- the card of a build ----------------------------------------------------------------------

def test_a_folder_without_parquet_files_has_no_card(tmp_path: Path) -> None:
    (tmp_path / "data" / "de-en.baseline").mkdir(parents=True)
    with pytest.raises(InputError) as caught:
        render_readme(tmp_path)
    assert str(caught.value) == f"{tmp_path}: holds no challenge-set Parquet files: the build selected no sentence pair"
    assert not (tmp_path / "README.md").exists()


LISTED = ["de-en.baseline", "de-en.particle.d0", "de-en.particle", "de-en.particle.d1", "de-en.particle.d3",
          "de-en.crossing", "de-en.crossing.d5", "de-en.crossing.d10", "de-en.crossing.d20", "de-en.crossing.d30",
          "de-en.reorder", "de-en.reorder.d5", "de-en.reorder.d10",
          "de-en.reorder_norm", "de-en.reorder_norm.d5", "de-en.reorder_norm.d10"]


def test_the_header_of_a_folder_of_two_licenses(mixed: Path) -> None:
    header, _ = _card(mixed)
    assert header["pretty_name"] == "Long-distance dependency challenge sets for MT" == PRETTY_NAME
    assert header["language"] == ["de", "en"]
    assert header["license"] == "other"
    assert (header["license_name"], header["license_link"]) == ("mixed", "LICENSE.md")
    assert header["license_details"] == "de-en/first: cc-by-4.0; de-en/second: mit"
    assert header["multilinguality"] == "translation"
    assert header["task_categories"] == ["translation"]
    assert header["size_categories"] == ["n<1K"]
    assert header["tags"] == TAGS
    assert [entry["config_name"] for entry in header["configs"]] == LISTED
    assert [entry["config_name"] for entry in header["dataset_info"]] == LISTED
    assert [entry["config_name"] for entry in header["configs"] if "default" in entry] == ["de-en.particle"]
    assert next(e for e in header["configs"] if e.get("default"))["default"] is True
    assert (mixed / "LICENSE.md").read_text(encoding="utf-8") == (
        "# Licenses\n\nThe splits of this dataset come from corpora under different licenses:\n\n"
        "- `de-en/first`: cc-by-4.0\n- `de-en/second`: mit\n")


def test_each_config_lists_its_files_and_the_short_name_its_d_files(mixed: Path) -> None:
    header, _ = _card(mixed)
    configs = {entry["config_name"]: entry["data_files"] for entry in header["configs"]}
    assert configs["de-en.particle"] == configs["de-en.particle.d1"] == [
        {"split": "first", "path": "data/de-en.particle.d1/first-00000-of-00001.parquet"},
        {"split": "second", "path": "data/de-en.particle.d1/second-00000-of-00001.parquet"}]
    assert configs["de-en.reorder"] == [{"split": "second", "path": "data/de-en.reorder.d5/second-00000-of-00001.parquet"}]
    for name, files in configs.items():
        for entry in files:
            assert (mixed / entry["path"]).is_file(), name


def test_dataset_info_is_what_the_files_hold(mixed: Path) -> None:
    header, _ = _card(mixed)
    configs = {entry["config_name"]: entry["data_files"] for entry in header["configs"]}
    for info in header["dataset_info"]:
        name = info["config_name"]
        paths = {entry["split"]: mixed / entry["path"] for entry in configs[name]}
        splits = []
        for split, path in paths.items():
            metadata = pq.read_metadata(path)
            splits.append({"name": split, "num_examples": metadata.num_rows,
                           "num_bytes": sum(metadata.row_group(i).total_byte_size
                                            for i in range(metadata.num_row_groups))})
        assert info["splits"] == splits, name
        assert info["download_size"] == sum(os.stat(path).st_size for path in paths.values()), name
        assert info["dataset_size"] == sum(split["num_bytes"] for split in splits), name
        schema = pq.read_schema(next(iter(paths.values())))
        assert [feature["name"] for feature in info["features"]] == schema.names, name
    particle = next(info for info in header["dataset_info"] if info["config_name"] == "de-en.particle.d3")
    assert [(split["name"], split["num_examples"]) for split in particle["splits"]] == [("first", 7), ("second", 7)]


def test_the_generated_text_of_the_card(mixed: Path) -> None:
    _, body = _card(mixed)
    assert body.startswith("\n<!-- acs:begin title -->\n")
    assert "\n# Long-distance dependency challenge sets for MT\n" in body
    assert "the viewer and `load_dataset` without a config name open) is `de-en.particle`.\n" in body
    assert 'challenge = load_dataset("PATH_OR_REPO", "de-en.particle.d3", split="first")\n' in body
    parse = f"parser conllu (sample.de.conllu, sha256 {_sha256(demo_file('sample.de.conllu'))[:12]})"
    tokens = f"tokens: the words of sample.de.conllu (source), white space (target); auto_challenge_sets {__version__}"
    assert ("\n- `de-en`, split `first`: source `sample.de`; target `sample.en`; parser: conllu; aligner: none; "
            "29 pairs of 29 lines; license: cc-by-4.0\n"
            f"  - made with: {parse}; not aligned; {tokens}\n"
            "- `de-en`, split `second`: source `sample.de`; target `sample.en`; parser: conllu; "
            "aligner: pharaoh (path=sample.de-en.pharaoh); 29 pairs of 29 lines; license: mit\n"
            f"  - made with: {parse}; aligner pharaoh (sample.de-en.pharaoh, sha256 "
            f"{_sha256(demo_file('sample.de-en.pharaoh'))[:12]}, 29 pairs); {tokens}\n"
            "\nBuilt with auto_challenge_sets ") in body
    assert ("(`de-en/first: cc-by-4.0; de-en/second: mit` as declared for this\nfolder)") in body
    assert ("Empty here: `de-en.prep_stranding.d0` (first), `de-en.prep_stranding.d1` (first), "
            "`de-en.prep_stranding.d3` (first), `de-en.reorder.d15` (second), `de-en.reorder.d20` (second), "
            "`de-en.reorder_norm.d15` (second), `de-en.reorder_norm.d20` (second).\n") in body
    assert "| de-en | particle | first | 29 | 11 | 10 |" in body
    assert "| de-en | prep_stranding | first | 29 | 0 | 0 |" in body
    assert "## Extraction quality" in body and "| de | reflexive | 0 | 131 | 137 | 94.2 | 98.5 |" in body
    quality = (Path(card_module.__file__).parent / "reorder_quality.md").read_text(encoding="utf-8")
    assert next(line for line in quality.splitlines() if line.startswith("| `crossing` | 5 |")) in body  # included whole
    assert "$" not in body  # every placeholder filled


def test_the_phenomenon_table_has_every_built_in_phenomenon_and_its_languages(mixed: Path) -> None:
    """Rendered from the registry and the language profiles, into the card of any build."""
    _, body = _card(mixed)
    table = phenomenon_table()
    assert table in body
    rows = {line.split(" | ")[0][3:-1]: line for line in table.splitlines()[2:]}
    assert list(rows) == ["reflexive", "particle", "prep_stranding", "aux_bracket", "subj_verb", "verb_final",
                          "subordinator_verb", "relative_clause", "ne_pas", "light_verb_compound", "ba_bei",
                          "reorder", "reorder_norm", "crossing"]
    assert "| cs, de, en, fr, is, any other (own rule: cs, fr, is) |" in rows["reflexive"]
    assert "| de, hi (own rule: hi) |" in rows["verb_final"]
    assert "| en |" in rows["prep_stranding"] and "| zh |" in rows["ba_bei"] and "| fr |" in rows["ne_pas"]
    assert "| cs, de, en, es, fr, hi, is, ru, zh, any other (own rule: zh) |" in rows["relative_clause"]
    assert r"\|i - j\| >= D" in rows["reorder"] and rows["crossing"].endswith("| any | the score (D = 5, 10, 20, 30) |")


def test_one_license_again_drops_the_license_file_and_fields(tmp_path: Path) -> None:
    out = tmp_path / "sets"
    _build(out, "first", "cc-by-4.0", (0, 1))
    _build(out, "second", "mit", (0, 1))
    assert (out / "LICENSE.md").is_file()
    _build(out, "second", None, (0, 1))  # a rebuild without --license keeps its split's own
    assert "de-en/first: cc-by-4.0; de-en/second: mit" in (out / "README.md").read_text(encoding="utf-8")
    _build(out, "second", "cc-by-4.0", (0, 1))
    header, body = _card(out)
    assert not (out / "LICENSE.md").exists()
    assert header["license"] == "cc-by-4.0"
    assert not {"license_name", "license_link", "license_details"} & set(header)
    assert "(`cc-by-4.0` as declared for this\nfolder)" in body


def test_without_the_default_distance_or_d3_the_card_says_so(tmp_path: Path) -> None:
    out = tmp_path / "sets"
    _build(out, "only", "mit", (0, 2), phenomena=("aux_bracket",))
    header, body = _card(out)
    assert [entry["config_name"] for entry in header["configs"]] == [
        "de-en.baseline", "de-en.aux_bracket.d0", "de-en.aux_bracket.d2"]
    assert not any("default" in entry for entry in header["configs"])
    assert "open) is none (no config has the default D).\n" in body
    # no d3 config: the example is the first config (the baseline, though aux_bracket sorts first as text)
    assert 'load_dataset("PATH_OR_REPO", "de-en.baseline", split="only")' in body
    assert "\nEvery selection of the builds below has rows.\n" in body
    assert header["license"] == "mit" and "(`mit` as declared" in body


def _rows(path: Path, n: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"id": [f"x:{k}" for k in range(n)], "line": list(range(n))}), path)


def test_the_size_category_counts_every_split_of_a_config(tmp_path: Path) -> None:
    """Two splits of 600 rows: 1,200 pairs, the next category; several files make a list of paths;
    a folder without a build record gets the 'other' license and no provenance."""
    _rows(tmp_path / "data" / "de-en.baseline" / "a-00000-of-00001.parquet", 600)
    _rows(tmp_path / "data" / "de-en.baseline" / "b-00000-of-00002.parquet", 300)
    _rows(tmp_path / "data" / "de-en.baseline" / "b-00001-of-00002.parquet", 300)
    assert render_readme(tmp_path) == tmp_path / "README.md"
    header, body = _card(tmp_path)
    assert header["size_categories"] == ["1K<n<10K"]
    assert header["license"] == "other" and header["language"] == ["de", "en"]
    assert header["configs"] == [{"config_name": "de-en.baseline", "data_files": [
        {"split": "a", "path": "data/de-en.baseline/a-00000-of-00001.parquet"},
        {"split": "b", "path": ["data/de-en.baseline/b-00000-of-00002.parquet",
                                "data/de-en.baseline/b-00001-of-00002.parquet"]}]}]
    info = header["dataset_info"]  # one config: a mapping, not a list (left as datasets writes it)
    assert info["config_name"] == "de-en.baseline"
    assert [(split["name"], split["num_examples"]) for split in info["splits"]] == [("a", 600), ("b", 600)]
    assert info["download_size"] == sum(path.stat().st_size for path in tmp_path.rglob("*.parquet"))
    assert "## How it was made\n\n\n<!-- acs:end provenance -->" in body
