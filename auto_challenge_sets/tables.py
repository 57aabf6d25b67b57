"""Size tables in the shape of the paper's Table 3: one row per pair, phenomenon and split, one
column per minimum distance."""

from __future__ import annotations

from collections import defaultdict

from auto_challenge_sets.configs import (
    BASELINE,
    LEXICAL_DISTANCES,
    REORDER,
    REORDER_DISTANCES,
    parse_config_name,
)


def distance_table(sizes: dict[str, dict[str, int]], markdown: bool = False) -> str:
    """``sizes`` is ``{config: {split: rows}}``. A config that is not there (empty configs are not
    exported) shows as 0 in the distance columns its phenomenon is built with."""
    cells: dict[tuple[str, str, str], dict[int | None, int]] = defaultdict(dict)
    distances: set[int] = set()
    for name, per_split in sizes.items():
        config = parse_config_name(name)
        for split, rows in per_split.items():
            cells[(config.pair, config.phenomenon, split)][config.min_distance] = rows
            if config.min_distance is not None:
                distances.add(config.min_distance)
    pairs_splits = {(pair, split) for pair, _, split in cells}
    for pair, split in pairs_splits:  # every table row shows the pair's full-corpus size
        baseline = cells.get((pair, BASELINE, split), {}).get(None)
        for key, row in cells.items():
            if key[0] == pair and key[2] == split and baseline is not None:
                row.setdefault(None, baseline)
    for _, phenomenon, _ in cells:  # a distance a phenomenon is built with gets its column even if empty
        if phenomenon != BASELINE:
            distances.update(REORDER_DISTANCES if phenomenon == REORDER else LEXICAL_DISTANCES)
    columns: list[int | None] = [None] + sorted(distances)
    header = ["pair", "phenomenon", "split", "all"] + [f"d{d}" for d in sorted(distances)]
    body = []
    for key in sorted(cells, key=lambda k: (k[0], k[1] != BASELINE, k[1] == REORDER, k[1], k[2])):
        built = REORDER_DISTANCES if key[1] == REORDER else (() if key[1] == BASELINE else LEXICAL_DISTANCES)
        row = cells[key]
        values = []
        for column in columns:
            if column in row:
                values.append(str(row[column]))
            elif column in built:
                values.append("0")
            else:
                values.append("")
        body.append([key[0], key[1], key[2]] + values)
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|---|---|---|" + "---:|" * (len(header) - 3)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
    def fmt(row: list[str]) -> str:
        return "  ".join(v.ljust(w) if i < 3 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in body])
