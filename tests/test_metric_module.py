"""The evaluate module metrics/ldd_challenge: loads offline by path; its card's examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
import yaml

from auto_challenge_sets.scoring.challenge import compute

REPO = Path(__file__).resolve().parent.parent
MODULE = REPO / "metrics" / "ldd_challenge"


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    monkeypatch.chdir(REPO)  # the card's examples load the module by its path in the repo


@pytest.fixture
def ldd(offline):
    import evaluate

    return evaluate.load(str(MODULE))


def test_loads_offline_by_path_and_delegates(ldd):
    predictions = ["the cat sat on the mat", "he gave the plan up", ""]
    references = [["the cat sat on the mat"], ["he gave up the plan", "he abandoned the plan"], ["x"]]
    got = ldd.compute(predictions=predictions, references=references, distances=[0, 1, 2])
    assert got == compute(predictions, references, distances=[0, 1, 2])
    assert "Choshen" in ldd.citation and "Isozaki" in ldd.citation
    # one reference per row as plain strings
    flat = ldd.compute(predictions=["a b c d"], references=["a b c d"])
    assert flat["bleu"] == pytest.approx(100.0) and flat["ribes"] == 1.0


def test_bad_input_surfaces_as_value_error(ldd):
    with pytest.raises(ValueError):
        ldd.compute(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match="n_samples"):
        ldd.compute(predictions=["a"], references=["a"], n_samples=0)


def test_one_import_per_line():
    # evaluate's import scanner reads `import a, b` as one module named "a, b"
    source = (MODULE / "ldd_challenge.py").read_text(encoding="utf-8")
    for line in source.splitlines():
        if re.match(r"\s*(import|from)\s", line):
            assert "," not in line.split(" import ")[0], line
            assert not re.match(r"\s*import .*,", line), line


def test_card_front_matter_and_files():
    text = (MODULE / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert {"title", "emoji", "colorFrom", "colorTo", "sdk", "sdk_version", "app_file", "tags", "description"} <= set(
        meta
    )
    assert meta["app_file"] == "app.py" and meta["sdk"] == "gradio"
    assert {"evaluate", "metric"} <= set(meta["tags"])
    app = (MODULE / "app.py").read_text(encoding="utf-8")
    assert "launch_gradio_widget" in app and 'evaluate.load("ldd_challenge")' in app
    requirements = (MODULE / "requirements.txt").read_text(encoding="utf-8").split()
    assert any(r.startswith("sacrebleu") for r in requirements)


def _card_examples() -> list[str]:
    text = (MODULE / "README.md").read_text(encoding="utf-8")
    return [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S) if ">>>" in block]


@pytest.mark.parametrize("index", range(len(_card_examples())))
def test_card_examples_run_as_doctests(offline, index):
    block = _card_examples()[index]
    test = doctest.DocTestParser().get_doctest(block, {}, f"README example {index}", str(MODULE / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.tries >= 3 and runner.failures == 0, f"README example {index} failed (see the output above)"


def test_module_docstring_example_runs(offline):
    import evaluate

    module = evaluate.load(str(MODULE))
    parser = doctest.DocTestParser()
    test = parser.get_doctest(module.inputs_description, {"evaluate": evaluate}, "inputs_description", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert test.examples and runner.failures == 0
