"""A hostile user's table: every `acs` command and the metric on bad input.

Each row is a command line built over small files that the fixture writes, and a fragment its
error must contain (the file, the line or the argument). What must hold for every row: exit status
2, one `acs COMMAND: error:` line on stderr, no traceback, and a message of ours — not the
boundary's fallback for an exception nobody checked for ("run with --debug")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.demo_data import demo_file

GOOD_CONLLU = demo_file("sample.de.conllu").read_text(encoding="utf-8")
FIRST_BLOCK = GOOD_CONLLU.split("\n\n")[0] + "\n\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("bad")
    f: dict[str, Path] = {"root": root}

    def write(name: str, content: str | bytes) -> Path:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        f[name] = path
        return path

    write("de", demo_file("sample.de").read_text(encoding="utf-8"))
    write("en", demo_file("sample.en").read_text(encoding="utf-8"))
    write("short.en", "one line\n")
    write("latin1.de", "Der Zug kommt an .\nGr\xfc\xdfe\n".encode("latin-1"))
    write("two.en", "The train arrives .\nGreetings\n")
    write("blank.en", "\n" * 29)
    lines = FIRST_BLOCK.rstrip("\n").split("\n")
    word = next(i for i, line in enumerate(lines) if line.startswith("2\t"))
    columns = lines[word].split("\t")
    write("id_digit.conllu", "\n".join(lines[:word] + ["\u0662" + lines[word][1:]] + lines[word + 1:]) + "\n\n")
    write("head_digit.conllu", "\n".join(lines[:word] + ["\t".join(columns[:6] + ["\u00b9"] + columns[7:])]
                                         + lines[word + 1:]) + "\n\n")
    write("nine.conllu", "\n".join(lines[:word] + ["\t".join(columns[:9])] + lines[word + 1:]) + "\n\n")
    write("head_range.conllu", "\n".join(lines[:word] + ["\t".join(columns[:6] + ["99"] + columns[7:])]
                                         + lines[word + 1:]) + "\n\n")
    write("nul.conllu", "\n".join(lines[:word] + ["\t".join(columns[:1] + ["a\x00b"] + columns[2:])]
                                  + lines[word + 1:]) + "\n\n")
    write("utf8.conllu", FIRST_BLOCK.encode("utf-8") + b"# x = \xff\n")
    blocks = GOOD_CONLLU.strip("\n").split("\n\n")
    write("swapped.conllu", "\n\n".join([blocks[1], blocks[0], *blocks[2:]]) + "\n\n")
    pharaoh = demo_file("sample.de-en.pharaoh").read_text(encoding="utf-8").split("\n")
    write("range.pharaoh", "\n".join(["0-99", *pharaoh[1:]]))
    write("digit.pharaoh", "\n".join(["0-\u0661", *pharaoh[1:]]))
    write("malformed.pharaoh", "\n".join(["0:1", *pharaoh[1:]]))
    write("short.pharaoh", "0-0\n")
    write("not_a_model.udpipe", b"\x00\x01 not a model")
    write("afile", "x")
    write("foreign/README.md", "someone else's dataset\n")
    good = root / "good"
    build_demo(good)
    f["good"] = good
    for name, change in (("broken_record", "record"), ("truncated", "parquet"), ("outside", "outside"),
                         ("bad_yaml", "yaml"), ("incomplete", "readme")):
        folder = root / name
        build_demo(folder)
        if change == "record":
            (folder / "acs_build.json").write_text("{not json", encoding="utf-8")
        elif change == "parquet":  # both directions: a de-en build fails on en-de's, and leaves de-en's as it was
            for pair in ("de-en", "en-de"):
                victim = folder / "data" / f"{pair}.baseline" / "sample-00000-of-00001.parquet"
                victim.write_bytes(victim.read_bytes()[:100])
        elif change == "outside":
            card = (folder / "README.md").read_text(encoding="utf-8")
            (folder / "README.md").write_text(card.replace("path: data/de-en.baseline/", "path: ../good/data/de-en.baseline/", 1),
                                              encoding="utf-8")
        elif change == "yaml":
            card = (folder / "README.md").read_text(encoding="utf-8")
            (folder / "README.md").write_text(card.replace("configs:", "configs: [", 1), encoding="utf-8")
        else:
            (folder / "README.md").unlink()
        f[name] = folder
    return f


S = "sample"
BUILD = ["build", "--quiet"]


def _path(f, name: str) -> Path:
    """A fixture file, or a path under the fixture folder that does not exist."""
    return f[name] if name in f else f["root"] / name


def _build(f, *extra: str, source="de", target="en", conllu=True, out=None, pair="de-en", corpus=S) -> list[str]:
    argv = [*BUILD, "--pair", pair, "--corpus", corpus, "--source", str(_path(f, source)),
            "--target", str(_path(f, target)), "--out", str(out or f["root"] / "out")]
    if conllu:
        argv += ["--source-conllu", str(demo_file("sample.de.conllu"))]
    if "--aligner" not in extra and "--alignment" not in extra:
        argv += ["--aligner", "none"]
    return argv + list(extra)


def _evaluate(f, *extra: str, dataset="good", hyp="en") -> list[str]:
    return ["evaluate", "--dataset", str(_path(f, dataset)), "--pair", "de-en", "--hyp", str(_path(f, hyp)),
            "--n-samples", "3", *extra]


def _select(f, name: str, *extra: str) -> list[str]:
    return ["select", "--conllu", str(_path(f, name)), "--phenomenon", "particle", *extra]


UDPIPE = ["parse", "--lang", "de", "--parser", "udpipe", "--quiet"]

# (case id, argv builder, what the message must name)
CASES = [
    # -- acs select: CoNLL-U as it enters
    ("select-missing", lambda f: _select(f, "none.conllu"), "none.conllu"),
    ("select-directory", lambda f: _select(f, "root"), "Is a directory"),
    ("select-utf8", lambda f: _select(f, "utf8.conllu"), "utf8.conllu:"),
    ("select-id-unicode-digit", lambda f: _select(f, "id_digit.conllu"), "id_digit.conllu:"),
    ("select-head-unicode-digit", lambda f: _select(f, "head_digit.conllu"), "head_digit.conllu:"),
    ("select-nine-columns", lambda f: _select(f, "nine.conllu"), "nine.conllu:"),
    ("select-head-out-of-range", lambda f: _select(f, "head_range.conllu"), "head_range.conllu:"),
    ("select-nul-in-form", lambda f: _select(f, "nul.conllu"), "nul.conllu:"),
    ("select-negative-distance", lambda f: _select(f, "nine.conllu", "--min-distance", "-1"), "--min-distance"),
    ("select-reorder-is-not-lexical", lambda f: ["select", "--conllu", str(f["nine.conllu"]), "--phenomenon",
                                                 "reorder"], "--phenomenon"),
    # -- acs parse
    ("parse-missing-input", lambda f: [*UDPIPE, "--udpipe-model", str(f["not_a_model.udpipe"]), "--input",
                                       str(f["root"] / "none.de"), "--output", "-"], "none.de"),
    ("parse-directory-input", lambda f: [*UDPIPE, "--udpipe-model", str(f["not_a_model.udpipe"]), "--input",
                                         str(f["root"]), "--output", "-"], "bad"),
    ("parse-no-model", lambda f: [*UDPIPE, "--input", str(f["de"]), "--output", "-"], "--udpipe-model"),
    ("parse-missing-model", lambda f: [*UDPIPE, "--udpipe-model", str(f["root"] / "none.udpipe"), "--input",
                                       str(f["de"]), "--output", "-"], "none.udpipe"),
    ("parse-not-a-model", lambda f: [*UDPIPE, "--udpipe-model", str(f["not_a_model.udpipe"]), "--input",
                                     str(f["de"]), "--output", "-"], "not_a_model.udpipe"),
    ("parse-shard-size-0", lambda f: [*UDPIPE, "--input", str(f["de"]), "--output", "-", "--shard-size", "0"],
     "--shard-size"),
    ("parse-shard-size-negative", lambda f: [*UDPIPE, "--input", str(f["de"]), "--output", "-", "--shard-size",
                                             "-1"], "--shard-size"),
    ("parse-conllu-without-file", lambda f: ["parse", "--lang", "de", "--parser", "conllu", "--input", str(f["de"]),
                                             "--output", "-"], "--conllu"),
    ("parse-conllu-mismatch", lambda f: ["parse", "--lang", "de", "--parser", "conllu", "--conllu",
                                         str(f["swapped.conllu"]), "--input", str(f["de"]), "--output", "-"],
     "swapped.conllu:"),
    ("parse-flag-of-another-parser", lambda f: [*UDPIPE, "--udpipe-model", "m", "--batch-size", "8", "--input",
                                                str(f["de"]), "--output", "-"], "batch size"),
    ("parse-latin1-input", lambda f: [*UDPIPE, "--udpipe-model", str(f["not_a_model.udpipe"]), "--input",
                                      str(f["latin1.de"]), "--output", "-"], "latin1.de:2"),
    ("parse-output-under-proc", lambda f: ["parse", "--lang", "de", "--parser", "conllu", "--conllu",
                                           str(demo_file("sample.de.conllu")), "--input", str(demo_file("sample.de")),
                                           "--output", "/proc/acs/out.conllu"], "/proc/acs"),
    # -- acs align
    ("align-missing-source", lambda f: ["align", "--aligner", "eflomal", "--source", str(f["root"] / "none.de"),
                                        "--target", str(f["en"]), "--output", "-"], "none.de"),
    ("align-line-count", lambda f: ["align", "--aligner", "eflomal", "--source", str(f["de"]), "--target",
                                    str(f["short.en"]), "--output", "-"], "short.en"),
    ("align-flag-of-another-aligner", lambda f: ["align", "--aligner", "eflomal", "--layer", "3", "--source",
                                                 str(f["de"]), "--target", str(f["en"]), "--output", "-"], "layer"),
    ("align-missing-model", lambda f: ["align", "--model", str(f["root"] / "no-model"), "--source", str(f["de"]),
                                       "--target", str(f["en"]), "--output", "-"], "no-model"),
    ("align-latin1", lambda f: ["align", "--aligner", "eflomal", "--source", str(f["latin1.de"]), "--target",
                                str(f["two.en"]), "--output", "-"], "latin1.de:2"),
    ("align-output-is-a-directory", lambda f: ["align", "--aligner", "eflomal", "--source", str(f["de"]), "--target",
                                               str(f["en"]), "--output", str(f["root"])], "bad"),
    # -- acs build: names, files, folders
    ("build-bad-pair", lambda f: _build(f, pair="de_en"), "de_en"),
    ("build-pair-newline", lambda f: _build(f, pair="de-en\n"), "de-en"),
    ("build-bad-corpus", lambda f: _build(f, corpus="news test"), "news test"),
    ("build-corpus-newline", lambda f: _build(f, corpus="news\n"), "news"),
    ("build-missing-source", lambda f: _build(f, source="missing.de"), "missing.de"),
    ("build-line-count", lambda f: _build(f, target="short.en"), "short.en"),
    ("build-missing-conllu", lambda f: _build(f, conllu=False) + ["--source-conllu", str(f["root"] / "none.conllu")],
     "none.conllu"),
    ("build-conllu-directory", lambda f: _build(f, conllu=False) + ["--source-conllu", str(f["root"])], "bad"),
    ("build-conllu-text-mismatch", lambda f: _build(f, conllu=False) + ["--source-conllu", str(f["swapped.conllu"])],
     "swapped.conllu"),
    ("build-missing-alignment", lambda f: _build(f, "--alignment", str(f["root"] / "none.pharaoh")),
     "none.pharaoh"),
    ("build-alignment-out-of-range", lambda f: _build(f, "--alignment", str(f["range.pharaoh"])), "range.pharaoh:1"),
    ("build-alignment-unicode-digit", lambda f: _build(f, "--alignment", str(f["digit.pharaoh"])),
     "digit.pharaoh:1"),
    ("build-alignment-malformed", lambda f: _build(f, "--alignment", str(f["malformed.pharaoh"])),
     "malformed.pharaoh:1"),
    ("build-alignment-line-count", lambda f: _build(f, "--alignment", str(f["short.pharaoh"])), "short.pharaoh"),
    ("build-out-is-a-file", lambda f: _build(f, out=f["afile"]), "afile"),
    ("build-out-foreign-folder", lambda f: _build(f, out=f["root"] / "foreign"), "foreign"),
    ("build-out-under-proc", lambda f: _build(f, out=Path("/proc/acs-out")), "/proc"),
    ("build-conllu-parser-without-file", lambda f: _build(f, "--parser", "conllu", conllu=False),
     "--source-conllu"),
    ("build-conllu-with-udpipe", lambda f: _build(f, "--parser", "udpipe"), "--source-conllu"),
    ("build-pharaoh-without-file", lambda f: _build(f, "--aligner", "pharaoh"), "--alignment"),
    ("build-alignment-with-eflomal", lambda f: _build(f, "--aligner", "eflomal", "--alignment",
                                                      str(demo_file("sample.de-en.pharaoh"))), "--alignment"),
    ("build-shard-size-0", lambda f: _build(f, "--shard-size", "0"), "--shard-size"),
    ("build-no-pairs", lambda f: _build(f, target="blank.en"), "blank.en"),
    ("build-broken-record", lambda f: _build(f, out=f["broken_record"]), "acs_build.json"),
    ("build-truncated-parquet", lambda f: _build(f, out=f["truncated"]), "parquet"),
    ("build-unknown-phenomenon", lambda f: _build(f, "--phenomena", "idiom"), "--phenomena"),
    # -- acs stats
    ("stats-missing", lambda f: ["stats", str(f["root"] / "nothing")], "nothing"),
    ("stats-a-file", lambda f: ["stats", str(f["afile"])], "afile"),
    ("stats-incomplete", lambda f: ["stats", str(f["incomplete"])], "incomplete"),
    ("stats-truncated-parquet", lambda f: ["stats", str(f["truncated"])], "parquet"),
    # -- acs evaluate
    ("evaluate-missing-dataset", lambda f: _evaluate(f, "--config", "all", dataset="missing_folder"),
     "missing_folder"),
    ("evaluate-missing-hyp", lambda f: _evaluate(f, "--config", "all", hyp="missing.en"), "missing.en"),
    ("evaluate-hyp-line-count", lambda f: _evaluate(f, "--config", "all", hyp="short.en"), "short.en"),
    ("evaluate-empty-config", lambda f: _evaluate(f, "--config", ""), "--config"),
    ("evaluate-unknown-config", lambda f: _evaluate(f, "--config", "de-en.idiom.d2"), "de-en.idiom.d2"),
    ("evaluate-zero-samples", lambda f: _evaluate(f, "--config", "all", "--n-samples", "0"), "--n-samples"),
    ("evaluate-absurd-samples", lambda f: _evaluate(f, "--config", "all", "--n-samples", str(10**9)), "--n-samples"),
    ("evaluate-negative-tolerance", lambda f: _evaluate(f, "--config", "all", "--length-tolerance", "-1"),
     "--length-tolerance"),
    ("evaluate-negative-seed", lambda f: _evaluate(f, "--config", "all", "--seed", "-1"), "--seed"),
    ("evaluate-ref-line-count", lambda f: _evaluate(f, "--config", "all", "--ref", str(f["short.en"])), "short.en"),
    ("evaluate-bad-tokenizer", lambda f: _evaluate(f, "--config", "all", "--tokenize", "nope"), "tokenize"),
    ("evaluate-data-files-outside", lambda f: _evaluate(f, "--config", "all", dataset="outside"), "README.md"),
    ("evaluate-bad-yaml", lambda f: _evaluate(f, "--config", "all", dataset="bad_yaml"), "README.md"),
    ("evaluate-incomplete", lambda f: _evaluate(f, "--config", "all", dataset="incomplete"), "incomplete"),
    ("evaluate-truncated-parquet", lambda f: _evaluate(f, "--config", "all", dataset="truncated"), "parquet"),
    # -- acs demo
    ("demo-out-is-a-file", lambda f: ["demo", "--out", str(f["afile"])], "afile"),
    ("demo-out-foreign", lambda f: ["demo", "--out", str(f["root"] / "foreign")], "foreign"),
    ("demo-unknown-config", lambda f: ["demo", "--config", "de-en.idiom.d1"], "de-en.idiom.d1"),
]


@pytest.mark.parametrize(("argv", "names"), [pytest.param(a, n, id=i) for i, a, n in CASES])
def test_bad_input_is_one_line_naming_what_is_wrong(files, capsys, argv, names):
    rc = _run(argv(files))
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("acs")]
    errors = [line for line in lines if ": error:" in line]
    assert len(errors) == 1, err
    assert "run with --debug" not in errors[0], errors[0]  # an exception nobody checked for
    assert names in errors[0], errors[0]


def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as stop:  # argparse's own errors: usage, one error line, exit 2
        return int(stop.code)


def test_there_are_at_least_60_cases():
    assert len(CASES) >= 60 and len({case[0] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", ["select-id-unicode-digit", "build-out-foreign-folder", "evaluate-bad-yaml"])
def test_the_installed_command_prints_no_traceback(files, case):
    argv = dict((i, a) for i, a, _ in CASES)[case](files)
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *argv], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    debug = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "--debug", *argv], capture_output=True,
                           text=True, timeout=300)
    assert debug.returncode != 0 and "Traceback" in debug.stderr  # --debug shows it
