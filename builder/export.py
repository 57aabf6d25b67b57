"""Writing a challenge-set folder that the Hugging Face Hub accepts as a dataset repository.

Layout: ``data/{config}/{split}-00000-of-00001.parquet`` per config and split, ``README.md`` with
the YAML metadata (``configs`` with ``data_files``, ``dataset_info``, license, language,
task_categories, size_categories) rendered above the card from ``dataset_card.md``, and
``acs_build.json``, the record of what was built from what. Several pairs and corpora go into one
folder: every export re-renders the README from all the Parquet files present.
"""

from __future__ import annotations

import json
import os
import string
from collections import defaultdict
from importlib import resources
from pathlib import Path

import datasets
import pyarrow.parquet as pq
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCardData

from auto_challenge_sets.builder.stage_cache import atomic_write_text
from auto_challenge_sets.configs import DEFAULT_DISTANCE, REORDER, parse_config_name
from auto_challenge_sets.tables import distance_table

BUILD_RECORD = "acs_build.json"
DATA_DIR = "data"


def parquet_path(out_dir: str | os.PathLike[str], config: str, split: str) -> Path:
    return Path(out_dir) / DATA_DIR / config / f"{split}-00000-of-00001.parquet"


def write_split(dataset: datasets.Dataset, out_dir: str | os.PathLike[str], config: str, split: str) -> Path:
    """Write one config's split as Parquet, atomically (a killed run leaves no half file)."""
    path = parquet_path(out_dir, config, split)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    dataset.to_parquet(str(partial))
    os.replace(partial, path)
    return path


def remove_split(out_dir: str | os.PathLike[str], config: str, split: str) -> None:
    path = parquet_path(out_dir, config, split)
    path.unlink(missing_ok=True)
    if path.parent.is_dir() and not any(path.parent.iterdir()):
        path.parent.rmdir()


def read_build_record(out_dir: str | os.PathLike[str]) -> dict:
    path = Path(out_dir) / BUILD_RECORD
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"license": None, "builds": []}


def update_build_record(out_dir: str | os.PathLike[str], build: dict, license: str | None) -> dict:
    """Record one (pair, corpus) build, replacing an earlier record of the same pair and corpus."""
    record = read_build_record(out_dir)
    if license is not None:
        record["license"] = license
    builds = [b for b in record["builds"] if (b["pair"], b["corpus"]) != (build["pair"], build["corpus"])]
    builds.append(build)
    record["builds"] = sorted(builds, key=lambda b: (b["pair"], b["corpus"]))
    atomic_write_text(Path(out_dir) / BUILD_RECORD, json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return record


def scan_folder(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, Path]]:
    """``{config: {split: parquet path}}`` for every Parquet file in the folder."""
    found: dict[str, dict[str, Path]] = defaultdict(dict)
    data = Path(out_dir) / DATA_DIR
    if data.is_dir():
        for config_dir in sorted(data.iterdir()):
            for path in sorted(config_dir.glob("*-00000-of-00001.parquet")):
                found[config_dir.name][path.name.removesuffix("-00000-of-00001.parquet")] = path
    return dict(found)


def config_sort_key(name: str) -> tuple:
    config = parse_config_name(name)
    kind = 0 if config.is_baseline else (2 if config.phenomenon == REORDER else 1)
    return (config.pair, kind, config.phenomenon, config.min_distance or 0)


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return label
    return "10M<n<100M"


def _provenance(record: dict) -> str:
    lines = []
    for build in record["builds"]:
        parts = [f"source `{build['source']}`", f"target `{build['target']}`",
                 f"parser: {build['parser']}", f"aligner: {build.get('aligner') or 'none'}",
                 f"{build['pairs']} pairs of {build['lines']} lines"]
        lines.append(f"- `{build['pair']}`, split `{build['corpus']}`: " + "; ".join(parts))
    lines.append(f"\nBuilt with auto_challenge_sets {record['builds'][-1]['version']}." if record["builds"] else "")
    return "\n".join(lines)


def render_readme(out_dir: str | os.PathLike[str]) -> Path:
    """(Re)write README.md from every Parquet file in the folder and the build record."""
    found = scan_folder(out_dir)
    if not found:
        raise ValueError(f"{out_dir} holds no challenge-set Parquet files")
    record = read_build_record(out_dir)
    names = sorted(found, key=config_sort_key)
    sizes = _sizes(found)

    metadata_configs = MetadataConfigs()
    infos = DatasetInfosDict()
    languages: set[str] = set()

    def add(config_name: str, source_name: str) -> None:
        per_split = found[source_name]
        metadata_configs[config_name] = {"data_files": [
            {"split": split, "path": path.relative_to(out_dir).as_posix()} for split, path in per_split.items()
        ]}
        features = datasets.Features.from_arrow_schema(pq.read_schema(next(iter(per_split.values()))))
        splits = SplitDict()
        for split in per_split:
            splits.add(SplitInfo(name=split, num_examples=sizes[source_name][split]))
        infos[config_name] = DatasetInfo(features=features, splits=splits, config_name=config_name)

    for name in names:
        config = parse_config_name(name)
        languages.update((config.src, config.tgt))
        add(name, name)
        # The short name (no distance) is the paper's default D = 1, over the same files.
        if not config.is_baseline and config.phenomenon != REORDER and config.min_distance == DEFAULT_DISTANCE:
            add(f"{config.pair}.{config.phenomenon}", name)

    total = max(sum(per_split.values()) for per_split in sizes.values())
    card_data = DatasetCardData(
        pretty_name="Long-distance dependency challenge sets for MT",
        license=record.get("license") or "other",
        language=sorted(languages),
        multilinguality="translation",
        task_categories=["translation"],
        size_categories=[size_category(total)],
        tags=["challenge-set", "long-distance-dependencies", "machine-translation-evaluation"],
    )
    metadata_configs.to_dataset_card_data(card_data)
    infos.to_dataset_card_data(card_data)

    example = next((n for n in names if n.endswith(".d3")), names[0])
    body = string.Template(resources.files("auto_challenge_sets.builder").joinpath("dataset_card.md")
                           .read_text(encoding="utf-8")).safe_substitute(
        pretty_name="Long-distance dependency challenge sets for MT",
        size_table=distance_table(sizes, markdown=True),
        example_config=example,
        example_split=next(iter(found[example])),
        provenance=_provenance(record),
        license=record.get("license") or "other",
    )
    path = Path(out_dir) / "README.md"
    atomic_write_text(path, f"---\n{card_data.to_yaml()}\n---\n\n{body}")
    return path


def folder_sizes(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, int]]:
    """``{config: {split: rows}}`` from the Parquet footers (no data is read)."""
    return _sizes(scan_folder(out_dir))


def _sizes(found: dict[str, dict[str, Path]]) -> dict[str, dict[str, int]]:
    return {name: {split: pq.read_metadata(path).num_rows for split, path in found[name].items()}
            for name in sorted(found, key=config_sort_key)}

