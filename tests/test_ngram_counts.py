"""The metric's own BLEU and chrF rows against sacrebleu's: the same integers, row for row."""

from __future__ import annotations

import random

from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

from auto_challenge_sets.scoring.bleu_stats import BleuStatistics
from auto_challenge_sets.scoring.chrf_stats import ChrfStatistics

from conftest import shared_path


def _sacrebleu_row(metric, hyp: str, refs: list[str]) -> list[int]:
    hyp, refs = metric._preprocess_segment(hyp), [metric._preprocess_segment(r) for r in refs]
    return metric._compute_segment_statistics(hyp, metric._extract_reference_info(refs))


def _random_pairs(seed: int, count: int) -> list[tuple[str, list[str]]]:
    """Few distinct words and characters, so n-grams repeat; empty and one-word lines too; up to
    three references, some identical or tied."""
    rng = random.Random(seed)
    words = ["a", "b", "ab", "ba", "a.", ",", "(x)", "Ä", "1-2", "aa"]

    def line() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 12)))

    pairs = []
    for _ in range(count):
        refs = [line() for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.2:
            refs.append(refs[0])  # a tie between references: the first one wins
        pairs.append((line(), refs))
    return pairs


def test_bleu_rows_equal_sacrebleu_on_random_lines() -> None:
    for kwargs in ({}, {"max_ngram_order": 2}, {"lowercase": True}):
        ours, theirs = BleuStatistics(**kwargs), BLEU(**kwargs)
        for hyp, refs in _random_pairs(1, 600):
            assert ours.segment(hyp, refs) == _sacrebleu_row(theirs, hyp, refs), (kwargs, hyp, refs)


def test_chrf_rows_equal_sacrebleu_on_random_lines() -> None:
    for kwargs in ({}, {"whitespace": True}, {"char_order": 3, "lowercase": True}, {"eps_smoothing": True},
                   {"word_order": 2}):
        ours, theirs = ChrfStatistics(**kwargs), CHRF(**kwargs)
        for hyp, refs in _random_pairs(2, 600):
            assert ours.segment(hyp, refs) == _sacrebleu_row(theirs, hyp, refs), (kwargs, hyp, refs)


def test_rows_equal_sacrebleu_on_real_lines() -> None:
    base = shared_path("data", "wmt21")
    refs = (base / "references" / "newstest2021.de-en.ref.A.en").read_text(encoding="utf-8").splitlines()
    hyps = (base / "system-outputs" / "newstest2021.de-en.hyp.Online-W.en").read_text(encoding="utf-8").splitlines()
    bleu, chrf = BleuStatistics(), ChrfStatistics()
    for hyp, ref in list(zip(hyps, refs))[:500]:
        assert bleu.segment(hyp, [ref, hyp[::-1]]) == _sacrebleu_row(BLEU(), hyp, [ref, hyp[::-1]])
        assert chrf.segment(hyp, [ref]) == _sacrebleu_row(CHRF(), hyp, [ref])
