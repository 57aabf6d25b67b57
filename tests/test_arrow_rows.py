"""dataset/arrow_rows.py: a chunk's rows as Arrow columns are the rows of
rows.rows_by_config, converted by Table.from_pylist, for every config of real builds (gold
PUD German: baseline and lexical configs; the packaged sample with its alignment: reorder configs)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from rows import rows_by_config

from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.dataset.arrow_rows import config_tables
from auto_challenge_sets.dataset.features import features_for
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.pipeline.run_build import BuildSpec, build

from conftest import shared_path


def _pud(tmp_path: Path) -> BuildSpec:
    conllu = shared_path("data", "pud", "de_pud-ud-test.conllu")
    blocks = conllu.read_text(encoding="utf-8").strip().split("\n\n")[:400]
    (tmp_path / "pud.conllu").write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    for key, name in (("text", "de"), ("text_en", "en")):
        prefix = f"# {key} = "
        lines = [next(x[len(prefix):] for x in block.split("\n") if x.startswith(prefix)) for block in blocks]
        (tmp_path / f"pud.{name}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return BuildSpec("de-en", "pud", tmp_path / "pud.de", tmp_path / "pud.en", source_conllu=tmp_path / "pud.conllu",
                     cache_dir=tmp_path / "cache")


def _sample(tmp_path: Path) -> BuildSpec:
    return BuildSpec("de-en", "sample", demo_file("sample.de"), demo_file("sample.en"),
                     source_conllu=demo_file("sample.de.conllu"), alignment=demo_file("sample.de-en.pharaoh"),
                     cache_dir=tmp_path / "cache")


@pytest.mark.parametrize("make_spec", [pytest.param(_pud, marks=pytest.mark.shared, id="pud"),
                                       pytest.param(_sample, id="sample")])
def test_the_columns_are_the_rows(make_spec, tmp_path: Path) -> None:
    output = build(make_spec(tmp_path), progress=False)
    configs = [parse_config_name(name) for name in output.config_names]
    schemas = [features_for(config.kind).arrow_schema for config in configs]
    analyses = list(output.analyses)
    tables = config_tables(analyses, configs, output.spec.corpus, schemas)
    per_pair = list(rows_by_config(analyses, configs, output.spec.corpus))
    kinds = set()
    for k, (config, schema, table) in enumerate(zip(configs, schemas, tables)):
        rows = [row for pair_rows in per_pair for row in pair_rows[k]]
        if not rows:
            assert table is None, config
            continue
        kinds.add(config.kind)
        expected = pa.Table.from_pylist(rows, schema=schema)
        assert table.schema == schema and table.equals(expected), config
    assert kinds == ({"baseline", "lexical", "reorder"} if output.spec.aligned else {"baseline", "lexical"})
    assert any(table is None for table in tables) or output.spec.corpus == "pud"


def test_a_chunk_without_any_selected_pair_gives_no_table(tmp_path: Path) -> None:
    output = build(_sample(tmp_path), progress=False)
    configs = [parse_config_name("de-en.particle.d5"), parse_config_name("de-en.reorder.d20")]
    schemas = [features_for(config.kind).arrow_schema for config in configs]
    first = next(iter(output.analyses))
    assert config_tables([first], configs, "sample", schemas) == [None, None]
    assert config_tables([], [parse_config_name("de-en.baseline")], "sample",
                         [features_for("baseline").arrow_schema]) == [None]
