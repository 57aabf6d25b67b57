"""What a build reads of its own earlier runs (issue 49, item 1, the build's side): the stage
cache's shards and their sha256 files, a cached parse's notes, the build record. A FIFO (no writer:
a plain read waits forever), a link to /dev/zero (a plain read fills memory) or a document nested
deeper than the decoder recurses is never read as the file it replaces: a cache entry is made
again, the build record is one error naming it. A case that would hang runs under a time-out (a
guard against the regression, asserting no speed)."""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.record import BUILD_RECORD, read_build_record
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.text import MAX_JSON_DEPTH
from auto_challenge_sets.pipeline.parse_stage import _cached_notes
from auto_challenge_sets.pipeline.stage_cache import hash_path, run_sharded

HANG = 60
DEEP = "[" * 100_000 + "]" * 100_000


def _within(call: Callable[[], object], fifo: Path) -> object:
    """``call()``'s value; a failure if it still runs after HANG seconds (then the FIFO gets a
    writer, so that the reader ends)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # noqa: BLE001 - re-raised below, in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(HANG)
        pytest.fail(f"still reading {fifo} after {HANG} s: it waits for a writer")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]


ITEMS = [str(i) for i in range(20)]


def _cached(tmp_path: Path) -> Path:
    """Two shards of ten items cached; the second shard's path."""
    run_sharded(ITEMS, lambda batch: batch, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False)
    (directory,) = (tmp_path / "t").iterdir()
    return directory / "shard-000001.jsonl"


def _again(tmp_path: Path, seen: list[str]) -> list[str]:
    return run_sharded(ITEMS, lambda batch: seen.extend(batch) or batch, cache_dir=tmp_path, stage="t", key={},
                       shard_size=10, progress=False)


@pytest.mark.parametrize("which", ["shard", "sha256"])
def test_a_fifo_in_the_stage_cache_is_made_again_not_waited_on(tmp_path: Path, which: str) -> None:
    shard = _cached(tmp_path)
    fifo = shard if which == "shard" else hash_path(shard)
    fifo.unlink()
    os.mkfifo(fifo)
    seen: list[str] = []
    assert _within(lambda: _again(tmp_path, seen), fifo) == ITEMS
    assert seen == ITEMS[10:]  # the other shard reused
    assert stat.S_ISREG(os.lstat(shard).st_mode) and stat.S_ISREG(os.lstat(hash_path(shard)).st_mode)


def test_a_shard_linked_to_dev_zero_is_made_again_unread(tmp_path: Path) -> None:
    shard = _cached(tmp_path)
    shard.unlink()
    shard.symlink_to("/dev/zero")
    seen: list[str] = []
    assert _again(tmp_path, seen) == ITEMS and seen == ITEMS[10:]
    assert not shard.is_symlink()


def test_a_shard_nested_past_the_decoders_recursion_is_made_again(tmp_path: Path) -> None:
    """A shard whose sha256 file is gone is taken as whole (a run killed between the two writes)."""
    shard = _cached(tmp_path)
    hash_path(shard).unlink()
    shard.write_text(f"{DEEP}\n" * 10, encoding="utf-8")
    seen: list[str] = []
    assert _again(tmp_path, seen) == ITEMS and seen == ITEMS[10:]


def _parsed(tmp_path: Path) -> tuple[Path, Path]:
    """A cached parse file and its notes' path (``X.conllu.json``), the notes not yet written."""
    target = tmp_path / "x.conllu"
    target.write_text("# text = a\n1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    return target, target.with_name(target.name + ".json")


@pytest.mark.parametrize("make_it", ["fifo", "dev-zero", "deep"])
def test_a_cached_parse_whose_notes_are_not_a_json_file_is_made_again(tmp_path: Path, make_it: str) -> None:
    target, notes = _parsed(tmp_path)
    if make_it == "fifo":
        os.mkfifo(notes)
    elif make_it == "dev-zero":
        notes.symlink_to("/dev/zero")
    else:
        notes.write_text('{"sha256": "x", "notes": ' + DEEP + "}", encoding="utf-8")
    assert _within(lambda: _cached_notes(target), notes) is None  # no notes: the parse is made again


def test_a_build_record_nested_too_deep_is_one_error_naming_it(tmp_path: Path, capsys) -> None:
    (tmp_path / BUILD_RECORD).write_text(DEEP, encoding="utf-8")
    with pytest.raises(InputError, match=f"nests arrays or objects over {MAX_JSON_DEPTH} deep") as caught:
        read_build_record(tmp_path)
    assert str(tmp_path / BUILD_RECORD) in str(caught.value)


@pytest.mark.parametrize("make_it, kind", [(os.mkfifo, "a pipe"), (lambda p: p.symlink_to("/dev/zero"), "a device")])
def test_stats_names_a_build_record_that_is_no_regular_file(tmp_path: Path, capsys, make_it, kind) -> None:
    folder = tmp_path / "sets"
    folder.mkdir()
    (folder / "README.md").write_text("# sets\n", encoding="utf-8")
    make_it(folder / BUILD_RECORD)
    capsys.readouterr()
    assert _within(lambda: main(["stats", str(folder)]), folder / BUILD_RECORD) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{folder / BUILD_RECORD}: is {kind}" in err, err


@pytest.mark.parametrize("make_it, kind", [(os.mkfifo, "a pipe"), (lambda p: p.symlink_to("/dev/zero"), "a device")])
def test_stats_names_a_card_that_is_no_regular_file_as_what_it_is(tmp_path: Path, capsys, make_it, kind) -> None:
    folder = tmp_path / "sets"
    (folder / "data").mkdir(parents=True)
    make_it(folder / "README.md")
    capsys.readouterr()
    assert _within(lambda: main(["stats", str(folder)]), folder / "README.md") == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{folder / 'README.md'}: is {kind}" in err and "not a regular file" in err, err


def test_a_build_record_read_back_is_the_record_written(tmp_path: Path) -> None:
    record = {"format": 3, "license": "cc-by-4.0", "builds": [{"pair": "de-en", "corpus": "c", "lines": 3}]}
    (tmp_path / BUILD_RECORD).write_text(json.dumps(record), encoding="utf-8")
    assert read_build_record(tmp_path) == record


@pytest.mark.parametrize("make_it", ["fifo", "dev-zero", "deep"])
def test_a_datasets_cache_entry_that_is_not_a_json_file_is_no_entry(tmp_path: Path, make_it: str) -> None:
    """``acs stats`` and ``acs doctor`` read datasets' cache for older builds of a folder's name."""
    from auto_challenge_sets.dataset.hf_cache import stale_cached_configs

    entry = tmp_path / "sets" / "de-en.particle.d1" / "0.0.0"
    stale = entry / "old" / "dataset_info.json"
    stale.parent.mkdir(parents=True)
    stale.write_text(json.dumps({"splits": {"test": {"num_examples": 5}}}), encoding="utf-8")
    odd = entry / "odd" / "dataset_info.json"
    odd.parent.mkdir()
    if make_it == "fifo":
        os.mkfifo(odd)
    elif make_it == "dev-zero":
        odd.symlink_to("/dev/zero")
    else:
        odd.write_text('{"splits": ' + DEEP + "}", encoding="utf-8")
    found = _within(lambda: stale_cached_configs("sets", {"de-en.particle.d1": {"test": 7}}, tmp_path), odd)
    assert found == {"de-en.particle.d1": ["test: 5 rows cached, 7 here"]}
