"""A plug-in metric of the registry that reads the sources, as COMET does (COMET itself needs model
weights that a test cannot fetch): output words per source word. Registered by a test with
``monkeypatch.setitem(metric._REGISTRY, SourceLengthRatio.name, SourceLengthRatio)``."""

from __future__ import annotations

from auto_challenge_sets.scoring.metrics import AveragedMetric


class SourceLengthRatio(AveragedMetric):
    """Output words per source word, a mean over sentences."""

    name = "srcratio"
    label = "src ratio"
    needs_sources = True
    parallel_safe = False

    def sentence_scores(self, hypotheses, references, sources=None):
        return [len(h.split()) / len(s.split()) for h, s in zip(hypotheses, sources, strict=True)]

    def signature(self, nrefs: int) -> str:
        return "srcratio"
