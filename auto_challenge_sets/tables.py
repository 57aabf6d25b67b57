"""Tables as text or Markdown, and the size table in the shape of the paper's Table 3: one row per
pair, phenomenon and split, one column per minimum distance."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from auto_challenge_sets.configs import BASELINE, ConfigName, parse_config_name


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool = False,
                 left: int = 1) -> str:
    """Aligned plain text (the first ``left`` columns flush left, the rest flush right, as numbers
    are) or a Markdown table with the same alignment; ``|`` inside a Markdown cell is escaped."""
    if markdown:
        lines = ["| " + " | ".join(cell.replace("|", "\\|") for cell in header) + " |",
                 "|" + "".join("---|" if i < left else "---:|" for i in range(len(header)))]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(row: Sequence[str]) -> str:
        return "  ".join(v.ljust(w) if i < left else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))).rstrip()

    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def distance_table(sizes: dict[str, dict[str, int]], markdown: bool = False) -> str:
    """``sizes`` is ``{config: {split: rows}}``. A config that is not there (empty configs are not
    exported) shows as 0 in the distance columns its phenomenon is built with."""
    cells: dict[tuple[str, str, str], dict[int | None, int]] = defaultdict(dict)
    configs: dict[tuple[str, str], ConfigName] = {}  # (pair, phenomenon) -> one of its configs
    distances: set[int] = set()
    for name, per_split in sizes.items():
        config = parse_config_name(name)
        configs.setdefault((config.pair, config.phenomenon), config)
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
    for config in configs.values():  # a distance a phenomenon is built with gets its column even if empty
        distances.update(config.distances)
    columns: list[int | None] = [None] + sorted(distances)
    header = ["pair", "phenomenon", "split", "all"] + [f"d{d}" for d in sorted(distances)]
    body = []
    for key in sorted(cells, key=lambda k: (*configs[k[0], k[1]].sort_key()[:3], k[2])):
        built = configs[key[0], key[1]].distances
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
    return render_table(header, body, markdown=markdown, left=3)
