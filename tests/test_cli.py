"""The `acs` entry point (auto_challenge_sets/cli/__init__.py): what a user sees when a command line
is wrong (issue 38 item 12): the subcommand's usage and error line, and the flag or config meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo


def _refused(capsys, argv: list[str]) -> list[str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err.splitlines()


def test_a_mistyped_flag_is_the_subcommands_error_with_the_flag_it_resembles(capsys) -> None:
    err = _refused(capsys, ["evaluate", "--dataset", "x", "--config", "all", "--confg", "b"])
    assert err[0].startswith("usage: acs evaluate ")
    assert err[-1] == "acs evaluate: error: unrecognized arguments: --confg b (did you mean --config?)"
    err = _refused(capsys, ["stats", "x", "--verfy"])
    assert err[0].startswith("usage: acs stats ")
    assert err[-1] == "acs stats: error: unrecognized arguments: --verfy (did you mean --verify?)"


def test_an_unknown_flag_like_no_other_gets_no_guess(capsys) -> None:
    err = _refused(capsys, ["stats", "x", "--zzzzzzzz=1", "extra"])
    assert err[-1] == "acs stats: error: unrecognized arguments: --zzzzzzzz=1 extra"


def test_a_missing_dataset_folder_says_how_to_make_one(tmp_path: Path, capsys) -> None:
    assert main(["stats", str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err.strip() == (f"acs stats: error: {tmp_path / 'nothing'}: no such dataset folder "
                                               "(make one with `acs build`, or `acs demo` for the sample)")


def test_a_mistyped_config_gets_the_configs_it_resembles(tmp_path: Path, capsys) -> None:
    from auto_challenge_sets.dataset.demo_folder import demo_file

    build_demo(tmp_path / "sets")
    argv = ["evaluate", "--dataset", str(tmp_path / "sets"), "--pair", "de-en", "--hyp", str(demo_file("sample.en")),
            "--n-samples", "3", "--quiet", "--config"]
    assert main(argv + ["de-en.particle.d9"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("has no config 'de-en.particle.d9' (did you mean de-en.particle.d5 or de-en.particle.d4 or "
                        "de-en.particle.d3?)"), err
    assert main(argv + ["zzzz"]) == 2
    err = capsys.readouterr().err.strip()
    assert "has no config 'zzzz' (configs: " in err and "more: `acs stats` lists them)" in err and len(err) < 600
