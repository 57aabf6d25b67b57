"""The ``datasets`` builder that materializes challenge-set configs from analysed corpora.

``datasets`` >= 4 no longer runs loading scripts, so this class is used from Python: instantiate
it with a config name and the analysis files (one per split), ``download_and_prepare()``, then
``as_dataset()``; :mod:`auto_challenge_sets.dataset.writer` writes the result as Parquet.
"""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from auto_challenge_sets.citation import CHOSHEN_ABEND_2019
from auto_challenge_sets.configs import KIND_REORDER, parse_config_name
from auto_challenge_sets.selection import challenge_rows, read_analyses

_CITATION = CHOSHEN_ABEND_2019

_LEXICAL_INSTANCE = {
    "dependent": datasets.Value("int32"),
    "head": datasets.Value("int32"),
    "dependent_form": datasets.Value("string"),
    "head_form": datasets.Value("string"),
    "distance": datasets.Value("int32"),
}
_REORDER_INSTANCE = {
    "source_index": datasets.Value("int32"),
    "target_index": datasets.Value("int32"),
    "source_form": datasets.Value("string"),
    "target_form": datasets.Value("string"),
    "distance": datasets.Value("int32"),
}


def features_for(kind: str) -> datasets.Features:
    """The row schema of a config: lexical and baseline rows share it; reorder rows add
    ``target_tokens`` and carry alignment instances."""
    columns = {
        "id": datasets.Value("string"),
        "corpus": datasets.Value("string"),
        "line": datasets.Value("int32"),
        "src_lang": datasets.Value("string"),
        "tgt_lang": datasets.Value("string"),
        "source": datasets.Value("string"),
        "reference": datasets.Value("string"),
        "source_tokens": [datasets.Value("string")],
        "length": datasets.Value("int32"),
        "phenomenon": datasets.Value("string"),
        "distance": datasets.Value("int32"),
    }
    if kind == KIND_REORDER:
        columns["target_tokens"] = [datasets.Value("string")]
        columns["instances"] = [_REORDER_INSTANCE]
    else:
        columns["instances"] = [_LEXICAL_INSTANCE]
    return datasets.Features(columns)


@dataclass
class ChallengeSetConfig(datasets.BuilderConfig):
    """One challenge config (its ``name`` is the config name) over analysed corpora.

    ``analyses`` pairs each split (corpus name) with the JSON-lines analysis file of that corpus.
    """

    analyses: tuple[tuple[str, str], ...] = ()


class ChallengeSets(datasets.GeneratorBasedBuilder):
    BUILDER_CONFIG_CLASS = ChallengeSetConfig
    VERSION = datasets.Version("1.0.0")

    def _info(self) -> datasets.DatasetInfo:
        config = parse_config_name(self.config.name)
        return datasets.DatasetInfo(
            description=f"Challenge set {self.config.name}: sentence pairs selected by the "
            f"'{config.phenomenon}' rule (Choshen & Abend, 2019).",
            features=features_for(config.kind),
            citation=_CITATION,
        )

    def _split_generators(self, dl_manager: datasets.DownloadManager) -> list[datasets.SplitGenerator]:
        return [
            datasets.SplitGenerator(name=split, gen_kwargs={"split": split, "path": path})
            for split, path in self.config.analyses
        ]

    def _generate_examples(self, split: str, path: str):
        config = parse_config_name(self.config.name)
        for row in challenge_rows(read_analyses(path), config, split):
            yield row["id"], row
