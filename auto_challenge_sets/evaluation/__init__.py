"""The evaluation of MT output on challenge sets: one engine for 1…N systems.

``evaluate(EvaluationRequest(...)) -> Evaluation`` (:mod:`.engine`, :mod:`.request`,
:mod:`.results`); :mod:`.report` and :mod:`.figures` (SVG) render an evaluation; ``acs evaluate`` only
turns flags into a request and prints.
"""

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation

__all__ = ["Evaluation", "EvaluationRequest", "evaluate"]
