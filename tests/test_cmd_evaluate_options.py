"""``acs evaluate``'s defaults and metric options (cli/evaluate_options.py): every flag's default is
the request's, and --tokenize / --case-sensitive-ribes / --metric-option land in the options of the
metrics that declare them, recorded per metric in results.json."""

from __future__ import annotations

import argparse
import json

import pytest

from auto_challenge_sets.cli import build_parser, main
from auto_challenge_sets.cli.evaluate_options import request_defaults

from toy_dataset import SPLIT, make


def _evaluate_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["evaluate"]


def test_every_flag_that_sets_a_request_field_defaults_to_the_dataclass_default():
    """One source of defaults: the request dataclass (9 were typed twice, --jobs differed)."""
    defaults = request_defaults()
    dests = {"ref": "references"}  # flag -> field where the names differ
    flags = {dests.get(action.dest, action.dest): action.default for action in _evaluate_parser()._actions
             if not action.required and action.dest != "targeted"}  # --config is required on the command line;
    # --targeted is the switch that makes a TargetedRequest (its flags' defaults are that class's constants)
    compared = {name for name in defaults if name in flags}
    assert compared == {"n_samples", "length_tolerance", "seed", "min_rows", "paired_test", "paired_samples",
                        "metrics", "jobs", "verify", "length_relative", "split", "pair", "references", "ref_config", "baseline"}
    for name in sorted(compared):
        flag = flags[name]
        expected = defaults[name]
        if name == "metrics":  # the flag is the comma-separated text of the tuple
            flag = tuple(flag.split(","))
        if name == "references":  # appended to a list
            flag = tuple(flag)
        assert flag == expected, name
    assert flags["jobs"] is None  # the cores this process may use, in the API too


def test_the_caps_are_the_requests():
    from auto_challenge_sets.evaluation.request import MAX_PAIRED_SAMPLES, MAX_SAMPLES

    parser = _evaluate_parser()
    base = ["--config", "all", "--hyp", "x"]
    assert parser.parse_args([*base, "--n-samples", str(MAX_SAMPLES), "--paired-samples",
                              str(MAX_PAIRED_SAMPLES)]).n_samples == MAX_SAMPLES
    with pytest.raises(SystemExit):
        parser.parse_args([*base, "--n-samples", str(MAX_SAMPLES + 1)])


def _error(capsys, *argv: str) -> str:
    assert main(["evaluate", "--dataset", "nowhere", "--config", "all", "--hyp", "x", "--quiet", *argv]) == 2
    return capsys.readouterr().err.strip().splitlines()[-1]  # after a plug-in's warning, if one does not load


def test_an_unknown_or_misspelled_metric_option_is_an_error_before_any_file_is_read(capsys):
    assert _error(capsys, "--metrics", "bleu,ribes", "--metric-option", "lowercase_ribs=false") == (
        "acs evaluate: error: --metric-option: no metric of bleu, ribes has an option 'lowercase_ribs' (did you mean "
        "lowercase_ribes?) (their options: lowercase_ribes, tokenize)")
    assert _error(capsys, "--metrics", "bleu,comet", "--metric-option", "comet_gpu=1") == (  # was silently ignored
        "acs evaluate: error: --metric-option: no metric of bleu, comet has an option 'comet_gpu' (did you mean "
        "comet_gpus?) (their options: comet_batch_size, comet_gpus, comet_model, tokenize)")
    assert _error(capsys, "--metrics", "chrf", "--case-sensitive-ribes") == (
        "acs evaluate: error: --case-sensitive-ribes: no metric of chrf has an option 'lowercase_ribes'; it is an option "
        "of ribes, which is not among the metrics (their options: none)")
    assert _error(capsys, "--tokenize", "intl", "--metric-option", "tokenize=13a") == (
        "acs evaluate: error: --tokenize and --metric-option tokenize=... both set tokenize: give one")
    assert _error(capsys, "--metric-option", "lowercase_ribes=0") == (
        "acs evaluate: error: --metric-option: lowercase_ribes=0: must be true or false, got '0'")


def test_the_shorthands_land_in_the_metrics_options_and_results_json_records_them(tmp_path, capsys):
    toy = make(tmp_path)
    argv = ["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT, "--hyp",
            f"good={toy['hyps']['good']}", "--metrics", "bleu,ter,ribes", "--n-samples", "5", "--json", "--quiet"]
    assert main([*argv, "--tokenize", "intl", "--case-sensitive-ribes"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["settings"]["metric_options"] == {
        "bleu": {"tokenize": "intl"}, "ter": {}, "ribes": {"tokenize": "intl", "lowercase_ribes": False}}
    assert "tok:intl" in document["signature"] and "case:mixed|tok:intl" in document["signature"]
    assert main([*argv, "--metric-option", "tokenize=intl", "--metric-option", "lowercase_ribes=false"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"] == document["settings"]
    assert main([*argv, "--tokenize", "nope"]) == 2  # the flag the user gave is named
    assert capsys.readouterr().err.startswith("acs evaluate: error: --tokenize: unknown sacrebleu tokenizer 'nope'")
