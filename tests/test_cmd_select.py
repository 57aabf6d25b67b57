"""`acs select`: the same sent_ids as the Python API."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.registry import find_instances

from conftest import shared_path


@pytest.mark.parametrize(("lang", "phenomenon", "minimum", "exact"), [
    ("de", "particle", 3, False), ("de", "reflexive", 0, False), ("de", "particle", 4, True),
    ("en", "prep_stranding", 0, False), ("en", "particle", 1, False),
])
def test_select_prints_the_python_apis_sent_ids(capsys: pytest.CaptureFixture, lang: str, phenomenon: str,
                                                minimum: int, exact: bool) -> None:
    path = shared_path("data", "pud", f"{lang}_pud-ud-test.conllu")
    expected = [s.sent_id for s in read_conllu(path)
                if any(i.distance == minimum if exact else i.distance >= minimum for i in find_instances(s, phenomenon))]
    argv = ["select", "--conllu", str(path), "--phenomenon", phenomenon, "--min-distance", str(minimum)]
    assert main(argv + (["--exact"] if exact else [])) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == expected and printed


def test_select_reads_stdin_and_numbers_sentences_without_sent_id(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture) -> None:
    text = ("1\tEr\ter\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tkommt\tkommen\tVERB\t_\t_\t0\troot\t_\t_\n"
            "3\tan\tan\tADP\t_\t_\t2\tcompound:prt\t_\t_\n\n"
            "1\tRuf\trufen\tVERB\t_\t_\t0\troot\t_\t_\n2\tmich\tich\tPRON\t_\tReflex=Yes\t1\tobj\t_\t_\n"
            "3\tan\tan\tADP\t_\t_\t1\tcompound:prt\t_\t_\n\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["select", "--conllu", "-", "--phenomenon", "particle", "--min-distance", "1"]) == 0
    assert capsys.readouterr().out == "2\n"


def test_bad_conllu_is_one_line_of_error_not_a_traceback(tmp_path) -> None:
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tEr\ter\tPRON\t_\t_\tx\tnsubj\t_\t_\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "select", "--conllu", str(bad),
                             "--phenomenon", "particle"], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip() == f"acs select: error: {bad}:1: HEAD must be a non-negative integer in ASCII digits (at most 18), found 'x'"


def test_select_with_a_language_uses_its_rule(capsys: pytest.CaptureFixture) -> None:
    """French PUD marks no Reflex=Yes: the generic reflexive finds nothing, French's own rule (LEMMA
    se) the sentences with a reflexive 'se' (counted with grep: 136 sentences at D >= 0)."""
    path = shared_path("data", "pud", "fr_pud-ud-test.conllu")
    assert main(["select", "--conllu", str(path), "--phenomenon", "reflexive", "--min-distance", "0"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["select", "--conllu", str(path), "--phenomenon", "reflexive", "--min-distance", "0",
                 "--lang", "fr"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 136
