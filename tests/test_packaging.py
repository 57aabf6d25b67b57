"""The wheel as a user installs it: the metric module and the card template ship inside it, and the
metric loads by its handle from any working folder, offline."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # a copy of what the sdist holds, so setuptools' build/ and a stale build/lib stay out of the repo
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "auto_challenge_sets", source / "auto_challenge_sets",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                    "--quiet", "--wheel-dir", str(out)], check=True, env={**os.environ, "PIP_NO_INDEX": "1"})
    (found,) = out.glob("auto_challenge_sets-*.whl")
    return found


def test_the_wheel_carries_the_metric_module_and_the_card(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    module = "auto_challenge_sets/metrics/ldd_challenge/"
    assert {module + name for name in ("ldd_challenge.py", "README.md", "app.py", "requirements.txt")} <= names
    assert "auto_challenge_sets/dataset/dataset_card.md" in names
    # what the run and the page read at run time, where the code looks for them (package-data)
    assert "auto_challenge_sets/evaluation/results.schema.json" in names
    templates = REPO / "auto_challenge_sets/evaluation/report/html/templates"
    shipped = {"auto_challenge_sets/evaluation/report/html/templates/" + p.name for p in templates.iterdir()}
    assert len(shipped) >= 6 and shipped <= names
    assert not any(name.startswith(("tests/", "benchmarks/", "studies/", "mutation/")) for name in names)


def test_the_metric_loads_by_its_handle_from_the_root_folder(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = ("import auto_challenge_sets as acs, sys\n"
              f"assert acs.METRIC_PATH.startswith({str(site)!r}), acs.METRIC_PATH\n"
              "result = acs.load_metric().compute(predictions=['he gave the plan up'], references=['he gave up the plan'])\n"
              "print(round(result['bleu'], 4), result['n'])\n")
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "HF_EVALUATE_OFFLINE": "1", "HF_MODULES_CACHE": str(tmp_path / "modules")}
    done = subprocess.run([sys.executable, "-c", script], cwd="/", env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    import sacrebleu

    expected = round(sacrebleu.corpus_bleu(["he gave the plan up"], [["he gave up the plan"]]).score, 4)
    assert done.stdout.split() == [str(expected), "1"]


def test_the_editable_install_is_a_path_entry_a_dataset_folder_cannot_shadow(tmp_path: Path) -> None:
    """`make setup`'s editable install (setuptools' default mode) is a plain path entry for the
    repository, not an import hook: a hook is consulted after sys.path, where a dataset folder named
    auto_challenge_sets in the working folder (`acs build`'s default --out) is a namespace package."""
    prefix = tmp_path / "prefix"
    # --ignore-installed: without it pip uninstalls the running environment's own copy first
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--ignore-installed", "--prefix", str(prefix), "-e", str(REPO)], check=True,
                   capture_output=True, env={**os.environ, "PIP_NO_INDEX": "1"})
    (pth,) = prefix.rglob("__editable__.auto_challenge_sets-*.pth")
    assert pth.read_text(encoding="utf-8").split() == [str(REPO)]  # a path, no `import` hook line
    work = tmp_path / "work"
    (work / "auto_challenge_sets" / "data" / "de-en.particle").mkdir(parents=True)
    script = f"import site; site.addsitedir({str(pth.parent)!r}); import auto_challenge_sets; print(auto_challenge_sets.__file__)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-S", "-c", script], cwd=work, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert Path(done.stdout.strip()) == REPO / "auto_challenge_sets" / "__init__.py"
