"""The evaluate module auto_challenge_sets/metrics/ldd_challenge, installed with the package: loads
offline from any working folder by its handle; its card's examples run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
import yaml
from huggingface_hub import SpaceCard

import auto_challenge_sets
from auto_challenge_sets.metrics.compute import compute
from auto_challenge_sets.scoring import metrics as metric_registry

from source_metric import SourceLengthRatio

MODULE = Path(auto_challenge_sets.METRIC_PATH)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_EVALUATE_OFFLINE", "1")
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    monkeypatch.chdir("/")  # the handle works from any working folder, the repo's root not needed


@pytest.fixture
def ldd(offline):
    import evaluate

    return evaluate.load(auto_challenge_sets.METRIC_PATH)


def test_the_handle_is_the_installed_package_folder(offline):
    assert MODULE.is_dir() and MODULE.is_relative_to(Path(auto_challenge_sets.__file__).parent)
    assert {"ldd_challenge.py", "README.md", "app.py", "requirements.txt"} <= {p.name for p in MODULE.iterdir()}
    ldd = auto_challenge_sets.load_metric()
    assert ldd.name == "ldd_challenge"
    assert ldd.compute(predictions=["a b c d"], references=["a b c d"])["ribes"] == 1.0


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
    # our validation's messages, through evaluate (which checks nothing of its own here)
    with pytest.raises(ValueError, match="^references has 1 items but predictions has 2$"):
        ldd.compute(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match="^lengths has 2 items but predictions has 1$"):
        ldd.compute(predictions=["a"], references=["a"], lengths=[1, 2])
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
    assert SpaceCard.load(MODULE / "README.md").data.to_dict()["app_file"] == "app.py"  # what the Hub reads
    app = (MODULE / "app.py").read_text(encoding="utf-8")
    assert "launch_gradio_widget" in app and 'evaluate.load(os.environ.get("SPACE_ID")' in app
    requirements = (MODULE / "requirements.txt").read_text(encoding="utf-8").split()
    assert any(r.startswith("sacrebleu") for r in requirements)
    # a Space installs the package pip can find: this release, pinned
    assert f"auto-challenge-sets=={auto_challenge_sets.__version__}" in requirements


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


# -- hostile input: checked before evaluate stores it --------------------------------------------


@pytest.mark.parametrize(
    "kwargs,message",
    [
        # evaluate would read a string as a list of characters and score each one
        ({"predictions": "the cat", "references": ["the cat"] * 7}, "^predictions must be a list"),
        ({"predictions": ["the cat"], "references": "the cat"}, "^references must be a list"),
        ({"predictions": b"the cat", "references": ["the cat"] * 7}, "^predictions must be a list"),
        ({"predictions": [None], "references": ["a"]}, r"^predictions\[0\] is NoneType"),
        ({"predictions": ["a", 3], "references": ["a", "b"]}, r"^predictions\[1\] is int"),
        ({"predictions": ["a"], "references": [["a", None]]}, r"^references\[0\]\[1\] is NoneType"),
        ({"predictions": ["a"], "references": [None]}, r"^references\[0\] is NoneType"),
        ({"predictions": ["a"], "references": ["a"], "lengths": [None]}, r"^lengths\[0\] is NoneType"),
        ({"predictions": ["a"], "references": ["a"], "distances": [float("nan")]}, r"^distances\[0\] is float"),
        ({"predictions": ["a"], "references": ["a"], "ids": [None]}, r"^ids\[0\] is NoneType"),
        ({"predictions": ["a"], "references": ["a"], "distances": [1], "min_distances": "1"}, "^min_distances"),
        ({"predictions": ["a"], "references": ["a"], "n_samples": 10**9}, "^n_samples is 1000000000, above"),
        ({"predictions": [], "references": []}, "^predictions is empty"),
        ({"predictions": ["a"], "references": ["a"], "bogus": 1}, r"^unknown argument\(s\) \['bogus'\]"),
        ({"predictions": ["a \ud800"], "references": ["a"]}, r"^predictions\[0\] is not valid Unicode"),
        ({"predictions": ["a"], "references": [["a", "b\udfff"]]}, r"^references\[0\]\[1\] is not valid Unicode"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_argument(ldd, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ldd.compute(**kwargs)


def test_add_and_add_batch_check_their_input_too(ldd):
    with pytest.raises(ValueError, match="^predictions must be a list"):
        ldd.add_batch(predictions="the cat", references=["x"] * 7)
    with pytest.raises(ValueError, match="^prediction must be a string"):
        ldd.add(prediction=["x"], reference="x")
    with pytest.raises(ValueError, match=r"^reference\[1\] is NoneType"):
        ldd.add(prediction="x", reference=["x", None])
    # nothing was stored by the refused calls; one string or a list of references mix freely
    ldd.add(prediction="a b c", reference="a b c")
    ldd.add_batch(predictions=["d e f", "g h"], references=[["d e f", "x"], "g h"])
    ldd.add_batch(predictions=[], references=[])  # an empty batch after others adds nothing
    got = ldd.compute()
    assert got == compute(["a b c", "d e f", "g h"], ["a b c", ["d e f", "x"], "g h"])


def test_mixed_reference_forms_score_as_compute_does(ldd):
    predictions = ["he gave the plan up", "the cat sat"]
    references = ["he gave up the plan", ["the cat sat", "a cat sat"]]  # evaluate alone stored "['the cat sat', ...]"
    assert ldd.compute(predictions=predictions, references=references) == compute(predictions, references)


def test_a_failed_compute_leaves_no_cache_file_locked(ldd):
    """A lock left held by a failed call made every later call wait evaluate's 1 s lock time-out
    before it took a new cache file: every lock file is free at once after the failures."""
    from datasets.utils.filelock import FileLock

    for _ in range(3):
        with pytest.raises(ValueError, match="n_samples"):
            ldd.compute(predictions=["a"], references=["a"], lengths=[1], pool_predictions=["b"],
                        pool_references=["b"], pool_lengths=[1], n_samples=0)
    assert ldd.filelock is None or not ldd.filelock.is_locked
    for lock_file in Path(ldd.data_dir).glob("*.lock"):
        lock = FileLock(str(lock_file))
        lock.acquire(timeout=0)  # raises Timeout when a failed call still holds it
        lock.release()
    assert ldd.compute(predictions=["a b"], references=["a b"])["n"] == 1


def test_a_metric_that_reads_sources_gets_them_through_evaluate(ldd, monkeypatch):
    monkeypatch.setitem(metric_registry._REGISTRY, SourceLengthRatio.name, SourceLengthRatio)
    preds, refs, sources = ["a b c", "a b", "x y z w"], ["a b c", "a b d", "x y"], ["a b", "a b c d", "x y"]
    got = ldd.compute(predictions=preds, references=refs, sources=sources, metrics=["srcratio"])
    assert got["srcratio"] == pytest.approx((3 / 2 + 2 / 4 + 4 / 2) / 3) and got["srcratio_signature"] == "srcratio"
    assert got["bleu"] == compute(preds, refs)["bleu"]
    # the random corpora read the pool's sources: each sample's score is the mean of its rows' ratios
    pool_preds, pool_sources = [f"p {'w ' * k}".strip() for k in range(8)], [f"s {'v ' * (k % 3)}".strip() for k in range(8)]
    ratios = [len(p.split()) / len(s.split()) for p, s in zip(pool_preds, pool_sources)]
    pooled = ldd.compute(predictions=preds, references=refs, sources=sources, metrics=["srcratio"], lengths=[2, 2, 2],
                         pool_predictions=pool_preds, pool_references=["r"] * 8, pool_lengths=[2] * 8,
                         pool_sources=pool_sources, n_samples=6, return_samples=True)
    samples = pooled["random_baseline"]["samples"]
    assert samples["srcratio"] == pytest.approx([sum(ratios[i] for i in row) / 3 for row in samples["index"]])
    with pytest.raises(ValueError, match="^sources is None; metric srcratio needs the source sentences, one per item "
                                         "of predictions$"):
        ldd.compute(predictions=preds, references=refs, metrics=["srcratio"])
    with pytest.raises(ValueError, match="^pool_sources is None; metric srcratio needs the source sentences"):
        ldd.compute(predictions=preds, references=refs, sources=sources, metrics=["srcratio"], lengths=[2, 2, 2],
                    pool_predictions=pool_preds, pool_references=["r"] * 8, pool_lengths=[2] * 8)
    with pytest.raises(ValueError, match="^sources has 2 items but predictions has 3$"):
        ldd.compute(predictions=preds, references=refs, sources=sources[:2], metrics=["srcratio"])
