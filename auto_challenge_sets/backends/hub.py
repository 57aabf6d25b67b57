"""Whether the Hugging Face Hub can be reached, asked once, quickly: huggingface_hub retries an
unreachable host for about 25 s, and a resolver with no answer waits tens of seconds, which
``socket.create_connection``'s timeout does not cover."""

from __future__ import annotations

import functools
import os
import socket
import threading
import time
from urllib.parse import urlparse

TRUE_VALUES = ("1", "ON", "YES", "TRUE")


def env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().upper() in TRUE_VALUES


def hub_offline_mode() -> bool:
    """True when ``HF_HUB_OFFLINE`` asks for offline mode (as opposed to a Hub that cannot be reached)."""
    return env_true("HF_HUB_OFFLINE")


@functools.lru_cache(maxsize=4)
def hub_reachable(timeout: float = 3.0, endpoint: str | None = None) -> bool:
    """True when a TCP connection to ``endpoint`` (default ``HF_ENDPOINT``) opens within ``timeout``
    seconds, name lookup included."""
    from huggingface_hub import constants

    url = urlparse(endpoint or constants.ENDPOINT)
    port = url.port or (443 if url.scheme == "https" else 80)
    deadline = time.monotonic() + timeout
    found: list[list[tuple]] = []

    def lookup() -> None:  # in a thread, left to finish on its own: getaddrinfo takes no timeout
        try:
            found.append(socket.getaddrinfo(url.hostname or "", port, type=socket.SOCK_STREAM))
        except OSError:
            pass

    worker = threading.Thread(target=lookup, name="acs-hub-lookup", daemon=True)
    worker.start()
    worker.join(timeout)
    for family, kind, protocol, _, address in found[0] if found else ():
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            with socket.socket(family, kind, protocol) as connection:
                connection.settimeout(left)
                connection.connect(address)
                return True
        except OSError:
            continue
    return False

