"""dataset/integrity.py's checks of the splits no build record describes (a folder without
acs_build.json): the rows the card's ``dataset_info`` gives each split, in each shape a card may
hold it, and the lowest distance of a lexical config, from the footer's statistics or, for a
file written without them, from the column itself. Small folders made here with the toy's rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auto_challenge_sets.dataset.integrity import check_folder
from auto_challenge_sets.errors import InputError

from toy_dataset import SPLIT, corpus, rows_table, write_folder

D3 = "de-en.particle.d3"
TWO_SHARDS = [f"data/{D3}/{SPLIT}-0000{k}-of-00002.parquet" for k in (0, 1)]


@pytest.fixture(scope="module")
def text() -> dict:
    return corpus()


def _lines(text: dict, low: int) -> list[int]:
    """The 1-based lines whose particle distance is at least ``low`` (the rows of particle.d{low})."""
    return [n for n, d in enumerate(text["distances"], 1) if d >= low]


def _folder(tmp_path: Path, text: dict, dataset_info: str = "") -> Path:
    """particle.d3 (its own rows) and the baseline, no build record; ``dataset_info`` YAML added to
    the card's front matter."""
    root = write_folder(tmp_path / "ldd", text, {"de-en.baseline": list(range(1, 11)), D3: _lines(text, 3)})
    readme = root / "README.md"
    card = readme.read_text(encoding="utf-8")
    end = card.index("---", 3)
    readme.write_text(card[:end] + dataset_info + card[end:], encoding="utf-8")
    return root


def _info(config: str, rows: int) -> str:
    return f"- config_name: {config}\n  splits:\n  - name: {SPLIT}\n    num_examples: {rows}\n"


def _rows_message(root: Path, found: int, said: int) -> str:
    return (f"{root / 'data' / D3 / f'{SPLIT}-00000-of-00001.parquet'}: config {D3}, split {SPLIT} has {found:,} "
            f"rows in its file(s), the card's dataset_info says {said:,}; build it again (or restore the file)")


def test_the_rows_the_card_gives_a_split_are_checked(tmp_path, text):
    rows = len(_lines(text, 3))
    root = _folder(tmp_path, text, "dataset_info:\n" + _info("de-en.baseline", 10) + _info(D3, rows + 1))
    with pytest.raises(InputError) as error:
        check_folder(root)
    assert str(error.value) == _rows_message(root, rows, rows + 1)


def test_a_dataset_info_written_as_one_mapping_is_checked_too(tmp_path, text):
    """The Hub's card of a single config holds ``dataset_info`` as a mapping, not a list."""
    rows = len(_lines(text, 3))
    root = _folder(tmp_path, text, f"dataset_info:\n  config_name: {D3}\n  splits:\n  - name: {SPLIT}\n"
                                   f"    num_examples: {rows + 2}\n")
    with pytest.raises(InputError) as error:
        check_folder(root)
    assert str(error.value) == _rows_message(root, rows, rows + 2)


@pytest.mark.parametrize("dataset_info", [
    "dataset_info: 7\n",  # neither a list nor a mapping
    "dataset_info:\n- 7\n- just text\n",  # entries that are no mappings
    f"dataset_info:\n- config_name: {D3}\n  splits: 5\n",  # splits that are no list
    f"dataset_info:\n- config_name: {D3}\n  splits:\n  - 5\n  - name: {SPLIT}\n",  # no num_examples
    f"dataset_info:\n- config_name: {D3}\n  splits:\n  - name: {SPLIT}\n    num_examples: '3'\n",  # not an int
    f"dataset_info:\n- splits:\n  - name: {SPLIT}\n    num_examples: 3\n",  # no config_name: the Hub's default
])
def test_a_dataset_info_of_another_shape_checks_nothing_and_breaks_nothing(tmp_path, text, dataset_info):
    """Hand-edited cards: what is not a row count of a config's split is left alone (the card's
    own checks are `acs publish`'s), and the folder still reads."""
    check_folder(_folder(tmp_path, text, dataset_info))  # no error


def _distance_zero_in_d3(root: Path, text: dict, write) -> None:
    """particle.d3's rows with particle.d0's first row added, written by ``write(table, path)``."""
    table = pa.concat_tables([rows_table(text, _lines(text, 3), "particle"),
                              rows_table(text, [_lines(text, 0)[0]], "particle")])
    assert text["distances"][_lines(text, 0)[0] - 1] < 3
    path = root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet"
    write(table, path)


def _distance_message(path: Path, low: int = 0) -> str:
    return (f"{path}: holds a row of distance {low}, below the D = 3 of config {D3}: not this config's file; "
            "build it again (or restore the file)")


@pytest.mark.parametrize("write", [
    pytest.param(lambda table, path: pq.write_table(table, path), id="footer-statistics"),
    pytest.param(lambda table, path: pq.write_table(table, path, write_statistics=False), id="no-statistics"),
    pytest.param(lambda table, path: pq.write_table(table, path, row_group_size=5), id="row-groups"),
    pytest.param(lambda table, path: pq.write_table(table, path, row_group_size=5, write_statistics=["line"]),
                 id="row-groups-no-distance-statistics"),
])
def test_a_row_below_the_configs_distance_is_found_with_or_without_statistics(tmp_path, text, write):
    root = _folder(tmp_path, text)
    _distance_zero_in_d3(root, text, write)
    with pytest.raises(InputError) as error:
        check_folder(root)
    assert str(error.value) == _distance_message(root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet")


def test_a_file_without_a_distance_column_does_not_hide_the_next_files_rows(tmp_path, text):
    """A split of two files: the first has no ``distance`` column, the second a row of distance 0."""
    root = _folder(tmp_path, text)
    (root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet").unlink()
    first, second = (root / rel for rel in TWO_SHARDS)
    pq.write_table(rows_table(text, _lines(text, 3), "particle").drop_columns(["distance"]), first)
    pq.write_table(rows_table(text, [_lines(text, 0)[0]], "particle"), second)
    with pytest.raises(InputError) as error:
        check_folder(root)
    assert str(error.value) == _distance_message(first)


def test_the_distance_read_is_the_rows_not_an_instances(tmp_path, text):
    """A row's instances may lie closer than D (a row's distance is its largest instance's), and
    their ``distance`` is a column of the same name in the footer: with ``instances`` stored before
    ``distance``, it must not be read as the row's."""
    root = _folder(tmp_path, text)
    path = root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet"
    table = rows_table(text, _lines(text, 3), "particle")
    near = {"dependent": 1, "head": 2, "dependent_form": "x", "head_form": "y", "distance": 1}
    table = table.set_column(11, "instances", pa.array([[near, *row] for row in table.column("instances").to_pylist()],
                                                       table.schema.field("instances").type))
    names = [name for name in table.column_names if name != "distance"]
    for statistics in (True, False):
        pq.write_table(table.select([*names, "distance"]), path, write_statistics=statistics)
        schema = pq.read_metadata(path).schema
        leaves = [schema.column(i).path for i in range(len(schema))]
        assert leaves.index("instances.list.element.distance") < leaves.index("distance")
        check_folder(root)  # no error


def test_a_config_that_is_not_ours_does_not_end_the_check(tmp_path, text):
    """A config of another name listed first (no record: nothing says it was added by hand)."""
    root = _folder(tmp_path, text)
    readme = root / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace(
        "configs:\n", f"configs:\n- config_name: my-extra\n  data_files:\n  - split: {SPLIT}\n"
                      f"    path: data/de-en.baseline/{SPLIT}-*\n", 1), encoding="utf-8")
    _distance_zero_in_d3(root, text, pq.write_table)
    with pytest.raises(InputError) as error:
        check_folder(root)
    assert str(error.value) == _distance_message(root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet")


@pytest.mark.parametrize("table", [
    pytest.param(lambda text: rows_table(text, [], "particle"), id="no-rows"),
    pytest.param(lambda text: rows_table(text, _lines(text, 3), "particle").drop_columns(["distance"]),
                 id="no-distance-column"),
])
def test_a_lexical_split_without_distances_has_no_row_below_d(tmp_path, text, table):
    root = _folder(tmp_path, text)
    pq.write_table(table(text), root / "data" / D3 / f"{SPLIT}-00000-of-00001.parquet")
    check_folder(root)  # no error
