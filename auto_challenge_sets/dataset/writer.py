"""Writing a build into a challenge-set folder that the Hugging Face Hub accepts as a dataset
repository: the Parquet files of each config and split, then the build record and the card.

The analyses stream, :data:`CHUNK` pairs at a time, into one :class:`ConfigSink` per config: row
groups of :data:`ROW_GROUP` rows, a new file every :data:`FILE_ROWS` rows (a Parquet writer holds
every row group's metadata until its file closes), so memory does not grow with the corpus. The
files are those ``Dataset.to_parquet`` writes (the config's ``datasets.Features`` as schema, its
writer settings) and named as ``push_to_hub`` names its shards. Row groups and files are cut by
row count alone, so the same build writes the same bytes. Every file is written as ``.partial``
and renamed when its split is complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from auto_challenge_sets.configs import config_sort_key, parse_config_name
from auto_challenge_sets.dataset.arrow_rows import config_tables
from auto_challenge_sets.dataset.card import render_readme
from auto_challenge_sets.dataset.card_blocks import read_card_segments
from auto_challenge_sets.dataset.folder_guard import check_output_folder
from auto_challenge_sets.dataset.integrity import FILES, describe_files
from auto_challenge_sets.dataset.layout import README, config_folder, scan_folder, shard_path, split_files
from auto_challenge_sets.dataset.parallel_rows import parallel_tables
from auto_challenge_sets.dataset.record import read_build_record, update_build_record, write_build_record
from auto_challenge_sets.dataset.rule_record import RuleConflict, check_rule_definitions, forget_replaced
from auto_challenge_sets.folder_swap import prepare_folder, swapped_folder
from auto_challenge_sets.formats.corpus import ReadReport
from auto_challenge_sets.pipeline.run_build import BuildOutput, BuildSpec, build
from auto_challenge_sets.pipeline.timings import stage


@dataclass
class BuildResult:
    """What a build wrote: the rows of each config in this corpus, and what the reading policy did."""

    out: Path
    sizes: dict[str, int] = field(default_factory=dict)  # config -> rows in this corpus
    lines: int = 0
    pairs: int = 0
    report: ReadReport = field(default_factory=ReadReport)
    warnings: list[str] = field(default_factory=list)


CHUNK = 2_000  # analysed pairs per step of the stream
ROW_GROUP = 2_000  # rows per Parquet row group (at most one unfinished group per config in memory)
FILE_ROWS = 25 * ROW_GROUP  # rows per Parquet file of a split (whole row groups: see the module)


class ConfigSink:
    """One config's split, written as rows arrive: its first file opened at its first row (an
    empty selection writes no file), all of them put in place by :meth:`close`."""

    def __init__(self, out_dir: str | os.PathLike[str], config: str, split: str, features: Any):
        self.where = (out_dir, config, split)
        self.features = features
        self.schema = features.arrow_schema
        self.pending: list[Any] = []  # Arrow tables of the unfinished row group
        self.pending_rows = 0
        self.rows = 0
        self.partials: list[Path] = []  # the files written so far, the last one open while _writer is
        self._writer: Any = None
        self._file_rows = 0  # rows in the open file

    def _open(self) -> Any:
        import pyarrow.parquet as pq
        from datasets import config as datasets_config

        out_dir, config, split = self.where
        folder = config_folder(out_dir, config)
        folder.mkdir(parents=True, exist_ok=True)
        self.partials.append(folder / f"{split}-{len(self.partials):05d}.{os.getpid()}.partial")
        columns = list(self.features)
        # datasets' ParquetWriter settings and metadata: byte for byte the file `Dataset.to_parquet`
        # writes for the same row groups (test_writer.py)
        writer = pq.ParquetWriter(str(self.partials[-1]), schema=self.schema,
                                  use_content_defined_chunking=datasets_config.DEFAULT_CDC_OPTIONS,
                                  write_page_index=True, compression=dict.fromkeys(columns, "snappy"),
                                  use_dictionary=columns)
        writer.add_key_value_metadata({"content_defined_chunking": json.dumps(datasets_config.DEFAULT_CDC_OPTIONS)})
        return writer

    def add(self, table: Any) -> None:
        """Append rows: an Arrow table with the config's schema (None or empty: nothing)."""
        if table is None or not table.num_rows:
            return
        self.pending.append(table)
        self.pending_rows += table.num_rows
        self.rows += table.num_rows
        while self.pending_rows >= ROW_GROUP:
            self._flush(ROW_GROUP)

    def _flush(self, size: int) -> None:
        import pyarrow as pa

        table = pa.concat_tables(self.pending)
        if self._writer is None:
            self._writer = self._open()
        self._writer.write_table(table.slice(0, size), row_group_size=size)
        self._file_rows += size
        if self._file_rows >= FILE_ROWS:
            self._close_file()
        rest = table.slice(size)
        self.pending = [rest] if rest.num_rows else []
        self.pending_rows = rest.num_rows

    def _close_file(self) -> None:
        # dropped, not only closed: a closed writer still holds its file's metadata
        self._writer.close()
        self._writer, self._file_rows = None, 0

    def close(self) -> int:
        """Finish the files and put them in place, replacing this split's files of an earlier build
        (or remove those when no row came); the number of rows."""
        if self.pending_rows:
            self._flush(self.pending_rows)
        if self._writer is not None:
            self._close_file()
        if not self.partials:
            # datasets cannot load an empty split, so an empty selection is no config (docs/method.md);
            # a stale file from an earlier build of this corpus goes too.
            remove_split(*self.where)
            return 0
        count = len(self.partials)
        final = [shard_path(*self.where, index, count) for index in range(count)]
        for stale in set(split_files(*self.where)) - set(final):
            stale.unlink()
        for partial, path in zip(self.partials, final):
            try:
                os.replace(partial, path)
            except OSError as error:  # name the file in the way (a folder there), not the temporary one
                raise type(error)(error.errno, error.strerror, str(path)) from None
        return self.rows

    def abort(self) -> None:
        if self._writer is not None:
            self._close_file()
        for partial in self.partials:
            partial.unlink(missing_ok=True)


def remove_split(out_dir: str | os.PathLike[str], config: str, split: str) -> None:
    for path in split_files(out_dir, config, split):
        path.unlink()
    folder = config_folder(out_dir, config)
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    items = iter(items)
    while chunk := list(islice(items, size)):
        yield chunk


def _write_configs(output: BuildOutput, out: Path) -> dict[str, int]:
    """Every config of the build, from one pass over its analyses (see the module)."""
    import pyarrow as pa

    from auto_challenge_sets.dataset.features import features_for

    corpus = output.spec.corpus
    configs = [parse_config_name(name) for name in output.config_names]
    sinks = [ConfigSink(out, name, corpus, features_for(config.kind))
             for name, config in zip(output.config_names, configs)]
    pool = pa.default_memory_pool()

    def add(tables: list[Any]) -> None:
        for sink, table in zip(sinks, tables):
            sink.add(table)
        # the freed memory back to the system (with the system allocator `acs build` sets, malloc_trim)
        pool.release_unused()

    # The sinks write in a thread of their own, one chunk behind and in order (the same bytes):
    # Arrow encodes without the GIL while this thread analyses the next chunk.
    schemas = [sink.schema for sink in sinks]
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="acs-parquet") as writer:
        written: Future | None = None
        try:
            for tables in _chunk_tables(output, configs, schemas):
                if written is not None:
                    written.result()
                written = writer.submit(add, tables)
            if written is not None:
                written.result()
        except BaseException:
            if written is not None:
                wait([written])
            for sink in sinks:
                sink.abort()
            raise
    return {name: sink.close() for name, sink in zip(output.config_names, sinks)}


def _chunk_tables(output: BuildOutput, configs: list[Any], schemas: list[Any]) -> Iterator[list[Any]]:
    """Each chunk's table of each config, in order: made on the build's worker processes
    (:mod:`.parallel_rows`, ``--jobs N``), else here, :data:`CHUNK` analysed pairs at a time."""
    tables = parallel_tables(output, configs, schemas, CHUNK)
    if tables is not None:
        return tables
    return (config_tables(chunk, configs, output.spec.corpus, schemas) for chunk in _chunks(output.analyses, CHUNK))


def write_build(output: BuildOutput, out: str | os.PathLike[str], license: str | None = None) -> BuildResult:
    """Write every config of a build into ``out`` (added to what the folder holds), then the build
    record and the card: all or nothing, one build at a time (:mod:`auto_challenge_sets.folder_swap`)."""
    with swapped_folder(out, check_output_folder, keep=True) as work:
        sizes = _write_build_into(output, work, license)
    return BuildResult(Path(out), sizes, lines=output.lines, pairs=output.pairs, report=output.report,
                       warnings=list(output.warnings))


def _write_build_into(output: BuildOutput, out: Path, license: str | None) -> dict[str, int]:
    spec = output.spec
    conflicts = _rule_conflicts(spec, out)  # again under the lock: another build may have come between
    with stage("select and write", unit="rows") as timed:
        sizes = _write_configs(output, out)
        if timed is not None:
            timed.count = sum(sizes.values())
    # A rebuild of this pair and corpus replaces it whole: configs it no longer has (another
    # --aligner, fewer --phenomena) must not keep rows of the earlier build.
    wanted = set(output.config_names)
    for name, splits in scan_folder(out).items():
        if spec.corpus in splits and name not in wanted and parse_config_name(name).pair == spec.pair:
            remove_split(out, name, spec.corpus)
    _drop_replaced(out, conflicts)
    with stage("record and card", len(sizes), "configs"):  # the files' sha256 among it
        record = {**output.record, "empty_configs": sorted((name for name, rows in sizes.items() if not rows),
                                                               key=config_sort_key),
                  FILES: describe_files(out, spec.pair, spec.corpus)}
        update_build_record(out, record, license)
        render_readme(out)
    return sizes


def _rule_conflicts(spec: BuildSpec, out: str | os.PathLike[str]) -> list[RuleConflict]:
    """The folder's rules this build replaces (:mod:`.rule_record`); any other conflict is an error."""
    return check_rule_definitions(read_build_record(out), spec.pair, spec.corpus, spec.user_rules(),
                                  spec.replace_rules)


def _drop_replaced(out: Path, conflicts: list[RuleConflict]) -> None:
    """The replaced rules' configs lose the other splits, and those builds' records the rules."""
    if not conflicts:
        return
    for name in scan_folder(out):
        config = parse_config_name(name)
        for conflict in conflicts:
            if (config.pair, config.phenomenon) == (conflict.pair, conflict.name):
                remove_split(out, name, conflict.corpus)
    write_build_record(out, forget_replaced(read_build_record(out), conflicts))


def build_into_folder(spec: BuildSpec, out: str | os.PathLike[str], license: str | None = None,
                      progress: bool = True) -> BuildResult:
    """Build one (pair, corpus) and write it into the dataset folder ``out``. A folder this tool
    must not write fails here, before the parse and alignment run."""
    prepare_folder(Path(out).absolute(), check_output_folder)
    _rule_conflicts(spec, out)
    read_card_segments(Path(out) / README)  # a card whose markers are broken fails here, not after the work
    return write_build(build(spec, progress=progress), out, license)
