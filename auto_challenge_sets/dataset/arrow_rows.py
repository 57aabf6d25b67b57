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
from dataclasses import dataclass
from itertools import chain
from typing import Any

from auto_challenge_sets.configs import KIND_LEXICAL, ConfigName
from auto_challenge_sets.phenomena import Instance
from auto_challenge_sets.selection import LineAnalysis, config_columns, select, shared_columns


def config_tables(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> list[Any]:
    """For each config (with its Arrow schema), the Arrow table of its rows among ``analyses``, or
    None when it selects none of them."""
    return tables_from(chunk_columns(analyses, configs, corpus, schemas), configs, schemas)


@dataclass
class ChunkColumns:
    """A chunk's rows of every config, before they are tables: the columns every config shares, over
    all the chunk's pairs, and each config's pairs (row indices), distances and instance lists. What
    a worker of ``acs build --jobs`` sends back (:mod:`.parallel_rows`): each pair's sentence and
    tokens once, not once per config that selects it."""

    shared: dict[str, Any]
    selected: list[tuple[Any, Any, Any]]
    pairs: int


def chunk_columns(analyses: Sequence[LineAnalysis], configs: Sequence[ConfigName], corpus: str,
                  schemas: Sequence[Any]) -> ChunkColumns:
    """The columns of :class:`ChunkColumns` for ``analyses`` (see the module)."""
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

    # the shared columns that some config with rows needs, over all of `analyses`
    types = {field.name: field.type for k, schema in enumerate(schemas) if len(selected[k][0])
             for field in schema if field.name not in _OWN}
    shared: dict[str, Any] = {}
    if types:
        rows = [shared_columns(analysis, corpus) for analysis in analyses]
        values = {key: [row[key] for row in rows] for key in rows[0]}
        values["target_tokens"] = [analysis.target_tokens for analysis in analyses]
        shared = {name: pa.array(values[name], type=type_) for name, type_ in types.items()}
    return ChunkColumns(shared, [selected[k] for k in range(len(configs))], len(analyses))


_OWN = ("src_lang", "tgt_lang", "phenomenon", "distance", "instances")  # a config's own columns (config_columns)


def tables_from(columns: ChunkColumns, configs: Sequence[ConfigName], schemas: Sequence[Any]) -> list[Any]:
    """Each config's table (None: no row) from a chunk's columns: its pairs taken from the shared
    columns (``take``, in Arrow), its own columns added."""
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
