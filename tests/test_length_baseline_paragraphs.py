"""The length-matched baseline on a paragraph-level corpus (issue 35 item 6): WMT21 de-en joined 3–6
lines at a time (tests/paragraph_corpus.py), built as the WMT21 fixture is (UDPipe, eflomal seed 1)
and evaluated under ±1 token alone (``length_relative=0``, the rule before) and the default
relative window. studies/paragraph_baseline.py prints the same figures for more systems."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.inputs import read_corpus
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    DEGENERATE_COMPLEMENT_RATIO,
    DEGENERATE_WIDENED_SHARE,
    length_window,
)

from conftest import built_once, shared_path
from paragraph_corpus import join_pattern, write_joined

SYSTEMS = ("Facebook-AI", "Online-B")


@pytest.fixture(scope="module")
def paragraphs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The joined corpus's dataset folder (``sets``) and its joined system outputs."""
    from auto_challenge_sets.builder.pipeline.build import BuildSpec
    from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
    from auto_challenge_sets.dataset.writer import build_into_folder

    wmt21 = shared_path("data", "wmt21")
    files = {"source": wmt21 / "sources" / "newstest2021.de-en.src.de",
             "reference": wmt21 / "references" / "newstest2021.de-en.ref.A.en",
             **{s: wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in SYSTEMS}}
    joined: dict[str, Path] = {}

    def build(out: Path) -> None:
        text = write_joined(files, out.parent / "text")
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=text["source"], target=text["reference"],
            parser=ParserSpec("udpipe", {"udpipe_model": shared_path("models", "german.udpipe")}),
            aligner=AlignerSpec("eflomal", {"seed": 1}), cache_dir=out.parent / "cache"), out,
            license="other", progress=False)

    folder = built_once(tmp_path_factory, "wmt21-paragraphs", build)
    joined.update({name: folder / "text" / f"{name}.txt" for name in files})
    return {"sets": folder / "sets", **joined}


def _run(paragraphs: dict[str, Path], relative: float) -> Evaluation:
    return evaluate(EvaluationRequest(paragraphs["sets"], {s: paragraphs[s] for s in SYSTEMS}, metrics=("bleu",),
                                      n_samples=20, paired_samples=10, length_relative=relative))


def _widened_alone(evaluation: Evaluation) -> list[str]:
    """Configs flagged degenerate for their widened rows alone (their complement is large enough)."""
    return [name for name, c in evaluation.configs.items() if c.degenerate_baseline
            and c.widened > DEGENERATE_WIDENED_SHARE * c.n
            and evaluation.full_corpus_rows - c.n >= DEGENERATE_COMPLEMENT_RATIO * c.n]


@pytest.mark.slow  # the joined corpus's build (UDPipe, eflomal): one to four minutes
def test_the_joined_corpus_is_paragraph_level(paragraphs: dict[str, Path]) -> None:
    lines = shared_path("data", "wmt21", "sources", "newstest2021.de-en.src.de").read_text(encoding="utf-8")
    spans = join_pattern(len(lines.splitlines()))
    assert [b - a for a, b in spans[:5]] == [3, 4, 5, 6, 3] and spans[-1][1] == 1000
    assert paragraphs["Online-B"].read_text(encoding="utf-8").count("\n") == len(spans) == 223
    lengths = read_corpus(EvaluationRequest(paragraphs["sets"], {"x": paragraphs["Online-B"]})).pool_lengths
    assert np.median(lengths) > 60  # WMT23's median is 24 source tokens, its longest 430: paragraphs, not sentences


@pytest.mark.slow  # the same build
def test_the_relative_window_gives_paragraphs_a_random_baseline(paragraphs: dict[str, Path]) -> None:
    before, after = _run(paragraphs, 0.0), _run(paragraphs, DEFAULT_LENGTH_RELATIVE)
    assert "+random[n:20|tol:1|seed:1]+" in before.signature and before.settings.length_relative == 0
    assert "+random[n:20|tol:1|rel:0.05|seed:1]+" in after.signature and after.settings.length_relative == 0.05
    # ±1 token among a few hundred paragraphs: a third of the rows find no partner, ten configs are
    # degenerate for that alone (WMT23 de-en, 549 paragraphs: 38 of 42 configs degenerate)
    rows = sum(c.n for c in before.configs.values())
    assert sum(c.widened for c in before.configs.values()) > 0.3 * rows
    assert len(_widened_alone(before)) >= 8
    assert sum(c.widened for c in after.configs.values()) < 0.2 * rows
    # what stays degenerate for its widened rows alone does so for the corpus's tail: rows longer
    # than any segment outside the config by more than their window, which no length rule matches
    corpus = read_corpus(EvaluationRequest(paragraphs["sets"], {"x": paragraphs["Online-B"]}))
    for name in _widened_alone(after):
        config = next(c for c in corpus.configs if c.name == name)
        outside = np.delete(corpus.pool_lengths, config.positions).max()
        tail = [n for n in config.lengths.tolist() if n - outside > length_window(n, 1, DEFAULT_LENGTH_RELATIVE)]
        assert len(tail) > DEGENERATE_WIDENED_SHARE * len(config.positions), (name, tail, outside)
    assert len(_widened_alone(after)) <= 1
    # the rule moves the random corpora, never a score
    for name, config in after.configs.items():
        for system, result in config.systems.items():
            assert result.scores["bleu"].score == before.configs[name].systems[system].scores["bleu"].score
