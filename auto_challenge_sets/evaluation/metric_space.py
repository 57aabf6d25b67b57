"""The evaluate module as a Hub Space (``acs publish-metric``): evaluate's own layout (the script
named after the Space, the card with its YAML header, ``app.py``, ``requirements.txt`` pinned to
this release), after the checks ``huggingface_hub.SpaceCard`` and evaluate's loader rely on."""

from __future__ import annotations

from pathlib import Path

from auto_challenge_sets import METRIC_PATH, __version__
from auto_challenge_sets.dataset.hub_publish import SPACE, PublishPlan, Upload, check_repo_id
from auto_challenge_sets.errors import InputError

SCRIPT = "ldd_challenge.py"
PACKAGE = "auto-challenge-sets"


def _check_card(readme: Path) -> str:
    from huggingface_hub import SpaceCard

    try:
        data = SpaceCard.load(readme).data.to_dict()
    except Exception as error:  # noqa: BLE001 - yaml and card errors alike
        raise InputError(f"the metric card is not a valid Space card: {error}"[:300], readme) from None
    wanted = {"sdk": "gradio", "app_file": "app.py"}
    wrong = [f"{key}: {value}" for key, value in wanted.items() if data.get(key) != value]
    if wrong or not {"evaluate", "metric"} <= set(data.get("tags") or []):
        raise InputError(f"the metric card needs {', '.join(wrong) or 'tags evaluate and metric'}", readme)
    return readme.read_text(encoding="utf-8")


def _check_requirements(path: Path) -> None:
    """A Space installs what requirements.txt names: this package, at this release."""
    pinned = f"{PACKAGE}=={__version__}"
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    if pinned not in lines:
        raise InputError(f"requirements.txt must pin this release, {pinned}", path)


def metric_plan(repo_id: str, revision: str | None = None, private: bool = False,
                folder: str | Path = METRIC_PATH) -> PublishPlan:
    """The Space's files. evaluate.load("ORG/NAME") fetches NAME.py, so the script goes up under the
    Space's own name."""
    check_repo_id(repo_id)
    root = Path(folder)
    card = _check_card(root / "README.md")
    _check_requirements(root / "requirements.txt")
    name = repo_id.rsplit("/", 1)[1]
    files = [Upload(f"{name}.py", root / SCRIPT, (root / SCRIPT).stat().st_size)]
    files += [Upload(item, root / item, (root / item).stat().st_size) for item in ("README.md", "app.py", "requirements.txt")]
    return PublishPlan(repo_id, SPACE, files, card, message=f"Upload the ldd_challenge metric ({PACKAGE} {__version__})",
                       revision=revision, private=private, space_sdk="gradio")
