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
    cells: dict[tuple[str, str, str], dict[int | None, int]] = defaultdict(dict)  # {D (None: all): rows}
    configs: dict[tuple[str, str], ConfigName] = {}  # (pair, phenomenon) -> one of its configs
    for name, per_split in sizes.items():
        config = parse_config_name(name)
        configs.setdefault((config.pair, config.phenomenon), config)
        for split, rows in per_split.items():
            cells[(config.pair, config.phenomenon, split)][config.min_distance] = rows
    for (pair, _, split), row in cells.items():  # every table row shows the pair's full-corpus size
        baseline = cells.get((pair, BASELINE, split), {}).get(None)
        if baseline is not None:
            row.setdefault(None, baseline)
    # a distance a phenomenon is built with gets its column even if empty
    distances = sorted({d for config in configs.values() for d in config.distances}
                       | {d for row in cells.values() for d in row if d is not None})
    body = []
    for key in sorted(cells, key=lambda k: (*configs[k[:2]].sort_key()[:3], k[2])):
        built, row = configs[key[:2]].distances, cells[key]
        body.append([*key] + [str(row[d]) if d in row else "0" if d in built else "" for d in [None, *distances]])
    header = ["pair", "phenomenon", "split", "all"] + [f"d{d}" for d in distances]
    return render_table(header, body, markdown=markdown, left=3)
