"""The length-matched baseline on a paragraph-level corpus (issue 35 item 6): WMT21 de-en joined 3–6
lines at a time (tests/paragraph_corpus.py), its trees and links those of the WMT21 fixture (UDPipe,
eflomal seed 1) joined alike, and evaluated under ±1 token alone (``length_relative=0``, the rule
before) and the default relative window. studies/paragraph_baseline.py prints the same figures for
more systems."""

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
def paragraphs(tmp_path_factory: pytest.TempPathFactory, wmt21_de_en: Path) -> dict[str, Path]:
    """The joined corpus's dataset folder (``sets``) and its joined system outputs.

    Its source trees and links are the WMT21 fixture's (UDPipe, eflomal seed 1), joined as the
    lines are: a paragraph's tree is its lines' trees merged as a parser merges a line it cuts into
    sentences, its links theirs shifted by the words before. Parsing and aligning the paragraphs
    afresh took a minute and a half and gives the same lengths, which is what these tests are about.
    """
    from auto_challenge_sets.backends.parsers import merge_sentences
    from auto_challenge_sets.dataset.writer import build_into_folder
    from auto_challenge_sets.formats.conllu import read_conllu
    from auto_challenge_sets.pipeline.align_stage import align_pairs, write_pharaoh
    from auto_challenge_sets.pipeline.parse_stage import write_parse
    from auto_challenge_sets.pipeline.run_build import BuildSpec
    from auto_challenge_sets.pipeline.specs import AlignerSpec

    wmt21 = shared_path("data", "wmt21")
    files = {"source": wmt21 / "sources" / "newstest2021.de-en.src.de",
             "reference": wmt21 / "references" / "newstest2021.de-en.ref.A.en",
             **{s: wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{s}.en" for s in SYSTEMS}}
    joined: dict[str, Path] = {}

    def build(out: Path) -> None:
        text = write_joined(files, out.parent / "text")
        cache = wmt21_de_en.parent / "cache"
        [parse] = (cache / "parsed").glob("udpipe-de-*.conllu")  # the fixture's one parse, one tree a line
        trees = list(read_conllu(parse))
        references = files["reference"].read_text(encoding="utf-8").rstrip("\n").split("\n")
        assert len(trees) == len(references) == 1000
        # the same pairs, aligner and cache as the fixture's build: read from its cache, not run again
        links = align_pairs([(t.forms, r.split()) for t, r in zip(trees, references)],
                            aligner=AlignerSpec("eflomal", {"seed": 1}), cache_dir=cache, progress=False)
        sources = text["source"].read_text(encoding="utf-8").rstrip("\n").split("\n")
        merged, shifted = [], []
        for number, ((a, b), line) in enumerate(zip(join_pattern(len(trees)), sources), start=1):
            merged.append(merge_sentences(trees[a:b]))
            merged[-1].set_metadata("sent_id", str(number))
            merged[-1].set_metadata("text", line)
            shifted.append([])
            words = targets = 0
            for tree, reference, found in zip(trees[a:b], references[a:b], links[a:b]):
                shifted[-1] += [(i + words, j + targets) for i, j in found]
                words, targets = words + len(tree.forms), targets + len(reference.split())
        write_parse(merged, out.parent / "source.conllu")
        write_pharaoh(out.parent / "source.pharaoh", shifted)
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=text["source"], target=text["reference"],
            source_conllu=out.parent / "source.conllu", alignment=out.parent / "source.pharaoh",
            allow_token_mismatch=True,  # the links index the trees' words, as eflomal's in the fixture's build
            cache_dir=out.parent / "cache"), out, license="other", progress=False)

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


@pytest.mark.slow  # the WMT21 fixture's build (UDPipe, eflomal), where no other test made it
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
