"""Writing a build into a challenge-set folder that the Hugging Face Hub accepts as a dataset
repository: one Parquet file per config and split, then the build record and the card.

Each config's rows are drawn from the build's analyses in one pass per config and written with
pyarrow under the config's ``datasets.Features`` (:mod:`auto_challenge_sets.dataset.features`), so
the Parquet files carry the schema metadata ``load_dataset`` reads. (The ``datasets`` builder that
did this before took a JSON round trip and a cache per config: twice the build time for the same
rows.) Every file is written atomically, and the same build writes the same bytes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.builder.pipeline.build import BuildOutput, BuildSpec, build
from auto_challenge_sets.configs import config_sort_key, parse_config_name
from auto_challenge_sets.corpus import ReadReport
from auto_challenge_sets.dataset.card import render_readme
from auto_challenge_sets.dataset.folder_guard import locked_output, prepare_output
from auto_challenge_sets.dataset.layout import parquet_path, scan_folder
from auto_challenge_sets.dataset.record import update_build_record
from auto_challenge_sets.selection import challenge_rows


@dataclass
class BuildResult:
    """What a build wrote: the rows of each config in this corpus, and what the reading policy did."""

    out: Path
    sizes: dict[str, int] = field(default_factory=dict)  # config -> rows in this corpus
    lines: int = 0
    pairs: int = 0
    report: ReadReport = field(default_factory=ReadReport)
    warnings: list[str] = field(default_factory=list)


def write_split(table: Any, out_dir: str | os.PathLike[str], config: str, split: str) -> Path:
    """Write one config's split (a ``pyarrow.Table`` with the config's features) as Parquet with
    ``datasets``' own writer (content-defined chunks and a page index, as the Hub stores them),
    atomically (a killed run leaves no half file)."""
    import datasets
    from datasets.table import InMemoryTable

    path = parquet_path(out_dir, config, split)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        # a fixed fingerprint: datasets would otherwise hash the whole table to name a cache it never uses
        datasets.Dataset(InMemoryTable(table), fingerprint="acs-write-split").to_parquet(str(partial))
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return path


def remove_split(out_dir: str | os.PathLike[str], config: str, split: str) -> None:
    path = parquet_path(out_dir, config, split)
    path.unlink(missing_ok=True)
    if path.parent.is_dir() and not any(path.parent.iterdir()):
        path.parent.rmdir()


def _progress(iterable: Iterable, enabled: bool, **kwargs: Any) -> Iterable:
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, **kwargs)


@contextmanager
def _quiet_datasets() -> Iterator[None]:
    """``datasets``' own bars and logs off: ours is the one that counts configs."""
    import datasets

    was_enabled = datasets.utils.logging.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if was_enabled:
            datasets.enable_progress_bars()


def _write_configs(output: BuildOutput, out: Path, progress: bool) -> dict[str, int]:
    sizes: dict[str, int] = {}
    with _quiet_datasets():
        for name in _progress(output.config_names, progress, desc="writing configs", unit="config"):
            sizes[name] = _write_config(output, out, name)
    return sizes


def _write_config(output: BuildOutput, out: Path, name: str) -> int:
    import pyarrow as pa

    from auto_challenge_sets.dataset.features import features_for

    corpus = output.spec.corpus
    config = parse_config_name(name)
    rows = list(challenge_rows(output.analyses, config, corpus))
    if rows:
        write_split(pa.Table.from_pylist(rows, schema=features_for(config.kind).arrow_schema), out, name, corpus)
    else:
        # datasets cannot load an empty split, so an empty selection is no config (docs/method.md);
        # a stale file from an earlier build of this corpus goes too.
        remove_split(out, name, corpus)
    return len(rows)


def write_build(output: BuildOutput, out: str | os.PathLike[str], license: str | None = None,
                progress: bool = True) -> BuildResult:
    """Write every config of a build into ``out`` (added to what the folder holds), then the build
    record and the card: all or nothing, one build at a time (see :mod:`.folder_guard`)."""
    with locked_output(out) as work:
        sizes = _write_build_into(output, work, license, progress)
    return BuildResult(Path(out), sizes, lines=output.lines, pairs=output.pairs, report=output.report,
                       warnings=list(output.warnings))


def _write_build_into(output: BuildOutput, out: Path, license: str | None, progress: bool) -> dict[str, int]:
    spec = output.spec
    sizes = _write_configs(output, out, progress)
    # A rebuild of this pair and corpus replaces it whole: configs it no longer has (another
    # --aligner, fewer --phenomena) must not keep rows of the earlier build.
    wanted = set(output.config_names)
    for name, splits in scan_folder(out).items():
        if spec.corpus in splits and name not in wanted and parse_config_name(name).pair == spec.pair:
            remove_split(out, name, spec.corpus)
    record = {**output.record, "empty_configs": sorted((name for name, rows in sizes.items() if not rows),
                                                           key=config_sort_key)}
    update_build_record(out, record, license)
    render_readme(out)
    return sizes


def build_into_folder(spec: BuildSpec, out: str | os.PathLike[str], license: str | None = None,
                      progress: bool = True) -> BuildResult:
    """Build one (pair, corpus) and write it into the dataset folder ``out``. A folder this tool
    must not write fails here, before the parse and alignment run."""
    prepare_output(Path(out).absolute())
    return write_build(build(spec, progress=progress), out, license, progress)
