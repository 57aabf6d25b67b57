"""auto_challenge_sets: challenge sets of long-distance dependencies for machine translation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__version__ = "0.1.0"

# The evaluate module (script, card, app.py, requirements) ships inside the package, so it loads
# from any working folder and offline: ``evaluate.load(METRIC_PATH)``.
METRIC_PATH: str = str(Path(__file__).resolve().parent / "metrics" / "ldd_challenge")


def load_metric(**kwargs: Any) -> Any:
    """The ``ldd_challenge`` evaluate metric of this installation: ``evaluate.load(METRIC_PATH, **kwargs)``."""
    import evaluate

    return evaluate.load(METRIC_PATH, **kwargs)
