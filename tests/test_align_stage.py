"""The alignment stage: sharded, cached, resumable; write_pharaoh; a Pharaoh file for the build."""

from __future__ import annotations

import pytest

from auto_challenge_sets.backends import ALIGNER, Option, register_backend, unregister_backend
from auto_challenge_sets.backends.aligners import Aligner
from auto_challenge_sets.pipeline.align_stage import align_pairs, write_pharaoh
from auto_challenge_sets.pipeline.corpus_inputs import AlignmentFile
from auto_challenge_sets.pipeline.specs import AlignerSpec


class Crash(Exception):
    pass


@pytest.fixture
def counting_aligner():
    """A deterministic toy backend that records every batch it aligns and can crash on demand."""
    calls: list[int] = []

    @register_backend(ALIGNER, "toy-test")
    class Toy(Aligner):
        options = (Option("shift", int, 0, "how far each link moves"),
                   Option("crash_after", int, None, "crash once this many batches are done"),
                   Option("corpus", bool, False, "corpus-level"))

        def __init__(self, shift: int = 0, crash_after: int | None = None, corpus: bool = False):
            self.shift, self.crash_after = shift, crash_after
            self.corpus_level = corpus

        def align(self, pairs):
            if self.crash_after is not None and len(calls) >= self.crash_after:
                raise Crash("killed")
            calls.append(len(pairs))
            return [[(i, (i + self.shift) % len(t)) for i in range(len(s))] if t else [] for s, t in pairs]

        def cache_key(self):
            return {"backend": self.name, "shift": self.shift}

    yield calls
    unregister_backend(ALIGNER, "toy-test")


TOY = AlignerSpec("toy-test")
PAIRS = [([f"s{k}"] * (1 + k % 4), [f"t{k}"] * (1 + k % 3)) for k in range(23)]


def test_resume_reuses_finished_shards_and_gives_identical_links(counting_aligner, tmp_path):
    calls = counting_aligner
    expected = align_pairs(PAIRS, aligner=TOY, cache_dir=tmp_path / "reference", shard_size=5,
                           progress=False)
    assert calls == [5, 5, 5, 5, 3]
    calls.clear()

    with pytest.raises(Crash, match="^killed$"):  # during the third shard
        align_pairs(PAIRS, aligner=AlignerSpec("toy-test", {"crash_after": 2}), cache_dir=tmp_path / "c",
                    shard_size=5, progress=False)
    assert calls == [5, 5]
    calls.clear()
    resumed = align_pairs(PAIRS, aligner=TOY, cache_dir=tmp_path / "c", shard_size=5, progress=False)
    assert calls == [5, 5, 3]  # the two finished shards were not aligned again
    assert resumed == expected
    calls.clear()
    again = align_pairs(PAIRS, aligner=TOY, cache_dir=tmp_path / "c", shard_size=5, progress=False)
    assert calls == [] and again == expected
    shards = sorted(p.name for p in (tmp_path / "c" / "align").glob("*/shard-*.jsonl"))
    assert len(shards) == 5
    assert not list((tmp_path / "c").rglob("*.partial"))


def test_other_options_or_inputs_do_not_reuse_the_cache(counting_aligner, tmp_path):
    calls = counting_aligner
    first = align_pairs(PAIRS, aligner=TOY, cache_dir=tmp_path, shard_size=100, progress=False)
    shifted = align_pairs(PAIRS, aligner=AlignerSpec("toy-test", {"shift": 1}), cache_dir=tmp_path,
                          shard_size=100, progress=False)
    assert calls == [23, 23] and first != shifted
    align_pairs(PAIRS[:-1], aligner=TOY, cache_dir=tmp_path, shard_size=100, progress=False)
    assert calls == [23, 23, 22]


def test_a_corpus_level_aligner_gets_the_whole_corpus(counting_aligner, tmp_path):
    align_pairs(PAIRS, aligner=AlignerSpec("toy-test", {"corpus": True}), cache_dir=tmp_path, shard_size=5,
                progress=False)
    assert counting_aligner == [23]


def test_default_cache_dir_comes_from_the_environment(counting_aligner, tmp_path, monkeypatch):
    monkeypatch.setenv("ACS_CACHE_DIR", str(tmp_path / "env-cache"))
    align_pairs(PAIRS, aligner=TOY, progress=False)
    assert list((tmp_path / "env-cache" / "align").glob("*/shard-*.jsonl"))


def test_progress_bar_names_the_stage(counting_aligner, tmp_path, capsys):
    align_pairs(PAIRS[:3], aligner=TOY, cache_dir=tmp_path, progress=True)
    assert "align" in capsys.readouterr().err


def test_pharaoh_files_are_read_directly_not_cached(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-0\n0-0 0-1\n", encoding="utf-8")
    links = align_pairs([(["a"], ["b"]), (["c"], ["d", "e"])], aligner=AlignmentFile(path),
                        cache_dir=tmp_path / "cache", progress=False)
    assert links == [[(0, 0)], [(0, 0), (0, 1)]]
    assert not (tmp_path / "cache").exists()


def test_a_pharaoh_file_is_read_by_the_pairs_line_numbers(tmp_path):
    path = tmp_path / "a.pharaoh"
    path.write_text("0-1\n\n1-0\n", encoding="utf-8")
    links = align_pairs([(["a", "b"], ["x", "y"]), (["c", "d"], ["z"])],
                        aligner=AlignmentFile(path, line_numbers=[1, 3], total_lines=3), progress=False)
    assert links == [[(0, 1)], [(1, 0)]]


def test_an_aligner_spec_is_made_and_run(counting_aligner, tmp_path):
    links = align_pairs([(["a", "b"], ["x"]), (["c"], [])], aligner=TOY, cache_dir=tmp_path,
                        progress=False)
    assert links == [[(0, 0), (1, 0)], []]


def test_write_pharaoh(tmp_path):
    out = tmp_path / "sub" / "out.pharaoh"
    write_pharaoh(out, [[(1, 0), (0, 0)], [], [(2, 3)]])
    assert out.read_text(encoding="utf-8") == "0-0 1-0\n\n2-3\n"
    assert [p.name for p in out.parent.iterdir()] == ["out.pharaoh"]
