"""Messages that name what is wrong (issue 25): one table of hostile situations across `acs`.

Each row sets up a situation (a bad eflomal priors file, a dataset folder that cannot be copied,
a working folder deleted under the command, an output where a folder or file is in the way, a
tokenizer that cannot run) and gives the command line and a pattern its error must match: the
file and line, or the argument the user gave. What must hold for every row: exit status 2, one
line on stderr, no traceback, no temporary path (``.NAME.acs-new-PID``, ``….partial``), and not
the boundary's fallback for an exception nobody checked for ("run with --debug").
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.demo_data import demo_file

PRIORS = {
    "alpha": "LEX\tder\tthe\tabc\n",
    "short": "LEX\tder\tthe\n",
    "kind": "LEX\tder\tthe\t1\nXYZ\t1\n",
    "jump": "HMMF\tx\t1.0\n",
    "empty": "HMMF\t1\t1.0\n\n",
    "negative": "FERF\tder\t1\t-2\n",
    "utf8": b"LEX\tder\tthe\t1\n\xff\n",
    "digits": "HMMF\t1\t1.0\nHMMR\t٣\t1.0\n",  # eflomal reads ASCII digits only
    "wide": "FERF\tder\t1\t０.５\n",
}


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    """A dataset folder of both directions of the sample, copied by the rows that change it."""
    folder = tmp_path_factory.mktemp("hostile") / "good"
    build_demo(folder)
    return folder


@dataclass
class Situation:
    tmp: Path
    good: Path
    monkeypatch: pytest.MonkeyPatch
    request: pytest.FixtureRequest

    def file(self, name: str, content: str | bytes) -> Path:
        path = self.tmp / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    def priors(self, kind: str) -> Path:
        return self.file(f"{kind}.priors", PRIORS[kind])

    def dataset(self) -> Path:
        """A copy of the good folder, to spoil."""
        return Path(shutil.copytree(self.good, self.tmp / "ds", symlinks=True))

    def delete_working_folder(self) -> None:
        gone = self.tmp / "gone"
        gone.mkdir()
        self.monkeypatch.chdir(gone)
        gone.rmdir()

    def small_full_disk(self) -> Path:
        """A real full disk (a 1 MiB tmpfs: one config of the sample's folder, the rest filled), or a skip."""
        mount = self.tmp / "small"
        mount.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode(errors='replace').strip()}")
        self.request.addfinalizer(lambda: subprocess.run(["umount", "-l", str(mount)], check=False))
        shutil.copytree(self.good / "data" / "de-en.baseline", mount / "ds" / "data" / "de-en.baseline")
        shutil.copy2(self.good / "README.md", mount / "ds" / "README.md")
        shutil.copy2(self.good / "acs_build.json", mount / "ds" / "acs_build.json")
        filler = mount / "filler"
        with open(filler, "wb", buffering=0) as handle:  # the rest of the disk, so the copy cannot fit
            try:
                while handle.write(b"\0" * 65536):
                    pass
            except OSError:
                pass
        return mount / "ds"


def _sample(name: str) -> str:
    return str(demo_file(name))


def _one_long_line(tmp: Path, name: str) -> str:
    """The sample with its second line made 200,000 characters long."""
    lines = Path(_sample(name)).read_text(encoding="utf-8").splitlines()
    lines[1] = "x" * 200_000
    path = tmp / f"long.{name}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _build(out: str | Path | None, *extra: str, source: str | None = None, pair: str = "de-en",
           conllu: bool = True) -> list[str]:
    argv = ["build", "--quiet", "--pair", pair, "--corpus", "sample", "--source", source or _sample("sample.de"),
            "--target", _sample("sample.en")] + (["--source-conllu", _sample("sample.de.conllu")] if conllu else [])
    if "--aligner" not in extra:
        argv += ["--aligner", "none"]
    return argv + ([] if out is None else ["--out", str(out)]) + list(extra)


def _evaluate(dataset: str | Path, *extra: str) -> list[str]:
    return ["evaluate", "--dataset", str(dataset), "--pair", "de-en", "--config", "de-en.particle.d1",
            "--hyp", _sample("sample.en"), "--n-samples", "3", "--quiet", *extra]


def _eflomal_build(s: Situation, kind: str) -> list[str]:
    return _build(s.tmp / "out", "--aligner", "eflomal", "--eflomal-priors", str(s.priors(kind)))


def _full_copy(s: Situation) -> list[str]:
    """The copy of the folder meets a full disk (as copy2 reports it: no file named)."""
    def full(source, target, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    s.monkeypatch.setattr(shutil, "copy2", full)
    return _build(s.dataset(), pair="en-de")


def _fifo_in_folder(s: Situation) -> list[str]:
    ds = s.dataset()
    os.mkfifo(ds / "data" / "notes")
    return _build(ds, pair="en-de")


def _socket_in_folder(s: Situation) -> list[str]:
    ds = s.dataset()
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(ds / "data" / "sock"))
    s.request.addfinalizer(server.close)
    return _build(ds, pair="en-de")


def _spoiled_shard(s: Situation, how: str) -> list[str]:
    """A shard of the other direction, read (or replaced) in the copy of the folder."""
    ds = s.dataset()
    shard = ds / "data" / "en-de.baseline" / "sample-00000-of-00001.parquet"
    if how == "truncated":
        shard.write_bytes(shard.read_bytes()[:100])
    else:
        shard.unlink()
        shard.mkdir()
        (shard / "x").write_text("x")
    return _build(ds, pair="de-en" if how != "replaced" else "en-de")


def _delete_while_running(s: Situation, module, name: str, folder: Path) -> None:
    """``folder`` is deleted when the command reaches ``module.name`` (then the real one runs)."""
    real = getattr(module, name)

    def deleting(*args, **kwargs):
        shutil.rmtree(folder)
        return real(*args, **kwargs)

    s.monkeypatch.setattr(module, name, deleting)


def _build_parent_deleted(s: Situation) -> list[str]:
    from auto_challenge_sets.dataset import writer

    (s.tmp / "p").mkdir()
    _delete_while_running(s, writer, "render_readme", s.tmp / "p")
    return _build(s.tmp / "p" / "out")


def _no_mecab() -> None:
    try:
        import MeCab  # noqa: F401
    except ImportError:
        return
    pytest.skip("MeCab is installed here: ja-mecab runs")


# (id, setup returning argv, pattern the one error line must match)
CASES: list[tuple[str, Callable[[Situation], list[str]], str]] = [
    # -- eflomal priors: the file and the line, before any work
    ("priors-alpha-not-a-number", lambda s: _eflomal_build(s, "alpha"), r"alpha\.priors:1: .*number.*'abc'"),
    ("priors-too-few-fields", lambda s: _eflomal_build(s, "short"), r"short\.priors:1: a LEX line has 4"),
    ("priors-unknown-kind", lambda s: _eflomal_build(s, "kind"), r"kind\.priors:2: .*'XYZ'"),
    ("priors-jump-not-an-int", lambda s: _eflomal_build(s, "jump"), r"jump\.priors:1: .*whole number.*'x'"),
    ("priors-empty-line", lambda s: _eflomal_build(s, "empty"), r"empty\.priors:2: "),
    ("priors-negative", lambda s: _eflomal_build(s, "negative"), r"negative\.priors:1: .*>= 0"),
    ("priors-not-utf8", lambda s: _eflomal_build(s, "utf8"), r"utf8\.priors:2: not UTF-8"),
    ("priors-arabic-digit", lambda s: _eflomal_build(s, "digits"), r"digits\.priors:2: .*whole number.*'٣'"),
    ("priors-fullwidth-alpha", lambda s: _eflomal_build(s, "wide"), r"wide\.priors:1: .*must be a number.*'０\.５'"),
    ("align-priors", lambda s: ["align", "--aligner", "eflomal", "--source", _sample("sample.de"), "--target",
                                _sample("sample.en"), "--priors", str(s.priors("alpha")), "--output", "-"],
     r"alpha\.priors:1: "),
    ("evaluate-targeted-priors", lambda s: _evaluate(s.good, "--targeted", "--targeted-aligner", "eflomal",
                                                     "--eflomal-priors", str(s.priors("jump"))),
     r"jump\.priors:1: "),
    # -- acs build copies the folder beside it: what stops the copy, named
    ("copy-disk-full", _full_copy, r"ds/\S+: cannot be copied .*No space left on device"),
    ("copy-disk-full-tmpfs", lambda s: _build(s.small_full_disk(), pair="en-de"),
     r"ds/\S+: cannot be copied .*No space left on device"),
    ("copy-fifo", _fifo_in_folder, r"ds/data/notes: cannot be copied .*named pipe"),
    ("copy-socket", _socket_in_folder, r"ds/data/sock: cannot be copied"),
    # -- the user's path, never the work folder's or a temporary file's
    ("build-truncated-shard-of-the-copy", lambda s: _spoiled_shard(s, "truncated"),
     r"/ds/data/en-de\.baseline/sample-00000-of-00001\.parquet: not a readable Parquet"),
    ("build-folder-for-a-shard", lambda s: _spoiled_shard(s, "folder"),
     r"/ds/data/en-de\.baseline/sample-00000-of-00001\.parquet: "),
    ("build-shard-replaced-by-a-folder", lambda s: _spoiled_shard(s, "replaced"),
     r"/ds/data/en-de\.baseline/sample-00000-of-00001\.parquet: "),
    ("parse-output-is-a-folder", lambda s: ["parse", "--lang", "de", "--parser", "conllu", "--conllu",
                                            _sample("sample.de.conllu"), "--input", _sample("sample.de"),
                                            "--output", str(s.tmp)], r": Is a directory"),
    ("align-output-is-a-folder", lambda s: ["align", "--aligner", "eflomal", "--source", _sample("sample.de"),
                                            "--target", _sample("sample.en"), "--output", str(s.tmp)],
     r"_is\d+: is a folder: give the name of a file"),
    # -- a deleted working folder: its path, and what to do
    ("cwd-gone-build-default-out", lambda s: (s.delete_working_folder(), _build(None))[1],
     r"working folder \S*/gone no longer exists"),
    ("cwd-gone-build-relative-source", lambda s: (s.delete_working_folder(), _build(s.tmp / "o", source="x.de"))[1],
     r"x\.de: .*working folder \S*/gone no longer exists"),
    ("cwd-gone-evaluate-out", lambda s: (s.delete_working_folder(), _evaluate(s.good, "--out", "report"))[1],
     r"working folder \S*/gone no longer exists"),
    ("cwd-gone-evaluate-default-dataset", lambda s: (s.delete_working_folder(), _evaluate("auto_challenge_sets"))[1],
     r"auto_challenge_sets: .*working folder \S*/gone no longer exists"),
    ("cwd-gone-parse-output", lambda s: (s.delete_working_folder(),
                                         ["parse", "--lang", "de", "--parser", "conllu", "--conllu",
                                          _sample("sample.de.conllu"), "--input", _sample("sample.de"),
                                          "--output", "out.conllu"])[1],
     r"the working folder \S*/gone no longer exists"),
    ("cwd-gone-select", lambda s: (s.delete_working_folder(), ["select", "--conllu", "x.conllu", "--phenomenon",
                                                               "particle"])[1],
     r"x\.conllu: .*working folder \S*/gone no longer exists"),
    ("cwd-gone-stats", lambda s: (s.delete_working_folder(), ["stats", "ds"])[1],
     r"ds: .*working folder \S*/gone no longer exists"),
    ("build-out-parent-deleted-while-running", _build_parent_deleted,
     r"p/out: the folder that holds it \(\S*/p\) was deleted while this ran"),
    # -- where --out cannot be: the user's --out, and what is in the way
    ("evaluate-out-under-a-file", lambda s: _evaluate(s.good, "--out", str(s.file("afile", "x") / "report")),
     r"afile/report: cannot be made: \S*afile is a file, not a folder"),
    ("evaluate-out-under-proc", lambda s: _evaluate(s.good, "--out", "/proc/acs-report"),
     r"^acs evaluate: error: /proc/acs-report: "),
    ("build-out-under-a-file", lambda s: _build(s.file("afile", "x") / "a" / "b"),
     r"afile/a/b: cannot be made: \S*afile is a file, not a folder"),
    ("build-out-under-proc", lambda s: _build("/proc/acs-out"), r"^acs build: error: /proc/acs-out: "),
    ("build-cache-under-a-file", lambda s: _build(s.tmp / "o", "--aligner", "eflomal", "--cache-dir",
                                                  str(s.file("afile", "x") / "cache")),
     r"afile/cache: cannot hold the stage cache"),
    ("align-cache-is-a-file", lambda s: ["align", "--quiet", "--aligner", "eflomal", "--source", _sample("sample.de"),
                                         "--target", _sample("sample.en"), "--output", "-", "--cache-dir",
                                         str(s.file("afile", "x"))], r"afile: cannot hold the stage cache"),
    ("parse-output-under-a-file", lambda s: ["parse", "--lang", "de", "--parser", "conllu", "--conllu",
                                             _sample("sample.de.conllu"), "--input", _sample("sample.de"),
                                             "--output", str(s.file("afile", "x") / "out.conllu")],
     r"afile: is a file, not a folder$"),
    ("align-output-under-a-file", lambda s: ["align", "--quiet", "--aligner", "eflomal", "--source",
                                             _sample("sample.de"), "--target", _sample("sample.en"), "--output",
                                             str(s.file("afile", "x") / "d" / "out.pharaoh")],
     r"afile: is a file, not a folder \(the folder \S*afile/d is needed\)"),
    ("metric-install-cache-is-a-file", lambda s: (s.monkeypatch.setenv("HF_MODULES_CACHE", str(s.file("afile", "x"))),
                                                  ["metric", "install"])[1], r"afile: is a file, not a folder"),
    ("parse-udpipe-model-is-a-fifo", lambda s: (os.mkfifo(s.tmp / "model.udpipe"),
                                                ["parse", "--lang", "de", "--parser", "udpipe", "--udpipe-model",
                                                 str(s.tmp / "model.udpipe"), "--input", _sample("sample.de"),
                                                 "--output", "-"])[1],
     r"model\.udpipe is not a regular file: .*--udpipe-model"),
    ("build-udpipe-model-is-a-folder", lambda s: _build(s.tmp / "o", "--parser", "udpipe", "--udpipe-model",
                                                        str(s.good), conllu=False),
     r"good is not a regular file: .*--udpipe-model"),
    # -- --tokenize / --length-tolerance: the argument, never a file
    ("tokenize-unknown", lambda s: _evaluate(s.good, "--tokenize", "nope"),
     r"error: --tokenize: unknown sacrebleu tokenizer 'nope'"),
    # chrF has no tokenizer: --tokenize there is no option of any metric of the run
    ("tokenize-unknown-chrf-only", lambda s: _evaluate(s.good, "--metrics", "chrf", "--tokenize", "nope"),
     r"error: --tokenize: no metric of chrf has an option 'tokenize'; it is an option of bleu, ribes"),
    ("tokenize-unknown-targeted", lambda s: _evaluate(s.good, "--metrics", "chrf,bleu", "--targeted", "--tokenize", "x"),
     r"error: --tokenize: unknown sacrebleu tokenizer 'x'"),
    ("tokenize-not-installed", lambda s: (_no_mecab(), _evaluate(s.good, "--tokenize", "ja-mecab"))[1],
     r"error: --tokenize: sacrebleu tokenizer 'ja-mecab' is not available: .*pip install"),
    ("tokenize-as-a-metric-option", lambda s: _evaluate(s.good, "--metric-option", "tokenize=zzz"),
     r"error: --metric-option: tokenize=zzz: unknown sacrebleu tokenizer"),
    # issue 38 item 7: the build's line limit, the metric's (a 100 MB line ran UDPipe for minutes)
    ("build-a-source-line-too-long", lambda s: _build(s.tmp / "out", "--parser", "udpipe", "--udpipe-model", "x",
                                                      source=_one_long_line(s.tmp, "sample.de"), conllu=False),
     r"long\.sample\.de:2: the line has more than 50,000 characters"),
    ("length-tolerance-negative", lambda s: _evaluate(s.good, "--length-tolerance", "-1"), r"--length-tolerance"),
    ("length-tolerance-not-a-number", lambda s: _evaluate(s.good, "--length-tolerance", "x"), r"--length-tolerance"),
]


TEMPORARY = re.compile(r"\.acs-(new|old)-\d+|\.partial\b|\.lock\b")


@pytest.mark.parametrize(("setup", "pattern"), [pytest.param(s, p, id=i) for i, s, p in CASES])
def test_the_message_names_what_is_wrong(good, tmp_path, monkeypatch, request, capsys, setup, pattern):
    argv = setup(Situation(tmp_path, good, monkeypatch, request))
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors: usage, then one error line
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
    assert len(lines) == 1, err
    assert "run with --debug" not in lines[0], lines[0]
    assert not TEMPORARY.search(lines[0]), lines[0]
    assert re.search(pattern, lines[0]), lines[0]


def test_the_table_holds_at_least_30_cases_with_distinct_names():
    assert len(CASES) >= 30 and len({case[0] for case in CASES}) == len(CASES)


def test_a_failed_copy_leaves_the_folder_and_no_work_folder(good, tmp_path, monkeypatch, request):
    ds = Situation(tmp_path, good, monkeypatch, request).dataset()
    os.mkfifo(ds / "data" / "notes")
    before = sorted(p.relative_to(ds) for p in ds.rglob("*"))
    assert main(_build(ds, pair="en-de")) == 2
    assert sorted(p.relative_to(ds) for p in ds.rglob("*")) == before
    assert not list(tmp_path.glob(".ds.acs-*"))


def test_priors_that_eflomal_writes_pass_the_check(tmp_path):
    from auto_challenge_sets.backends.aligners.eflomal import make_priors
    from auto_challenge_sets.backends.aligners.eflomal_priors import check_priors

    pairs = [(s.split(), t.split()) for s, t in zip(demo_file("sample.de").read_text(encoding="utf-8").splitlines(),
                                                    demo_file("sample.en").read_text(encoding="utf-8").splitlines())]
    priors = tmp_path / "de-en.priors"
    assert make_priors(pairs, priors) > 0
    check_priors(priors)  # raises on the first line it would refuse
