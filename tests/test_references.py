"""``--ref`` gives the metrics a further reference (multi-reference, as sacrebleu's several ``-r``
files); ``--judge-ref`` gives the targeted judge a second human translation to be checked on and
leaves the metrics alone. Every output says how many references each used (issue 50, item 2)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human

from conftest import shared_path
from toy_dataset import SPLIT, SYSTEMS, make

METRICS = ("bleu", "chrf", "ribes", "ter")


def _metric_parts(signature: str) -> list[str]:
    """The run signature's parts before the random baseline's: one per metric."""
    return signature.split("+random[")[0].split("+")


def _metrics_numbers(evaluation) -> tuple:
    """Every number a metric gives in a run: full test set, per config and system (score, random
    corpora, paired test), the ranking, human correlations, trends and summaries."""
    return (evaluation.full, evaluation.full_test, evaluation.human_full, evaluation.trends, evaluation.summary,
            {name: ({s: r.scores for s, r in c.systems.items()}, c.human) for name, c in evaluation.configs.items()},
            _metric_parts(evaluation.signature), evaluation.metric_info)


def test_the_judges_second_translation_leaves_every_metric_number_unchanged_and_is_judged(tmp_path):
    toy = make(tmp_path)
    human = read_human(toy["human"], list(SYSTEMS))
    plain = EvaluationRequest(toy["root"], toy["hyps"], metrics=METRICS, n_samples=5, paired_samples=20,
                              targeted=TargetedRequest("present", random_pairs=0))
    without = evaluate(plain, human)
    judged = evaluate(replace(plain, targeted=replace(plain.targeted, references=(toy["hyps"]["good"],))), human)
    assert _metrics_numbers(judged) == _metrics_numbers(without)
    assert "BLEU[nrefs:1|" in judged.signature and judged.notes == without.notes
    assert without.signature.endswith("+targeted[nrefs:1|judge-refs:0]") and without.targeted.judge.status == "unmeasured"
    assert judged.signature.endswith("+targeted[nrefs:1|judge-refs:1]")
    # the judge read "good"'s output as its second translation: judged exactly as "good" is as a system
    judge = judged.targeted.judge
    assert judge.status == "measured" and judge.references == 1 and judge.by_config
    for name, counts in judge.by_config.items():
        good = judged.configs[name].systems["good"].targeted
        assert (counts.correct, counts.wrong) == (good.correct, good.wrong)


def test_ref_makes_the_metrics_two_reference_and_every_output_says_nrefs_2(tmp_path, capsys):
    toy = make(tmp_path)
    common = ["evaluate", "--dataset", str(toy["root"]), "--split", SPLIT, "--config", "de-en.particle.d1",
              "--hyp", f"good={toy['hyps']['good']}", f"worse={toy['hyps']['worse']}", "--metrics", ",".join(METRICS),
              "--n-samples", "5", "--paired-samples", "20", "--targeted", "--quiet"]
    assert main([*common, "--out", str(tmp_path / "one")]) == 0
    assert main([*common, "--ref", str(toy["hyps"]["good"]), "--out", str(tmp_path / "two")]) == 0
    out, err = capsys.readouterr()
    one, two = (json.loads((tmp_path / run / "results.json").read_text(encoding="utf-8")) for run in ("one", "two"))
    # "good"'s own output as the second reference: a perfect score, where one reference gave less
    assert two["full"]["good"]["bleu"] == pytest.approx(100.0) and one["full"]["good"]["bleu"] < 90
    assert all(two["full"]["worse"][m] != one["full"]["worse"][m] for m in METRICS)
    for label in ("BLEU", "chrF", "RIBES", "TER"):
        assert f"{label}[nrefs:2|" in two["signature"] and f"{label}[nrefs:1|" in one["signature"]
    assert all(info["signature"].startswith("nrefs:2|") for info in two["metric_info"].values())
    # the judge does not use the metrics' reference: unmeasured, and the run says so
    assert two["signature"].endswith("+targeted[nrefs:1|judge-refs:0]") and two["targeted"]["judge"]["status"] == "unmeasured"
    note = "the metrics score each line against 2 references (the dataset's and --ref's;"
    assert [n for n in two["notes"] if n.startswith(note)] and not [n for n in one["notes"] if n.startswith(note)]
    report = (tmp_path / "two" / "report.md").read_text(encoding="utf-8")
    page = (tmp_path / "two" / "index.html").read_text(encoding="utf-8")
    assert "BLEU[nrefs:2|" in report and "BLEU[nrefs:2|" in page and "BLEU[nrefs:2|" in out
    assert note in report and note.replace("'", "&#39;") in page and f"note: {note}" in err


def test_judge_ref_without_targeted_is_an_error(tmp_path, capsys):
    toy = make(tmp_path)
    assert main(["evaluate", "--dataset", str(toy["root"]), "--split", SPLIT, "--config", "all", "--hyp",
                 str(toy["hyps"]["good"]), "--judge-ref", str(toy["hyps"]["worse"])]) == 2
    assert capsys.readouterr().err.strip().endswith("the targeted-accuracy flags need --targeted")


@pytest.mark.shared
def test_on_wmt21_reference_b_for_the_judge_leaves_the_metrics_numbers_unchanged(wmt21_de_en):
    """WMT21 de-en, three systems, two configs: reference B given to the judge changes no metric's
    number (it made full-test BLEU's τ with humans fall from 0.135 to 0.029 when it went to the
    metrics too); given to the metrics, BLEU is two-reference and says so."""
    wmt21 = shared_path("data", "wmt21")
    b = wmt21 / "references" / "newstest2021.de-en.ref.B.en"
    hyps = {name: wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en"
            for name in ("Facebook-AI", "UEdin", "happypoet")}
    plain = EvaluationRequest(dataset=wmt21_de_en, hypotheses=hyps, config="de-en.particle.d1,de-en.reflexive.d1",
                              split="newstest2021", n_samples=5, paired_samples=20, metrics=("bleu", "chrf", "ribes"),
                              targeted=TargetedRequest("present", random_pairs=0))
    without = evaluate(plain)
    judged = evaluate(replace(plain, targeted=replace(plain.targeted, references=(b,))))
    assert _metrics_numbers(judged) == _metrics_numbers(without)
    assert judged.targeted.judge.status == "measured" and without.targeted.judge.status == "unmeasured"
    both = evaluate(replace(plain, references=(b,)))
    assert "BLEU[nrefs:2|" in both.signature and both.full["UEdin"]["bleu"] > without.full["UEdin"]["bleu"]
