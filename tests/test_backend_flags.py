"""Command-line flags generated from the backends' declared options (cli/backend_flags.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from auto_challenge_sets.backends.aligners import AlignerError
from auto_challenge_sets.cli.backend_flags import add_aligner_arguments, aligner_spec_from_args
from auto_challenge_sets.pipeline.specs import AlignerSpec

from fake_hub import cache_mbert_snapshot

# -- command-line options --------------------------------------------------------------------------


def _parse(argv, standalone=False):
    parser = argparse.ArgumentParser()
    add_aligner_arguments(parser, standalone=standalone)
    return parser.parse_args(argv)


def test_build_options_default_to_simalign_or_pharaoh(tmp_path, monkeypatch):
    # simalign when its flags say so, or its model is cached; the suite is offline (HF_HUB_OFFLINE)
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))
    assert aligner_spec_from_args(_parse(["--align-model", "/m"])) == AlignerSpec("simalign", {"model": "/m"})
    args = _parse([])
    assert aligner_spec_from_args(args) == AlignerSpec("eflomal", {})  # no model, no Hub: eflomal
    assert "aligned with eflomal instead" in args.aligner_note and args.aligner == "eflomal"
    cache_mbert_snapshot(tmp_path / "hub")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    assert aligner_spec_from_args(_parse([])) == AlignerSpec("simalign", {})  # the model is here
    path = tmp_path / "x.pharaoh"
    assert aligner_spec_from_args(_parse(["--alignment", str(path)])) is None  # the build reads the file
    assert aligner_spec_from_args(_parse(["--aligner", "none"])) is None


def test_build_options_map_to_backend_options():
    args = _parse(["--aligner", "simalign", "--align-model", "/m", "--layer", "2", "--method", "itermax",
                   "--token-type", "word", "--align-batch-size", "8", "--align-device", "cpu"])
    assert aligner_spec_from_args(args) == AlignerSpec("simalign", {
        "model": "/m", "layer": 2, "method": "itermax", "token_type": "word", "batch_size": 8, "device": "cpu"})
    args = _parse(["--aligner", "eflomal", "--seed", "5", "--symmetrization", "intersection"])
    assert aligner_spec_from_args(args) == AlignerSpec("eflomal", {"seed": 5, "symmetrization": "intersection"})


def test_a_build_can_pass_its_device_to_simalign():
    assert aligner_spec_from_args(_parse(["--aligner", "simalign"]), default_device="cuda") == AlignerSpec(
        "simalign", {"device": "cuda"})
    args = _parse(["--align-device", "cpu"])
    assert aligner_spec_from_args(args, default_device="cuda") == AlignerSpec("simalign", {"device": "cpu"})
    assert aligner_spec_from_args(_parse(["--aligner", "eflomal"]), default_device="cuda") == AlignerSpec("eflomal")


def test_standalone_option_names():
    args = _parse(["--model", "/m", "--batch-size", "4", "--device", "cpu"], standalone=True)
    assert aligner_spec_from_args(args) == AlignerSpec("simalign", {"model": "/m", "batch_size": 4, "device": "cpu"})
    with pytest.raises(SystemExit, match="^2$"):  # argparse's usage error
        _parse(["--aligner", "pharaoh"], standalone=True)


def test_options_of_another_backend_are_errors(tmp_path):
    with pytest.raises(AlignerError, match="simalign option layer .* --aligner eflomal"):
        aligner_spec_from_args(_parse(["--aligner", "eflomal", "--layer", "3"]))
    with pytest.raises(AlignerError, match="eflomal option seed .* --aligner simalign"):
        aligner_spec_from_args(_parse(["--seed", "3"]))
    with pytest.raises(AlignerError, match="--alignment FILE is read by --aligner pharaoh"):
        aligner_spec_from_args(_parse(["--aligner", "eflomal", "--alignment", str(tmp_path / "a")]))
    with pytest.raises(AlignerError, match="needs --alignment FILE"):
        aligner_spec_from_args(_parse(["--aligner", "pharaoh"]))


def test_spec_describe():
    assert AlignerSpec("eflomal", {"seed": 2}).describe() == "eflomal (seed=2)"
    assert AlignerSpec("simalign").describe() == "simalign"


# -- parsing flags ---------------------------------------------------------------------------------


def _parse_flags(argv):
    from auto_challenge_sets.cli.backend_flags import add_parser_arguments

    parser = argparse.ArgumentParser()
    add_parser_arguments(parser)
    return parser.parse_args(argv)


def test_parser_options_reach_the_backend(tmp_path):
    from auto_challenge_sets.cli.backend_flags import parser_spec_from_args
    from auto_challenge_sets.pipeline.specs import ParserSpec

    args = _parse_flags(["--parser", "trankit", "--device", "cuda", "--batch-size", "8",
                         "--trankit-embedding", "xlm-roberta-large", "--pretokenized",
                         "--cache-dir", str(tmp_path / "cache")])
    spec = parser_spec_from_args(args)
    assert spec == ParserSpec("trankit", {"pretokenized": True, "embedding": "xlm-roberta-large",
                                          "device": "cuda", "batch_size": 8})
    parser = spec.create("de", args.cache_dir)
    assert parser.language == "german" and parser.batch_size == 8
    assert parser.cache_dir == tmp_path / "cache" / "trankit"  # --cache-dir holds trankit's models too
    assert spec.describe() == "trankit (xlm-roberta-large)"


def test_a_flag_of_another_parser_is_an_error_not_ignored(tmp_path):
    from auto_challenge_sets.backends.parsers import ParserError
    from auto_challenge_sets.cli.backend_flags import parser_spec_from_args

    with pytest.raises(ParserError, match="trankit option batch size .* --parser udpipe"):
        parser_spec_from_args(_parse_flags(["--parser", "udpipe", "--udpipe-model", "m", "--batch-size", "8"]))
    with pytest.raises(ParserError, match="udpipe option udpipe model .* --parser trankit"):
        parser_spec_from_args(_parse_flags(["--udpipe-model", "m"]))
    with pytest.raises(ParserError, match="does not apply to --parser conllu"):
        parser_spec_from_args(_parse_flags(["--parser", "conllu", "--pretokenized"]))
    # an option both parsers declare is one flag that both take
    assert parser_spec_from_args(_parse_flags(["--parser", "udpipe", "--pretokenized", "--udpipe-model", "m"])).options \
        == {"pretokenized": True, "udpipe_model": Path("m")}
    assert parser_spec_from_args(_parse_flags(["--parser", "conllu"])) is None


def test_help_shows_the_declared_defaults_and_choices(monkeypatch):
    from auto_challenge_sets.backends import ALIGNER, PARSER, declared_options
    from auto_challenge_sets.cli import build_parser

    monkeypatch.setenv("COLUMNS", "2000")  # argparse would break long defaults at their hyphens

    help_text = " ".join(build_parser()._subparsers._group_actions[0].choices["build"].format_help().split())
    for kind in (PARSER, ALIGNER):
        for options in declared_options(kind).values():
            for option in options:
                if not option.cli:
                    continue
                assert option.cli_flag(in_build=True) in help_text
                if option.default not in (None, False):
                    assert f"(default: {option.default})" in help_text, option.name
    assert "{argmax,itermax,match}" in help_text and "{xlm-roberta-base,xlm-roberta-large}" in help_text


# -- errors below the command line name fields; the command line shows their flags ---------------


def test_an_error_names_the_field_and_the_command_line_its_flag(tmp_path):
    from auto_challenge_sets.backends.parsers import ParserError
    from auto_challenge_sets.cli import describe_error
    from auto_challenge_sets.errors import AcsError, InputError
    from auto_challenge_sets.phenomena.rule_query import RuleQueryError, parse_rule_query

    device = ParserError("device cuda but torch sees no CUDA GPU (use device cpu)", field="device")
    assert describe_error(device, "parse") == "--device cuda but torch sees no CUDA GPU (use --device cpu)"
    # a backend's option is named as this command names it
    assert describe_error(AlignerError("device cpu or cuda", field="device"), "build") == "--align-device cpu or cuda"
    assert describe_error(AlignerError("device cpu or cuda", field="device"), "align") == "--device cpu or cuda"
    # the file and line of an input error, and a field's name inside another word or a value, stay
    folder = tmp_path / "out" / "shard_size"
    error = InputError("shard_size must be >= 1 (not my_shard_size, nor x=shard_size)", folder, 3, field="shard_size")
    assert describe_error(error) == f"{folder}:3: --shard-size must be >= 1 (not my_shard_size, nor x=shard_size)"
    assert str(error) == f"{folder}:3: shard_size must be >= 1 (not my_shard_size, nor x=shard_size)"  # the API's
    with pytest.raises(RuleQueryError) as caught:
        parse_rule_query("name=rule deprel")
    assert describe_error(caught.value, "build") == "--rule 'name=rule deprel': cannot read 'deprel'; terms are " \
                                                    "FIELD=VALUE or FIELD~VALUE"
    assert describe_error(AcsError("no field named")) == "no field named"


def test_the_udpipe_models_error_names_the_flags_on_the_command_line(tmp_path, capsys):
    from auto_challenge_sets.cli import main

    (tmp_path / "x.txt").write_text("Ein Satz .\n", encoding="utf-8")
    assert main(["parse", "--lang", "de", "--parser", "udpipe", "--input", str(tmp_path / "x.txt"),
                 "--output", str(tmp_path / "x.conllu"), "--cache-dir", str(tmp_path / "cache")]) == 2
    error = capsys.readouterr().err
    assert "acs parse: error: no UDPipe model for de in " in error and error.endswith(", or pass --udpipe-model FILE\n")
