"""Hostile inputs that used to cost without bound: a FIFO or a pipe where a file is read (a hang, or
"selected no sentence pair"), and lines too long to score in about a second. Each command must end
with exit 2 and one line naming the path (and line), never a traceback, never a hang."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo, demo_file
from auto_challenge_sets.formats.line_limit import MAX_CHARACTERS, MAX_TOKENS

HANG = 60  # seconds: far beyond what any of these commands takes


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile") / "sets"
    build_demo(folder)
    return folder


def _run(args: list[str], blocking: Path | None = None) -> int:
    """``acs ARGS`` in a thread; a command still running after HANG seconds fails the test (a
    reader blocked on ``blocking``, a FIFO, is released by opening its write end)."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["code"] = main(args)
        except BaseException as error:  # noqa: BLE001 - the test reports whatever escaped
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(HANG)
    if thread.is_alive():
        if blocking is not None:
            os.close(os.open(blocking, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"acs {' '.join(args)} still running after {HANG} s: it hangs")
    if "error" in outcome:
        raise AssertionError(f"acs {' '.join(args)} raised {outcome['error']!r}")
    return int(outcome["code"])  # type: ignore[arg-type]


def _setup(where: str, demo: Path, tmp: Path) -> tuple[Path, Path]:
    """``(dataset folder, FIFO)``: a FIFO in a shard's place, one named like an extra shard, or a
    FIFO beside an untouched demo folder."""
    if where == "input":
        fifo = tmp / "input.fifo"
        os.mkfifo(fifo)
        return demo, fifo
    folder = tmp / "sets"
    shutil.copytree(demo, folder)
    shard = next((folder / "data" / "de-en.particle.d3").glob("sample-*.parquet"))
    if where == "shard":
        shard.unlink()
        fifo = shard
    else:
        fifo = shard.with_name("sample-00001-of-00002.parquet")
    os.mkfifo(fifo)
    return folder, fifo


EVALUATE = "evaluate --dataset {folder} --config de-en.particle.d3 --pair de-en --split sample --quiet --hyp"
BUILD = "build --pair de-en --corpus sample --aligner none --out {tmp}/out --quiet"
# case: (where the FIFO is, the command line)
CASES = {
    "stats, a FIFO in a shard's place": ("shard", "stats {folder}"),
    "stats, a FIFO named like an extra shard": ("extra", "stats {folder}"),
    "publish --dry-run, a FIFO shard": ("shard", "publish {folder} --repo-id me/sets --dry-run"),
    "evaluate, a FIFO shard": ("shard", EVALUATE + " {demo}/sample.en"),
    "evaluate --hyp FIFO": ("input", EVALUATE + " {fifo}"),
    "build --source FIFO": ("input", BUILD + " --source {fifo} --target {demo}/sample.en "
                                     "--source-conllu {demo}/sample.de.conllu"),
    "build --source-conllu FIFO": ("input", BUILD + " --source {demo}/sample.de --target {demo}/sample.en "
                                            "--source-conllu {fifo}"),
    "parse --input FIFO": ("input", "parse --parser udpipe --udpipe-model {tmp}/none.udpipe --lang de "
                                    "--input {fifo} --output {tmp}/out.conllu --quiet"),
    "align --source FIFO": ("input", "align --aligner eflomal --source {fifo} --target {demo}/sample.en "
                                     "--output {tmp}/out.pharaoh --quiet"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_non_regular_input_is_one_line_naming_it(case: str, demo_folder: Path, tmp_path: Path, capsys) -> None:
    where, command = CASES[case]
    folder, fifo = _setup(where, demo_folder, tmp_path)
    args = command.format(folder=folder, fifo=fifo, tmp=tmp_path, demo=demo_file("sample.en").parent).split()
    code = _run(args, blocking=fifo)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(fifo) in err and "not a regular file" in err, err


def test_a_hypothesis_line_over_the_token_limit_names_file_and_line(demo_folder: Path, tmp_path: Path,
                                                                     capsys) -> None:
    lines = demo_file("sample.en").read_text(encoding="utf-8").splitlines()
    lines[3] = " ".join(["a"] * (MAX_TOKENS + 1))
    hyp = tmp_path / "long.en"
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = _run(["evaluate", "--dataset", str(demo_folder), "--config", "de-en.particle.d3", "--pair", "de-en",
                 "--split", "sample", "--hyp", str(hyp), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"{hyp}:4:" in err and f"{MAX_TOKENS + 1:,} tokens" in err, err
    lines[3] = "x" * (MAX_CHARACTERS + 1)  # one token, but too many characters for chrF
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert _run(["evaluate", "--dataset", str(demo_folder), "--config", "de-en.particle.d3", "--pair", "de-en",
                 "--split", "sample", "--hyp", str(hyp), "--quiet"]) == 2
    assert f"{hyp}:4:" in capsys.readouterr().err


def test_compute_names_the_argument_and_row_of_a_line_over_the_limit() -> None:
    from auto_challenge_sets.metrics.compute import compute

    long_line = " ".join(["a"] * (MAX_TOKENS + 1))
    with pytest.raises(ValueError, match=rf"^predictions\[1\] has {MAX_TOKENS + 1:,} tokens, above the limit"):
        compute(predictions=["a b", long_line], references=["a b", "a b"])
    with pytest.raises(ValueError, match=r"^references\[0\]\[1\] has 20,001 tokens"):
        compute(predictions=["a b"], references=[["a b", "a." * MAX_TOKENS + "a"]])  # 13a splits each "."
    with pytest.raises(ValueError, match=rf"^pool_predictions\[2\] has {MAX_CHARACTERS + 1:,} characters"):
        compute(predictions=["a b"], references=["a b"], lengths=[2], pool_lengths=[1, 1, 1], n_samples=2,
                pool_predictions=["a", "b", "x" * (MAX_CHARACTERS + 1)], pool_references=["a", "b", "c"])
    exactly = " ".join(["a"] * MAX_TOKENS)  # the limit itself scores
    assert compute(predictions=[exactly], references=[exactly])["bleu"] == pytest.approx(100)



# a reference line of few words but more tokens than the limit under the target's BLEU tokenizer
# (zh: one a character; 13a: "," apart) used to build, then evaluate refused the whole split; a
# line of exactly MAX_TOKENS such tokens (and more characters) builds and is scored
LONG_REFERENCES = {"de-zh": ("中文" * 5_250, "10,500 tokens", "中文 " * 5_000),
                   "de-en": ("a," * 13_000, "26,000 tokens", "ab," * 5_000)}


def _build_with_reference(pair: str, line: str, tmp_path: Path) -> int:
    """``acs build`` of the demo corpus as PAIR, its target's line 4 replaced by ``line``."""
    lines = demo_file("sample.en").read_text(encoding="utf-8").splitlines()
    lines[3] = line
    (tmp_path / "long.tgt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return _run(BUILD.replace("de-en", pair).format(tmp=tmp_path).split() + [
        "--source", str(demo_file("sample.de")), "--target", str(tmp_path / "long.tgt"),
        "--source-conllu", str(demo_file("sample.de.conllu"))])


@pytest.mark.parametrize("pair", list(LONG_REFERENCES))
def test_build_refuses_a_reference_line_that_evaluate_would(pair: str, tmp_path: Path, capsys) -> None:
    too_long, tokens, at_limit = LONG_REFERENCES[pair]
    code = _build_with_reference(pair, too_long, tmp_path)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"{tmp_path / 'long.tgt'}:4:" in err and f"has {tokens}, above the limit of {MAX_TOKENS:,}" in err, err
    assert not (tmp_path / "out").exists()
    assert _build_with_reference(pair, at_limit, tmp_path) == 0, capsys.readouterr().err
    assert _run(EVALUATE.replace("de-en", pair).format(folder=tmp_path / "out").split()
                + [str(demo_file("sample.en"))]) == 0, capsys.readouterr().err


def test_build_names_the_long_line_a_missing_tokenizer_cannot_count(tmp_path: Path, capsys) -> None:
    from auto_challenge_sets.errors import RequestError
    from auto_challenge_sets.scoring.metrics.bleu import BleuStatistics

    try:
        BleuStatistics("ja-mecab")
    except RequestError:
        pass
    else:
        pytest.skip("ja-mecab is installed here")
    assert _build_with_reference("de-ja", "a," * 13_000, tmp_path) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{tmp_path / 'long.tgt'}:4: cannot count the tokens" in err, err
    assert "ja-mecab" in err and "--tokenize" not in err, err  # acs build has no --tokenize
