"""Put the packaged ``ldd_challenge`` module where ``evaluate.load("ldd_challenge")`` finds it.

For a bare name, evaluate asks the Hub for ``evaluate-metric/NAME`` and, when that fails (offline,
unreachable, or 404 because the module was never published there), loads the newest copy in its
dynamic-modules cache (``CachedEvaluationModuleFactory`` in evaluate's ``loading.py``, 0.4.x):

    HF_MODULES_CACHE/__init__.py
    HF_MODULES_CACHE/evaluate_modules/__init__.py
    HF_MODULES_CACHE/evaluate_modules/metrics/__init__.py
    HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--NAME/__init__.py
    HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--NAME/<64-hex hash>/__init__.py
    .../<hash>/NAME.py      the script, byte for byte
    .../<hash>/NAME.json    {"original file path": ..., "local file path": ...}

This module writes exactly that, as evaluate's own ``_create_importable_file`` would after a
download, without importing evaluate (its import costs half a minute: transformers, torch).
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

METRIC_NAME = "ldd_challenge"
# evaluate tries these namespaces for a bare name; canonical metrics live in the first
CACHED_NAMESPACE = "evaluate-metric"
DYNAMIC_MODULES = "evaluate_modules"  # evaluate.config.MODULE_NAME_FOR_DYNAMIC_MODULES
MODULE_TYPE = "metrics"


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
    name: str
    folder: Path  # evaluate-metric--NAME: everything this installation owns
    script: Path  # .../<hash>/NAME.py, what evaluate imports
    changed: bool  # False when the same bytes were already there


def _metric_folder(cache: Path, name: str) -> Path:
    return cache / DYNAMIC_MODULES / MODULE_TYPE / f"{CACHED_NAMESPACE}--{name}"


def _touch_package(folder: Path) -> None:
    from auto_challenge_sets.text_io import make_folder

    make_folder(folder)
    marker = folder / "__init__.py"
    if not marker.exists():  # touch() would change its time: a second install changes nothing
        marker.touch()


def install(source: Path | None = None, cache: Path | None = None, name: str = METRIC_NAME) -> InstalledMetric:
    """Copy ``source/NAME.py`` (default: ``METRIC_PATH``) into evaluate's module cache. Idempotent:
    a second call with the same script changes nothing; a changed script gets its own hash folder,
    and the older ones are removed so that evaluate's "newest" is this one."""
    source = Path(source or auto_challenge_sets.METRIC_PATH)
    cache = Path(cache) if cache is not None else modules_cache()
    script = source / f"{name}.py"
    if not script.is_file():
        raise FileNotFoundError(f"no metric script {script} (the evaluate module {name!r} of {source})")
    folder = _metric_folder(cache, name)
    hashed = folder / module_hash(script)
    target = hashed / script.name
    changed = not (target.is_file() and target.read_bytes() == script.read_bytes())
    for path in (cache, cache / DYNAMIC_MODULES, cache / DYNAMIC_MODULES / MODULE_TYPE, folder, hashed):
        _touch_package(path)
    if changed:
        shutil.copyfile(script, target)
    meta = hashed / f"{name}.json"
    if changed or not meta.is_file():
        meta.write_text(json.dumps({"original file path": str(script), "local file path": str(target)}),
                        encoding="utf-8")
    for stale in folder.iterdir():  # an older installation's hash folder would not be the newest for long
        if stale.is_dir() and stale != hashed and len(stale.name) == 64:
            shutil.rmtree(stale)
            changed = True
    return InstalledMetric(name, folder, target, changed)


def uninstall(cache: Path | None = None, name: str = METRIC_NAME) -> Path | None:
    """Remove ``evaluate-metric--NAME`` from the module cache; the folder removed, or None."""
    cache = Path(cache) if cache is not None else modules_cache()
    folder = _metric_folder(cache, name)
    if not folder.exists():
        return None
    shutil.rmtree(folder)
    lock = folder.with_name(folder.name + ".lock")  # evaluate's FileLock beside the folder
    lock.unlink(missing_ok=True)
    return folder


def installed(cache: Path | None = None, name: str = METRIC_NAME) -> Path | None:
    """The installed script when it matches this package's ``METRIC_PATH``, else None."""
    cache = Path(cache) if cache is not None else modules_cache()
    script = Path(auto_challenge_sets.METRIC_PATH) / f"{name}.py"
    target = _metric_folder(cache, name) / module_hash(script) / script.name
    return target if target.is_file() and target.read_bytes() == script.read_bytes() else None
