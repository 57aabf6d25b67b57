"""The evaluation of MT output on challenge sets: one engine for 1…N systems.

``evaluate(EvaluationRequest(...)) -> Evaluation`` (:mod:`.engine`, :mod:`.request`,
:mod:`.results`): this folder holds the run itself (its request, its inputs, the engine, the
outputs aligned for the targeted judge, the typed result and its JSON form, the sentences it saves
for the page) and the evaluate module as a Hub Space (:mod:`.metric_space`); :mod:`.stats` holds
the statistics stages, :mod:`.report` the renderers (text, Markdown, SVG figures, the report
folder, :mod:`.report.html` for the page). ``acs evaluate`` only turns flags into a request and
prints.
"""

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import Evaluation

__all__ = ["Evaluation", "EvaluationRequest", "evaluate"]
