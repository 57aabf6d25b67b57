"""Tests at the boundaries a real bug moves (issue 49, item 8): a p-value exactly at α/m or at
rank·α/m, every rounding of "a tenth of the family" and of the degenerate-baseline shares, a
lower-is-better metric in every position (a system's score, the full test in the pooled
meta-evaluation, the reference of Δτ), a per-run rule decided from every run, the defaults of
``acs meta-evaluate`` read back from its output, the relative length window of ``compute()``, and a
worker's CPU counted once. Each test fails with the hand-made bug its docstring names; the expected
values are counted by hand (τ from concordant and discordant pairs, exact nulls from 1/n!)."""

from __future__ import annotations

import json
import math
import os
import resource
import time
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from meta_runs_data import RUN_1, RUN_2

from auto_challenge_sets.cli import main
from auto_challenge_sets.evaluation.report.meta_report import summary_lines
from auto_challenge_sets.evaluation.report.sections.trends_section import surviving_worsening
from auto_challenge_sets.evaluation.results import Evaluation, HumanCorrelation, MetricInfo, Settings, Trend
from auto_challenge_sets.evaluation.stats import SEED
from auto_challenge_sets.evaluation.stats.meta_evaluation import Estimate
from auto_challenge_sets.evaluation.stats.meta_runs import FULL, exploratory, meta_evaluate
from auto_challenge_sets.evaluation.stats.multiple_testing import ALPHA, benjamini_hochberg
from auto_challenge_sets.evaluation.stats.power import critical_tau, power
from auto_challenge_sets.evaluation.stats.versus_full import add_versus_full_test
from auto_challenge_sets.metrics.compute import compute
from auto_challenge_sets.pipeline.timings import recording, stage
from auto_challenge_sets.scoring.length_baseline import is_degenerate, sample_length_matched
from auto_challenge_sets.workers import imap, reported_cpu

# -- exact thresholds: a p equal to the threshold does not pass ---------------------------------------


def test_a_tau_whose_exact_p_is_alpha_over_m_is_not_enough_to_survive_bh_alone():
    """Bug: ``p <= α/m`` in power.critical_tau. With 5 systems only the two orders with τ = ±1 reach
    |τ| = 1: p = 2/120 = 1/60, which is 0.05/3 to the last bit; with 6 systems |τ| ≥ 13/15 has
    p = (2 + 2·5)/720 = 1/60 too. Over a family of 3 neither passes alone."""
    assert float(Fraction(2, 120)) == ALPHA / 3 == float(Fraction(12, 720))
    five, six = power([5], 3), power([6], 3)
    assert five.single == 1.0 and five.alone is None and five.with_tenth is None  # ⌈3/10⌉ = 1: the same bound
    assert six.single == 13 / 15 and six.alone == 1.0 and six.with_tenth == 1.0


def test_a_corrected_p_exactly_at_rank_alpha_over_m_is_exploratory_in_the_meta_evaluation():
    """Bug: ``p > ALPHA`` in meta_runs.exploratory. BH of (0.025, 0.05): 0.025 is 1·α/2 and 0.05 is
    2·α/2, so both correct to α exactly and neither is a finding."""
    assert benjamini_hochberg([0.025, None, 0.05]) == [0.05, None, 0.05]
    assert [exploratory(p) for p in (ALPHA, math.nextafter(ALPHA, 0), None)] == [True, False, True]


def test_the_meta_summary_counts_no_config_at_a_p_of_exactly_alpha(tmp_path):
    """Bug: ``< ALPHA`` turned ``<= ALPHA`` in the verdict meta_report.summary_lines counts: a config
    whose corrected p is α exactly is no different from full-test BLEU; one just below is better."""
    found = meta_evaluate(_write(tmp_path, RUN_1, RUN_2))
    (row,) = [r for r in found.rows if r.metric == "bleu" and r.in_family and r.found.kendall_difference is not None]

    def summary(p: float) -> str:
        moved = replace(row, found=replace(row.found, kendall_difference=Estimate(0.5, (0.1, 0.9), p)),
                        corrected=(*row.corrected[:3], p))
        return summary_lines(replace(found, rows=(moved,)))[0]

    assert summary(ALPHA).endswith("better than full-test bleu: none; worse: none; no different: 1")
    assert "better than full-test bleu: none" not in summary(math.nextafter(ALPHA, 0))


def test_a_worsening_trend_at_a_corrected_p_of_exactly_alpha_does_not_survive():
    """Bug: ``p_corrected <= ALPHA`` in trends_section.surviving_worsening."""
    def evaluation(p: float) -> Evaluation:
        trends = {"de-en.particle": {"a": Trend(4, -0.9, 0.01, p, 2), "b": Trend(4, -0.8, 0.02, p, 2)}}
        return Evaluation(
            signature="sig", dataset="data", pair="de-en", split="test", full_corpus_config="de-en.baseline",
            full_corpus_rows=90, systems=("a", "b"), baseline_system="a", metrics=("bleu",),
            higher_is_better={"bleu": True}, settings=Settings(5, 1, 3, "ar", 20, 20, {"bleu": {"tokenize": "13a"}}),
            full={}, configs={}, trends={"bleu": trends}, summary={}, metric_info={"bleu": MetricInfo("BLEU", 2, "sig")})

    assert surviving_worsening(evaluation(ALPHA), "bleu", "de-en.particle") == 0
    assert surviving_worsening(evaluation(math.nextafter(ALPHA, 0)), "bleu", "de-en.particle") == 2


# -- fractions: every rounding ----------------------------------------------------------------------

SYSTEMS = [12, 12]  # 132 pairs: the bound moves with every k below


@pytest.mark.parametrize("family, k", [(1, 1), (5, 1), (9, 1), (10, 1), (11, 2), (14, 2), (15, 2), (16, 2),
                                       (20, 2), (21, 3), (25, 3), (26, 3), (35, 4), (45, 5)])
def test_a_tenth_of_the_family_is_rounded_up(family, k):
    """Bugs: ``round``, ``//`` or half-up instead of ⌈m/10⌉ in power(): m/10 exactly at .5 (15, 25,
    35, 45: banker's rounding goes down on 25 and 45, ``//`` on all), just under (14), just over
    (11, 16, 26) and whole (10, 20)."""
    found = power(SYSTEMS, family)
    assert found.with_tenth == critical_tau(SYSTEMS, ALPHA * k / family)
    assert found.with_tenth != critical_tau(SYSTEMS, ALPHA * (k + 1) / family)
    assert k == 1 or found.with_tenth != critical_tau(SYSTEMS, ALPHA * (k - 1) / family)


@pytest.mark.parametrize("rows, widened, degenerate", [(10, 1, False), (10, 2, True), (20, 2, False), (20, 3, True),
                                                       (25, 2, False), (25, 3, True), (30, 3, False), (30, 4, True),
                                                       (9, 0, False), (9, 1, True)])
def test_more_than_a_tenth_of_the_rows_widened_makes_a_baseline_degenerate(rows, widened, degenerate):
    """Bug: ``>=`` for ``>`` in is_degenerate: exactly a tenth widened (1 of 10, 2 of 20, 3 of 30,
    where 0.1 × 30 is 3.0000000000000004) is still length-matched; 2.5 of 25 rounds neither way."""
    assert is_degenerate(rows, widened) is degenerate


# -- lower is better in every position ---------------------------------------------------------------


def _write(folder, *documents) -> list[str]:
    paths = []
    for k, document in enumerate(documents, start=1):
        path = folder / f"run{k}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(str(path))
    return paths


def _row(found, config: str, metric: str):
    return next(r for r in found.rows if (r.config, r.metric) == (config, metric))


def test_pooled_ter_is_turned_on_the_full_test_on_a_config_and_as_the_reference(tmp_path):
    """Bugs: a lower-is-better metric's full-test or config scores not turned in read_run. By hand:
    full-test TER orders a < b < c < d and p < q < r, as humans do: τ = 1 in both runs. Full BLEU:
    run 1 has one discordant pair of 6 (a, b), run 2 one of 3 (q, r): pooled τ = (6·4/6 + 3·1/3)/9
    = 5/9. Config particle.d1's TER: run 1 τ = 1, run 2 ties p and q: τ-b = 2/√6."""
    paths = _write(tmp_path, RUN_1, RUN_2)
    found = meta_evaluate(paths)
    assert _row(found, FULL, "ter").found.kendall.value == pytest.approx(1.0)
    assert _row(found, FULL, "ter").found.kendall_difference.value == pytest.approx(1 - 5 / 9)
    assert _row(found, "de-en.particle.d1", "ter").found.kendall.value == pytest.approx((6 + 3 * 2 / math.sqrt(6)) / 9)
    against_ter = meta_evaluate(paths, reference="ter")
    assert _row(against_ter, FULL, "bleu").found.kendall_difference.value == pytest.approx(5 / 9 - 1)
    assert _row(against_ter, FULL, "ter").found.kendall_difference is None  # the reference itself


def _human(kendall: float) -> HumanCorrelation:
    return HumanCorrelation(systems=4, spearman=kendall, spearman_p=0.5, kendall=kendall, p_value=0.5, ci=(-1.0, 1.0))


def test_a_lower_is_better_reference_metric_is_turned_in_delta_tau():
    """Bugs: the reference's (TER's) or another lower-is-better metric's full-test scores not turned
    in versus_full.add_versus_full_test, for a run of metrics ter,chrf,wer (no BLEU: TER is the
    reference). By hand, humans a > b > c > d: TER 10 < 20 < 30 < 40 is τ = 1; chrF 60, 50, 30, 40
    has one discordant pair of 6, τ = 4/6; WER 1, 2, 4, 3 likewise, τ = 4/6 once turned."""
    full = {"a": {"ter": 10.0, "chrf": 60.0, "wer": 1.0}, "b": {"ter": 20.0, "chrf": 50.0, "wer": 2.0},
            "c": {"ter": 30.0, "chrf": 30.0, "wer": 4.0}, "d": {"ter": 40.0, "chrf": 40.0, "wer": 3.0}}
    human = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    found, _ = add_versus_full_test({}, {"ter": _human(1.0), "chrf": _human(4 / 6), "wer": _human(4 / 6)}, full,
                                    {"ter": False, "chrf": True, "wer": False}, human)
    assert found["ter"].vs_full_test is None
    for metric in ("chrf", "wer"):
        assert found[metric].vs_full_test.reference == "ter"
        assert found[metric].vs_full_test.delta == pytest.approx(4 / 6 - 1)


# -- a per-run rule decided from every run -------------------------------------------------------------


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_a_config_holding_another_configs_rows_in_one_run_only_stays_in_the_family(tmp_path, order):
    """Bug: "same rows as" taken from any one run (or the first): particle.d3 repeats d2's rows in
    run 2 only, so it is a test of its own and BH counts it, whichever run is given first."""
    first = json.loads(json.dumps(RUN_1))
    first["configs"]["de-en.particle.d3"].update(small=False, same_rows_as=None)
    documents = [first, RUN_2]
    found = meta_evaluate(_write(tmp_path, *(documents[k] for k in order)))
    row = _row(found, "de-en.particle.d3", "bleu")
    assert row.flags == () and row.in_family
    assert row.corrected[1] is not None
    repeat = _row(meta_evaluate(_write(tmp_path, RUN_2, RUN_2 | {"human_scores": {"p": 3.0, "q": 2.0, "r": 1.0}})),
                  "de-en.particle.d3", "bleu")
    assert repeat.flags == ("same rows as de-en.particle.d2",) and not repeat.in_family  # every run: counted once


# -- each default of acs meta-evaluate, read back from its output --------------------------------------


def test_meta_evaluate_prints_its_default_seed_and_reference(tmp_path, capsys):
    """Bug: another ``--seed`` (or ``--reference``) default in cli/meta_evaluate.py than the one
    its help and the library state. The JSON records both; the same numbers come from naming them."""
    paths = _write(tmp_path, RUN_1, RUN_2)
    capsys.readouterr()
    assert main(["meta-evaluate", *paths, "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert (default["seed"], default["reference"]) == (SEED, "bleu") == (1, "bleu")
    assert main(["meta-evaluate", *paths, "--json", "--seed", "1", "--reference", "bleu"]) == 0
    assert json.loads(capsys.readouterr().out) == default
    assert main(["meta-evaluate", *paths]) == 0
    assert f"seed {SEED})" in capsys.readouterr().out


# -- compute(): the relative length window changes the draws -------------------------------------------

POOL_LEN = list(range(20, 60))  # one sentence of each length from 20 to 59 tokens
POOL_HYP = [" ".join(f"h{i}w{j % 7}" for j in range(n)) for i, n in enumerate(POOL_LEN)]
POOL_REF = [" ".join(f"h{i}w{j % 5}" for j in range(n)) for i, n in enumerate(POOL_LEN)]


@pytest.mark.parametrize("relative", [0.0, 0.05, 0.3])
def test_compute_draws_and_signs_with_its_relative_length_window(relative):
    """Bug: compute() dropping ``length_relative`` (drawing and signing with the default 0.05). At
    40 tokens the window is ±1 (0), ±2 (0.05) or ±12 (0.3) tokens: other corpora each time."""
    rows = [20, 21]  # lengths 40 and 41
    lengths = [POOL_LEN[i] for i in rows]
    got = compute([POOL_HYP[i] for i in rows], [POOL_REF[i] for i in rows], lengths=lengths, pool_predictions=POOL_HYP,
                  pool_references=POOL_REF, pool_lengths=POOL_LEN, n_samples=30, seed=3, length_relative=relative,
                  return_samples=True)
    baseline = got["random_baseline"]
    rule = "tol:1" if relative == 0 else f"tol:1|rel:{relative:g}"
    assert baseline["length_relative"] == relative and baseline["signature"] == f"random[n:30|{rule}|seed:3]"
    exclude = np.zeros(len(POOL_LEN), dtype=bool)
    exclude[rows] = True
    draws = {r: sample_length_matched(lengths, POOL_LEN, 30, 1, exclude, np.random.default_rng([3, 0]), relative=r).index
             for r in (0.0, 0.05, 0.3)}
    assert baseline["samples"]["index"] == draws[relative].tolist()
    assert all(not np.array_equal(draws[relative], draws[r]) for r in draws if r != relative)


# -- a worker's CPU counted once ---------------------------------------------------------------------


def _burn_then_clock(seconds: float) -> tuple[int, float]:
    """Spend ``seconds`` of CPU; this process's id and its CPU seconds since it started."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(1_000))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return os.getpid(), usage.ru_utime + usage.ru_stime


def test_fresh_workers_cpu_is_each_workers_total_once_and_the_stage_gets_its_own():
    """Bugs: a worker reporting its CPU since it started with every item (not since its last
    report), or a stage taking every worker's CPU so far (not its own). What the workers report is
    each worker's CPU at its last item, summed (plus the microseconds after each clock): a count
    of each item's running total would add the first items' seconds again and again."""
    list(imap(_burn_then_clock, [0.0, 0.0], 2, fresh=True))  # earlier workers' CPU, not the stage's
    before = reported_cpu()
    assert before > 0
    with recording() as timings, stage("work"):
        found = list(imap(_burn_then_clock, [0.05] * 8, 2, fresh=True))
    spent = reported_cpu() - before
    last: dict[int, float] = {}
    for pid, cpu in found:
        last[pid] = max(last.get(pid, 0.0), cpu)
    assert sum(last.values()) <= spent <= sum(last.values()) + 0.05 * len(last)
    (work,) = timings.stages
    assert work.worker_cpu == spent
