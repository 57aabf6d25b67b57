"""The quick Hub reachability probe, against loopback only."""

from __future__ import annotations

import socket

import pytest

from auto_challenge_sets.builder.backends import hub


@pytest.fixture(autouse=True)
def _fresh_probe():
    hub.hub_reachable.cache_clear()
    yield
    hub.hub_reachable.cache_clear()


def test_a_listening_endpoint_is_reachable(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert hub.hub_reachable() is True


def test_a_closed_endpoint_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, never listening: connections are refused
        monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", f"http://127.0.0.1:{port}")
        assert hub.hub_reachable(timeout=1.0) is False
