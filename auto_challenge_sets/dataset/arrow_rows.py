"""A chunk of analysed pairs as one Arrow table per config: the rows of
:func:`auto_challenge_sets.selection.rows_by_config`, built as columns.

Why not ``Table.from_pylist`` of those rows: a pair is in up to every config of the build (the
baseline, each phenomenon at D = 0 and up), and a row dict per config and pair, converted to Arrow
per config, copied its sentence, reference and tokens once per config. That conversion was the
largest cost of a build beyond reading the parse and applying the rules. Here the columns every
config shares are converted once per chunk, and a config takes its pairs' values from them
(``take``, in Arrow); only its own columns (distance, instances) are converted from Python. The
values, and so the Parquet bytes, are those of ``from_pylist`` (tests/test_arrow_rows.py).

A phenomenon's configs (D = 0 and up) are cut from one table of its instances: every instance of
the chunk converted once, as columns, and each D's rows and instance lists taken from it with
NumPy and Arrow (the rows with an instance at distance >= D, their instances at >= D). Converting
each config's instance lists as Python dicts was the largest part of the conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from auto_challenge_sets.configs import KIND_LEXICAL, ConfigName
from auto_challenge_sets.phenomena import Instance
from auto_challenge_sets.selection import LineAnalysis, config_columns, select, shared_columns


def config_tables(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> list[Any]:
    """For each config (with its Arrow schema), the Arrow table of its rows among ``analyses``, or
    None when it selects none of them."""
    import pyarrow as pa

    others = [k for k, config in enumerate(configs) if config.kind != KIND_LEXICAL]
    selected: dict[int, tuple[Any, Any, Any]] = {}  # config -> (row indices, distances, instances)
    for k, selection in zip(others, select(analyses, [configs[k] for k in others], corpus)):
        instances_type = schemas[k].field("instances").type
        selected[k] = (selection.indices, pa.array(selection.distances, type=pa.int32()),
                       pa.array(selection.instances, type=instances_type))
    by_phenomenon: dict[str, _PhenomenonInstances] = {}
    for k, config in enumerate(configs):
        if config.kind == KIND_LEXICAL:
            if config.phenomenon not in by_phenomenon:
                by_phenomenon[config.phenomenon] = _PhenomenonInstances(
                    analyses, config.phenomenon, schemas[k].field("instances").type)
            selected[k] = by_phenomenon[config.phenomenon].at(config.min_distance or 0)

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
    for k, (config, schema) in enumerate(zip(configs, schemas)):
        indices, distances, instances = selected[k]
        rows = len(indices)
        if not rows:
            tables.append(None)
            continue
        take = None if rows == len(analyses) else pa.array(indices, type=pa.int32())
        own = {**config_columns(config), "distance": distances, "instances": instances}
        columns = []
        for field in schema:
            if field.name in own:
                value = own[field.name]
                columns.append(value if isinstance(value, pa.Array) else pa.array([value] * rows, type=field.type))
            else:
                column = shared_array(field.name, field.type)
                columns.append(column if take is None else column.take(take))
        tables.append(pa.Table.from_arrays(columns, schema=schema))
    return tables


class _PhenomenonInstances:
    """Every instance of one phenomenon in a chunk, as Arrow columns, with the pair each belongs to."""

    def __init__(self, analyses: Sequence[LineAnalysis], phenomenon: str, list_type: Any):
        import numpy as np
        import pyarrow as pa

        found = [analysis.lexical[phenomenon] for analysis in analyses]
        lengths = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
        self.pairs = np.repeat(np.arange(len(found)), lengths)  # the pair of each instance, in order
        flat = list(chain.from_iterable(found))
        struct_type = list_type.value_type
        by_name = dict(zip(Instance._fields, zip(*flat))) if flat else dict.fromkeys(Instance._fields, ())
        self.values = pa.StructArray.from_arrays(
            [pa.array(by_name[field.name], type=field.type) for field in struct_type], fields=list(struct_type))
        self.distances = np.asarray(by_name["distance"], dtype=np.int64)
        # a row's distance is its largest instance's, whatever the config's D
        self.top = np.full(len(found), -1, dtype=np.int64)
        np.maximum.at(self.top, self.pairs, self.distances)
        self.list_type = list_type

    def at(self, minimum: int) -> tuple[Any, Any, Any]:
        """The rows of the config at D = ``minimum``: row indices, distances, instance lists."""
        import numpy as np
        import pyarrow as pa

        keep = self.distances >= minimum
        pairs = self.pairs[keep]
        rows, counts = np.unique(pairs, return_counts=True)  # sorted: the pairs' order
        offsets = np.zeros(len(rows) + 1, dtype=np.int32)
        np.cumsum(counts, out=offsets[1:])
        instances = pa.ListArray.from_arrays(pa.array(offsets), self.values.filter(pa.array(keep)),
                                             type=self.list_type)
        return rows, pa.array(self.top[rows].astype(np.int32), type=pa.int32()), instances
