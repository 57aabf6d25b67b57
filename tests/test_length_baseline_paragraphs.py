"""The length-matched baseline on a paragraph-level corpus (issue 50 item 4): WMT21 de-en joined 3–6
lines at a time (tests/paragraph_corpus.py), its trees and links those of the WMT21 fixture (UDPipe,
eflomal seed 1) joined alike, evaluated as WMT21 as is: its random corpora match lengths about as
closely, and matching fails for few configs. studies/paragraph_baseline.py prints the figures
under every rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.inputs import read_corpus
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.scoring.length_baseline import DEFAULT_LENGTH_RELATIVE

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


def _run(dataset: Path, hypotheses: dict[str, Path], relative: float = DEFAULT_LENGTH_RELATIVE) -> Evaluation:
    return evaluate(EvaluationRequest(dataset, hypotheses, metrics=("bleu",), n_samples=20, paired_samples=10,
                                      length_relative=relative))


@pytest.mark.slow  # the WMT21 fixture's build (UDPipe, eflomal), where no other test made it
def test_the_joined_corpus_is_paragraph_level(paragraphs: dict[str, Path]) -> None:
    lines = shared_path("data", "wmt21", "sources", "newstest2021.de-en.src.de").read_text(encoding="utf-8")
    spans = join_pattern(len(lines.splitlines()))
    assert [b - a for a, b in spans[:5]] == [3, 4, 5, 6, 3] and spans[-1][1] == 1000
    assert paragraphs["Online-B"].read_text(encoding="utf-8").count("\n") == len(spans) == 223
    lengths = read_corpus(EvaluationRequest(paragraphs["sets"], {"x": paragraphs["Online-B"]})).pool_lengths
    assert np.median(lengths) > 60  # WMT23's median is 24 source tokens, its longest 430: paragraphs, not sentences


@pytest.mark.slow  # the same build
def test_paragraphs_are_matched_about_as_closely_as_sentences(paragraphs: dict[str, Path], wmt21_de_en: Path) -> None:
    joined = _run(paragraphs["sets"], {s: paragraphs[s] for s in SYSTEMS})
    wmt21 = shared_path("data", "wmt21", "system-outputs")
    sentences = _run(wmt21_de_en, {s: wmt21 / f"newstest2021.de-en.hyp.{s}.en" for s in SYSTEMS})
    assert "+random[n:20|tol:1|rel:0.02|seed:1]+" in joined.signature

    both = [name for name, c in joined.configs.items() if c.length_gap is not None and name in sentences.configs]
    assert len(both) >= 10

    def gap(evaluation: Evaluation) -> float:
        return float(np.mean([evaluation.configs[name].length_gap for name in both]))

    # the mean |Δlength| of a replacement within twice the sentence-level corpus's, at most a
    # quarter of the configs degenerate (the rest alone, ±5 %: 3.2 tokens against 0.7, 15 of 46)
    assert gap(joined) <= 2 * gap(sentences), (gap(joined), gap(sentences))
    assert sum(c.degenerate_baseline for c in joined.configs.values()) <= len(joined.configs) / 4
    # most paragraphs hold a common phenomenon: the rest of the corpus alone could not match them
    assert sum(c.shared for c in joined.configs.values()) > 0.3 * sum(c.n for c in joined.configs.values())
    for config in joined.configs.values():
        if config.length_gap is not None:
            assert 1 <= config.distinct <= 20 and config.shared <= config.n
    # the rule moves the random corpora, never a score
    narrow = _run(paragraphs["sets"], {s: paragraphs[s] for s in SYSTEMS}, 0.0)
    for name, config in joined.configs.items():
        for system, result in config.systems.items():
            assert result.scores["bleu"].score == narrow.configs[name].systems[system].scores["bleu"].score
