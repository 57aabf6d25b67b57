"""A chunk of analysed pairs as one Arrow table per config: the rows of
:func:`auto_challenge_sets.selection.rows_by_config`, built as columns.

Why not ``Table.from_pylist`` of those rows: a pair is in up to every config of the build (the
baseline, each phenomenon at D = 0 and up), and a row dict per config and pair, converted to Arrow
per config, copied its sentence, reference and tokens once per config. That conversion was the
largest cost of a build beyond reading the parse and applying the rules. Here the columns every
config shares are converted once per chunk, and a config takes its pairs' values from them
(``take``, in Arrow); only its own columns (distance, instances) are converted from Python. The
values, and so the Parquet bytes, are those of ``from_pylist`` (tests/test_arrow_rows.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from auto_challenge_sets.configs import ConfigName
from auto_challenge_sets.selection import LineAnalysis, config_columns, select, shared_columns


def config_tables(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> list[Any]:
    """For each config (with its Arrow schema), the Arrow table of its rows among ``analyses``, or
    None when it selects none of them."""
    import pyarrow as pa

    selections = select(analyses, configs, corpus)
    values: dict[str, list] = {}  # the shared columns over all of `analyses`, as Python lists
    arrays: dict[str, Any] = {}  # ... and as Arrow arrays, each made when a config first needs it

    def shared_array(name: str, type_: Any) -> Any:
        if name not in arrays:
            if not values:
                rows = [shared_columns(analysis, corpus) for analysis in analyses]
                values.update({key: [row[key] for row in rows] for key in rows[0]})
                values["target_tokens"] = [analysis.target_tokens for analysis in analyses]
            arrays[name] = pa.array(values[name], type=type_)
        return arrays[name]

    tables: list[Any] = []
    for config, schema, selection in zip(configs, schemas, selections):
        rows = len(selection.indices)
        if not rows:
            tables.append(None)
            continue
        indices = None if rows == len(analyses) else pa.array(selection.indices, type=pa.int32())
        own = {**config_columns(config), "distance": selection.distances, "instances": selection.instances}
        columns = []
        for field in schema:
            if field.name in own:
                value = own[field.name]
                columns.append(pa.array(value if isinstance(value, list) else [value] * rows, type=field.type))
            else:
                column = shared_array(field.name, field.type)
                columns.append(column if indices is None else column.take(indices))
        tables.append(pa.Table.from_arrays(columns, schema=schema))
    return tables
