"""``acs parse`` end to end (UDPipe tiny model; trankit's offline failure)."""

from __future__ import annotations

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.formats.conllu import read_conllu

from tiny_models import DEMO, tiny_udpipe_model


@pytest.fixture(scope="session")
def tiny_model():
    return tiny_udpipe_model()


def test_help_lists_the_options(capsys):
    with pytest.raises(SystemExit, match="^0$"):
        main(["parse", "--help"])
    out = capsys.readouterr().out
    for option in ("--lang", "--parser", "--pretokenized", "--trankit-cache", "--udpipe-model", "--device",
                   "--batch-size", "--shard-size", "parataxis"):
        assert option in out


def test_parse_with_udpipe_writes_conllu_and_a_summary(tiny_model, tmp_path, capsys):
    source = tmp_path / "in.de"
    lines = (DEMO / "sample.de").read_text(encoding="utf-8").splitlines()
    source.write_text("\n".join(lines[:5] + ["", "Der Zug kommt an. Sie ruft ihn an."]) + "\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    code = main(["parse", "--lang", "de", "--parser", "udpipe", "--udpipe-model", str(tiny_model),
                 "--input", str(source), "--output", str(out), "--quiet", "--shard-size", "3"])
    assert code == 0
    sentences = list(read_conllu(out))
    assert [s.sent_id for s in sentences] == ["1", "2", "3", "4", "5", "7"]
    err = capsys.readouterr().err
    assert "parsed 6 of 7 lines" in err and "skipped 1 empty line(s): line 6" in err
    assert "1 line(s) split into several sentences" in err and "line 7" in err


def test_parse_to_stdout(tiny_model, tmp_path, capsys):
    source = tmp_path / "in.de"
    source.write_text("Der Zug kommt an .\n", encoding="utf-8")
    assert main(["parse", "--lang", "de", "--parser", "udpipe", "--udpipe-model", str(tiny_model),
                 "--pretokenized", "--input", str(source), "--output", "-", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# sent_id = 1\n# text = Der Zug kommt an .\n1\tDer\t")


def test_missing_trankit_models_stop_before_work(tmp_path, capsys):
    source = tmp_path / "in.de"
    source.write_text("Ein Satz.\n", encoding="utf-8")
    out = tmp_path / "out.conllu"
    code = main(["parse", "--lang", "de", "--input", str(source), "--output", str(out),
                 "--trankit-cache", str(tmp_path / "none"), "--cache-dir", str(tmp_path / "cache")])
    assert code == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "acs parse: error: trankit model files for german" in err and "--trankit-cache DIR" in err
    assert "Traceback" not in err


def test_missing_udpipe_model_is_an_error(tmp_path, capsys):
    source = tmp_path / "in.de"
    source.write_text("Ein Satz.\n", encoding="utf-8")
    code = main(["parse", "--lang", "de", "--parser", "udpipe", "--udpipe-model", str(tmp_path / "x.udpipe"),
                 "--input", str(source), "--output", str(tmp_path / "o.conllu")])
    assert code == 2 and "UDPipe model" in capsys.readouterr().err


def test_conllu_parser_checks_and_renumbers(tmp_path):
    out = tmp_path / "out.conllu"
    assert main(["parse", "--lang", "de", "--parser", "conllu", "--conllu", str(DEMO / "sample.de.conllu"),
                 "--input", str(DEMO / "sample.de"), "--output", str(out), "--quiet"]) == 0
    assert len(list(read_conllu(out))) == len(list(read_conllu(DEMO / "sample.de.conllu")))
