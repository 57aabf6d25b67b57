"""The quick Hub reachability probe, against loopback only."""

from __future__ import annotations

import socket

import pytest

from auto_challenge_sets.backends import hub


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


def test_a_name_lookup_that_hangs_is_cut_at_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resolver without an answer waits its own time-outs (tens of seconds): the probe does not."""
    import threading

    release, answered = threading.Event(), threading.Event()

    def hanging_lookup(*args, **kwargs):
        release.wait(30)
        answered.set()
        raise socket.gaierror("no answer")

    monkeypatch.setattr(socket, "getaddrinfo", hanging_lookup)
    try:
        assert hub.hub_reachable(timeout=0.5, endpoint="https://hub.example.invalid") is False
        # the probe answered while the lookup still hung: it did not wait for the resolver
        assert not answered.is_set()
    finally:
        release.set()


@pytest.mark.parametrize("offline", ["1", None])
def test_offline_mode_and_an_unreachable_hub_are_told_apart(monkeypatch: pytest.MonkeyPatch, offline) -> None:
    from auto_challenge_sets.cli.doctor import _hub_lines

    if offline is None:
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    else:
        monkeypatch.setenv("HF_HUB_OFFLINE", offline)
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")  # nothing listens
    (ok, name, detail, get), _ = _hub_lines()
    assert not ok and name == "hub"
    if offline:
        assert detail == "offline mode (HF_HUB_OFFLINE is set)" and get == "unset HF_HUB_OFFLINE"
    else:
        assert detail.startswith("Hub unreachable at ") and detail.endswith("(offline mode is off)")
