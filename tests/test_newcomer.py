"""A newcomer's first minutes as docs/offline.md tells them (`acs demo`, a bare-name `load_dataset`
and `evaluate.load`, `acs doctor`): fresh processes in an empty folder, an empty home (no caches),
offline mode *not* set and no network (``HF_ENDPOINT`` points at a closed port, so the result is
the same on a machine with network). Every step, the default
`acs build`'s failure included, ends with its documented status and output, and no message holds a
stand-in word. Their times are measured by benchmarks/bench_newcomer.py, not asserted here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import auto_challenge_sets

BIN = Path(sys.executable).parent
DEMO = Path(auto_challenge_sets.__file__).resolve().parent / "demo_data"
PLACEHOLDER = re.compile(r"\b(REVISION|HASH|TODO|XXX|PLACEHOLDER)\b|\{[a-z_]+\}")

STEPS = [
    ("demo", [str(BIN / "acs"), "demo", "--out", "auto_challenge_sets"], 0),
    ("stats", [str(BIN / "acs"), "stats", "auto_challenge_sets"], 0),
    ("load_dataset", [sys.executable, "-c", "from datasets import load_dataset; "
                      "print(load_dataset('auto_challenge_sets', 'de-en.particle.d3', split='sample').num_rows)"], 0),
    ("evaluate.load", [sys.executable, "-c", "import evaluate; print(evaluate.load('ldd_challenge').compute("
                       "predictions=['he gave up the plan'], references=['he gave up the plan'])['bleu'])"], 0),
    ("doctor", [str(BIN / "acs"), "doctor"], 0),
    ("default build", [str(BIN / "acs"), "build", "--pair", "de-en", "--corpus", "sample", "--source",
                       str(DEMO / "sample.de"), "--target", str(DEMO / "sample.en"), "--out", "built"], 2),
]


def newcomer_folders(root: Path) -> tuple[Path, dict[str, str]]:
    """An empty working folder and a newcomer's environment: an empty home, no Hugging Face or
    project settings, the Hub at a closed port (also benchmarks/bench_newcomer.py's)."""
    work, home = root / "ldd-work", root / "home"
    work.mkdir()
    home.mkdir()
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("HF_", "TRANSFORMERS_", "ACS_", "XDG_", "SACREBLEU"))}
    return work, {**keep, "HOME": str(home), "HF_ENDPOINT": "http://127.0.0.1:9"}


def test_the_quick_start_and_the_default_build_offline(tmp_path: Path) -> None:
    work, env = newcomer_folders(tmp_path)
    outputs, printed = {}, {}
    for name, argv, status in STEPS:
        # the time-out only guards against a hang (Hub retries); how long each step takes is
        # benchmarks/bench_newcomer.py's, never asserted here (CI runs on a busy machine)
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=300)
        outputs[name], printed[name] = done.stdout + done.stderr, done.stdout
        assert done.returncode == status, f"{name}: {done.stderr[-2000:]}"
    assert printed["load_dataset"].strip() == "7"
    assert round(float(printed["evaluate.load"]), 6) == 100.0
    assert "Hub unreachable at http://127.0.0.1:9 (offline mode is off)" in " ".join(outputs["doctor"].split())  # wrapped at 100
    assert "acs build: error: trankit model files for german" in outputs["default build"]
    assert "the Hugging Face Hub cannot be reached" in outputs["default build"]
    udpipe = tmp_path / "home" / ".cache" / "auto_challenge_sets" / "udpipe"  # the alternative, and where it goes
    assert "--parser udpipe: put german-hdt-ud-2.5-191206.udpipe" in outputs["default build"]
    assert f"into {udpipe}, or --udpipe-model FILE" in outputs["default build"]
    for name, text in outputs.items():
        assert not PLACEHOLDER.search(text), f"{name}: {PLACEHOLDER.search(text)[0]!r} in {text[-1500:]}"
