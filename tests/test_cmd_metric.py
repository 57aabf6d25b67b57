"""`acs metric install`: the design card's `evaluate.load("ldd_challenge")`, literally, in a fresh
process from an empty folder, offline and against a Hub that answers 404 (tests/fake_hub.py).

`import evaluate` costs tens of seconds (it imports transformers and torch), so each evaluate check
is one subprocess that does everything it needs at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import auto_challenge_sets
from auto_challenge_sets.cli import main
from auto_challenge_sets.metrics.install import install, module_hash, modules_cache, uninstall

from fake_hub import TOKEN, FakeHub, start

SCRIPT = Path(auto_challenge_sets.METRIC_PATH) / "ldd_challenge.py"

# what a user's script does, plus a check that our hash folder is the one evaluate itself would name
LOAD_BY_NAME = """
import json
import evaluate
from evaluate.loading import files_to_hash
import auto_challenge_sets

ldd = evaluate.load("ldd_challenge")
scores = ldd.compute(predictions=["he gave up the plan", "the cat sat"], references=["he gave up the plan", "the cat sat"])
print(json.dumps({"bleu": scores["bleu"], "module": ldd.__module__,
                  "hash": files_to_hash([auto_challenge_sets.METRIC_PATH + "/ldd_challenge.py"])}))
"""


def _load_by_name(folder: Path, cache: Path, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    done = subprocess.run([sys.executable, "-c", LOAD_BY_NAME], cwd=folder, capture_output=True, text=True,
                          env={**base, "HF_HOME": str(folder.parent / "hf-home"), "HF_MODULES_CACHE": str(cache),
                               **env}, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "stderr": done.stderr}


@pytest.fixture
def empty_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def test_install_is_idempotent_and_uninstall_removes_it(tmp_path: Path, capsys) -> None:
    cache = tmp_path / "modules"
    assert main(["metric", "install", "--modules-cache", str(cache)]) == 0
    first = capsys.readouterr().out
    assert first.startswith("installed: ")
    script = cache / "evaluate_modules" / "metrics" / "evaluate-metric--ldd_challenge" / module_hash(SCRIPT) / SCRIPT.name
    assert script.read_bytes() == SCRIPT.read_bytes() and len(script.parent.name) == 64
    meta = json.loads((script.parent / "ldd_challenge.json").read_text())
    assert meta == {"original file path": str(SCRIPT), "local file path": str(script)}
    for package in (cache, cache / "evaluate_modules", cache / "evaluate_modules" / "metrics",
                    script.parent.parent, script.parent):
        assert (package / "__init__.py").is_file()
    before = {p: p.stat().st_mtime_ns for p in cache.rglob("*")}
    assert main(["metric", "install", "--modules-cache", str(cache)]) == 0
    assert capsys.readouterr().out.startswith("already installed: ")
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*")} == before
    assert main(["metric", "install", "--uninstall", "--modules-cache", str(cache)]) == 0
    assert not script.parent.parent.exists()
    assert uninstall(cache) is None


def test_an_older_installation_is_replaced_so_evaluates_newest_is_this_one(tmp_path: Path) -> None:
    old = tmp_path / "old"
    old.mkdir()
    (old / "ldd_challenge.py").write_text("OLD = 1\n")
    cache = tmp_path / "modules"
    stale = install(old, cache).script.parent
    current = install(cache=cache)
    assert current.changed and not stale.exists()
    assert [p.name for p in current.folder.iterdir() if p.is_dir()] == [module_hash(SCRIPT)]


def test_a_missing_script_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no metric script .*nowhere/ldd_challenge\.py"):
        install(tmp_path / "nowhere", tmp_path / "modules")


def test_the_cache_resolves_as_evaluates(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HF_MODULES_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    assert modules_cache() == tmp_path / "home" / "modules"
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "mine"))
    assert modules_cache() == tmp_path / "mine"


def test_the_bare_name_loads_offline_from_an_empty_folder(empty_folder: Path, tmp_path: Path, capsys) -> None:
    cache = tmp_path / "modules"
    assert main(["metric", "install", "--modules-cache", str(cache)]) == 0
    said = capsys.readouterr().out
    result = _load_by_name(empty_folder, cache, HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    # evaluate's warning, which reads like a failure, is the one the install says to expect
    for words in ("Using the latest cached version of the module", "couldn't be found", "on the Hugging Face Hub"):
        assert words in result["stderr"] and words in said
    assert result["bleu"] == pytest.approx(100.0)
    assert result["hash"] == module_hash(SCRIPT)  # the hash folder evaluate itself names
    assert result["module"].startswith("evaluate_modules.metrics.evaluate-metric--ldd_challenge.")


def test_the_bare_name_loads_when_the_hub_answers_404(empty_folder: Path, tmp_path: Path) -> None:
    cache = tmp_path / "modules"
    install(cache=cache)
    hub = start(FakeHub())
    try:
        result = _load_by_name(empty_folder, cache, HF_ENDPOINT=hub.endpoint, HF_TOKEN=TOKEN)
    finally:
        hub.server.shutdown()
    assert result["bleu"] == pytest.approx(100.0)
    asked = [r for r in hub.requests if "evaluate-metric/ldd_challenge" in r.path]
    assert asked, [r.path for r in hub.requests]  # evaluate did ask the Hub first ...
    assert all(r.authorization == f"Bearer {TOKEN}" for r in asked)  # ... which answered 404, not 401


def test_metric_list_shows_every_metric_and_the_options_it_declares(capsys):
    assert main(["metric", "list"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("bleu: BLEU, higher is better\n  tokenize (str, default 13a): sacrebleu's tokenizer")
    assert "\nchrf: chrF, higher is better\n  (no options)\nter: TER, lower is better\n  (no options)\n" in out
    assert "\n  lowercase_ribes (bool, default true): lowercase before RIBES" in out
    if "comet: " in out:  # this package's own entry point, where the installed metadata finds its module
        assert "comet: COMET, higher is better, reads the sources\n" in out
        assert "\n  comet_gpus (int, default 0): GPUs to use (0: the CPU)\n" in out
