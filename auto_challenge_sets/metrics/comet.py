"""COMET (Rei et al. 2020, Unbabel's ``unbabel-comet``) as a registered metric: ``--metrics bleu,comet``.

A model-based metric cannot live in the core (it imports torch), so it lives here, beside the
evaluate module on the adapters floor (which may import torch, lazily), and registers like any
plug-in: through the entry-point group ``auto_challenge_sets.metrics`` that this package's own
``pyproject.toml`` declares (``comet = auto_challenge_sets.metrics.comet:Comet``). ``comet`` is imported only when the
metric computes something.

COMET does not decompose into summed statistics: the corpus score is the mean of segment scores,
as COMET's own ``system_score`` is (:class:`~auto_challenge_sets.scoring.metric.AveragedMetric`).
It reads the source sentence, the output and the first reference of each row.

Options (``--metric-option KEY=VALUE``, or ``EvaluationRequest(metric_options=...)``):

- ``comet_model``: a checkpoint file (``.../checkpoints/model.ckpt``) read with
  ``load_from_checkpoint``, or a Hub name fetched once by ``download_model`` (default
  ``Unbabel/wmt22-comet-da``; needs the Hub, or the model already in COMET's cache);
- ``comet_batch_size`` (default 16) and ``comet_gpus`` (default 0: CPU; 1 on a GPU machine).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.errors import InputError, RequestError
from auto_challenge_sets.scoring.metric import AveragedMetric, References
from auto_challenge_sets.text_io import ascii_int

DEFAULT_MODEL = "Unbabel/wmt22-comet-da"


@lru_cache(maxsize=2)
def _load(model: str) -> Any:
    try:
        from comet import download_model, load_from_checkpoint
    except ImportError:
        raise InputError('metric comet needs the comet extra: pip install "auto-challenge-sets[comet]"') from None
    path = Path(model)
    checkpoint = path if path.is_file() else Path(download_model(model))
    return load_from_checkpoint(str(checkpoint))


def _count(options: dict[str, Any], key: str, default: int, low: int) -> int:
    """An integer option (given as text by --metric-option): ASCII digits, at least ``low``;
    int() would take '１６' and '+1_6'."""
    value = options.get(key, default)
    number = value if isinstance(value, int) and not isinstance(value, bool) else ascii_int(str(value))
    if number is None or number < low:
        raise RequestError(key, f"must be an integer >= {low} in ASCII digits, got {value!r}")
    return number


class Comet(AveragedMetric):
    """COMET segment scores, averaged (scale of the model: about 0-1 for wmt22-comet-da)."""

    name, label, digits = "comet", "COMET", 4
    needs_sources = True
    parallel_safe = False  # one model in this process, not one per worker

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.model = str(options.get("comet_model", DEFAULT_MODEL))
        self.batch_size = _count(options, "comet_batch_size", 16, 1)
        self.gpus = _count(options, "comet_gpus", 0, 0)

    def sentence_scores(self, hypotheses: Sequence[str], references: References,
                        sources: Sequence[str] | None = None) -> np.ndarray:
        if sources is None:
            raise ValueError("metric comet needs the source sentences")
        data = [{"src": src, "mt": hyp, "ref": refs[0]} for src, hyp, refs in zip(sources, hypotheses, references,
                                                                               strict=True)]
        output = _load(self.model).predict(data, batch_size=self.batch_size, gpus=self.gpus, progress_bar=False)
        return np.asarray(output.scores, dtype=np.float64)

    def signature(self, nrefs: int) -> str:
        try:
            from importlib.metadata import version

            release = version("unbabel-comet")
        except Exception:  # noqa: BLE001 - not installed: the signature still names the model
            release = "none"
        return f"model:{self.model}|refs:first|version:{release}"
