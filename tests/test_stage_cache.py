"""The resumable sharded stage: whole shards only, reused on rerun, keyed by what determines them."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.pipeline.stage_cache import (
    ALIGN_SHARD_SIZE,
    PARSE_SHARD_SIZE,
    changed_by_hand,
    checksum_lines,
    hash_path,
    run_sharded,
    stage_dir,
)


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


# -- the files of a stage directory, byte for byte ---------------------------------------------


def _segments(err: str) -> list[str]:
    """tqdm's successive states of the bar (it redraws after a carriage return)."""
    return [part.strip() for part in err.split("\r") if part.strip()]


def test_checksum_lines_is_the_sha256_of_the_lines_each_ended_by_a_newline() -> None:
    assert checksum_lines(["a", "é"]) == hashlib.sha256("a\né\n".encode()).hexdigest()
    assert checksum_lines([]) == hashlib.sha256(b"").hexdigest()


def test_stage_dir_is_the_first_24_hex_digits_of_the_sorted_utf8_json_key(tmp_path: Path) -> None:
    blob = '{"a": 1, "model": "é"}'.encode()  # sorted, ", " and ": ", é as itself
    digest = hashlib.sha256(blob).hexdigest()[:24]
    assert stage_dir(tmp_path, "parse", {"model": "é", "a": 1}) == tmp_path / "parse" / digest
    assert stage_dir(str(tmp_path), "parse", {"model": "é", "a": 1}) == tmp_path / "parse" / digest


def test_a_run_writes_each_shard_with_its_sha256_in_the_folder_of_its_key(tmp_path: Path) -> None:
    items = ["é", "b", "c"]
    out = run_sharded(items, lambda batch: [x.upper() for x in batch], cache_dir=tmp_path / "new" / "cache",
                      stage="t", key={"model": "ü"}, shard_size=2, progress=False)
    assert out == ["É", "B", "C"]
    checksum = hashlib.sha256("é\nb\nc\n".encode()).hexdigest()
    blob = f'{{"inputs": "{checksum}", "model": "ü", "n": 3, "shard_size": 2}}'.encode()
    directory = tmp_path / "new" / "cache" / "t" / hashlib.sha256(blob).hexdigest()[:24]
    assert sorted(p.name for p in directory.iterdir()) == [
        "shard-000000.jsonl", "shard-000000.jsonl.sha256", "shard-000001.jsonl", "shard-000001.jsonl.sha256"]
    shards = {"shard-000000.jsonl": '"É"\n"B"\n'.encode(), "shard-000001.jsonl": b'"C"\n'}
    for name, data in shards.items():
        assert (directory / name).read_bytes() == data
        assert (directory / f"{name}.sha256").read_text(encoding="utf-8") == hashlib.sha256(data).hexdigest() + "\n"
    assert hash_path(directory / "shard-000000.jsonl") == directory / "shard-000000.jsonl.sha256"
    assert run_sharded(items, lambda batch: pytest.fail("all cached"), cache_dir=tmp_path / "new" / "cache",
                       stage="t", key={"model": "ü"}, shard_size=2, progress=False) == out


def test_the_default_shard_size_is_the_parse_stages_1000_lines(tmp_path: Path) -> None:
    assert (PARSE_SHARD_SIZE, ALIGN_SHARD_SIZE) == (1000, 2000)
    sizes: list[int] = []

    def count(batch: list[str]) -> list[str]:
        sizes.append(len(batch))
        return batch

    items = [str(i) for i in range(1001)]
    assert run_sharded(items, count, cache_dir=tmp_path, stage="t", key={}, progress=False) == items
    assert sizes == [1000, 1]
    (directory,) = (tmp_path / "t").iterdir()
    assert sorted(p.name for p in directory.glob("shard-*.jsonl")) == ["shard-000000.jsonl", "shard-000001.jsonl"]
    key = {"inputs": checksum_lines(items), "n": len(items), "shard_size": 1000}
    assert directory == stage_dir(tmp_path, "t", key)


def test_a_shard_size_below_one_is_refused_one_is_not(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as raised:
        run_sharded(["a"], lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=0, progress=False)
    assert str(raised.value) == "shard_size must be >= 1"
    assert not (tmp_path / "t").exists()
    batches: list[list[str]] = []
    assert run_sharded(["a", "b"], lambda b: batches.append(b) or b, cache_dir=tmp_path, stage="t", key={},
                       shard_size=1, progress=False) == ["a", "b"]
    assert batches == [["a"], ["b"]]


def test_a_cache_folder_that_is_a_file_is_named(tmp_path: Path) -> None:
    a_file = tmp_path / "cache"
    a_file.write_text("x", encoding="utf-8")
    for cache_dir in (a_file, a_file / "below"):
        with pytest.raises(InputError) as raised:
            run_sharded(["a"], lambda b: b, cache_dir=cache_dir, stage="t", key={}, progress=False)
        assert str(raised.value) == f"{cache_dir}: cannot hold the stage cache: it, or a folder above it, is a file"


def test_the_wrong_count_error_names_the_stage(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError) as raised:
        run_sharded(["a", "b", "c"], lambda b: b + ["extra"], cache_dir=tmp_path, stage="align", key={},
                    shard_size=2, progress=False)
    assert str(raised.value) == "align: the backend returned 3 outputs for 2 inputs"


def test_an_unreadable_or_edited_shard_hash_recomputes_with_the_whole_note(tmp_path: Path, capsys) -> None:
    items = ["a", "b", "c", "d"]
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="parse", key={}, shard_size=2, progress=False)
    (directory,) = (tmp_path / "parse").iterdir()
    first, second = directory / "shard-000000.jsonl", directory / "shard-000001.jsonl"
    hash_path(first).write_bytes(b"\xff\xfe not utf-8")
    hash_path(second).write_text("0" * 64 + "\n", encoding="utf-8")
    assert changed_by_hand(first, first.read_bytes()) and changed_by_hand(second, second.read_bytes())
    seen: list[str] = []
    assert run_sharded(items, lambda b: seen.extend(b) or b, cache_dir=tmp_path, stage="parse", key={},
                       shard_size=2, progress=False) == items
    assert seen == items
    notes = [line for line in capsys.readouterr().err.splitlines() if line]
    assert notes == [f"note: {path}: the cached parse shard differs from the sha256 recorded when it was written "
                     "(edited by hand?); computed again" for path in (first, second)]
    assert not changed_by_hand(first, first.read_bytes())  # written again with its hash
    assert hash_path(first).read_text(encoding="utf-8") == hashlib.sha256(b'"a"\n"b"\n').hexdigest() + "\n"


def test_changed_by_hand_compares_the_recorded_sha256(tmp_path: Path) -> None:
    path = tmp_path / "shard.jsonl"
    assert not changed_by_hand(path, b"anything")  # no hash recorded: whole
    hash_path(path).write_text(hashlib.sha256(b"data").hexdigest() + "\n", encoding="utf-8")
    assert not changed_by_hand(path, b"data")
    assert changed_by_hand(path, b"date")


def test_the_progress_bar_counts_the_cached_lines_first(tmp_path: Path, capsys) -> None:
    """On by default: named by the stage, in ``unit``s, starting at the lines already cached."""
    items = [str(i) for i in range(25)]
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=10)
    bar = _segments(capsys.readouterr().err)
    assert bar[0] == "t:   0%|          | 0/25 [00:00<?, ?line/s]"
    assert bar[-1].startswith("t: 100%|██████████| 25/25 [") and bar[-1].endswith("line/s]")
    (directory,) = (tmp_path / "t").iterdir()
    (directory / "shard-000001.jsonl").unlink()
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=10, unit="pair")
    bar = _segments(capsys.readouterr().err)
    assert bar[0] == "t:  60%|██████    | 15/25 [00:00<?, ?pair/s]"
    assert bar[-1].startswith("t: 100%|██████████| 25/25 [") and bar[-1].endswith("pair/s]")
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False)
    assert capsys.readouterr().err == ""


def test_a_shard_without_a_hash_holding_too_few_items_is_recomputed(tmp_path: Path) -> None:
    """A cache of an older version has no sha256 files: a shard with one item fewer than its
    inputs (cut short, or of another shard size) is computed again, not read as the shard."""
    items = ["a", "b", "c", "d"]
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="parse", key={}, shard_size=2, progress=False)
    (directory,) = (tmp_path / "parse").iterdir()
    first = directory / "shard-000000.jsonl"
    hash_path(first).unlink()
    first.write_text('"a"\n', encoding="utf-8")
    seen: list[str] = []
    assert run_sharded(items, lambda b: seen.extend(b) or b, cache_dir=tmp_path, stage="parse", key={},
                       shard_size=2, progress=False) == items
    assert seen == ["a", "b"]


def _die_at_b(shard: list[str]) -> list[str]:
    if "b" in shard:
        os._exit(3)  # a worker killed mid-shard
    return shard


def test_a_worker_lost_is_one_error_naming_the_stage_and_its_shards(tmp_path):
    from auto_challenge_sets.errors import AcsError
    from auto_challenge_sets.pipeline.executors import ProcessExecutor

    with pytest.raises(AcsError) as lost:
        run_sharded(["a", "b", "c"], _die_at_b, cache_dir=tmp_path, stage="parse", key={"k": 1}, shard_size=1,
                    progress=False, executor=ProcessExecutor(jobs=2))
    message = re.fullmatch(r"parse: a worker process died \(killed\?\) on (shards?) ([0-9, ]+) of 3; the finished shards "
                           r"are kept: run the command again, it resumes at the unfinished ones", str(lost.value))
    assert message, str(lost.value)
    numbers = message.group(2).split(", ")
    assert "2" in numbers and message.group(1) == "shard" + "s" * (len(numbers) > 1)
