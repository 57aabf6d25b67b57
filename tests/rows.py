"""A config's rows as dicts, one pair at a time: what the writer's Arrow columns
(auto_challenge_sets.dataset.arrow_rows) must equal, converted by Table.from_pylist."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from auto_challenge_sets.configs import KIND_REORDER, ConfigName
from auto_challenge_sets.selection import LineAnalysis, config_columns, select, shared_columns


def rows_by_config(analyses: Iterable[LineAnalysis], configs: Sequence[ConfigName],
                   corpus: str) -> Iterator[list[list[dict]]]:
    """For each analysed pair, its rows of each config (an empty list where it is not selected)."""
    for analysis in analyses:
        out: list[list[dict]] = []
        for config, selection in zip(configs, select([analysis], configs, corpus)):
            if not selection.indices:
                out.append([])
                continue
            row = {**shared_columns(analysis, corpus), **config_columns(config), "distance": selection.distances[0],
                   "instances": list(selection.instances[0])}
            if config.kind == KIND_REORDER:
                row["target_tokens"] = analysis.target_tokens
            out.append([row])
        yield out


def challenge_rows(analyses: Iterable[LineAnalysis], config: ConfigName, corpus: str) -> Iterator[dict]:
    """The rows of one config."""
    for rows in rows_by_config(analyses, [config], corpus):
        yield from rows[0]
