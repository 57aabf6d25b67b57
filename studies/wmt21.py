"""The WMT21 de-en build the expensive studies share (../shared/data/wmt21, newstest2021, reference
A): UDPipe (../shared/models/german.udpipe) and eflomal, seed 1, as docs/method.md's command and
tests/conftest.py build it; optionally with eflomal priors learned from every German–English text
at hand, as a user would make them (`acs align --make-priors` on the plain files, white-space
tokens): newstest2013, and WMT21 de-en and en-de (reference A), 5,004 pairs.

A folder that holds an ``acs_build.json`` already is taken as built (studies/check_docs.py builds
each once for every check that reads it)."""

from __future__ import annotations

from pathlib import Path

from auto_challenge_sets.backends.aligners.eflomal import make_priors
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec

SPLIT, PAIR = "newstest2021", "de-en"
ALIASES = {"Nemo.7": "NVIDIA-NeMo"}  # WMT's human tables name one system differently


def systems(wmt21: Path) -> dict[str, Path]:
    """The 19 de-en system outputs by name."""
    outputs = sorted((wmt21 / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    return {path.name.split(".hyp.")[1][: -len(".en")]: path for path in outputs}


def _priors(shared: Path, out: Path) -> Path:
    wmt, news = shared / "data" / "wmt21", shared / "data" / "newstest2013"
    sides = [(news / "newstest2013.de", news / "newstest2013.en"),
             (wmt / "sources" / "newstest2021.de-en.src.de", wmt / "references" / "newstest2021.de-en.ref.A.en"),
             (wmt / "references" / "newstest2021.en-de.ref.A.de", wmt / "sources" / "newstest2021.en-de.src.en")]
    pairs = [(de.split(), en.split()) for german, english in sides
             for de, en in zip(read_lines(german), read_lines(english), strict=True)]
    make_priors(pairs, out, seed=1)
    return out


def build(shared: Path, out: Path, priors: bool = False) -> Path:
    """``out`` built (unless it holds a build already); with ``priors``, eflomal's learned first
    into ``out``'s parent."""
    if (out / "acs_build.json").is_file():
        return out
    wmt = shared / "data" / "wmt21"
    options: dict = {"seed": 1}
    if priors:
        options["priors"] = _priors(shared, out.parent / f"{out.name}.priors")
    build_into_folder(BuildSpec(
        pair=PAIR, corpus=SPLIT, source=wmt / "sources" / "newstest2021.de-en.src.de",
        target=wmt / "references" / "newstest2021.de-en.ref.A.en",
        parser=ParserSpec("udpipe", {"udpipe_model": shared / "models" / "german.udpipe"}),
        aligner=AlignerSpec("eflomal", options), cache_dir=out.parent / "cache"), out, progress=False)
    return out
