"""The dataset card: ``README.md`` with the YAML metadata the Hub reads (``configs`` with
``data_files``, ``dataset_info``, license, language, task_categories, size_categories) above the
card rendered from ``dataset_card.md``. Several pairs and corpora go into one folder: the card is
rendered anew from all the Parquet files present and the build record.
"""

from __future__ import annotations

import os
import string
from importlib import resources
from pathlib import Path

from auto_challenge_sets.configs import DEFAULT_DISTANCE, KIND_LEXICAL, config_sort_key, parse_config_name
from auto_challenge_sets.dataset.layout import README, scan_folder, sizes_of
from auto_challenge_sets.dataset.record import folder_license, read_build_record
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.tables import distance_table
from auto_challenge_sets.text_io import atomic_write_text

PRETTY_NAME = "Long-distance dependency challenge sets for MT"


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return label
    return "10M<n<100M"


def _provenance(record: dict) -> str:
    lines = []
    for build in record["builds"]:
        parts = [f"source `{build.get('source', '?')}`", f"target `{build.get('target', '?')}`",
                 f"parser: {build.get('parser', '?')}", f"aligner: {build.get('aligner') or 'none'}",
                 f"{build.get('pairs', '?')} pairs of {build['lines']} lines",
                 f"license: {build.get('license') or record.get('license') or 'other'}"]
        lines.append(f"- `{build['pair']}`, split `{build['corpus']}`: " + "; ".join(parts))
    version = record["builds"][-1].get("version", "?") if record["builds"] else None
    lines.append(f"\nBuilt with auto_challenge_sets {version}." if version else "")
    return "\n".join(lines)


def render_readme(out_dir: str | os.PathLike[str]) -> Path:
    """(Re)write README.md from every Parquet file in the folder and the build record."""
    import datasets
    import pyarrow as pa
    import pyarrow.parquet as pq
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.splits import SplitDict, SplitInfo
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCardData

    found = scan_folder(out_dir)
    if not found:
        raise InputError("holds no challenge-set Parquet files: the build selected no sentence pair", out_dir)
    record = read_build_record(out_dir)
    names = sorted(found, key=config_sort_key)
    sizes = sizes_of(found)

    metadata_configs = MetadataConfigs()
    infos = DatasetInfosDict()
    languages: set[str] = set()

    def add(config_name: str, source_name: str) -> None:
        per_split = found[source_name]
        metadata_configs[config_name] = {"data_files": [
            {"split": split, "path": path.relative_to(out_dir).as_posix()} for split, path in per_split.items()
        ]}
        first = next(iter(per_split.values()))
        try:
            features = datasets.Features.from_arrow_schema(pq.read_schema(first))
        except (pa.ArrowException, OSError) as error:
            raise InputError(f"not a readable Parquet file ({str(error).splitlines()[0][:120]})", first) from None
        splits = SplitDict()
        for split in per_split:
            splits.add(SplitInfo(name=split, num_examples=sizes[source_name][split]))
        infos[config_name] = DatasetInfo(features=features, splits=splits, config_name=config_name)

    for name in names:
        config = parse_config_name(name)
        languages.update((config.src, config.tgt))
        add(name, name)
        # The short name (no distance) is the paper's default D = 1, over the same files.
        if config.kind == KIND_LEXICAL and config.min_distance == DEFAULT_DISTANCE:
            add(f"{config.pair}.{config.phenomenon}", name)

    total = max(sum(per_split.values()) for per_split in sizes.values())
    license, per_split_license = folder_license(record["builds"], record.get("license"))
    extra = {}
    if per_split_license:  # the Hub's way to say "several licenses": other + a name and details
        extra = {"license_name": "mixed",
                 "license_details": "; ".join(f"{split}: {lic}" for split, lic in sorted(per_split_license.items()))}
    card_data = DatasetCardData(
        pretty_name=PRETTY_NAME,
        license=license,
        **extra,
        language=sorted(languages),
        multilinguality="translation",
        task_categories=["translation"],
        size_categories=[size_category(total)],
        tags=["challenge-set", "long-distance-dependencies", "machine-translation-evaluation"],
    )
    metadata_configs.to_dataset_card_data(card_data)
    infos.to_dataset_card_data(card_data)

    example = next((n for n in names if n.endswith(".d3")), names[0])
    body = string.Template(resources.files("auto_challenge_sets.dataset").joinpath("dataset_card.md")
                           .read_text(encoding="utf-8")).safe_substitute(
        pretty_name=PRETTY_NAME,
        size_table=distance_table(sizes, markdown=True),
        example_config=example,
        example_split=next(iter(found[example])),
        provenance=_provenance(record),
        license=license if not per_split_license else extra["license_details"],
    )
    path = Path(out_dir) / README
    atomic_write_text(path, f"---\n{card_data.to_yaml()}\n---\n\n{body}")
    return path
