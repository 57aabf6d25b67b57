"""The build's caches against hand edits: a cached shard or parse whose bytes differ from the sha256
recorded when it was written is computed again, with a note naming it; and a build from the cache
reports (and records) the same parse notes as the build that parsed."""

from __future__ import annotations

import json
from pathlib import Path

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import demo_file
from auto_challenge_sets.pipeline.stage_cache import hash_path, run_sharded

from tiny_models import tiny_udpipe_model

MERGED = "1 line(s) split into several sentences by the parser were merged into one tree"


def test_a_hand_edited_shard_is_computed_again_with_a_note(tmp_path: Path, capsys) -> None:
    items = [str(i) for i in range(20)]
    seen: list[str] = []

    def upper(batch: list[str]) -> list[str]:
        seen.extend(batch)
        return [f"<{x}>" for x in batch]

    first = run_sharded(items, upper, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False)
    (directory,) = (tmp_path / "t").iterdir()
    shard = directory / "shard-000001.jsonl"
    shard.write_text(shard.read_text(encoding="utf-8").replace("<15>", "<fifteen>"), encoding="utf-8")
    seen.clear()
    again = run_sharded(items, upper, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False)
    assert again == first and seen == items[10:]
    assert f"note: {shard}: the cached t shard differs from the sha256" in capsys.readouterr().err
    seen.clear()
    assert run_sharded(items, upper, cache_dir=tmp_path, stage="t", key={}, shard_size=10, progress=False) == first
    assert seen == [] and capsys.readouterr().err == ""  # made again, with its hash: reused quietly


def test_a_shard_without_its_hash_is_whole_and_reused(tmp_path: Path, capsys) -> None:
    """A cache of an older version, or a run killed between a shard and its hash."""
    items = ["a", "b", "c"]
    run_sharded(items, lambda b: b, cache_dir=tmp_path, stage="t", key={}, shard_size=2, progress=False)
    for path in (tmp_path / "t").glob("*/shard-*.jsonl"):
        hash_path(path).unlink()
    assert run_sharded(items, lambda b: [], cache_dir=tmp_path, stage="t", key={}, shard_size=2,
                       progress=False) == items
    assert capsys.readouterr().err == ""


def _build(source: Path, target: Path, cache: Path, out: Path) -> list[str]:
    return ["build", "--pair", "de-en", "--corpus", "s", "--source", str(source), "--target", str(target),
            "--parser", "udpipe", "--udpipe-model", str(tiny_udpipe_model()), "--aligner", "none",
            "--cache-dir", str(cache), "--out", str(out), "--quiet"]


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_build_from_the_cache_keeps_the_parse_notes(tmp_path: Path, capsys) -> None:
    source, target = tmp_path / "s.de", tmp_path / "s.en"
    lines = demo_file("sample.de").read_text(encoding="utf-8").splitlines()[:5]
    lines[1] += " Er kommt heute. Sie geht morgen nach Hause."  # two sentences: merged into one tree
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    target.write_text("\n".join(demo_file("sample.en").read_text(encoding="utf-8").splitlines()[:5]) + "\n",
                      encoding="utf-8")
    cache = tmp_path / "cache"
    outputs = []
    for run in ("parsed", "cached", "edited"):
        if run == "edited":  # a hand-edited cached parse is parsed again from its (checked) shards
            (parse,) = (cache / "parsed").glob("*.conllu")
            parse.write_text(parse.read_text(encoding="utf-8").replace("\tkommt\t", "\tgeht\t"), encoding="utf-8")
        assert main(_build(source, target, cache, tmp_path / run)) == 0
        err = capsys.readouterr().err
        assert f"note: {MERGED}" in err, (run, err)
        assert ("the cached parse differs" in err) == (run == "edited")
        if run == "edited":
            assert f"note: {parse}: the cached parse differs from the sha256" in err
        outputs.append(_files(tmp_path / run))
        record = json.loads((tmp_path / run / "acs_build.json").read_text(encoding="utf-8"))
        assert record["builds"][0]["parse_notes"][0].startswith(MERGED)
        assert f"  - parse: {MERGED}" in (tmp_path / run / "README.md").read_text(encoding="utf-8")
    assert outputs[0] == outputs[1] == outputs[2]  # byte-identical, notes included
