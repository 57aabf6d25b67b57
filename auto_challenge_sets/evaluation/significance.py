"""Paired significance tests of systems against a baseline system, by sacrebleu's own code.

``sacrebleu.significance.PairedTest`` (approximate randomization, or the paired bootstrap) on the
rows of one config, so each p-value equals ``sacrebleu --paired-ar`` / ``--paired-bs`` on the same
rows with the same seed (``SACREBLEU_SEED``, 12345 unless set) and number of trials. It is not
re-implemented here: sacrebleu's is the reference the field cites.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

# our metric names -> how sacrebleu's PairedTest names them in its results
_SACREBLEU_NAMES = {"bleu": "BLEU", "chrf": "chrF2"}


def paired_tests(systems: Sequence[tuple[str, Sequence[str]]], references: Sequence[tuple[str, ...]],
                 metrics: Sequence[str], test_type: str = "ar", n_samples: int = 1000,
                 tokenize: str = "13a") -> dict[str, dict[str, dict[str, float]]]:
    """``{system: {metric: {"delta", "p_value"}}}`` for every system but the first (the baseline).

    ``references``: one tuple of references per row (all rows the same number of references).
    """
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    chosen = [m for m in metrics if m in _SACREBLEU_NAMES]
    if not chosen or len(systems) < 2:
        return {}
    streams = [list(stream) for stream in zip(*references)]
    objects: dict[str, Any] = {"bleu": BLEU(tokenize=tokenize), "chrf": CHRF()}
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        test = PairedTest([(name, list(hyps)) for name, hyps in systems],
                          {_SACREBLEU_NAMES[m]: objects[m] for m in chosen}, streams,
                          test_type=test_type, n_samples=n_samples)
        _, scores = test()
    finally:
        logger.setLevel(level)
    out: dict[str, dict[str, dict[str, float]]] = {}
    for index, (name, _) in enumerate(systems[1:], start=1):
        out[name] = {}
        for metric in chosen:
            results = scores[_SACREBLEU_NAMES[metric]]
            out[name][metric] = {"delta": float(results[index].score - results[0].score),
                                 "p_value": float(results[index].p_value)}
    return out
