"""The configs as the evaluation reads them (evaluation/inputs.py): which are small, and which hold
the rows of an earlier one, on hand-made folders in the toy's layout (counts by hand)."""

from __future__ import annotations

import pytest

from auto_challenge_sets.evaluation.inputs import read_corpus
from auto_challenge_sets.evaluation.request import EvaluationRequest

from toy_dataset import N, corpus, write_folder, write_outputs

C = corpus()
LINES = [n for n in range(1, N + 1) if C["distances"][n - 1] >= 5]  # rows every particle config may hold


def _folder(tmp_path, configs: dict[str, list[int]]):
    c = C
    root = write_folder(tmp_path / "ldd", c, {"de-en.baseline": list(range(1, N + 1)), **configs})
    return root, write_outputs(tmp_path, c)


def test_three_configs_with_the_same_rows_all_name_the_first(tmp_path):
    """d2 and d3 hold d1's rows (d2 in another order): both point to d1, the earliest, not d3 to
    d2; d4 differs by one row and points nowhere."""
    root, hyps = _folder(tmp_path, {"de-en.particle.d1": LINES, "de-en.particle.d2": LINES[::-1],
                                    "de-en.particle.d3": LINES, "de-en.particle.d4": LINES[:-1]})
    found = {c.name: c.same_rows_as for c in read_corpus(EvaluationRequest(root, hyps, n_samples=5)).configs}
    assert found == {"de-en.particle.d1": None, "de-en.particle.d2": "de-en.particle.d1",
                     "de-en.particle.d3": "de-en.particle.d1", "de-en.particle.d4": None}


@pytest.mark.parametrize(("extra", "small"), [(-1, False), (0, False), (1, True)])
def test_small_means_fewer_rows_than_min_rows(tmp_path, extra, small):
    """The documented rule (--min-rows: "configs with fewer rows are ... flagged small"): a config
    of exactly min_rows rows is not small, one row short of it is."""
    root, hyps = _folder(tmp_path, {"de-en.particle.d1": LINES})
    rows = len(LINES)
    (config,) = read_corpus(EvaluationRequest(root, hyps, n_samples=5, min_rows=rows + extra)).configs
    assert len(config.positions) == rows > 5 and config.small is small


def test_each_corpus_of_a_pair_has_its_own_line_count(tmp_path):
    """Two corpora of one pair (the wide toy: toytest 120 lines with empty ones, toydev 40): each
    split's corpus lines are its own build's, not the first build of the pair's."""
    from auto_challenge_sets.dataset.record import corpus_lines

    from toy_dataset import make_wide

    toy = make_wide(tmp_path)
    for split, lines in toy["lines"].items():
        assert corpus_lines(toy["root"], "de-en", split) == lines
        corpus = read_corpus(EvaluationRequest(toy["root"], {"a": "a.txt"}, config="de-en.particle.d3", split=split,
                                               metrics=("bleu",), n_samples=5))
        assert corpus.total_lines == lines
        assert max(corpus.base["line"]) > lines - 13 and len(corpus.base["line"]) < lines  # empty lines have no row
    assert corpus_lines(toy["root"], "en-de", "toytest") is None
