"""The packaged sample corpus: 29 German–English sentence pairs written for this project, with
hand-checked UD trees for both sides and a hand word alignment (Apache-2.0, see LICENSE here)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SAMPLE = "sample"


def demo_file(name: str) -> Path:
    """A file of the sample (``sample.de``, ``sample.en.conllu``, ``sample.de-en.pharaoh``...)."""
    path = resources.files("auto_challenge_sets.demo_data").joinpath(name)
    return Path(str(path))
