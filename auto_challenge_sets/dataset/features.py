"""The row schema of the configs as ``datasets.Features``: the Parquet files carry it in their
``huggingface`` schema metadata, so ``load_dataset`` reads the same types everywhere.
"""

from __future__ import annotations

import datasets

from auto_challenge_sets.configs import KIND_REORDER

_LEXICAL_INSTANCE = {
    "dependent": datasets.Value("int32"),
    "head": datasets.Value("int32"),
    "dependent_form": datasets.Value("string"),
    "head_form": datasets.Value("string"),
    "distance": datasets.Value("int32"),
    "content_distance": datasets.Value("int32"),
}
_REORDER_INSTANCE = {
    "source_index": datasets.Value("int32"),
    "target_index": datasets.Value("int32"),
    "source_form": datasets.Value("string"),
    "target_form": datasets.Value("string"),
    "distance": datasets.Value("int32"),
}


def features_for(kind: str) -> datasets.Features:
    """The row schema of a config: reorder rows add ``target_tokens`` and carry alignment
    instances. ``alignment``: the source-reference links as a Pharaoh line (null without an
    alignment); ``source_upos``: the parse's UPOS of each source token."""
    columns = {
        "id": datasets.Value("string"),
        "corpus": datasets.Value("string"),
        "line": datasets.Value("int32"),
        "src_lang": datasets.Value("string"),
        "tgt_lang": datasets.Value("string"),
        "source": datasets.Value("string"),
        "reference": datasets.Value("string"),
        "source_tokens": [datasets.Value("string")],
        "source_upos": [datasets.Value("string")],
        "alignment": datasets.Value("string"),
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
