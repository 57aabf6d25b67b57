"""The executor seam of the stage cache: shards may finish in any order, the output is the same;
the Ray executor on a local cluster builds the very folders the local one does."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.builder.pipeline.executors import LocalExecutor, RayExecutor, ShardWork
from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.builder.pipeline.stage_cache import run_sharded
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import demo_file

from conftest import shared_path


class ReversedExecutor:
    """Runs the pending shards last first, as a pool of workers may finish them."""

    def __init__(self):
        self.ran: list[int] = []

    def map_shards(self, process, shards):
        for number, shard in reversed(list(shards)):
            self.ran.append(number)
            yield number, process(shard)


def test_local_executor_runs_in_order():
    assert list(LocalExecutor().map_shards(len, [(0, "ab"), (1, "c")])) == [(0, 2), (1, 1)]


def test_out_of_order_shards_give_the_sequential_output_and_are_cached(tmp_path):
    lines = [f"line {k}" for k in range(23)]
    sequential = run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "a",
                             stage="test", key={"v": 1}, shard_size=5, progress=False)
    executor = ReversedExecutor()
    reordered = run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "b",
                            stage="test", key={"v": 1}, shard_size=5, progress=False, executor=executor)
    assert reordered == sequential == [x.upper() for x in lines]
    assert executor.ran == [4, 3, 2, 1, 0]
    again = ReversedExecutor()
    run_sharded(lines, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "b", stage="test",
                key={"v": 1}, shard_size=5, progress=False, executor=again)
    assert again.ran == []  # every shard was kept


class _Upper:
    """A stand-in backend that records how often it was made."""

    made = 0

    def __init__(self):
        type(self).made += 1

    def apply(self, batch):
        return [x.upper() for x in batch]


def _apply(backend, batch):
    return backend.apply(batch)


def test_shard_work_makes_its_backend_once_and_travels_without_it():
    import pickle

    _Upper.made = 0
    work = ShardWork(_Upper, _apply)
    assert work(["a"]) == ["A"] and work(["b"]) == ["B"] and _Upper.made == 1
    copy = pickle.loads(pickle.dumps(work))  # what another process gets: no backend
    assert copy._backend is None and copy(["c"]) == ["C"] and _Upper.made == 2
    ready = _Upper()
    assert ShardWork(_Upper, _apply, ready=ready)(["d"]) == ["D"]
    assert _Upper.made == 3  # the ready backend is used, none made


# -- the Ray executor: a local cluster, the same folders as the local executor ------------------


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="the [ray] extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _folder_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _build_both(tmp_path: Path, **spec) -> tuple[dict[str, bytes], dict[str, bytes]]:
    folders = []
    for name, executor in (("local", None), ("ray", RayExecutor(workers=2))):
        out = tmp_path / name
        build_into_folder(BuildSpec(**spec, cache_dir=tmp_path / f"cache-{name}", executor=executor), out,
                          license="other", progress=False)
        folders.append(_folder_bytes(out))
    return folders[0], folders[1]


def test_ray_builds_newstest2013_with_udpipe_and_eflomal_as_the_local_executor(ray_cluster, tmp_path):
    data = shared_path("data", "newstest2013")
    for lang in ("de", "en"):
        lines = (data / f"newstest2013.{lang}").read_text(encoding="utf-8").split("\n")[:300]
        (tmp_path / f"news.{lang}").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    local, ray = _build_both(tmp_path, pair="de-en", corpus="newstest2013", source=tmp_path / "news.de",
                             target=tmp_path / "news.en", shard_size=60,
                             parser=ParserSpec("udpipe", {"udpipe_model": shared_path("models", "german.udpipe")}),
                             aligner=AlignerSpec("eflomal", {"seed": 1}))
    assert local == ray and len(local) > 30 and "data/de-en.reorder.d5/newstest2013-00000-of-00001.parquet" in local


def test_ray_builds_the_sample_and_gold_pud_as_the_local_executor(ray_cluster, tmp_path):
    local, ray = _build_both(tmp_path / "sample", pair="de-en", corpus="sample", source=demo_file("sample.de"),
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
    local, ray = _build_both(tmp_path / "pud", pair="de-en", corpus="pud", source=tmp_path / "pud.de",
                             target=tmp_path / "pud.en", source_conllu=pud, aligner=AlignerSpec("eflomal", {"seed": 1}))
    assert local == ray and len(local) > 30
