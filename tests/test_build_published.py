"""builder/build_published.py: the recipes of the published sets, their checks, and a real build."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.configs import check_split_name, parse_pair
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.errors import AcsError

from conftest import REPO, shared_path

SCRIPT = REPO / "builder" / "build_published.py"
RECIPES = REPO / "builder" / "recipes.toml"
PUBLISHED = {"de-en.newstest2013", "en-de.newstest2013", "de-en.newstest2021", "en-de.newstest2021"}


def _load_module():
    spec = importlib.util.spec_from_file_location("build_published", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


bp = _load_module()


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_recipes_are_the_published_sets_with_trankit_and_simalign_on_cuda() -> None:
    recipes = bp.load_recipes(RECIPES)
    assert {recipe.id for recipe in recipes.recipes} == PUBLISHED
    assert recipes.defaults["device"] == "cuda"
    for recipe in recipes.recipes:
        source, target = parse_pair(recipe.pair)
        assert check_split_name(recipe.corpus) == recipe.corpus
        # the files are the pair's own languages: the source file ends in the source language
        assert recipe.source.endswith("." + source) and recipe.target.endswith("." + target), recipe
        assert recipe.parser == "trankit" and recipe.aligner == "simalign"
        assert recipe.parser_options == {"embedding": "xlm-roberta-base"}
        assert recipe.aligner_options == {"model": "bert-base-multilingual-cased", "layer": 8, "method": "argmax"}
        assert recipe.license == "other"
        assert not recipe.source.startswith("pud/")


@pytest.mark.shared
def test_shipped_recipes_files_exist_under_the_shared_data_and_dry_run_names_each(capsys) -> None:
    data = shared_path("data")
    recipes = bp.load_recipes(RECIPES)
    for recipe in recipes.recipes:
        for relative in (recipe.source, recipe.target):
            assert (data / relative).is_file(), f"{recipe.id}: {data / relative}"
    code = bp.main(["--data-root", str(data), "--out", "unused", "--dry-run"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.out.splitlines()
    assert len(lines) == len(PUBLISHED)
    for name in PUBLISHED:
        line = next(line for line in lines if line.startswith(name + ":"))
        # the device reaches both GPU backends; the recipe's options are there too
        assert "trankit (device=cuda, embedding=xlm-roberta-base)" in line
        assert "simalign (device=cuda, layer=8, method=argmax, model=bert-base-multilingual-cased)" in line
    assert not Path("unused").exists()  # a dry run writes nothing


def test_device_and_overrides_reach_only_the_backends_that_declare_them(tmp_path: Path) -> None:
    for name in ("a.de", "a.en"):
        _write(tmp_path / name, "Hallo .\n")
    recipes = bp.load_recipes(_write(tmp_path / "r.toml", """
[defaults]
device = "cuda"
[[build]]
pair = "de-en"
corpus = "tiny"
source = "a.de"
target = "a.en"
license = "other"
parser_options = {embedding = "xlm-roberta-large"}
aligner_options = {layer = 6}
"""))
    [build] = bp.plan(recipes, tmp_path, device="cpu")  # --device wins over [defaults]
    assert build.spec.parser.name == "trankit"
    assert build.spec.parser.options == {"embedding": "xlm-roberta-large", "device": "cpu"}
    assert build.spec.aligner.options == {"layer": 6, "device": "cpu"}
    [build] = bp.plan(recipes, tmp_path)
    assert build.spec.parser.options["device"] == "cuda" and build.spec.aligner.options["device"] == "cuda"

    [build] = bp.plan(recipes, tmp_path, parser="udpipe", aligner="eflomal",
                      parser_options=["udpipe_model=models/german.udpipe"],
                      aligner_options=["seed=7", "symmetrization=intersection"])
    # the recipe's trankit/simalign options do not follow to another backend, nor does the device
    assert build.spec.parser.options == {"udpipe_model": Path("models/german.udpipe")}
    assert build.spec.aligner.options == {"seed": 7, "symmetrization": "intersection"}
    [build] = bp.plan(recipes, tmp_path, aligner="none")
    assert build.spec.aligner is None and not any(".reorder." in c for c in build.spec.config_names())

    with pytest.raises(AcsError, match="has no option 'embedding'"):
        bp.plan(recipes, tmp_path, parser="udpipe", parser_options=["embedding=xlm-roberta-base"])
    with pytest.raises(AcsError, match="layer: bad value 'deep'"):
        bp.plan(recipes, tmp_path, aligner_options=["layer=deep"])
    with pytest.raises(AcsError, match="no such recipe.*de-en.tiny"):
        bp.plan(recipes, tmp_path, only=["en-de.tiny"])


def test_a_recipe_naming_no_aligner_gets_the_default_aligner_policy(tmp_path: Path, monkeypatch, capsys) -> None:
    """The recipes' default is "auto", the policy of `acs build` and BuildSpec(aligner="auto"):
    offline and without mBERT in the cache, eflomal with the same note (shown by --dry-run too)."""
    from auto_challenge_sets.pipeline.defaults import default_aligner

    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))
    for name in ("a.de", "a.en"):
        _write(tmp_path / name, "Hallo .\n")
    recipes = _write(tmp_path / "r.toml", """
[[build]]
pair = "de-en"
corpus = "tiny"
source = "a.de"
target = "a.en"
source_conllu = "a.de"
license = "other"
""")
    assert bp.load_recipes(recipes).recipes[0].aligner == "auto"
    [build] = bp.plan(bp.load_recipes(recipes), tmp_path)
    assert build.spec.aligner.name == "eflomal" and build.spec.aligner_note == default_aligner().note
    assert bp.main(["--recipes", str(recipes), "--data-root", str(tmp_path), "--out", str(tmp_path / "o"),
                    "--dry-run"]) == 0
    assert f"note: de-en.tiny: {default_aligner().note}" in capsys.readouterr().err
    [build] = bp.plan(bp.load_recipes(recipes), tmp_path, aligner="auto", aligner_options=["layer=6"])
    assert build.spec.aligner.name == "simalign" and build.spec.aligner_note is None  # simalign's option given


def test_a_missing_file_is_exit_2_naming_the_recipe_and_the_path(tmp_path: Path, capsys) -> None:
    _write(tmp_path / "present.de", "Hallo .\n")
    recipes = _write(tmp_path / "r.toml", """
[[build]]
pair = "de-en"
corpus = "tiny"
source = "present.de"
target = "sub/absent.en"
license = "other"
""")
    out = tmp_path / "out"
    code = bp.main(["--recipes", str(recipes), "--data-root", str(tmp_path), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("build_published: error: ") and "Traceback" not in err
    assert str(tmp_path / "sub" / "absent.en") in err and "de-en.tiny" in err and "target" in err
    assert not out.exists()  # checked before any build


def test_a_bad_pair_in_the_recipes_is_exit_2(tmp_path: Path, capsys) -> None:
    recipes = _write(tmp_path / "r.toml", '[[build]]\npair = "german-english"\ncorpus = "x"\n'
                     'source = "a"\ntarget = "b"\nlicense = "other"\n')
    assert bp.main(["--recipes", str(recipes), "--data-root", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "recipe 1" in err and "german-english" in err


def test_end_to_end_on_the_demo_sample_matches_a_direct_build(tmp_path: Path, capsys) -> None:
    from auto_challenge_sets.dataset.layout import folder_sizes
    from auto_challenge_sets.dataset.writer import build_into_folder
    from auto_challenge_sets.pipeline.run_build import BuildSpec

    data_root = demo_file("sample.de").parent
    recipes = _write(tmp_path / "r.toml", """
[defaults]
device = "cuda"   # no backend runs here: a pre-parsed source and no aligner take no device
[[build]]
pair = "de-en"
corpus = "sample"
source = "sample.de"
target = "sample.en"
source_conllu = "sample.de.conllu"
aligner = "none"
license = "apache-2.0"
""")
    out = tmp_path / "out"
    code = bp.main(["--recipes", str(recipes), "--data-root", str(data_root), "--out", str(out), "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "de-en.sample: 29 sentence pairs of 29 lines" in captured.out
    assert "particle" in captured.out  # the size table
    assert (out / "data" / "de-en.baseline" / "sample-00000-of-00001.parquet").is_file()
    sizes = folder_sizes(out)
    assert sizes["de-en.baseline"]["sample"] == 29
    assert not any(".reorder." in name for name in sizes)  # aligner = "none"

    direct = tmp_path / "direct"
    spec = BuildSpec(pair="de-en", corpus="sample", source=data_root / "sample.de",
                     target=data_root / "sample.en", source_conllu=data_root / "sample.de.conllu")
    result = build_into_folder(spec, direct, license="apache-2.0", progress=False)
    assert result.sizes["de-en.particle.d1"] > 0
    assert sizes["de-en.particle.d1"]["sample"] == result.sizes["de-en.particle.d1"]
    assert folder_sizes(direct) == sizes
    relative = Path("data") / "de-en.particle.d1" / "sample-00000-of-00001.parquet"
    assert (out / relative).read_bytes() == (direct / relative).read_bytes()
    assert json.loads((out / "acs_build.json").read_text())["license"] == "apache-2.0"


@pytest.mark.shared
def test_recipes_run_offline_with_udpipe_and_eflomal_overrides(tmp_path: Path, capsys) -> None:
    model = shared_path("models", "german.udpipe")
    newstest = shared_path("data", "newstest2013")
    data_root = tmp_path / "data"
    (data_root / "news").mkdir(parents=True)
    for lang in ("de", "en"):
        lines = (newstest / f"newstest2013.{lang}").read_text(encoding="utf-8").splitlines(True)[:60]
        _write(data_root / "news" / f"news60.{lang}", "".join(lines))
    recipes = _write(tmp_path / "r.toml", """
[defaults]
device = "cuda"
[[build]]
pair = "de-en"
corpus = "news60"
source = "news/news60.de"
target = "news/news60.en"
license = "other"
parser = "trankit"
parser_options = {embedding = "xlm-roberta-base"}
aligner = "simalign"
aligner_options = {model = "bert-base-multilingual-cased", layer = 8, method = "argmax"}
""")
    out = tmp_path / "out"
    code = bp.main(["--recipes", str(recipes), "--data-root", str(data_root), "--out", str(out), "--quiet",
                    "--parser", "udpipe", "--parser-option", f"udpipe_model={model}",
                    "--aligner", "eflomal", "--aligner-option", "seed=1",
                    "--cache-dir", str(tmp_path / "cache")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    from auto_challenge_sets.dataset.layout import folder_sizes

    sizes = folder_sizes(out)
    assert sizes["de-en.baseline"]["news60"] == 60
    assert any(name.startswith("de-en.reorder.") for name in sizes)  # eflomal aligned: reorder configs
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "udpipe (german.udpipe)" in card
    assert "trankit" not in card and "simalign" not in card
    [record] = json.loads((out / "acs_build.json").read_text())["builds"]
    assert record["parser"] == "udpipe (german.udpipe)" and "eflomal" in record["aligner"]
    assert any((tmp_path / "cache").iterdir())  # --cache-dir took the stage cache
