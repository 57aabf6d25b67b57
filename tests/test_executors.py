"""The executor seam of the stage cache: shards may finish in any order, the output is the same."""

from __future__ import annotations

from auto_challenge_sets.builder.pipeline.executors import LocalExecutor
from auto_challenge_sets.builder.pipeline.stage_cache import run_sharded


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
