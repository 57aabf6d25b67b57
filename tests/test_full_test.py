"""evaluation/stats/full_test.py: the full test set's paired tests against sacrebleu's own PairedTest, the
significance clusters against hand counts, and on WMT21 de-en all 19 systems ranked by the command."""

from __future__ import annotations

import json

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from auto_challenge_sets.evaluation.inputs import SystemOutput
from auto_challenge_sets.evaluation.stats.full_test import full_test, significance_clusters
from auto_challenge_sets.scoring.metrics import create_metric

from conftest import check_results_json, shared_path
from toy_dataset import corpus

ROWS = 50  # the toy's first rows: sacrebleu's own test scores every trial in Python


def _better(pairs: set[str]):
    """``better(a, b)`` for systems named by one letter, true for the pairs written "ab"."""
    return lambda a, b: a + b in pairs


@pytest.mark.parametrize(("significant", "expected"), [
    # hand counts, systems a > b > c > d by score
    ({"ac", "ad", "bc", "bd"}, [1, 1, 2, 2]),  # a~b and c~d, each of a, b beats each of c, d
    ({"ab", "ac", "ad", "bc", "bd", "cd"}, [1, 2, 3, 4]),  # every pair differs
    (set(), [1, 1, 1, 1]),  # none does
    ({"ab", "ac", "ad"}, [1, 2, 2, 2]),  # a beats all; b, c, d do not differ
    # a beats b, but not c: no boundary after a (a greedier rule would split a from b and c)
    ({"ab", "ad", "bd", "cd"}, [1, 1, 1, 2]),
    # b~c and c~d, but b beats d: neither boundary is allowed, so b, c, d stay together
    ({"ab", "ac", "ad", "bd"}, [1, 2, 2, 2]),
])
def test_clusters_against_a_hand_count(significant, expected):
    assert significance_clusters(list("abcd"), _better(significant)) == expected


def test_clusters_of_one_or_no_system():
    assert significance_clusters(["a"], _better(set())) == [1]
    assert significance_clusters([], _better(set())) == []


def _toy(names=("better", "good", "lower", "worse"), metrics=("bleu", "chrf", "ribes", "ter")):
    c = corpus()
    refs = [(r,) for r in c["refs"][:ROWS]]
    outputs = [SystemOutput(name, c["outputs"][name][:ROWS], refs) for name in names]
    found = {m: create_metric(m) for m in metrics}
    stats = {o.name: {m: metric.statistics(o.predictions, refs) for m, metric in found.items()} for o in outputs}
    full = {s: {m: found[m].corpus_score(stats[s][m]) for m in found} for s in stats}
    return outputs, refs, found, stats, full


def _sacrebleu_objects(metrics):
    """sacrebleu's own objects for BLEU and chrF, the adapter for RIBES and TER (as the engine)."""
    return {"bleu": sacrebleu.BLEU(), "chrf": sacrebleu.CHRF(), "ribes": metrics["ribes"].sacrebleu_metric(),
            "ter": metrics["ter"].sacrebleu_metric()}


@pytest.mark.parametrize("test_type", ["ar", "bs"])
def test_against_the_baseline_the_p_values_are_sacrebleus(test_type):
    """The full test's Δ and p of each system against the baseline equal sacrebleu's PairedTest with
    the baseline first, though they are read off the pairs (where the baseline is not always first)."""
    outputs, refs, metrics, stats, full = _toy()
    baseline = "good"  # neither first nor last of the systems
    tested = full_test(outputs, metrics, stats, full, baseline, test_type, 100)
    hyps = {o.name: o.predictions for o in outputs}
    order = [baseline, *[o.name for o in outputs if o.name != baseline]]
    _, theirs = PairedTest([(s, hyps[s]) for s in order], _sacrebleu_objects(metrics), [[r for (r,) in refs]],
                           test_type=test_type, n_samples=100)()
    columns = [key for key in theirs if key != "System"]
    for metric, column in zip(metrics, columns):
        by_system = {r.system: r for r in tested.rankings[metric].systems}
        assert by_system[baseline].vs_baseline is None
        for index, system in enumerate(order[1:], start=1):
            ours = by_system[system].vs_baseline
            assert ours.p_value == theirs[column][index].p_value, (system, metric)
            assert ours.delta == pytest.approx(theirs[column][index].score - theirs[column][0].score)


def test_the_ranking_orders_by_score_and_clusters_by_the_pairs():
    outputs, _, metrics, stats, full = _toy()
    tested = full_test(outputs, metrics, stats, full, "better", "ar", 1000)
    assert tested.rows == ROWS and tested.correction == "none" and tested.alpha == 0.05
    assert tested.random_unavailable and tested.paired_test == "ar" and tested.paired_samples == 1000
    for metric, ranking in tested.rankings.items():
        higher = metrics[metric].higher_is_better
        scores = [r.score for r in ranking.systems]
        assert scores == sorted(scores, reverse=higher)
        sign = 1 if higher else -1  # the rank is 1 + the systems scoring better: ties share the better rank
        assert [r.rank for r in ranking.systems] == [1 + sum(sign * o > sign * s for o in scores) for s in scores]
        assert [r.score for r in ranking.systems] == [full[r.system][metric] for r in ranking.systems]
        # every pair once, the one ranked above first, its delta of the scores' sign
        place = {r.system: k for k, r in enumerate(ranking.systems)}
        assert len(ranking.pairs) == 6 and all(place[p.better] < place[p.worse] for p in ranking.pairs)
        assert all(p.delta == pytest.approx(full[p.better][metric] - full[p.worse][metric]) for p in ranking.pairs)
        # the clusters recounted by hand from the printed pairs: a boundary after position k when
        # every pair across it is significant
        significant = {(p.better, p.worse) for p in ranking.pairs if p.p_value < 0.05}
        names = [r.system for r in ranking.systems]
        cuts = [all((a, b) in significant for a in names[:k + 1] for b in names[k + 1:]) for k in range(3)]
        assert [r.cluster for r in ranking.systems] == [1 + sum(cuts[:k]) for k in range(4)]
        assert ranking.clusters == ranking.systems[-1].cluster
    # "good" and "lower" keep the same share of the reference's words (0.7): not told apart by BLEU,
    # while "better" (0.85) and "worse" (0.5) are, on 50 rows
    assert [r.cluster for r in tested.rankings["bleu"].systems] == [1, 2, 2, 3]
    assert {r.system for r in tested.rankings["bleu"].systems if r.cluster == 2} == {"good", "lower"}


def test_systems_of_equal_score_share_the_better_rank():
    outputs, _, metrics, stats, full = _toy(names=("better", "worse"), metrics=("bleu", "ter"))
    twin = SystemOutput("twin", outputs[0].predictions, outputs[0].references)
    stats["twin"], full["twin"] = stats["better"], full["better"]
    tested = full_test([*outputs, twin], metrics, stats, full, "better", "ar", 100)
    for ranking in tested.rankings.values():  # TER too: lower is better
        assert [(r.system, r.rank) for r in ranking.systems] == [("better", 1), ("twin", 1), ("worse", 3)]


def test_one_system_has_one_cluster_and_no_pair():
    outputs, _, metrics, stats, full = _toy(("good",), ("bleu",))
    ranking = full_test(outputs, metrics, stats, full, "good", "ar", 100).rankings["bleu"]
    assert ranking.pairs == () and ranking.clusters == 1
    assert [(r.system, r.rank, r.cluster, r.vs_baseline) for r in ranking.systems] == [("good", 1, 1, None)]


def test_wmt21_full_test_set_ranks_all_19_systems(wmt21_de_en, tmp_path, capsys):
    """The command on WMT21 de-en's full test set alone (--config de-en.baseline): 19 systems ranked
    in results.json, report.md and index.html, ranks and clusters consistent with the scores."""
    from auto_challenge_sets.cli import main

    wmt21 = shared_path("data", "wmt21")
    hyps = sorted((wmt21 / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    out = tmp_path / "report"
    rc = main(["evaluate", "--dataset", str(wmt21_de_en), "--split", "newstest2021", "--config", "de-en.baseline",
               "--hyp", *map(str, hyps), "--metrics", "bleu,chrf", "--paired-samples", "200", "--quiet",
               "--out", str(out)])
    printed = capsys.readouterr().out
    assert rc == 0 and len(hyps) == 19
    check_results_json(out / "results.json")
    payload = json.loads((out / "results.json").read_text(encoding="utf-8"))
    section = payload["full_test"]
    assert section["rows"] == payload["full_corpus_rows"] == 1000
    for metric in ("bleu", "chrf"):
        ranking = section["rankings"][metric]["systems"]
        assert sorted(r["system"] for r in ranking) == sorted(payload["systems"]) and len(ranking) == 19
        scores = [r["score"] for r in ranking]
        assert scores == sorted(scores, reverse=True)
        assert scores == [payload["full"][r["system"]][metric] for r in ranking]
        assert [r["rank"] for r in ranking] == [1 + sum(s > x for s in scores) for x in scores]
        clusters = [r["cluster"] for r in ranking]
        assert clusters[0] == 1 and all(b - a in (0, 1) for a, b in zip(clusters, clusters[1:]))
        assert len(section["rankings"][metric]["pairs"]) == 19 * 18 // 2
        baseline = [r for r in ranking if r["system"] == payload["baseline_system"]]
        assert baseline[0]["vs_baseline"] is None and sum(r["vs_baseline"] is None for r in ranking) == 1
        # each system's test against the baseline is the configuration's own on the same rows
        config = payload["configs"]["de-en.baseline"]["systems"]
        for r in ranking:
            assert r["vs_baseline"] == config[r["system"]]["scores"][metric]["vs_baseline"], r["system"]
    entry = payload["configs"]["de-en.baseline"]
    assert entry["random_unavailable"] and not entry["degenerate_baseline"]
    assert all(s["scores"]["bleu"]["random"] is None for s in entry["systems"].values())
    top, bleu = section["rankings"]["bleu"]["systems"][0], section["rankings"]["bleu"]
    assert (f"  full test set, BLEU: best {top['system']} ({top['score']:.2f}); {bleu['clusters']} cluster(s) of 19 systems; "
            "top cluster: ") in printed and len(printed.splitlines()) <= 60  # --out: the terminal's summary
    assert "## Full test set: ranking and significance clusters" in (out / "report.md").read_text(encoding="utf-8")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('<tr data-system="') >= 2 * 19 and 'id="full-test"' in page


def test_a_pair_at_a_p_of_exactly_alpha_is_not_significantly_different():
    """Bug: ``p <= alpha`` for ``p < alpha`` in the clusters' test. With 19 trials of approximate
    randomization no trial reaches the observed difference of systems this far apart, so
    p = (0 + 1)/(19 + 1) = 0.05 exactly: one cluster. With 39 trials p = 0.025: two clusters."""
    outputs, _, found, stats, full = _toy(names=("better", "worse"), metrics=("bleu",))
    exact = full_test(outputs, found, stats, full, "better", "ar", 19).rankings["bleu"]
    assert [pair.p_value for pair in exact.pairs] == [0.05] and exact.clusters == 1
    halved = full_test(outputs, found, stats, full, "better", "ar", 39).rankings["bleu"]
    assert [pair.p_value for pair in halved.pairs] == [0.025] and halved.clusters == 2
