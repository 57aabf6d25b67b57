"""Per-sentence statistics (scoring/statistics.py): the rows of a large input computed in several
processes are the very rows of one process, on real WMT21 sentences."""

from __future__ import annotations

import numpy as np
import pytest

from auto_challenge_sets.scoring import statistics
from auto_challenge_sets.scoring.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics

from conftest import shared_path


@pytest.mark.shared
def test_rows_in_parallel_equal_rows_in_one_process(monkeypatch):
    wmt = shared_path("data", "wmt21")
    hyps = (wmt / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en").read_text(encoding="utf-8").splitlines()
    refs_a = (wmt / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8").splitlines()
    refs_b = (wmt / "references" / "newstest2021.de-en.ref.B.en").read_text(encoding="utf-8").splitlines()
    references = [(a, b) for a, b in zip(refs_a, refs_b)][:301]
    one = statistics.sentence_statistics(hyps[:301], references, BleuStatistics(), jobs=1)
    monkeypatch.setattr(statistics, "PARALLEL_ROWS", 100)  # 301 rows: three workers, uneven chunks
    many = statistics.sentence_statistics(hyps[:301], references, BleuStatistics(), jobs=3)
    for name in ("bleu", "chrf", "ribes"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
    assert one.nrefs == many.nrefs == 2
    direct = statistics._in_parallel(hyps[:301], references, BleuStatistics(), True, ChrfStatistics(), 3)
    assert all(np.array_equal(part, getattr(one, name)) for part, name in zip(direct, ("bleu", "chrf", "ribes")))
    assert statistics._WORKER == {}  # nothing of the input kept once the workers are done
