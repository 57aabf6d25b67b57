"""The sentence view's reference marks say how sure their links are (evaluation/sentences.py): an
eflomal alignment of fewer than 10,000 pairs without priors marks every aligned reference word
uncertain with the build's reason, and no other alignment does (eflomal with priors or on many
pairs, a user's Pharaoh file); the source parse checks the links it can, whatever the aligner, and
the page counts them per config. The toy's links and parse are tests/toy_dataset.py's LINKED,
counted by hand there."""

from __future__ import annotations

import json

import pytest

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.page_sentences import Sentences
from auto_challenge_sets.evaluation.report.html.html_report import write_html
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation
from auto_challenge_sets.evaluation.sentences import collect

from toy_dataset import CONSISTENT, CONTRADICTED, UNCHECKED, eflomal, link_toy, make

PHARAOH = {"backend": "pharaoh", "package": None, "version": None, "model": None, "file": "toy.pharaoh",
           "sha256": None, "symmetrization": None, "priors": None, "priors_used": None, "options": {}}
CONFIGS = "de-en.particle.d3,de-en.reorder.d5"


def sentences_of(tmp_path, aligner: dict) -> tuple[Sentences, Evaluation, dict]:
    toy = make(tmp_path)
    root = link_toy(toy["root"], aligner)
    request = EvaluationRequest(root, toy["hyps"], config=CONFIGS, metrics=("bleu",), n_samples=3, paired_samples=10,
                                min_rows=1)
    evaluation = evaluate(request)
    return collect(request, evaluation), evaluation, toy


def checks(sentences: Sentences, config: str = "de-en.particle.d3") -> dict[int, list]:
    """Line -> the parse's contradictions, for the config's rows whose links it could check."""
    return {row["line"]: row["c"] for row in sentences.configs[config].rows if "c" in row}


def contradicted(toy) -> list:
    words = toy["corpus"]["sources"][CONTRADICTED - 1]
    return [[0, f"also aligned to “{words[2]}” (NOUN); “{words[0]}” is ADP"]]


def test_a_weak_eflomal_alignment_marks_its_links_uncertain_and_the_parse_checks_two_rows(tmp_path) -> None:
    sentences, evaluation, toy = sentences_of(tmp_path, eflomal(90))
    assert sentences.uncertain == ("eflomal aligned 90 pairs without priors (fewer than 10,000): its links are "
                                   "noisy at this size")
    assert any(sentences.uncertain in note for note in sentences.notes)
    # two rows checked, one contradicted; the DET's link is not checked (UNCHECKED has no "c")
    assert checks(sentences) == {CONTRADICTED: contradicted(toy), CONSISTENT: []}
    assert UNCHECKED in {row["line"] for row in sentences.configs["de-en.particle.d3"].rows}
    assert checks(sentences, "de-en.reorder.d5") == {}  # none of the three lines is a 7th
    # what the page holds, and says in the config's summary
    out = tmp_path / "page"
    write_html(out, evaluation, sentences)
    page = (out / "index.html").read_text(encoding="utf-8")
    assert json.dumps(sentences.uncertain, ensure_ascii=False) in page  # the page's sentence data
    assert "links of 2 checked against the parse, 1 contradicted" in page
    # and the saved sentences, as acs report reads them
    sentences.save(tmp_path / "sentences.json.gz")
    assert Sentences.load(tmp_path / "sentences.json.gz").uncertain == sentences.uncertain


@pytest.mark.parametrize("aligner", [eflomal(90, priors=True), eflomal(10_000), PHARAOH],
                         ids=["eflomal-with-priors", "eflomal-on-10000-pairs", "pharaoh-file"])
def test_no_other_alignment_is_uncertain_and_the_parse_checks_it_alike(tmp_path, aligner) -> None:
    sentences, _, toy = sentences_of(tmp_path, aligner)
    assert sentences.uncertain is None and not any("uncertain" in note for note in sentences.notes)
    assert checks(sentences) == {CONTRADICTED: contradicted(toy), CONSISTENT: []}
