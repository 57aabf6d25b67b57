"""The evaluation service (evaluation/service.py) on the packaged sample, without the command line."""

from __future__ import annotations

import pytest

from auto_challenge_sets.dataset.demo import build_demo
from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.service import EvaluationRequest, choose_configs, evaluate_system


@pytest.fixture(scope="module")
def sample_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("sample") / "sets"
    build_demo(out)
    return out


def test_all_configs_of_a_pair_once_each_in_numeric_order(sample_folder):
    folder = DatasetFolder(sample_folder)
    chosen = choose_configs(folder, "all", "de-en")
    assert "de-en.particle" in folder.files and "de-en.particle" not in chosen  # the alias of d1
    assert "de-en.baseline" not in chosen
    reorder = [name for name in chosen if ".reorder." in name]
    assert reorder == sorted(reorder, key=lambda name: int(name.rsplit(".d", 1)[1]))
    with pytest.raises(InputError, match="several language pairs"):
        choose_configs(folder, "all")


def test_the_reference_as_hypothesis_scores_100_everywhere(sample_folder):
    evaluation = evaluate_system(EvaluationRequest(sample_folder, demo_file("sample.en"), pair="de-en",
                                                   n_samples=5))
    assert evaluation.split == "sample" and evaluation.full["bleu"] == pytest.approx(100.0)
    assert evaluation.results and all(item.result["bleu"] == pytest.approx(100.0) for item in evaluation.results)
    payload = evaluation.payload()
    assert set(payload["configs"]) == {item.config for item in evaluation.results}
    assert payload["n_samples"] == 5 and payload["full_corpus_config"] == "de-en.baseline"
    assert "full corpus" not in payload and "samples" not in payload


def test_one_config_gets_its_own_breakdown_by_distance(sample_folder):
    evaluation = evaluate_system(EvaluationRequest(sample_folder, demo_file("sample.en"),
                                                   config="de-en.particle.d1", n_samples=5))
    (rows,) = evaluation.breakdowns.values()
    assert rows[0]["min_distance"] == 1 and all(r["n"] for r in rows)
    assert [r["min_distance"] for r in rows] == sorted(r["min_distance"] for r in rows)


def test_a_hypothesis_of_the_wrong_length_names_the_file(sample_folder, tmp_path):
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"short\.en: has 1 lines but the corpus of de-en\.baseline"):
        evaluate_system(EvaluationRequest(sample_folder, short, pair="de-en"))
