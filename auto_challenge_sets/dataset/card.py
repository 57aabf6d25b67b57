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
from typing import Any

from auto_challenge_sets.configs import KIND_LEXICAL, config_sort_key, parse_config_name
from auto_challenge_sets.dataset.card_blocks import merge_body, read_card_segments, read_segments
from auto_challenge_sets.dataset.layout import (
    LICENSE_FILE,
    README,
    parquet_stats,
    scan_folder,
    unreadable_parquet,
)
from auto_challenge_sets.dataset.record import empty_selections, folder_license, read_build_record
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import atomic_write_text
from auto_challenge_sets.phenomena.profiles import ANY, PROFILES, profile_languages
from auto_challenge_sets.phenomena.registry import BUILTIN, LANGUAGE_RULES, PHENOMENA
from auto_challenge_sets.pipeline.build_provenance import summary_line, weak_alignment
from auto_challenge_sets.tables import distance_table

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
        for name, description in sorted(build.get("user_rules", {}).items()):
            lines.append(f"  - phenomenon `{name}`, added by the user: {description}")
        lines += [f"  - parse: {note}" for note in build.get("parse_notes", ())]
        provenance = build.get("provenance")
        lines.append(f"  - made with: {summary_line(provenance)}")  # models by name and sha256, versions
        if (weak := weak_alignment((provenance or {}).get("aligner"))) is not None:
            lines.append(f"  - warning: {weak}; the `reorder` configs and the `alignment` column rest on these links")
    version = record["builds"][-1].get("version", "?") if record["builds"] else None
    lines.append(f"\nBuilt with auto_challenge_sets {version}." if version else "")
    return "\n".join(lines)


def default_config(names: list[str]) -> str | None:
    """The config the Hub viewer and a nameless ``load_dataset`` open: the short name (D = 1) of the
    first lexical phenomenon of the first pair, else of its reorder config."""
    shorts = []
    for name in names:
        config = parse_config_name(name)
        if config.default_distance is not None and config.min_distance == config.default_distance:
            shorts.append((config.pair, config.kind != KIND_LEXICAL, config.phenomenon))
    if not shorts:
        return None
    pair, _, phenomenon = min(shorts)
    return f"{pair}.{phenomenon}"


def yaml_order(name: str) -> tuple:
    """Where a config goes in the card's lists: :func:`config_sort_key` (d5 before d10), the short
    name just before the config it aliases."""
    return config_sort_key(name), name.count(".")


def _in_config_order(card_data: Any) -> None:
    """``configs`` and ``dataset_info`` in config order (``datasets`` sorts them as text, d10 before d5)."""
    for field in ("configs", "dataset_info"):
        entries = card_data.get(field)
        if isinstance(entries, list):
            card_data[field] = sorted(entries, key=lambda entry: yaml_order(entry["config_name"]))


def _licenses(record: dict, out_dir: Path) -> tuple[str, dict[str, str]]:
    """The card's license fields; several licenses also write ``LICENSE.md``, which the card links."""
    license, per_split = folder_license(record["builds"], record.get("license"))
    link = out_dir / LICENSE_FILE
    if not per_split:
        link.unlink(missing_ok=True)
        return license, {}
    lines = ["# Licenses", "", "The splits of this dataset come from corpora under different licenses:", ""]
    lines += [f"- `{split}`: {lic}" for split, lic in sorted(per_split.items())]
    atomic_write_text(link, "\n".join(lines) + "\n")
    return license, {"license_name": "mixed", "license_link": LICENSE_FILE,
                     "license_details": "; ".join(f"{split}: {lic}" for split, lic in sorted(per_split.items()))}


def _empty_note(empty: dict[str, dict[str, int]]) -> str:
    if not empty:
        return "Every selection of the builds below has rows."
    listed = ", ".join(f"`{name}` ({', '.join(sorted(splits))})"
                       for name, splits in sorted(empty.items(), key=lambda item: config_sort_key(item[0])))
    return ("A selection with no sentence pair is not a config, since `datasets` cannot load an empty "
            f"split; the table shows it as 0. Empty here: {listed}.")


def phenomenon_table() -> str:
    """The card's table of the built-in phenomena, from the registry and the language profiles."""
    lines = ["| phenomenon | rule (on the source-side UD tree or the alignment) | source languages | distance |",
             "|---|---|---|---|"]
    for name in (name for name in PHENOMENA if name in BUILTIN):
        phenomenon = PHENOMENA[name]
        if phenomenon.rule is None:
            languages, distance = "any", f"the score (D = {', '.join(map(str, phenomenon.distances))})"
        else:
            own = sorted(language for named, language in LANGUAGE_RULES if named == name)
            languages = ", ".join(profile_languages(name) + (["any other"] if name in PROFILES[ANY] else []))
            languages += f" (own rule: {', '.join(own)})" if own else ""
            distance = "words between the word and its head"
        rule = phenomenon.description.replace("|", r"\|")  # a table cell
        lines.append(f"| `{name}` | {rule} | {languages} | {distance} |")
    return "\n".join(lines)


def _included(name: str) -> str:
    """A measured table the card includes (written by a script under studies/)."""
    return resources.files("auto_challenge_sets.dataset").joinpath(name).read_text(encoding="utf-8")


def _precision_rows(sources: set[str], name: str = "extraction_precision.md") -> str:
    """A judged table, precision or recall (studies/language_precision.py, language_recall.py), cut
    to the rows of the build's source languages, or a line saying none was measured."""
    lead, _, table = _included(name).partition("\n\n")
    lines = table.strip().splitlines()
    rows = [line for line in lines[2:] if line.split("|")[1].strip() in sources]
    if not rows:
        return f"No phenomenon of {', '.join(sorted(sources))} as a source language was judged on PUD yet.\n"
    return lead + "\n\n" + "\n".join(lines[:2] + rows) + "\n"


def _data_path(files: list[Path], out_dir: str | os.PathLike[str]) -> str | list[str]:
    """A split's ``data_files`` path: its file, or the list of its files in order."""
    paths = [path.relative_to(out_dir).as_posix() for path in files]
    return paths[0] if len(paths) == 1 else paths


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
    stats = {name: {split: parquet_stats(files) for split, files in per_split.items()}
             for name, per_split in found.items()}
    sizes = {name: {split: rows for split, (rows, _) in stats[name].items()} for name in names}
    default = default_config(names)

    metadata_configs = MetadataConfigs()
    infos = DatasetInfosDict()
    languages: set[str] = set()
    sources: set[str] = set()  # the source languages, whose phenomena's judged precision the card shows

    def add(config_name: str, source_name: str) -> None:
        per_split = found[source_name]
        entry: dict = {"data_files": [{"split": split, "path": _data_path(files, out_dir)}
                                      for split, files in per_split.items()]}
        if config_name == default:
            entry["default"] = True
        metadata_configs[config_name] = entry
        first = next(iter(per_split.values()))[0]
        try:
            features = datasets.Features.from_arrow_schema(pq.read_schema(first))
        except (pa.ArrowException, OSError) as error:
            raise unreadable_parquet(error, first) from None
        splits = SplitDict()
        for split, (rows, num_bytes) in stats[source_name].items():
            splits.add(SplitInfo(name=split, num_examples=rows, num_bytes=num_bytes))
        infos[config_name] = DatasetInfo(
            features=features, splits=splits, config_name=config_name,
            download_size=sum(path.stat().st_size for files in per_split.values() for path in files),
            dataset_size=sum(num_bytes for _, num_bytes in stats[source_name].values()))

    for name in names:
        config = parse_config_name(name)
        languages.update((config.src, config.tgt))
        sources.add(config.src)
        add(name, name)
        # The short name is the kind's default D (lexical 1, reorder 5), over the same files.
        if config.default_distance is not None and config.min_distance == config.default_distance:
            add(f"{config.pair}.{config.phenomenon}", name)

    total = max(sum(per_split.values()) for per_split in sizes.values())
    license, extra = _licenses(record, Path(out_dir))
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
    _in_config_order(card_data)

    empty = empty_selections(record)
    example = next((n for n in names if n.endswith(".d3")), names[0])
    body = string.Template(resources.files("auto_challenge_sets.dataset").joinpath("dataset_card.md")
                           .read_text(encoding="utf-8")).safe_substitute(
        pretty_name=PRETTY_NAME,
        phenomenon_table=phenomenon_table(),
        size_table=distance_table({**empty, **sizes}, markdown=True),
        empty_note=_empty_note(empty),
        default_config=f"`{default}`" if default else "none (no config has the default D)",
        extraction_quality=_included("extraction_quality.md"),
        extraction_precision=_precision_rows(sources),
        extraction_recall=_precision_rows(sources, "extraction_recall.md"),
        reorder_quality=_included("reorder_quality.md"),
        example_config=example,
        example_split=next(iter(found[example])),
        provenance=_provenance(record),
        license=license if not extra else extra["license_details"],
    )
    path = Path(out_dir) / README
    # the user's text around the generated blocks is kept (card_blocks); the header is ours whole
    merged = merge_body(read_card_segments(path), read_segments(f"\n{body}"))
    atomic_write_text(path, f"---\n{card_data.to_yaml()}\n---\n{merged}")
    return path
