"""``acs demo``'s build: both directions of the packaged sample corpus into one dataset folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import SAMPLE, demo_file
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.pharaoh import format_pharaoh, parse_pharaoh
from auto_challenge_sets.pipeline.run_build import BuildSpec

__all__ = ["SAMPLE", "build_demo", "demo_file", "reversed_alignment"]


def reversed_alignment(path: str | Path, out: str | Path) -> Path:
    """Write the en→de alignment of a de→en Pharaoh file (every ``i-j`` becomes ``j-i``)."""
    lines = [format_pharaoh([(j, i) for i, j in parse_pharaoh(line, path=str(path), line=n)])
             for n, line in enumerate(read_lines(path), start=1)]
    Path(out).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return Path(out)


def build_demo(out: str | Path, progress: bool = False) -> dict[str, dict[str, int]]:
    """Build both directions of the sample into ``out``; return ``{config: {split: rows}}``."""
    out = Path(out)
    de_en = demo_file("sample.de-en.pharaoh")
    sizes: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="acs-demo-") as scratch:
        en_de = reversed_alignment(de_en, Path(scratch) / "sample.en-de.pharaoh")
        for src, tgt, alignment in (("de", "en", de_en), ("en", "de", en_de)):
            result = build_into_folder(BuildSpec(
                pair=f"{src}-{tgt}", corpus=SAMPLE,
                source=demo_file(f"sample.{src}"), target=demo_file(f"sample.{tgt}"),
                source_conllu=demo_file(f"sample.{src}.conllu"), alignment=alignment,
                provenance="conllu (hand-checked gold trees)", aligner_label="pharaoh (hand alignment)",
            ), out, license="apache-2.0", progress=progress)
            sizes.update({name: {SAMPLE: rows} for name, rows in result.sizes.items()})
    return sizes
