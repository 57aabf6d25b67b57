"""The resumable parse stage: numbering, caching, kill -9 and resume, the build's entry point."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from auto_challenge_sets.backends.parsers.udpipe import UDPipeParser
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.pipeline.parse_stage import parse_file, parse_lines, parse_source_for_build
from auto_challenge_sets.pipeline.specs import ParserSpec

from tiny_models import DEMO, tiny_udpipe_model

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def tiny_model():
    return tiny_udpipe_model()


def _corpus(tmp_path: Path, copies: int = 1) -> Path:
    lines = (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() * copies
    path = tmp_path / "input.de"
    path.write_text("\n".join(lines[:3] + [""] + lines[3:]) + "\n", encoding="utf-8")
    return path


class CountingUDPipe(UDPipeParser):
    calls = 0

    def parse(self, lines):
        CountingUDPipe.calls += 1
        return super().parse(lines)


def test_sent_id_is_the_line_number_and_text_the_line(tiny_model, tmp_path):
    path = _corpus(tmp_path)
    out = tmp_path / "out.conllu"
    summary = parse_file(path, out, lang="de", parser=ParserSpec("udpipe", {"udpipe_model": tiny_model}),
                         cache_dir=tmp_path / "cache", shard_size=7, progress=False)
    lines = path.read_text(encoding="utf-8").splitlines()
    sentences = list(read_conllu(out))
    assert summary.empty_lines == [4] and summary.parsed == len(lines) - 1 == len(sentences)
    numbers = [int(s.sent_id) for s in sentences]
    assert numbers == [n for n in range(1, len(lines) + 1) if n != 4]
    assert all(s.text == lines[int(s.sent_id) - 1] for s in sentences)
    assert all(s.comments[:2] == [f"# sent_id = {s.sent_id}", f"# text = {s.text}"] for s in sentences)


def test_second_run_comes_from_the_cache(tiny_model, tmp_path):
    lines = [x for x in (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() if x.strip()]
    parser = CountingUDPipe(udpipe_model=tiny_model)
    CountingUDPipe.calls = 0
    first = parse_lines(lines, lang="de", parser=parser, cache_dir=tmp_path, shard_size=10, progress=False)
    assert CountingUDPipe.calls == 3
    again = parse_lines(lines, lang="de", parser=parser, cache_dir=tmp_path, shard_size=10, progress=False)
    assert CountingUDPipe.calls == 3
    assert [s.comments for s in again] == [s.comments for s in first]
    # other numbering, same cache: numbers are set on the way out
    renumbered = parse_lines(lines, lang="de", parser=parser, cache_dir=tmp_path, shard_size=10, progress=False,
                             line_numbers=range(101, 101 + len(lines)))
    assert CountingUDPipe.calls == 3 and renumbered[0].sent_id == "101"


def test_empty_lines_are_refused(tiny_model, tmp_path):
    with pytest.raises(InputError, match="line 2: an empty line"):
        parse_lines(["Der Zug kommt an .", "  "], lang="de", parser=ParserSpec("udpipe", {"udpipe_model": tiny_model}),
                    cache_dir=tmp_path, progress=False)


SLOW_SCRIPT = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from auto_challenge_sets.pipeline.parse_stage import parse_file
    from auto_challenge_sets.backends.parsers.udpipe import UDPipeParser

    marker = Path(sys.argv[4])

    class Slow(UDPipeParser):  # same name and cache key as the real backend
        done = 0
        def parse(self, lines):
            out = super().parse(lines)
            Slow.done += 1
            marker.write_text(str(Slow.done))
            time.sleep(0.25)  # the parent kills us mid-run
            return out

    parse_file(sys.argv[1], sys.argv[2], lang="de", parser=Slow(udpipe_model=sys.argv[3]),
               cache_dir=sys.argv[5], shard_size=4, progress=False)
""")


def test_kill_minus_9_then_resume_is_byte_identical(tiny_model, tmp_path):
    path = _corpus(tmp_path, copies=2)
    reference = tmp_path / "reference.conllu"
    parse_file(path, reference, lang="de", parser=ParserSpec("udpipe", {"udpipe_model": tiny_model}),
               cache_dir=tmp_path / "cache-ref", shard_size=4, progress=False)

    script = tmp_path / "slow.py"
    script.write_text(SLOW_SCRIPT, encoding="utf-8")
    marker, cache, out = tmp_path / "marker", tmp_path / "cache", tmp_path / "out.conllu"
    process = subprocess.Popen([sys.executable, str(script), str(path), str(out), str(tiny_model), str(marker),
                                str(cache)], cwd=REPO)
    deadline = time.monotonic() + 600  # a hang guard only: a busy machine may take minutes to start it
    while time.monotonic() < deadline and not (marker.exists() and marker.read_text() >= "3"):
        assert process.poll() is None, "the slow parse ended before it could be killed"
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL and not out.exists()
    shards = sorted(cache.glob("parse/*/shard-*.jsonl"))
    total = -(-sum(1 for x in path.read_text(encoding="utf-8").splitlines() if x.strip()) // 4)
    # killed while shard 3 was in flight (parsed, not yet saved): 2 whole shards on disk
    assert 2 <= len(shards) < total

    CountingUDPipe.calls = 0
    parse_file(path, out, lang="de", parser=CountingUDPipe(udpipe_model=tiny_model), cache_dir=cache,
               shard_size=4, progress=False)
    assert CountingUDPipe.calls == total - len(shards)  # only the missing shards were parsed
    assert out.read_bytes() == reference.read_bytes()


SLOW_WORKERS_SCRIPT = textwrap.dedent("""
    import functools, os, sys, time
    from pathlib import Path
    from auto_challenge_sets.backends.parsers.udpipe import UDPipeParser
    from auto_challenge_sets.pipeline.executors import ProcessExecutor
    from auto_challenge_sets.pipeline.parse_stage import parse_lines

    class Slow(UDPipeParser):  # same name and cache key as the real backend
        def parse(self, lines):
            out = super().parse(lines)
            with open(sys.argv[3], "a", encoding="ascii") as marker:  # the worker's pid, a line a shard
                marker.write(f"{os.getpid()}\\n")
            time.sleep(0.25)  # the parent kills the build mid-run
            return out

    if __name__ == "__main__":
        lines = [x for x in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines() if x.strip()]
        make = functools.partial(Slow, udpipe_model=sys.argv[2])
        parse_lines(lines, lang="de", parser=make(), factory=make, cache_dir=sys.argv[4], shard_size=4,
                    progress=False, executor=ProcessExecutor(jobs=2))
""")


def test_a_parse_on_two_workers_killed_leaves_nothing_running_and_resumes_byte_identically(tiny_model, tmp_path):
    path = _corpus(tmp_path, copies=2)
    reference = tmp_path / "reference.conllu"
    parse_file(path, reference, lang="de", parser=ParserSpec("udpipe", {"udpipe_model": tiny_model}),
               cache_dir=tmp_path / "cache-ref", shard_size=4, progress=False)
    script = tmp_path / "slow_workers.py"
    script.write_text(SLOW_WORKERS_SCRIPT, encoding="utf-8")
    marker, cache, out = tmp_path / "marker", tmp_path / "cache", tmp_path / "out.conllu"
    process = subprocess.Popen([sys.executable, str(script), str(path), str(tiny_model), str(marker), str(cache)],
                               cwd=REPO)
    deadline = time.monotonic() + 600  # a hang guard only: a busy machine may take minutes to start it
    while time.monotonic() < deadline and not (marker.exists() and len(marker.read_text().split()) >= 3):
        assert process.poll() is None, "the slow parse ended before it could be killed"
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    workers = {int(pid) for pid in marker.read_text().split()}
    assert len(workers) == 2 and process.pid not in workers
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)  # the workers went with the build
    shards = sorted(cache.glob("parse/*/shard-*.jsonl"))
    total = -(-sum(1 for x in path.read_text(encoding="utf-8").splitlines() if x.strip()) // 4)
    assert len(shards) < total

    CountingUDPipe.calls = 0
    parse_file(path, out, lang="de", parser=CountingUDPipe(udpipe_model=tiny_model), cache_dir=cache,
               shard_size=4, progress=False)
    assert CountingUDPipe.calls == total - len(shards)  # only the missing shards were parsed
    assert out.read_bytes() == reference.read_bytes()


def test_parse_source_for_build_writes_a_cached_conllu(tiny_model, tmp_path):
    lines = [x for x in (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() if x.strip()]
    spec = ParserSpec("udpipe", {"udpipe_model": tiny_model})
    cache = tmp_path / "cache"
    numbers = list(range(2, 2 + len(lines)))
    path, _ = parse_source_for_build(lines, "de", spec, line_numbers=numbers, cache_dir=cache, progress=False)
    assert path.is_relative_to(cache)
    sentences = list(read_conllu(path))
    assert [int(s.sent_id) for s in sentences] == numbers and [s.text for s in sentences] == lines
    stamp = path.stat().st_mtime_ns
    again, _ = parse_source_for_build(lines, "de", spec, line_numbers=numbers, cache_dir=cache,
                                      progress=False)
    assert again == path
    assert path.stat().st_mtime_ns == stamp


def test_the_default_shard_size_gives_every_worker_two_shards() -> None:
    from auto_challenge_sets.pipeline.executors import ProcessExecutor
    from auto_challenge_sets.pipeline.parse_stage import default_shard_size
    from auto_challenge_sets.pipeline.stage_cache import PARSE_SHARD_SIZE

    assert default_shard_size(1000, None) == PARSE_SHARD_SIZE
    assert default_shard_size(1000, ProcessExecutor(jobs=1)) == PARSE_SHARD_SIZE
    assert default_shard_size(1000, ProcessExecutor(jobs=2)) == 250
    assert default_shard_size(1001, ProcessExecutor(jobs=2)) == 251  # four shards, the last one short
    assert default_shard_size(100_000, ProcessExecutor(jobs=2)) == PARSE_SHARD_SIZE
    assert default_shard_size(3, ProcessExecutor(jobs=2)) == 1


def test_the_builds_parse_file_is_keyed_by_the_line_numbers(tiny_model, tmp_path):
    """The same lines at other corpus lines (a corpus with one more empty line) get a file of their
    own: a file named by the lines alone would hand the new build the old sent_ids."""
    lines = [x for x in (DEMO / "sample.de").read_text(encoding="utf-8").splitlines() if x.strip()]
    spec = ParserSpec("udpipe", {"udpipe_model": tiny_model})
    cache = tmp_path / "cache"
    first, _ = parse_source_for_build(lines, "de", spec, line_numbers=range(1, 1 + len(lines)),
                                      cache_dir=cache, progress=False)
    shifted = list(range(2, 2 + len(lines)))
    second, _ = parse_source_for_build(lines, "de", spec, line_numbers=shifted, cache_dir=cache,
                                       progress=False)
    assert second != first
    assert [int(s.sent_id) for s in read_conllu(second)] == shifted
    assert [int(s.sent_id) for s in read_conllu(first)] == list(range(1, 1 + len(lines)))
