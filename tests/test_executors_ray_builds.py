"""The Ray executor on a local cluster builds the very folders the local one does (and worker
processes too): in a file of its own, apart from tests/test_executors.py, so that ``pytest -n 2
--dist loadfile`` gives these minutes of builds and the rest of that file to two workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.pipeline.executors import ProcessExecutor, RayExecutor
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec

from conftest import shared_path

# -- the Ray executor: a local cluster, the same folders as the local executor ------------------


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the [ray] extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _folder_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _build_both(tmp_path: Path, processes: bool = False, processes_cache: str = "processes",
                **spec) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The folders of this process's build and of Ray's; with ``processes``, the build on two
    worker processes (``--jobs 2``) must equal the first too, its stage cache ``cache-{processes_cache}``
    (``local``: the stages the local build ran are read, only the rows are made on the workers)."""
    folders = []
    executors = [("local", None), ("ray", RayExecutor(workers=2))] + (
        [("processes", ProcessExecutor(jobs=2))] if processes else [])
    for name, executor in executors:
        out = tmp_path / name
        cache = processes_cache if name == "processes" else name
        build_into_folder(BuildSpec(**spec, cache_dir=tmp_path / f"cache-{cache}", executor=executor), out,
                          license="other", progress=False)
        folders.append(_folder_bytes(out))
    if processes:
        assert folders[2] == folders[0], "the build on worker processes differs from the build in this process"
    return folders[0], folders[1]


@pytest.mark.slow  # two builds of 150 lines, one on a Ray cluster: about 25 s
def test_ray_builds_newstest2013_with_udpipe_and_eflomal_as_the_local_executor(ray_cluster, tmp_path):
    # 150 lines in five parse shards, more than the cluster's two actors: enough for Ray to run
    # shards out of order on both and for a reorder config at D 5; more lines only cost time
    data = shared_path("data", "newstest2013")
    for lang in ("de", "en"):
        lines = (data / f"newstest2013.{lang}").read_text(encoding="utf-8").split("\n")[:150]
        (tmp_path / f"news.{lang}").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    local, ray = _build_both(tmp_path, pair="de-en", corpus="newstest2013", source=tmp_path / "news.de",
                             target=tmp_path / "news.en", shard_size=30,
                             parser=ParserSpec("udpipe", {"udpipe_model": shared_path("models", "german.udpipe")}),
                             aligner=AlignerSpec("eflomal", {"seed": 1}))
    assert local == ray and len(local) > 30 and "data/de-en.reorder.d5/newstest2013-00000-of-00001.parquet" in local


@pytest.mark.slow  # the sample on three executors, then gold PUD on two: about 50 s
def test_ray_builds_the_sample_and_gold_pud_as_the_local_executor(ray_cluster, tmp_path):
    local, ray = _build_both(tmp_path / "sample", processes=True, pair="de-en", corpus="sample",
                             source=demo_file("sample.de"),
                             target=demo_file("sample.en"), shard_size=7,
                             parser=ParserSpec("udpipe", {"udpipe_model": shared_path("models", "german.udpipe")}),
                             aligner=AlignerSpec("eflomal", {"seed": 1}))
    assert local == ray and len(local) > 30
    pud = shared_path("data", "pud", "de_pud-ud-test.conllu")
    texts = {}
    for lang in ("de", "en"):
        path = shared_path("data", "pud", f"{lang}_pud-ud-test.conllu")
        texts[lang] = [line[len("# text = "):] for line in path.read_text(encoding="utf-8").split("\n")
                       if line.startswith("# text = ")]
        (tmp_path / f"pud.{lang}").write_text("".join(x + "\n" for x in texts[lang]), encoding="utf-8")
    # gold trees leave the alignment as the one stage to run, and eflomal aligns the corpus as one
    # shard, which worker processes run here as the local build did: the build on workers reads the
    # local build's alignment and makes its rows on the workers (the sample above runs every stage there)
    local, ray = _build_both(tmp_path / "pud", processes=True, processes_cache="local", pair="de-en", corpus="pud",
                             source=tmp_path / "pud.de", target=tmp_path / "pud.en", source_conllu=pud,
                             aligner=AlignerSpec("eflomal", {"seed": 1}))
    assert local == ray and len(local) > 30
