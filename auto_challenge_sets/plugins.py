"""What other installed packages add through entry points (phenomena, metrics): one loader, so a
broken package is skipped the same way everywhere, with a warning naming it."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any


class PluginWarning(UserWarning):
    """A plug-in that is not loaded; the command line prints it as one line naming the plug-in
    (without the location in this package that Python's warning format adds)."""


def load_plugins(group: str, known: Container[str], register: Callable[[Any, Any], None], kind: str) -> list[str]:
    """Load every entry point of ``group`` whose name is not in ``known`` (a built-in is never
    replaced) and hand it to ``register(entry point, loaded object)``; one that fails to load or register
    is skipped with a warning naming ``kind``, the entry point and the reason. The names loaded."""
    import warnings
    from importlib.metadata import entry_points

    loaded = []
    for entry in entry_points(group=group):
        if entry.name in known:
            continue
        try:
            register(entry, entry.load())
        except Exception as error:  # noqa: BLE001 - a user's package: any failure is theirs, reported
            reason = "".join(f": {line}" for line in str(error).strip().splitlines()[:1])
            warnings.warn(f"{kind} {entry.name!r} from {entry.value} is not loaded: {type(error).__name__}{reason}",
                          PluginWarning, stacklevel=3)
            continue
        loaded.append(entry.name)
    return loaded
