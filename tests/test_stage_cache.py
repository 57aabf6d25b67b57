"""The resumable sharded stage: whole shards only, reused on rerun, keyed by what determines them."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.builder.pipeline.stage_cache import run_sharded, stage_dir


def test_shards_are_reused_and_output_is_in_order(tmp_path: Path) -> None:
    calls: list[list[str]] = []

    def shout(batch: list[str]) -> list[str]:
        calls.append(batch)
        return [x.upper() for x in batch]

    items = [f"line {i}" for i in range(25)]
    first = run_sharded(items, shout, cache_dir=tmp_path, stage="t", key={"k": 1}, shard_size=10, progress=False)
    assert first == [x.upper() for x in items] and len(calls) == 3
    again = run_sharded(items, shout, cache_dir=tmp_path, stage="t", key={"k": 1}, shard_size=10, progress=False)
    assert again == first and len(calls) == 3  # nothing recomputed
    run_sharded(items, shout, cache_dir=tmp_path, stage="t", key={"k": 2}, shard_size=10, progress=False)
    assert len(calls) == 6  # another key is another stage directory


def test_a_lost_or_torn_shard_is_recomputed(tmp_path: Path) -> None:
    items = [str(i) for i in range(20)]
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False)
    (directory,) = (tmp_path / "t").iterdir()
    (directory / "shard-000001.jsonl").write_text('"10"\n"11"\n', encoding="utf-8")  # torn
    seen: list[str] = []
    out = run_sharded(items, lambda b: seen.extend(b) or b, cache_dir=tmp_path, stage="t", key={}, shard_size=10,
                      progress=False)
    assert out == items and seen == items[10:]


def test_backend_returning_the_wrong_count_is_caught(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="returned 1 outputs for 2 inputs"):
        run_sharded(["a", "b"], lambda b: b[:1], cache_dir=tmp_path, stage="t", key={}, progress=False)


def test_stage_dir_depends_on_the_key_only(tmp_path: Path) -> None:
    assert stage_dir(tmp_path, "parse", {"a": 1, "b": 2}) == stage_dir(tmp_path, "parse", {"b": 2, "a": 1})
    assert stage_dir(tmp_path, "parse", {"a": 1}) != stage_dir(tmp_path, "parse", {"a": 2})


def test_outputs_with_unicode_line_separators_are_reused(tmp_path: Path) -> None:
    calls: list[list[str]] = []
    items = ["a\u2028b", "c", "d\x85e", "f\u2029"]

    def same(batch: list[str]) -> list[str]:
        calls.append(batch)
        return batch

    first = run_sharded(items, same, cache_dir=tmp_path, stage="t", key={}, shard_size=1, progress=False)
    again = run_sharded(items, same, cache_dir=tmp_path, stage="t", key={}, shard_size=1, progress=False)
    assert first == again == items and len(calls) == 4
