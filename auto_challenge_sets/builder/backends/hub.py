"""Whether the Hugging Face Hub can be reached, asked once, quickly.

huggingface_hub retries an unreachable host five times with back-off (about 25 s, with a page of
warnings) before it gives up; a model check that is bound to fail should say so at once.
"""

from __future__ import annotations

import functools
import socket
from urllib.parse import urlparse


@functools.lru_cache(maxsize=4)
def hub_reachable(timeout: float = 3.0, endpoint: str | None = None) -> bool:
    """True when a TCP connection to the Hub endpoint (``endpoint``, else ``HF_ENDPOINT``) opens
    within ``timeout``."""
    from huggingface_hub import constants

    url = urlparse(endpoint or constants.ENDPOINT)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((url.hostname or "", port), timeout=timeout):
            return True
    except OSError:
        return False
