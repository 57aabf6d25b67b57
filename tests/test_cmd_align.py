"""``acs align``: two white-space-tokenized files in, one Pharaoh line per input line out."""

from __future__ import annotations

import pytest

from auto_challenge_sets.backends.aligners import get_aligner
from auto_challenge_sets.cli import main
from auto_challenge_sets.formats.pharaoh import parse_pharaoh

from conftest import shared_path
from tiny_bert import make_tiny_bert


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """200 newstest2013 pairs, then a pair with an empty source and one with an empty target."""
    folder = shared_path("data", "newstest2013")
    de = (folder / "newstest2013.de").read_text(encoding="utf-8").splitlines()[:200] + ["", "Ja ."]
    en = (folder / "newstest2013.en").read_text(encoding="utf-8").splitlines()[:200] + ["Yes .", ""]
    out = tmp_path_factory.mktemp("corpus")
    (out / "c.de").write_text("\n".join(de) + "\n", encoding="utf-8")
    (out / "c.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    return out, de, en


def _check_output(path, de, en):
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "" and len(lines) - 1 == len(de)
    for number, (line, source, target) in enumerate(zip(lines, de, en), start=1):
        parse_pharaoh(line, n_source=len(source.split()), n_target=len(target.split()), line=number)
    assert lines[-3] == lines[-2] == ""  # the pairs with an empty side
    return lines[:-1]


def test_eflomal_end_to_end_and_rerun_from_cache(corpus, capsys):
    folder, de, en = corpus
    out = folder / "eflomal.pharaoh"
    argv = ["align", "--aligner", "eflomal", "--source", str(folder / "c.de"), "--target", str(folder / "c.en"),
            "--output", str(out), "--seed", "3"]
    assert main(argv) == 0
    lines = _check_output(out, de, en)
    assert sum(bool(line) for line in lines) == 200
    err = capsys.readouterr().err
    assert "aligned 202 sentence pairs with eflomal (seed=3)" in err and "2 pair(s) with an empty side" in err
    first = out.read_bytes()
    out.unlink()
    assert main(argv + ["--quiet"]) == 0  # from the cache: same bytes
    assert out.read_bytes() == first
    assert capsys.readouterr().err == ""


def test_simalign_with_a_local_model(corpus, tmp_path, capsys):
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)  # a shared 2-core machine: spinning torch threads make it crawl
    try:
        _simalign_with_a_local_model(corpus, tmp_path, capsys)
    finally:
        torch.set_num_threads(before)


def _simalign_with_a_local_model(corpus, tmp_path, capsys):
    folder, de, en = corpus
    model = make_tiny_bert(tmp_path / "bert", de + en)
    argv = ["align", "--source", str(folder / "c.de"), "--target", str(folder / "c.en"), "--output", "-",
            "--model", str(model), "--layer", "1", "--method", "itermax", "--token-type", "word",
            "--batch-size", "16", "--device", "cpu", "--quiet"]
    assert main(argv) == 0
    printed = capsys.readouterr().out.split("\n")[:-1]
    assert len(printed) == len(de)
    expected = get_aligner("simalign", model=str(model), layer=1, method="itermax", token_type="word").align(
        [(s.split(), t.split()) for s, t in zip(de, en)])
    assert [parse_pharaoh(line) for line in printed] == expected


def test_files_of_different_lengths(corpus, tmp_path, capsys):
    folder, _, _ = corpus
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    code = main(["align", "--aligner", "eflomal", "--source", str(folder / "c.de"), "--target", str(short),
                 "--output", str(tmp_path / "x")])
    assert code == 2
    assert "has 202 lines but" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_missing_model_offline_fails_before_reading(tmp_path, capsys):
    code = main(["align", "--source", str(tmp_path / "absent.de"), "--target", str(tmp_path / "absent.en"),
                 "--output", str(tmp_path / "x"), "--model", "acs-test/not-cached"])
    assert code == 2
    err = capsys.readouterr().err
    assert "acs align: error: the alignment model 'acs-test/not-cached'" in err and "--model PATH" in err
    assert "Traceback" not in err


def test_options_of_the_other_backend_are_refused(tmp_path, capsys):
    code = main(["align", "--aligner", "eflomal", "--layer", "3", "--source", "a", "--target", "b",
                 "--output", str(tmp_path / "x")])
    assert code == 2 and "does not apply to --aligner eflomal" in capsys.readouterr().err


def test_help(capsys):
    with pytest.raises(SystemExit, match="^0$"):
        main(["align", "--help"])
    text = capsys.readouterr().out
    for option in ("--aligner", "--model", "--layer", "--method", "--token-type", "--batch-size", "--device",
                   "--seed", "Pharaoh"):
        assert option in text


def test_make_priors_then_align_with_them(corpus, capsys):
    folder, de, en = corpus
    base = ["align", "--aligner", "eflomal", "--source", str(folder / "c.de"), "--target", str(folder / "c.en")]
    priors = folder / "c.priors"
    assert main([*base, "--make-priors", str(priors)]) == 0
    assert "learned eflomal priors from 202 sentence pairs" in capsys.readouterr().err
    assert priors.read_text(encoding="utf-8").startswith("LEX\t")
    out = folder / "with-priors.pharaoh"
    assert main([*base, "--priors", str(priors), "--output", str(out), "--quiet"]) == 0
    assert sum(bool(line) for line in _check_output(out, de, en)) == 200
    with pytest.raises(SystemExit, match="^2$"):
        main([*base])
    assert "one of the arguments --output --make-priors is required" in capsys.readouterr().err
    assert main(["align", "--aligner", "simalign", "--source", str(folder / "c.de"), "--target",
                 str(folder / "c.en"), "--make-priors", str(priors)]) == 2
    assert "use it with --aligner eflomal" in capsys.readouterr().err
