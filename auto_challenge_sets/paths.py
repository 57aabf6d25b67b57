"""Where the tools keep their caches by default."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """``$ACS_CACHE_DIR``, else ``$XDG_CACHE_HOME/auto_challenge_sets``, else ``~/.cache/auto_challenge_sets``."""
    if os.environ.get("ACS_CACHE_DIR"):
        return Path(os.environ["ACS_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "auto_challenge_sets"
