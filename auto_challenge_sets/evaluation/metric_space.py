"""The evaluate module as a Hub Space (``acs publish-metric``): evaluate's own layout (the script
named after the Space, the card with its YAML header, ``app.py``, ``requirements.txt`` pinned to
this release). Those files ship with the package; tests/test_metric_module.py checks that the card
is the Space card ``huggingface_hub.SpaceCard`` reads and that the requirements pin this release."""

from __future__ import annotations

from pathlib import Path

from auto_challenge_sets import METRIC_PATH, __version__
from auto_challenge_sets.dataset.hub_publish import SPACE, PublishPlan, Upload, check_repo_id

SCRIPT = "ldd_challenge.py"


def metric_plan(repo_id: str, revision: str | None = None, private: bool = False) -> PublishPlan:
    """The Space's files. evaluate.load("ORG/NAME") fetches NAME.py, so the script goes up under the
    Space's own name."""
    check_repo_id(repo_id)
    root = Path(METRIC_PATH)
    card = (root / "README.md").read_text(encoding="utf-8")
    name = repo_id.rsplit("/", 1)[1]
    files = [Upload(f"{name}.py", root / SCRIPT, (root / SCRIPT).stat().st_size)]
    files += [Upload(item, root / item, (root / item).stat().st_size) for item in ("README.md", "app.py", "requirements.txt")]
    return PublishPlan(repo_id, SPACE, files, card, message=f"Upload the ldd_challenge metric (auto-challenge-sets {__version__})",
                       revision=revision, private=private, space_sdk="gradio")
