"""COMET (Rei et al. 2020, Unbabel's ``unbabel-comet``) as a registered metric: ``--metrics bleu,comet``.

It imports torch, so it is no core metric: it registers as a plug-in, through the entry point
``comet = auto_challenge_sets.metrics.comet:Comet`` of this package's ``pyproject.toml``, and
imports ``comet`` only when it computes. The corpus score is the mean of the segment scores, as
COMET's ``system_score`` is; it reads each row's source, output and first reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics import AveragedMetric, References

DEFAULT_MODEL = "Unbabel/wmt22-comet-da"


@lru_cache(maxsize=2)
def _load(model: str) -> Any:
    try:
        from comet import download_model, load_from_checkpoint
    except ImportError:
        raise InputError('metric comet needs the comet extra: pip install "auto-challenge-sets[comet]"') from None
    return load_from_checkpoint(model if Path(model).is_file() else download_model(model))


class Comet(AveragedMetric):
    """COMET segment scores, averaged (scale of the model: about 0-1 for wmt22-comet-da)."""

    name, label, digits = "comet", "COMET", 4
    needs_sources = True
    parallel_safe = False  # one model in this process, not one per worker
    options = (
        Option("comet_model", str, DEFAULT_MODEL, "a checkpoint file (.../checkpoints/model.ckpt), or a Hub name "
               "fetched once (needs the Hub, or the model already in COMET's cache)", metavar="PATH|NAME"),
        Option("comet_batch_size", int, 16, "segments per batch", minimum=1),
        Option("comet_gpus", int, 0, "GPUs to use (0: the CPU)", minimum=0),
    )

    def sentence_scores(self, hypotheses: Sequence[str], references: References,
                        sources: Sequence[str] | None = None) -> np.ndarray:
        if sources is None:
            raise ValueError("metric comet needs the source sentences")
        data = [{"src": src, "mt": hyp, "ref": refs[0]} for src, hyp, refs in zip(sources, hypotheses, references,
                                                                               strict=True)]
        output = _load(self.values["comet_model"]).predict(data, batch_size=self.values["comet_batch_size"],
                                                           gpus=self.values["comet_gpus"], progress_bar=False)
        return np.asarray(output.scores, dtype=np.float64)

    def signature(self, nrefs: int) -> str:
        try:
            from importlib.metadata import version

            release = version("unbabel-comet")
        except Exception:  # noqa: BLE001 - not installed: the signature still names the model
            release = "none"
        return f"model:{self.values['comet_model']}|refs:first|version:{release}"
