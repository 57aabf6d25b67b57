"""The files behind a simalign model: a Hub name or a local folder (``save_pretrained``), where its
weights are on this machine, and what identifies them for the stage cache and the build record."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def looks_like_path(model: str) -> bool:
    # Hub names are "name" or "owner/name"; anything else that could be a path is taken as one
    return (model.startswith((".", "/", "~")) or model.count("/") > 1 or (os.sep != "/" and os.sep in model)
            or Path(model).expanduser().exists())


# the weights files transformers loads, in the order it looks for them
_WEIGHTS = ("model.safetensors", "pytorch_model.bin")


def model_weights(model: str) -> Path | None:
    """The weights file behind ``model`` on this machine: in a local folder, or in the Hugging Face
    cache for a Hub name; None when it is not here (or is split into shards)."""
    path = Path(model).expanduser()
    if path.is_dir():
        return next((path / name for name in _WEIGHTS if (path / name).is_file()), None)
    from huggingface_hub import try_to_load_from_cache  # a dependency of datasets: always here

    for name in _WEIGHTS:
        try:
            cached = try_to_load_from_cache(model, name)
        except Exception:  # noqa: BLE001 - a bad name or an odd cache: the record says None
            return None
        if isinstance(cached, str):
            return Path(cached)
    return None


def model_fingerprint(model: str) -> str:
    """Identifies the weights behind ``model`` for the stage cache: a local folder's files (name,
    size, mtime), or the cached Hub snapshot's revision."""
    path = Path(model).expanduser()
    digest = hashlib.sha256()
    if path.is_dir():
        for item in sorted(path.iterdir()):
            if item.is_file():
                stat = item.stat()
                digest.update(f"{item.name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        return digest.hexdigest()[:16]
    try:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(model, "config.json")
    except Exception:  # noqa: BLE001 - a fingerprint is best effort; the name still keys the cache
        cached = None
    return Path(cached).parent.name if isinstance(cached, str) else "hub"
