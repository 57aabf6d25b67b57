"""``HF_HUB_OFFLINE=1`` honoured at once: a newcomer's first steps (docs/offline.md), run with it
(and evaluate's own ``HF_EVALUATE_OFFLINE=1``: with HF_HUB_OFFLINE alone ``evaluate.load`` still
connects) in an empty home, tries no connection at all, not even the Hub probe. ``HF_ENDPOINT`` points at a loopback socket
that counts the connections it accepts, so an attempt is seen whatever the machine's network;
``acs doctor`` without offline mode connects to it once, which shows the counter sees attempts.
(datasets' own retries for a bare-name ``load_dataset`` online cannot be changed here:
docs/offline.md and ``acs doctor`` tell users offline to set ``HF_HUB_OFFLINE=1``, which this test
holds.)"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import auto_challenge_sets

BIN = Path(sys.executable).parent
DEMO = Path(auto_challenge_sets.__file__).resolve().parent / "demo_data"
LOAD = ("from datasets import load_dataset; "
        "print(load_dataset('auto_challenge_sets', 'de-en.particle.d3', split='sample').num_rows)")
METRIC = ("import evaluate; print(evaluate.load('ldd_challenge').compute(predictions=['he gave up the plan'], "
          "references=['he gave up the plan'])['bleu'])")


@pytest.fixture
def counting_endpoint() -> Iterator[tuple[str, list[int]]]:
    """A loopback HTTP endpoint that accepts connections, counts them and closes them."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = [0]

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # the socket was closed: the test is over
                return
            accepted[0] += 1
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", accepted
    server.close()


def _env(home: Path, endpoint: str, offline: bool) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_", "ACS_", "XDG_", "SACREBLEU"))}
    offline_mode = {"HF_HUB_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"} if offline else {}  # evaluate 0.4 reads its own
    return {**keep, "HOME": str(home), "HF_ENDPOINT": endpoint, **offline_mode}


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    # the time-out only guards against a hang; no wall time is asserted
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_quick_start_with_hf_hub_offline_tries_no_connection(tmp_path: Path, counting_endpoint) -> None:
    endpoint, accepted = counting_endpoint
    work, elsewhere, home = tmp_path / "ldd-work", tmp_path / "elsewhere", tmp_path / "home"
    for folder in (work, elsewhere, home):
        folder.mkdir()
    env = _env(home, endpoint, offline=True)
    steps = [
        (work, [str(BIN / "acs"), "demo", "--out", "auto_challenge_sets"], 0),
        (work, [str(BIN / "acs"), "stats", "auto_challenge_sets"], 0),
        (work, [sys.executable, "-c", LOAD], 0),  # from the folder: ./auto_challenge_sets, now in datasets' cache
        (elsewhere, [sys.executable, "-c", LOAD], 0),  # by bare name from another folder: the cache, at once
        (elsewhere, [sys.executable, "-c", METRIC], 0),
        (work, [str(BIN / "acs"), "doctor"], 0),
        (work, [str(BIN / "acs"), "build", "--pair", "de-en", "--corpus", "sample", "--source", str(DEMO / "sample.de"),
                "--target", str(DEMO / "sample.en"), "--out", "built"], 2),  # no trankit models: an error, no probe
    ]
    printed, stdout = [], []
    tried = {}
    for cwd, argv, status in steps:
        before = accepted[0]
        done = _run(argv, cwd, env)
        tried[" ".join(argv[1:3])] = accepted[0] - before
        assert done.returncode == status, f"{argv}: {done.stderr[-2000:]}"
        printed.append(done.stdout + done.stderr)
        stdout.append(done.stdout.strip())
    assert stdout[2] == stdout[3] == "7" and round(float(stdout[4]), 6) == 100.0
    assert "Found the latest cached dataset configuration 'de-en.particle.d3'" in printed[3]
    assert "offline mode (HF_HUB_OFFLINE is set)" in printed[5]
    assert "offline mode: HF_HUB_OFFLINE is set" in printed[6]
    assert accepted[0] == 0, tried


def test_doctor_without_offline_mode_probes_the_hub_and_says_how_to_go_offline(tmp_path: Path,
                                                                               counting_endpoint) -> None:
    endpoint, accepted = counting_endpoint
    done = _run([str(BIN / "acs"), "doctor"], tmp_path, _env(tmp_path, endpoint, offline=False))
    assert done.returncode == 0, done.stderr
    assert accepted[0] >= 1 and f"reachable at {endpoint}" in done.stdout  # the counter sees the probe
    closed = _run([str(BIN / "acs"), "doctor"], tmp_path, _env(tmp_path, "http://127.0.0.1:9", offline=False))
    assert "hub: check the network or HF_ENDPOINT; offline, set HF_HUB_OFFLINE=1 HF_EVALUATE_OFFLINE=1 " in closed.stdout
