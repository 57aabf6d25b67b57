"""``acs meta-evaluate``: on two hand-written runs (meta_runs_data.py), what it prints in each
form and its one-line errors; on WMT21 de-en split into two halves of its 19 systems (two runs of
``acs evaluate --human``), that it prints pairwise accuracy and τ with intervals and the
difference to full-test BLEU, pooled from both halves."""

from __future__ import annotations

import json

import pytest
from meta_runs_data import RUN_1, write_runs
from scipy.stats import kendalltau

from auto_challenge_sets.cli import main

from conftest import shared_path


@pytest.fixture
def two_runs(tmp_path):
    return write_runs(tmp_path)


def test_it_prints_both_tables_per_metric_with_intervals_power_and_the_in_sample_label(two_runs, capsys):
    assert main(["meta-evaluate", *two_runs]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Meta-evaluation of 2 run(s) against their human scores (pooled within run)")
    assert f"run 1: {two_runs[0]} (de-en hand): 4 systems with human scores, 6 pairs" in out
    for heading in ("BLEU: agreement with humans", "BLEU: difference to full-test BLEU", "TER: agreement with humans",
                    "targeted accuracy (a diagnostic, not a ranking measure): agreement with humans"):
        assert f"\n{heading}\n" in out
    lines = out.splitlines()
    particle = [line for line in lines if line.startswith("de-en.particle.d1 ")]
    # BLEU agreement: 8 of 9 pairs, τ (6·4/6 + 3·1)/9 = 0.778; then its difference to full-test BLEU (7 of 9)
    assert "4+3" in particle[0] and "0.889 [" in particle[0] and "0.778 [" in particle[0]
    assert particle[1].split()[1] == "+0.111" and "+0.222 [" in particle[1]
    assert "Power: with runs of 4 + 3 systems (9 pairs), a τ of 1.00 is needed for p < 0.05" in out
    assert "every difference here is in-sample" in out
    assert "BLEU: of 1 configs, better than full-test BLEU: none; worse: none; no different: 1" in out
    assert "Power of Δτ: with 7 systems a Δτ of about " in out
    assert "left out (a run scores fewer than 3 of its human-scored systems on them): " in out


def test_json_holds_the_same_numbers(two_runs, capsys):
    assert main(["meta-evaluate", *two_runs, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    row = next(r for r in found["rows"] if (r["config"], r["metric"]) == ("de-en.particle.d1", "bleu"))
    assert row["accuracy"]["value"] == 8 / 9 and row["systems"] == [4, 3] and row["in_family"]
    assert row["accuracy_difference"]["value"] == pytest.approx(1 / 9)
    assert len(row["kendall"]["ci"]) == 2 and row["kendall_difference"]["p_corrected"] is not None
    assert found["power"]["bleu"] == {"systems": [4, 3], "family": 1, "tau_p05": 1.0, "tau_bh_alone": 1.0,
                                      "tau_bh_tenth": 1.0}
    assert found["reference"] == "bleu" and [r["human_systems"] for r in found["runs"]] == [4, 3]


def test_markdown_tables(two_runs, capsys):
    assert main(["meta-evaluate", *two_runs, "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Meta-evaluation") and "## BLEU: agreement with humans" in out
    assert "| config | systems | pairwise accuracy [95% CI] | p | p (BH) | Kendall τ [95% CI] | p | p (BH) |" in out


def test_help_says_what_it_pools(capsys):
    with pytest.raises(SystemExit):
        main(["meta-evaluate", "--help"])
    out = capsys.readouterr().out
    assert "pairwise accuracy" in out and "pooled within run" in out.replace("\n", " ")
    assert "acs meta-evaluate run2021/results.json run2022/results.json" in out


def test_errors_are_one_line_naming_the_file_and_the_flag(tmp_path, two_runs, capsys):
    no_human = tmp_path / "no_human.json"
    no_human.write_text(json.dumps({**RUN_1, "human_scores": None}), encoding="utf-8")
    assert main(["meta-evaluate", two_runs[0], str(no_human)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"acs meta-evaluate: error: {no_human}: has no human_scores") and len(err.splitlines()) == 1
    assert main(["meta-evaluate", *two_runs, "--reference", "chrf"]) == 2
    assert "choose --reference among them" in capsys.readouterr().err
    assert main(["meta-evaluate", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot read: No such file or directory" in capsys.readouterr().err


SPLIT = "newstest2021"


def test_wmt21_split_into_two_halves_of_its_systems(wmt21_de_en, tmp_path, capsys):
    """The 19 systems sorted by human z, alternately into two halves (10 and 9): two runs of
    ``acs evaluate --human``, then ``acs meta-evaluate`` on both."""
    wmt21 = shared_path("data", "wmt21")
    table = wmt21 / "humaneval" / "ad-sys-scores-de-en.csv"
    rows = [line.split() for line in table.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    by_z = [name.rsplit(".", 1)[0] for _, name in sorted(((float(r[1]), r[3]) for r in rows), reverse=True)]
    systems = [("NVIDIA-NeMo" if s == "Nemo" else s) for s in by_z if s != "HUMAN"]
    assert len(systems) == 19
    halves = [systems[0::2], systems[1::2]]
    paths = []
    for k, half in enumerate(halves):
        out = tmp_path / f"half{k}"
        assert main(["evaluate", "--dataset", str(wmt21_de_en), "--pair", "de-en", "--split", SPLIT, "--config",
                     "de-en.particle.d1,de-en.reflexive.d1,de-en.particle.d3", "--metrics", "bleu,chrf",
                     "--hyp", *(f"{s}={wmt21 / 'system-outputs' / f'newstest2021.de-en.hyp.{s}.en'}" for s in half),
                     "--human", str(table), "--human-alias", "Nemo.7=NVIDIA-NeMo", "--n-samples", "20",
                     "--paired-samples", "50", "--quiet", "--out", str(out)]) == 0
        paths.append(out / "results.json")
    capsys.readouterr()
    assert main(["meta-evaluate", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    assert "10 systems with human scores, 45 pairs" in out and "9 systems with human scores, 36 pairs" in out
    assert "chrF: difference to full-test BLEU" in out
    found = {}
    assert main(["meta-evaluate", *map(str, paths), "--json"]) == 0
    for row in json.loads(capsys.readouterr().out)["rows"]:
        found[(row["config"], row["metric"])] = row
    # the pooled τ of full-test BLEU is the pair-weighted mean of scipy's τ in each half
    taus, weights = [], []
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        names = list(document["human_scores"])
        taus.append(kendalltau([document["full"][s]["bleu"] for s in names],
                               [document["human_scores"][s] for s in names]).statistic)
        weights.append(len(names) * (len(names) - 1) / 2)
    bleu = found[("(full test set)", "bleu")]
    assert bleu["kendall"]["value"] == pytest.approx((taus[0] * weights[0] + taus[1] * weights[1]) / 81)
    for key in [("de-en.particle.d1", "bleu"), ("de-en.reflexive.d1", "chrf"), ("(full test set)", "chrf")]:
        row = found[key]
        assert row["systems"] == [10, 9]
        lo, hi = row["kendall"]["ci"]
        assert lo <= row["kendall"]["value"] <= hi and 0 <= row["accuracy"]["value"] <= 1
        assert row["kendall_difference"]["value"] == pytest.approx(row["kendall"]["value"] - bleu["kendall"]["value"])
        assert row["kendall_difference"]["p_value"] is not None and row["kendall_difference"]["ci"] is not None
