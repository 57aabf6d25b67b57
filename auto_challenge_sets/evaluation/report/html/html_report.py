"""``index.html``: the run as one self-contained page that works offline from ``file://``: inline CSS,
JavaScript and figures, each section's data, and the first :data:`INLINE_ROWS` sentences of each
config; the rest in ``sentences/*.js`` beside it, loaded on demand with ``<script>`` tags (Chromium
refuses ``fetch`` of ``file://`` URLs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auto_challenge_sets.evaluation.page_sentences import Sentences
from auto_challenge_sets.evaluation.report.cells import family_header, family_size
from auto_challenge_sets.evaluation.report.figures import by_kind, draw
from auto_challenge_sets.evaluation.report.html.environment import environment
from auto_challenge_sets.evaluation.report.plots import SvgPlot
from auto_challenge_sets.evaluation.report.sections import SECTIONS
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.pipeline.timings import stage
from auto_challenge_sets.scoring.length_baseline import DEGENERATE_WIDENED_SHARE

INDEX = "index.html"
SIDECAR_DIR = "sentences"
# the sidecars' names, fields in braces (the --out check reads them)
LINES_SIDECAR, CONFIG_SIDECAR = SIDECAR_DIR + "/lines-{chunk:05d}.js", SIDECAR_DIR + "/{config}.js"
PAGE_NAMES = (INDEX, LINES_SIDECAR, CONFIG_SIDECAR)
INLINE_ROWS = 50  # rows of a config in the page itself; a 3,000-row config must not make a 50 MB page
CHUNK_LINES = 100  # corpus lines per sidecar of words
CONFIGS_GLOBAL, TEXTS_GLOBAL = "ACS_SENTENCES", "ACS_TEXTS"  # what the sidecars add to (report.js reads them)


def _sentence_data(sentences: Sentences | None) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """What the page holds of the sentences (each config's first INLINE_ROWS rows and their words), and
    the sidecars (path -> what it adds to which global): each config's other rows, and the words of
    the other lines, stored once in files of CHUNK_LINES lines."""
    if sentences is None:
        return None, {}
    configs, sidecars, inline = {}, {}, set()
    for found in sentences.configs.values():
        inline.update(row["line"] for row in found.rows[:INLINE_ROWS])
    for name, found in sentences.configs.items():
        head, tail = found.rows[:INLINE_ROWS], found.rows[INLINE_ROWS:]
        sidecar = CONFIG_SIDECAR.format(config=name) if tail else None
        configs[name] = {"total": len(found.rows), "rows": head, "sidecar": sidecar, "verdicts": found.verdicts,
                         "checked": [sum("c" in r for r in found.rows), sum(bool(r.get("c")) for r in found.rows)]}
        if sidecar:
            chunks = sorted({LINES_SIDECAR.format(chunk=(r["line"] - 1) // CHUNK_LINES) for r in tail if r["line"] not in inline})
            sidecars[sidecar] = {"global": CONFIGS_GLOBAL, "entries": {name: {"rows": tail, "texts": chunks}}}
    for line, text in sorted(sentences.texts.items()):
        if line not in inline:
            path = LINES_SIDECAR.format(chunk=(line - 1) // CHUNK_LINES)
            sidecars.setdefault(path, {"global": TEXTS_GLOBAL, "entries": {}})["entries"][line] = text
    page = {"systems": sentences.systems, "texts": {line: sentences.texts[line] for line in sorted(inline)},
            "configs": configs, "uncertain": sentences.uncertain}
    return page, sidecars


def write_html(out_dir: str | Path, evaluation: Evaluation, sentences: Sentences | None = None,
               figures: list[SvgPlot] | None = None) -> list[Path]:
    """``index.html`` (and the sentence sidecars) into ``out_dir``; the paths written. ``figures``: the
    report's own (:func:`.figures.draw`), drawn here without them."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with stage("page: sentences", unit="sidecars") as timed:  # the rows behind each config
        data, sidecars = _sentence_data(sentences)
        if timed is not None:
            timed.count = len(sidecars)
    svgs = by_kind(draw(evaluation, evaluation.human_scores) if figures is None else figures)
    with stage(INDEX, 1, "files"):
        env = environment()
        context = {name: value for section in SECTIONS for name, value in section.page(evaluation).items()}
        page = env.get_template("index.html.j2").render(
            ev=evaluation, plots=svgs, family_size=family_size, family_header=family_header, sentences=data, inline_rows=INLINE_ROWS,
            sentence_notes=[] if sentences is None else sentences.notes,
            degenerate_share=DEGENERATE_WIDENED_SHARE, **context)
        index = out / INDEX
        index.write_text(page, encoding="utf-8")
    written = [index]
    if sidecars:
        (out / SIDECAR_DIR).mkdir(exist_ok=True)
        template = env.get_template("sidecar.js.j2")
        with stage("sidecars", len(sidecars), "files"):
            for name, content in sidecars.items():
                path = out / name
                path.write_text(template.render(**content), encoding="utf-8")
                written.append(path)
    return written
