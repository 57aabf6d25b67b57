"""A chunk of analysed pairs as one Arrow table per config: the rows of
:func:`auto_challenge_sets.selection.rows_by_config`, with the values (and so the Parquet bytes) of
``Table.from_pylist`` (tests/test_arrow_rows.py), built as columns because a pair is in up to every
config: the columns every config shares are converted once per chunk, and each config takes its
rows from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from auto_challenge_sets.configs import ConfigName
from auto_challenge_sets.selection import LineAnalysis, config_columns, select, shared_columns


def config_tables(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> list[Any]:
    """For each config (with its Arrow schema), the Arrow table of its rows among ``analyses``, or
    None when it selects none of them."""
    return tables_from(chunk_columns(analyses, configs, corpus, schemas), configs, schemas)


@dataclass
class ChunkColumns:
    """A chunk's rows of every config before they are tables (what a worker of ``--jobs`` sends back):
    the shared columns over all its pairs, and each config's (row indices, distances, instances)."""

    shared: dict[str, Any]
    selected: list[tuple[Any, Any, Any]]
    pairs: int


def chunk_columns(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> ChunkColumns:
    import pyarrow as pa

    selected = [(selection.indices, pa.array(selection.distances, type=pa.int32()),
                 pa.array(selection.instances, type=schema.field("instances").type))
                for selection, schema in zip(select(analyses, configs, corpus), schemas)]
    # the shared columns that some config with rows needs, over all of `analyses`
    types = {field.name: field.type for (indices, _, _), schema in zip(selected, schemas) if len(indices)
             for field in schema if field.name not in _OWN}
    shared: dict[str, Any] = {}
    if types:
        rows = [shared_columns(analysis, corpus) for analysis in analyses]
        values = {key: [row[key] for row in rows] for key in rows[0]}
        values["target_tokens"] = [analysis.target_tokens for analysis in analyses]
        shared = {name: pa.array(values[name], type=type_) for name, type_ in types.items()}
    return ChunkColumns(shared, selected, len(analyses))


_OWN = ("src_lang", "tgt_lang", "phenomenon", "distance", "instances")  # a config's own columns (config_columns)


def tables_from(columns: ChunkColumns, configs: Sequence[ConfigName], schemas: Sequence[Any]) -> list[Any]:
    """Each config's table (None: no row): its rows taken from the shared columns, its own added."""
    import pyarrow as pa

    tables: list[Any] = []
    for config, schema, (indices, distances, instances) in zip(configs, schemas, columns.selected):
        rows = len(indices)
        if not rows:
            tables.append(None)
            continue
        take = None if rows == columns.pairs else pa.array(indices, type=pa.int32())
        own = {**config_columns(config), "distance": distances, "instances": instances}
        out = []
        for field in schema:
            if field.name in own:
                value = own[field.name]
                out.append(value if isinstance(value, pa.Array) else pa.repeat(pa.scalar(value, type=field.type), rows))
            else:
                column = columns.shared[field.name]
                out.append(column if take is None else column.take(take))
        tables.append(pa.Table.from_arrays(out, schema=schema))
    return tables
