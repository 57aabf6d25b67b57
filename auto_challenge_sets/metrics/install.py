"""Put the packaged ``ldd_challenge`` module where ``evaluate.load("ldd_challenge")`` finds it.

For a bare name, evaluate asks the Hub for ``evaluate-metric/NAME`` and, when that fails (offline,
or 404: the module is not published there), loads the newest copy in its dynamic-modules cache
(``CachedEvaluationModuleFactory`` in evaluate 0.4's ``loading.py``)::

    HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--NAME/<64-hex hash>/NAME.py
    .../<hash>/NAME.json    {"original file path": ..., "local file path": ...}

with an ``__init__.py`` in every folder from ``HF_MODULES_CACHE`` down. This module writes exactly
that, as evaluate's ``_create_importable_file`` would after a download, without importing evaluate
(its import costs half a minute: transformers, torch).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

import auto_challenge_sets
from auto_challenge_sets.formats.text import make_folder

METRIC_NAME = "ldd_challenge"


def modules_cache() -> Path:
    """evaluate's ``config.HF_MODULES_CACHE``, resolved from the environment the same way."""
    explicit = os.environ.get("HF_MODULES_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    hf_home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "huggingface")
    return Path(hf_home).expanduser() / "modules"


def module_hash(script: Path) -> str:
    """The hash folder's name: evaluate's ``files_to_hash([script])`` (datasets'
    ``_hash_python_lines``: comments removed, lines joined, SHA-256)."""
    with open(script, encoding="utf-8") as handle:
        lines = [re.sub(r"#.*", "", line) for line in handle.readlines()]
    return sha256("\n".join(line for line in lines if line).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class InstalledMetric:
    folder: Path  # evaluate-metric--NAME: everything this installation owns
    script: Path  # .../<hash>/NAME.py, what evaluate imports
    changed: bool  # False when the same bytes were already there


def _metric_folder(cache: Path | None) -> Path:
    cache = modules_cache() if cache is None else Path(cache)
    return cache / "evaluate_modules" / "metrics" / f"evaluate-metric--{METRIC_NAME}"


def install(source: Path | None = None, cache: Path | None = None) -> InstalledMetric:
    """Copy ``source/ldd_challenge.py`` (default: ``METRIC_PATH``) into evaluate's module cache.
    Idempotent: a second call with the same script changes nothing (no file's time either); a
    changed script gets its own hash folder, and the older ones are removed so that evaluate's
    "newest" is this one."""
    script = Path(source or auto_challenge_sets.METRIC_PATH) / f"{METRIC_NAME}.py"
    if not script.is_file():
        raise FileNotFoundError(f"no metric script {script} (the evaluate module {METRIC_NAME!r} of {script.parent})")
    folder = _metric_folder(cache)
    hashed = folder / module_hash(script)
    target = hashed / script.name
    changed = not (target.is_file() and target.read_bytes() == script.read_bytes())
    for package in (folder.parents[2], folder.parents[1], folder.parent, folder, hashed):
        make_folder(package)
        if not (package / "__init__.py").exists():
            (package / "__init__.py").touch()
    if changed:
        shutil.copyfile(script, target)
    meta = hashed / f"{METRIC_NAME}.json"
    if changed or not meta.is_file():
        meta.write_text(json.dumps({"original file path": str(script), "local file path": str(target)}),
                        encoding="utf-8")
    for stale in folder.iterdir():
        if stale.is_dir() and stale != hashed and len(stale.name) == 64:
            shutil.rmtree(stale)
            changed = True
    return InstalledMetric(folder, target, changed)


def uninstall(cache: Path | None = None) -> Path | None:
    """Remove ``evaluate-metric--ldd_challenge`` from the module cache; the folder removed, or None."""
    folder = _metric_folder(cache)
    if not folder.exists():
        return None
    shutil.rmtree(folder)
    folder.with_name(folder.name + ".lock").unlink(missing_ok=True)  # evaluate's FileLock beside the folder
    return folder
