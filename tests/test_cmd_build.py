"""`acs build` from the command line: summary, reports of the input policy, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import demo_file


def _sample_with_an_empty_line(tmp_path: Path) -> dict[str, Path]:
    """The sample with an empty pair inserted as line 3 (CoNLL-U: unchanged; alignment: empty line)."""
    files = {}
    for name in ("sample.de", "sample.en", "sample.de-en.pharaoh"):
        lines = demo_file(name).read_text(encoding="utf-8").splitlines(True)
        lines.insert(2, "\n")
        files[name] = tmp_path / name
        files[name].write_text("".join(lines), encoding="utf-8")
    files["sample.de.conllu"] = demo_file("sample.de.conllu")
    return files


def test_build_skips_and_reports_empty_pairs_and_keeps_line_numbers(tmp_path: Path, capsys) -> None:
    files = _sample_with_an_empty_line(tmp_path)
    out = tmp_path / "out"
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(files["sample.de"]),
                 "--target", str(files["sample.en"]), "--source-conllu", str(files["sample.de.conllu"]),
                 "--alignment", str(files["sample.de-en.pharaoh"]), "--out", str(out), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "29 sentence pairs of 30 lines" in captured.out
    assert "skipped 1 pair(s) with an empty side: line 3" in captured.err
    assert "reorder" in captured.out and "particle" in captured.out
    from datasets import load_dataset

    rows = load_dataset(str(out), "de-en.baseline", split="sample", cache_dir=str(tmp_path / "hf"))
    assert rows.num_rows == 29 and 3 not in rows["line"] and rows["line"][-1] == 30
    # "Er schaltet den alten Fernseher aus ." was line 5 of the sample and is line 6 now.
    particle = load_dataset(str(out), "de-en.particle.d3", split="sample", cache_dir=str(tmp_path / "hf"))
    assert "Er schaltet den alten Fernseher aus ." in particle["source"]
    assert particle["line"][particle["source"].index("Er schaltet den alten Fernseher aus .")] == 6


def test_line_count_mismatch_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    target = tmp_path / "short.en"
    target.write_text("".join(demo_file("sample.en").read_text(encoding="utf-8").splitlines(True)[:-1]))
    code = main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(target), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--out", str(tmp_path / "out"), "--quiet"])
    assert code == 2
    assert "the source has 29 lines but the target" in capsys.readouterr().err


def test_alignment_out_of_range_names_the_line(tmp_path: Path, capsys) -> None:
    alignment = tmp_path / "bad.pharaoh"
    lines = demo_file("sample.de-en.pharaoh").read_text(encoding="utf-8").splitlines(True)
    lines[6] = "0-0 99-1\n"
    alignment.write_text("".join(lines), encoding="utf-8")
    code = main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--alignment", str(alignment), "--out", str(tmp_path / "out"), "--quiet"])
    assert code == 2
    assert f"{alignment}:7: source index 99" in capsys.readouterr().err


def test_bad_pair_and_corpus_names(tmp_path: Path, capsys) -> None:
    args = ["--source", str(demo_file("sample.de")), "--target", str(demo_file("sample.en")),
            "--source-conllu", str(demo_file("sample.de.conllu")), "--out", str(tmp_path / "o"), "--quiet"]
    assert main(["build", "--pair", "german-english", "--corpus", "sample"] + args) == 2
    assert main(["build", "--pair", "de-en", "--corpus", "news-test"] + args) == 2
    err = capsys.readouterr().err
    assert "language pair must look like 'de-en'" in err and "must match \\w+" in err


def test_two_corpora_go_into_one_folder_as_splits(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for corpus in ("first", "second"):
        assert main(["build", "--pair", "de-en", "--corpus", corpus, "--source", str(demo_file("sample.de")),
                     "--target", str(demo_file("sample.en")), "--source-conllu",
                     str(demo_file("sample.de.conllu")), "--out", str(out), "--quiet", "--aligner", "none"]) == 0
    from datasets import load_dataset

    both = load_dataset(str(out), "de-en.particle.d2", cache_dir=str(tmp_path / "hf"))
    assert set(both) == {"first", "second"} and both["first"]["source"] == both["second"]["source"]
    assert both["second"]["id"][0].startswith("second:")
    shutil.rmtree(tmp_path / "hf")


def test_help_of_every_command(capsys) -> None:
    for command in ("build", "select", "stats", "demo"):
        with pytest.raises(SystemExit, match="^0$") as exited:
            main([command, "--help"])
        assert exited.value.code == 0
        assert "usage: acs " + command in capsys.readouterr().out


def test_a_parse_of_the_source_file_alone_fits_a_corpus_with_an_empty_target_line(tmp_path: Path, capsys) -> None:
    """`acs parse` writes one sentence per non-empty *source* line; the build drops the sentence of
    a pair whose target is empty."""
    target = tmp_path / "sample.en"
    lines = demo_file("sample.en").read_text(encoding="utf-8").splitlines(True)
    lines[4] = "\n"  # "He switches the old television off ." gone: pair 5 is skipped
    target.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(target), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--aligner", "none", "--out", str(out), "--quiet"]) == 0
    assert "skipped 1 pair(s) with an empty side: line 5" in capsys.readouterr().err
    from datasets import load_dataset

    particle = load_dataset(str(out), "de-en.particle.d3", split="sample", cache_dir=str(tmp_path / "hf"))
    assert 5 not in particle["line"] and 6 in particle["line"]
    row = particle[particle["line"].index(6)]
    assert row["source"] == "Er ruft seine Großmutter jeden Sonntag an ."
    assert row["instances"][0]["dependent_form"] == "an"


def test_a_rebuild_drops_configs_it_no_longer_has(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    common = ["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
              "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
              "--out", str(out), "--quiet"]
    assert main([*common, "--alignment", str(demo_file("sample.de-en.pharaoh"))]) == 0
    assert (out / "data" / "de-en.reorder.d5").is_dir()
    assert main([*common, "--aligner", "none", "--phenomena", "particle"]) == 0
    assert not (out / "data" / "de-en.reorder.d5").exists()
    assert not (out / "data" / "de-en.reflexive.d0").exists()
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "reorder" not in card.split("---")[1] and "de-en.particle.d3" in card


def test_source_conllu_with_another_parser_is_refused(tmp_path: Path, capsys) -> None:
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--parser", "udpipe", "--udpipe-model", "x.udpipe", "--aligner", "none",
                 "--out", str(tmp_path / "out")]) == 2
    assert "--source-conllu is a parse already" in capsys.readouterr().err


def test_pharaoh_file_on_other_tokens_than_the_parse_is_an_error_unless_allowed(tmp_path: Path, capsys) -> None:
    """The raw text of PUD differs from its parse's words (punctuation, contractions): a Pharaoh file
    made on its white-space tokens would point at the wrong words."""
    from conftest import shared_path

    conllu_path = shared_path("data", "pud", "de_pud-ud-test.conllu")
    from auto_challenge_sets.formats.conllu import read_conllu

    texts = [s.text for s in read_conllu(conllu_path)]
    (tmp_path / "pud.de").write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    (tmp_path / "pud.en").write_text("x\n" * len(texts), encoding="utf-8")
    alignment = tmp_path / "pud.pharaoh"
    alignment.write_text("0-0\n" * len(texts), encoding="utf-8")
    args = ["build", "--pair", "de-en", "--corpus", "pud", "--source", str(tmp_path / "pud.de"),
            "--target", str(tmp_path / "pud.en"), "--source-conllu", str(conllu_path),
            "--alignment", str(alignment), "--out", str(tmp_path / "out"), "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    # line 1, „Ein Großteil des digitalen Übergangs ist ... neu, ...“, schrieb ...: 26 white-space tokens,
    # 32 words (quotes and commas split off, "am" expanded)
    assert f"{alignment}:1: made on other tokens than the parse's words? Line 1 of " in err
    assert "has 26 white-space tokens but its parse 32 words, and so differ 998 of 1000 pairs" in err
    assert "--allow-token-mismatch" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
    assert main([*args, "--allow-token-mismatch"]) == 0
    err = capsys.readouterr().err
    assert "998 of 1000 pairs have a different number of parse words than white-space tokens" in err
    assert "(--allow-token-mismatch)" in err


def _sample_args() -> list[str]:
    return ["--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--alignment", str(demo_file("sample.de-en.pharaoh")), "--quiet"]


def test_the_default_out_loads_by_the_projects_name_in_an_empty_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The README's quick start: `acs build` without --out, then load_dataset("auto_challenge_sets", ...)."""
    from datasets import load_dataset

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["build", *_sample_args()]) == 0
    assert "→ auto_challenge_sets" in capsys.readouterr().out
    rows = load_dataset("auto_challenge_sets", "de-en.particle.d3", split="sample", cache_dir=str(tmp_path / "hf"))
    assert rows.num_rows == 7 and all(row["distance"] >= 3 for row in rows)


def test_build_refuses_the_packages_own_source_folder(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import auto_challenge_sets

    package = Path(auto_challenge_sets.__file__).resolve().parent
    monkeypatch.chdir(package.parent)  # a clone's root: ./auto_challenge_sets is the code
    before = sorted(p.name for p in package.parent.iterdir())
    assert main(["build", *_sample_args()]) == 2
    err = capsys.readouterr().err
    assert "is the source folder of the auto_challenge_sets Python package" in err and "--out" in err
    assert main(["build", *_sample_args(), "--out", str(package / "data")]) == 2
    assert "source folder of the auto_challenge_sets Python package" in capsys.readouterr().err
    assert sorted(p.name for p in package.parent.iterdir()) == before  # no lock file, nothing written


def test_inputs_come_from_files_or_a_testset_not_both(tmp_path: Path, capsys) -> None:
    base = ["build", "--pair", "de-en", "--out", str(tmp_path / "out")]
    assert main([*base, "--source", str(demo_file("sample.de")), "--target", str(demo_file("sample.en"))]) == 2
    assert "error: give --corpus (or --testset NAME for a sacrebleu test set)" in capsys.readouterr().err
    assert main([*base, "--testset", "wmt21", "--source", str(demo_file("sample.de"))]) == 2
    assert "--testset gives the source and the reference: drop --source/--target" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_without_simaligns_model_the_default_aligner_is_eflomal(tmp_path: Path, capsys) -> None:
    """Offline (the suite sets HF_HUB_OFFLINE) and without mBERT in the cache, a build that names no
    aligner aligns with eflomal, says so, and the record names the aligner the reorder configs used."""
    from auto_challenge_sets.backends.inventory import simalign_check
    from auto_challenge_sets.dataset.record import read_build_record

    if simalign_check().ok:
        pytest.skip("simalign's default model is in this machine's Hugging Face cache")
    out = tmp_path / "out"
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--out", str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "note: simalign's model bert-base-multilingual-cased is not here and the Hub cannot be reached: " \
           "aligned with eflomal instead" in err
    (build,) = read_build_record(out)["builds"]
    assert build["aligner"].startswith("eflomal")
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "aligner: eflomal" in card
    # simalign asked for by name still fails before any work, naming the model
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--out", str(tmp_path / "other"), "--quiet", "--aligner", "simalign"]) == 2
    assert "bert-base-multilingual-cased" in capsys.readouterr().err


def test_jobs_goes_with_the_local_executor(tmp_path: Path, capsys) -> None:
    argv = ["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--aligner", "none", "--quiet", "--out", str(tmp_path / "sets")]
    assert main(argv + ["--executor", "ray", "--jobs", "2"]) == 2
    assert capsys.readouterr().err.strip() == "acs build: error: --jobs goes with --executor local (Ray's are --workers)"
    assert main(argv + ["--jobs", "2"]) == 0


def test_the_executor_follows_jobs() -> None:
    import argparse

    from auto_challenge_sets.cli.build import _executor
    from auto_challenge_sets.pipeline.executors import ProcessExecutor
    from auto_challenge_sets.workers import cores

    def executor(**flags):
        return _executor(argparse.Namespace(**{"executor": "local", "ray_address": None, "jobs": None, **flags}))

    assert executor(jobs=1) == ProcessExecutor(jobs=1)
    assert executor(jobs=3) == ProcessExecutor(jobs=3)
    assert executor() == ProcessExecutor(jobs=cores())


def test_timings_say_where_the_time_went_one_line_per_stage(tmp_path: Path, capsys) -> None:
    argv = ["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--alignment", str(demo_file("sample.de-en.pharaoh")), "--quiet", "--timings",
            "--out", str(tmp_path / "sets")]
    assert main(argv) == 0
    lines = [line.removeprefix("timing: ") for line in capsys.readouterr().err.splitlines()
             if line.startswith("timing: ")]
    names = [line.split("  ")[0].strip() for line in lines]
    assert names == ["read", "parse", "align", "select and write", "record and card", "total"]
    assert lines[0].endswith(" 29 lines") and lines[1].endswith(" 29 sentences") and lines[2].endswith(" 29 pairs")
    import json

    files = sum(1 for _ in (tmp_path / "sets" / "data").rglob("*.parquet"))  # a file per config with rows
    empty = json.loads((tmp_path / "sets" / "acs_build.json").read_text(encoding="utf-8"))["builds"][0]["empty_configs"]
    assert int(lines[4].split()[-2]) == files + len(empty)
    walls = [float(line.split(" s wall")[0].split()[-1]) for line in lines]
    assert all(w >= 0 for w in walls) and abs(sum(walls[:-1]) - walls[-1]) < 0.02  # the total adds the stages
    assert main(argv[:-3] + ["--out", str(tmp_path / "other")]) == 0
    assert "timing:" not in capsys.readouterr().err  # only when asked


def _demo_build(tmp_path: Path, pair: str, *extra: str) -> list[str]:
    return ["build", "--pair", pair, "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--aligner", "none", "--out", str(tmp_path / "out"), "--quiet", *extra]


@pytest.mark.parametrize("pair,written", [("zho-en", "zh-en"), ("cmn-en", "zh-en"), ("en-deu", "en-de"),
                                          ("ger-fre", "de-fr"), ("zho_TW-en", "zh_TW-en")])
def test_an_iso_639_2_or_3_code_is_refused_naming_the_two_letter_pair(tmp_path: Path, capsys, pair: str,
                                                                        written: str) -> None:
    assert main(_demo_build(tmp_path, pair)) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"acs build: error: language pair {pair!r}: give {written!r} (the profiles and config names write "
                   "a language in ISO 639-1)")
    assert not (tmp_path / "out").exists()


def test_a_region_form_builds_with_its_languages_profile_and_keeps_its_name(tmp_path: Path, capsys) -> None:
    from auto_challenge_sets.dataset.layout import folder_sizes
    from auto_challenge_sets.phenomena.profiles import source_phenomena

    assert main(_demo_build(tmp_path, "zh_TW-en")) == 0
    assert "no language profile" not in capsys.readouterr().err
    families = {name.split(".")[1] for name in folder_sizes(tmp_path / "out")}
    assert "aux_bracket" in families and families <= {"baseline", *source_phenomena("zh")}  # zh's: no particle


def test_a_source_without_a_profile_builds_with_the_generic_rules_and_says_so(tmp_path: Path, capsys) -> None:
    assert main(_demo_build(tmp_path, "pt-en")) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "profile" in line]
    assert notes == ["note: no language profile for 'pt' (profiles: cs, de, en, es, fr, hi, is, ru, zh): the "
                     "generic rules apply"]
    assert main(_demo_build(tmp_path / "by_hand", "pt-en", "--phenomena", "particle")) == 0
    assert "profile" not in capsys.readouterr().err  # phenomena chosen by hand: no profile is read


def test_a_redirected_log_gets_no_progress_bars(tmp_path: Path, capsys) -> None:
    # capsys stands for a log file: stderr is no terminal there, as under `acs build ... 2> log`.
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
                 "--alignment", str(demo_file("sample.de-en.pharaoh")), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "it/s" not in err and "sent/s" not in err and "reading parse" not in err
