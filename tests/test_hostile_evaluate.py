"""Hostile input to ``acs evaluate`` and to the evaluate metric: one error, one line, naming the file
and line or the argument, never a traceback, and the previous report folder left whole.

The command-line cases are one table (:data:`CLI_CASES`); each row writes its inputs into the
test's folder and gives the flags (and standard input) of one run into a report folder an earlier
run made. The metric's (Python API) cases are the second table (:data:`METRIC_CASES`)."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau, permutation_test, spearmanr

from auto_challenge_sets.cli import main
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.stats.human import HumanScores, correlation, read_human
from auto_challenge_sets.metrics.compute import compute

from mutation_scope import per_test_under_mutmut
from toy_dataset import SPLIT, N, Toy


@pytest.fixture(scope=per_test_under_mutmut)
def previous(toy) -> Path:
    """A report folder that an earlier run made; every row writes into it and must leave it whole."""
    out = toy["tmp"] / "report"
    assert main([*_base(toy), "--hyp", f"good={toy['hyps']['good']}", "--out", str(out)]) == 0
    return out


def _base(toy: Toy) -> list[str]:
    return ["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT,
            "--n-samples", "5", "--paired-samples", "10", "--metrics", "bleu", "--jobs", "1", "--quiet"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Case:
    """What one row needs: the toy, the test's own folder, and files written there."""

    def __init__(self, toy: Toy, tmp: Path):
        self.toy, self.tmp = toy, tmp
        self.lines = [line.encode() for line in toy["corpus"]["outputs"]["good"]]

    def hyp(self, system: str = "good") -> str:
        return f"{system}={self.toy['hyps'][system]}"

    def file(self, name: str, data: str | bytes) -> str:
        path = self.tmp / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return str(path)

    def output(self, replace: dict[int, bytes] | None = None, drop: int = 0) -> bytes:
        """The good system's output, with lines replaced (1-based) or the last ``drop`` left out."""
        lines = list(self.lines)
        for number, raw in (replace or {}).items():
            lines[number - 1] = raw
        return b"\n".join(lines[:len(lines) - drop]) + b"\n"

    def human(self, text: str) -> list[str]:
        return ["--hyp", self.hyp("good"), self.hyp("better"), self.hyp("worse"), "--human", self.file("human.txt", text)]


Setup = Callable[[Case], tuple[list[str], bytes | None]]  # flags, standard input


def _foreign(case: Case) -> tuple[list[str], bytes | None]:
    theirs = case.tmp / "theirs"
    theirs.mkdir()
    (theirs / "README.md").write_text("my notes\n", encoding="utf-8")
    return ["--hyp", case.hyp(), "--out", str(theirs)], None


def _symlink_out(case: Case) -> tuple[list[str], bytes | None]:
    (case.tmp / "elsewhere").mkdir()
    (case.tmp / "link").symlink_to(case.tmp / "elsewhere", target_is_directory=True)
    return ["--hyp", case.hyp(), "--out", str(case.tmp / "link")], None


CLI_CASES: list[tuple[str, Setup, str]] = [
    # 1. the report folder
    ("out-not-made-by-evaluate", _foreign, r"/theirs/README\.md: is not a file acs evaluate writes"),
    ("out-is-a-file", lambda c: (["--hyp", c.hyp(), "--out", c.file("a_file", "x")], None),
     r"/a_file: exists and is not a folder"),
    ("out-under-a-file", lambda c: (["--hyp", c.hyp(), "--out", c.file("a_file", "x") + "/report"], None),
     r"/a_file( is a file, not a folder|: (File exists|Not a directory))"),
    ("out-is-a-symlink", _symlink_out, r"/link: is a symbolic link"),
    # 2. text reading: standard input as a file, named <stdin>
    ("stdin-invalid-utf8", lambda c: (["--hyp", "good=-"], c.output({5: b"caf\xe9"})),
     r"<stdin>:5: invalid UTF-8 \(byte 4 of the line\)"),
    ("stdin-line-count", lambda c: (["--hyp", "good=-"], c.output(drop=3)),
     rf"<stdin>: \(good\) has {N - 3} lines but .* has {N}"),
    ("file-invalid-utf8", lambda c: (["--hyp", "bad=" + c.file("bad.en", c.output({7: b"\xff"}))], None),
     r"/bad\.en:7: invalid UTF-8"),
    # 3. human scores: true line numbers, one row per system
    ("human-bad-score-after-blank-lines", lambda c: (c.human("SYS Z.SCR\n\ngood 0.1\n\nbetter abc\n"), None),
     r"/human\.txt:5: score 'abc' is not a number"),
    ("human-csv-bad-row-after-blank-lines", lambda c: (c.human("SYS,Z.SCR\n\n\ngood,0.1\nbetter\n"), None),
     r"/human\.txt:5: has 1 columns, the header 2"),
    ("human-header-after-blank-lines", lambda c: (c.human("\n\nSYSTEM Z.SCR\ngood 0.1\n"), None),
     r"/human\.txt:3: has no column 'SYS'"),
    ("human-duplicate-row", lambda c: (c.human("SYS Z.SCR\ngood 0.1\nbetter 0.2\ngood 0.3\n"), None),
     r"/human\.txt:4: a second row for 'good' \(the first is on line 2\)"),
    ("human-two-names-one-system", lambda c: (c.human("SYS Z.SCR\ngood.1 0.1\n\ngood.2 0.3\n"), None),
     r"/human\.txt:4: 'good\.2' is a second row for system 'good' \(the first is on line 2\)"),
    # 5. flags
    ("hyp-empty-name", lambda c: (["--hyp", "=" + str(c.toy["hyps"]["good"])], None),
     r"--hyp =\S+: NAME=FILE needs a system name and a file"),
    ("hyp-empty-file", lambda c: (["--hyp", "good="], None), r"--hyp good=: NAME=FILE needs a system name and a file"),
    ("hyp-alignment-twice", lambda c: (["--hyp", c.hyp(), "--targeted", "--hyp-alignment", "good=" + c.file("a1", "0-0\n"),
                                        "--hyp-alignment", "good=" + c.file("a2", "0-0\n")], None),
     r"--hyp-alignment good=\S+/a2: a second alignment file for system good \(the first: \S+/a1\)"),
    ("hyp-alignment-twice-unnamed", lambda c: (["--hyp", c.hyp(), "--targeted", "--hyp-alignment", c.file("a1", "0-0\n"),
                                                "--hyp-alignment", c.file("a2", "0-0\n")], None),
     r"--hyp-alignment \S+/a2: a second alignment file for system good"),
]


@pytest.mark.parametrize("setup, expected", [pytest.param(setup, expected, id=name) for name, setup, expected in CLI_CASES])
def test_hostile_evaluate_is_one_line_naming_the_input(toy, previous, tmp_path, capsys, monkeypatch, setup, expected):
    before = _snapshot(previous)
    flags, stdin = setup(Case(toy, tmp_path))
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    argv = [*_base(toy), *flags] + ([] if "--out" in flags else ["--out", str(previous)])
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith("note: ")]
    assert "Traceback" not in err and len(lines) == 1, err
    assert lines[0].startswith("acs evaluate: error: ") and re.search(expected, lines[0]), lines[0]
    assert ".acs-new-" not in lines[0]
    assert _snapshot(previous) == before


# 4. the evaluate metric's targeted inputs: a ValueError naming the argument and the row
_ROWS = {"predictions": ["Argentina rejects the counteroffer", "Argentina declined the counteroffer"],
         "references": ["Argentina declines the counteroffer"] * 2}
_GOOD_INSTANCE = [{"head": 2, "dependent": 4, "distance": 1}]

METRIC_CASES = [
    ("dependent-far-outside", {"instances": [_GOOD_INSTANCE, [{"head": 2, "dependent": 10**9, "distance": 1}]],
                               "source_alignments": ["0-0 1-1 2-3 3-1"] * 2},
     r"^instances\[1\]\[0\]: dependent 1000000000 is outside the sentence"),
    ("head-beyond-lengths", {"instances": [[{"head": 5, "dependent": 4, "distance": 0}], _GOOD_INSTANCE],
                             "source_alignments": ["0-0 1-1 2-3 3-1"] * 2, "lengths": [4, 4]},
     r"^instances\[0\]\[0\]: head 5 is outside the sentence, beyond the 4 words of lengths\[0\]"),
    ("reference-index-past-the-reference", {"instances": [_GOOD_INSTANCE] * 2, "source_alignments": ["0-0", "0-99"]},
     r"^source_alignments\[1\]: link 0-99 points past the 4 white-space tokens of the first reference"),
    ("source-index-past-lengths", {"instances": [_GOOD_INSTANCE] * 2, "source_alignments": [[(9, 0)], "0-0"],
                                   "lengths": [4, 4]},
     r"^source_alignments\[0\]: link 9-0 points past the 4 source words of lengths\[0\]"),
    ("output-index-past-the-prediction", {"instances": [_GOOD_INSTANCE] * 2, "source_alignments": ["0-0"] * 2,
                                          "hypothesis_alignments": ["0-0", "1-4"]},
     r"^hypothesis_alignments\[1\]: link 1-4 points past the 4 white-space tokens of the prediction"),
]


@pytest.mark.parametrize("arguments, expected", [pytest.param(a, e, id=name) for name, a, e in METRIC_CASES])
def test_hostile_metric_inputs_name_the_argument_and_row(arguments, expected):
    with pytest.raises(ValueError, match=expected):
        compute(**_ROWS, **arguments)


def test_in_range_targeted_inputs_still_score():
    result = compute(**_ROWS, instances=[_GOOD_INSTANCE] * 2, source_alignments=["0-0 1-1 2-3 3-1"] * 2, lengths=[4, 4],
                     hypothesis_alignments=["0-0 1-1 2-3 3-1"] * 2)
    # by hand: the head aligns to "declines"; "rejects" is another word, "declined" passes the chrF >= 50 fallback
    found = result["targeted"]
    assert (found["instances"], found["correct"], found["wrong"], found["unaligned"], found["accuracy"]) == (
        2, 1, 1, 0, 0.5)


# 2. standard input read as a file is: a BOM at the start dropped, one inside a line reported
def test_stdin_follows_the_text_reading_policy(toy, tmp_path, capsys, monkeypatch):
    case = Case(toy, tmp_path)
    data = b"\xef\xbb\xbf" + case.output({3: case.lines[2] + "\ufeff".encode(), 6: case.lines[5] + b"\x0b"})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main([*_base(toy), "--hyp", "good=-", "--json"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note: ")]
    assert "note: <stdin>: dropped a UTF-8 byte-order mark" in notes
    assert "note: <stdin>: read line separators or control characters (U+000B, U+FEFF) inside 2 line(s) as " \
           "spaces: line 3, 6" in notes


def test_a_bom_inside_a_file_is_reported_like_a_control_character(tmp_path):
    from auto_challenge_sets.formats.corpus import ReadReport, read_lines, read_stream_lines

    data = b"\xef\xbb\xbfeins\nzw\xef\xbb\xbfei\ndrei\n"
    path = tmp_path / "f.en"
    path.write_bytes(data)
    for lines, report, name in ((read_lines(path, r := ReadReport()), r, str(path)),
                                (read_stream_lines(io.BytesIO(data), s := ReadReport()), s, "<stdin>")):
        assert lines == ["eins", "zw ei", "drei"]
        assert report.messages() == [f"{name}: dropped a UTF-8 byte-order mark",
                                     f"{name}: read line separators or control characters (U+FEFF) inside 1 line(s) "
                                     "as spaces: line 2"]


# 3. p-values for few systems, as scipy computes them
def _scores(xs: list[float], ys: list[float]) -> tuple[dict[str, float], HumanScores]:
    names = [f"s{i}" for i in range(len(xs))]
    return dict(zip(names, xs)), HumanScores(dict(zip(names, ys)))


@pytest.mark.parametrize("xs, ys", [
    ([1.0, 2.0, 3.0, 4.0], [0.1, 0.2, 0.3, 0.4]),  # rho = 1, n = 4: exactly 2/4! = 1/12
    ([3.0, 1.0, 2.0, 5.0, 4.0, 6.0], [0.3, 0.2, 0.1, 0.6, 0.4, 0.5]),
    ([1.0, 2.0, 2.0, 4.0, 5.0], [1.0, 3.0, 2.0, 4.0, 4.0]),  # ties: Kendall by permutation too
])
def test_few_systems_get_exact_p_values(xs, ys):
    found = correlation(*_scores(xs, ys))
    exact_rho = permutation_test((xs,), lambda a: spearmanr(a, ys).statistic, permutation_type="pairings",
                                 vectorized=False, n_resamples=np.inf).pvalue
    ties = len(set(xs)) < len(xs) or len(set(ys)) < len(ys)
    exact_tau = (permutation_test((xs,), lambda a: kendalltau(a, ys).statistic, permutation_type="pairings",
                                  vectorized=False, n_resamples=np.inf).pvalue if ties
                 else kendalltau(xs, ys, method="exact").pvalue)
    assert found.spearman_p == pytest.approx(exact_rho)
    assert found.p_value == pytest.approx(exact_tau)
    if xs == [1.0, 2.0, 3.0, 4.0]:
        assert found.spearman_p == pytest.approx(1 / 12) and spearmanr(xs, ys).pvalue < 1e-10


def test_more_than_ten_systems_keep_scipys_own_p_values():
    """Above SMALL_N (10) systems the p-values are scipy's defaults (Spearman's t approximation; for
    Kendall scipy's own choice, exact here: no ties); at 10 they are the exact permutation p."""
    rng = np.random.default_rng(4)
    xs, ys = list(rng.random(11)), list(rng.random(11))
    found = correlation(*_scores(xs, ys))
    assert found.spearman_p == spearmanr(xs, ys).pvalue and found.p_value == kendalltau(xs, ys).pvalue
    ten = correlation(*_scores(xs[:10], ys[:10]))
    assert ten.spearman_p != pytest.approx(spearmanr(xs[:10], ys[:10]).pvalue)


def test_human_rows_keep_their_line_numbers(tmp_path):
    table = tmp_path / "h.csv"
    table.write_text("\nSYS,Z.SCR\n\nUF.15,0.5\nnobody,x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"h\.csv:5: score 'x' is not a number"):
        read_human(table, ["UF"])


# 5. what the commands print
def test_a_reference_config_is_named_where_the_full_corpus_was(toy, tmp_path, capsys):
    from toy_dataset import config_lines, write_folder

    c = toy["corpus"]
    root = write_folder(tmp_path / "ldd", c, {**config_lines(c), "de-en.reorder.d0": list(range(1, N + 1))})
    argv = [*_base(toy), "--dataset", str(root), "--ref-config", "de-en.reorder.d0",
            *Case(toy, tmp_path).human("SYS Z.SCR\ngood 0.2\nbetter 0.4\nworse -0.3\n")]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert "full corpus: de-en.reorder.d0" in out and "full corpus" not in out
    assert any(line.startswith("(full corpus: de-en.reorder.d0) ") for line in out)
    assert not any("full test set" in line for line in out)


def test_select_prints_an_empty_sent_id_as_its_comment(tmp_path, capsys):
    words = "1\tEr\ter\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\thört\thören\tVERB\t_\t_\t0\troot\t_\t_\n" \
            "3\tnie\tnie\tADV\t_\t_\t2\tadvmod\t_\t_\n4\tauf\tauf\tADP\t_\t_\t2\tcompound:prt\t_\t_\n\n"
    conllu = tmp_path / "ids.conllu"
    conllu.write_text(f"# sent_id = a\n{words}# sent_id =\n{words}{words}", encoding="utf-8")
    assert main(["select", "--conllu", str(conllu), "--phenomenon", "particle"]) == 0
    assert capsys.readouterr().out == "a\n# sent_id =\n3\n"


def test_build_prints_to_an_ascii_terminal(tmp_path, monkeypatch):
    """PYTHONIOENCODING=ascii: the build's summary has a '→'; it is escaped, not a failure after the
    folder was written."""
    from auto_challenge_sets.demo_data import demo_file

    written = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(written, encoding="ascii"))
    rc = main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
               "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
               "--alignment", str(demo_file("sample.de-en.pharaoh")), "--out", str(tmp_path / "sets"), "--quiet"])
    sys.stdout.flush()
    assert rc == 0
    assert f"29 sentence pairs of 29 lines \\u2192 {tmp_path / 'sets'}" in written.getvalue().decode("ascii")
