"""``acs report``: a saved run rendered again from its results.json alone, byte for byte, and
every way a folder can fail to be one, named."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.evaluation.results import SCHEMA

from toy_dataset import SPLIT, make


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
            and not p.name.startswith(".")}


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A rich run's --out: human scores, targeted accuracy with its verdicts on the page, every config."""
    tmp = tmp_path_factory.mktemp("report")
    toy = make(tmp)
    out = tmp / "A"
    rc = main(["evaluate", "--dataset", str(toy["root"]), "--config", "all", "--split", SPLIT,
               *(x for name, path in toy["hyps"].items() for x in ("--hyp", f"{name}={path}")),
               "--human", str(toy["human"]), "--targeted", "--n-samples", "10", "--paired-samples", "20",
               "--quiet", "--out", str(out)])
    assert rc == 0
    return out


def test_a_saved_run_renders_again_byte_for_byte_elsewhere_and_in_place(saved, tmp_path, capsys):
    before = _files(saved)
    assert {"results.json", "report.md", "index.html", "sentences.json.gz"} <= set(before)
    assert any(name.startswith("sentences/") for name in before) and any(name.endswith(".svg") for name in before)
    capsys.readouterr()
    assert main(["report", str(saved), "--out", str(tmp_path / "B"), "--quiet"]) == 0
    assert f"wrote {len(before)} files to {tmp_path / 'B'}" in capsys.readouterr().out
    again = _files(tmp_path / "B")
    assert sorted(again) == sorted(before)
    assert [name for name in before if again[name] != before[name]] == []
    assert main(["report", str(saved), "--quiet"]) == 0  # in place: the folder replaced by the same bytes
    assert _files(saved) == before


def test_a_plain_install_renders_a_saved_run_without_jsonschema(saved, tmp_path, monkeypatch):
    """jsonschema is a dev extra: acs report checks a results.json by the result's own reader."""
    import sys

    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "jsonschema", None)  # import jsonschema now raises ImportError
        assert main(["report", str(saved), "--out", str(tmp_path / "B"), "--quiet"]) == 0
    assert (tmp_path / "B" / "report.md").read_bytes() == (saved / "report.md").read_bytes()


def test_a_saved_run_states_its_own_method_constants_and_an_older_one_todays(saved, tmp_path):
    """The method's constants are the run's (results.json's settings.method): a run made with
    other counts says so when rendered again; one written before they were recorded reads with
    today's (Method's defaults)."""
    from auto_challenge_sets.evaluation.results import Method

    document = json.loads((saved / "results.json").read_text(encoding="utf-8"))
    assert document["settings"]["method"] == {"alpha": Method.alpha, "bootstrap": Method.bootstrap,
                                              "permutations": Method.permutations,
                                              "segment_bootstrap": Method.segment_bootstrap,
                                              "segment_permutations": Method.segment_permutations}
    for name, method in (("other", {**document["settings"]["method"], "bootstrap": 500, "alpha": 0.01}),
                         ("older", None)):
        settings = {k: v for k, v in document["settings"].items() if k != "method"}
        folder = tmp_path / name
        folder.mkdir()
        (folder / "results.json").write_text(json.dumps(
            {**document, "settings": settings if method is None else {**settings, "method": method}}), encoding="utf-8")
        assert main(["report", str(folder), "--quiet"]) == 0
        page = (folder / "index.html").read_text(encoding="utf-8")
        expected = (f"α {Method.alpha}; human correlations: {Method.bootstrap} bootstrap" if method is None
                    else "α 0.01; human correlations: 500 bootstrap")
        assert expected in page
        (folder / "results.json").unlink()  # conftest validates every results.json a session leaves


def test_a_run_without_its_sentences_renders_the_page_without_them(saved, tmp_path):
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "results.json").write_bytes((saved / "results.json").read_bytes())
    assert main(["report", str(bare), "--quiet"]) == 0
    written = _files(bare)
    assert written["results.json"] == (saved / "results.json").read_bytes()
    assert written["report.md"] == (saved / "report.md").read_bytes()
    assert not any(name.startswith("sentences") for name in written)
    assert written["index.html"] != (saved / "index.html").read_bytes()  # the same page, less its sentences


def _error(capsys, *argv: str) -> str:
    assert main(["report", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err.strip()


def test_a_folder_that_is_not_a_saved_run_is_named(saved, tmp_path_factory, capsys):
    tmp_path = tmp_path_factory.mktemp("bad")
    assert "is not a folder" in _error(capsys, str(tmp_path / "missing"))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert f"{empty / 'results.json'}: not found" in _error(capsys, str(empty))
    document = json.loads((saved / "results.json").read_text(encoding="utf-8"))
    cases = {
        "broken": ('{\n"schema": "acs-evaluation/4",\n', "results.json:3: is not JSON"),
        "other": (json.dumps({"rows": 1}), 'is not a results.json of `acs evaluate` (no "schema"'),
        "older": (json.dumps({**document, "schema": "acs-evaluation/3"}),
                  f"is acs-evaluation/3; this version renders {SCHEMA}"),
        "bad-field": (json.dumps({**document, "metric_info": {"bleu": {"label": "BLEU", "digits": "two",
                                                                       "signature": "s"}}}),
                      f"does not match {SCHEMA} at metric_info/bleu/digits: 'two' is not of type 'integer'"),
        "unknown-field": (json.dumps({**document, "extra": 1}),
                          f"does not match {SCHEMA} at extra: is not a field of Evaluation"),
        "out-of-bounds": (json.dumps({**document, "full_corpus_rows": 0}),
                          f"does not match {SCHEMA} at full_corpus_rows: 0 is less than the minimum of 1"),
    }
    for name, (text, expected) in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "results.json").write_text(text, encoding="utf-8")
        message = _error(capsys, str(folder))
        assert expected in message and str(folder / "results.json") in message, message
        assert sorted(p.name for p in folder.iterdir()) == ["results.json"]  # nothing written
        (folder / "results.json").unlink()  # conftest validates every results.json a session leaves
    latin = tmp_path / "latin"
    latin.mkdir()
    (latin / "results.json").write_bytes(b"\xff\xfe{}")
    assert "is not UTF-8 text" in _error(capsys, str(latin))
    (latin / "results.json").unlink()
    (latin / "results.json").write_bytes((saved / "results.json").read_bytes())
    (latin / "sentences.json.gz").write_bytes(b"not gzip")
    assert f"{latin / 'sentences.json.gz'}: cannot read as gzip: Not a gzipped file" in _error(capsys, str(latin))
    (latin / "sentences.json.gz").write_bytes(gzip.compress(b'{"systems": []}'))
    assert f"{latin / 'sentences.json.gz'}: is not the sentences of an acs evaluate report" in _error(capsys, str(latin))


def test_a_pipe_or_a_link_named_like_a_saved_file_is_never_opened(saved, tmp_path_factory, capsys):
    import os

    folder = tmp_path_factory.mktemp("odd")
    os.mkfifo(folder / "results.json")  # its reader would wait forever for a writer
    assert f"{folder / 'results.json'}: is a pipe" in _error(capsys, str(folder))
    (folder / "results.json").unlink()
    (folder / "results.json").write_bytes((saved / "results.json").read_bytes())
    (folder / "sentences.json.gz").symlink_to(saved / "sentences.json.gz")
    assert f"{folder / 'sentences.json.gz'}: is a symbolic link, not a regular file" in _error(capsys, str(folder))
    (folder / "results.json").unlink()


def test_another_out_folder_that_holds_foreign_files_is_refused_and_left_as_it_was(saved, tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.md").write_text("mine", encoding="utf-8")
    assert f"{out / 'notes.md'}: is not a file acs evaluate writes" in _error(capsys, str(saved), "--out", str(out))
    assert [p.name for p in out.iterdir()] == ["notes.md"]


def test_help_says_what_it_reads_and_writes(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = capsys.readouterr().out
    assert "results.json" in text and "--out" in text and "acs-evaluation/4" in text
