"""compute() (metrics/compute.py): the whole result, key by key, and the
edges of the Spearman guard and of the pool exclusion — small inputs, fast enough for every mutant
of `make mutate` (test_challenge_metric.py checks the same code against sacrebleu on real data)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from scipy.stats import spearmanr

from auto_challenge_sets.metrics.compute import compute, spearman_by_distance
from auto_challenge_sets.scoring import metrics as metric_registry
from auto_challenge_sets.scoring.finite import MetricFailure
from auto_challenge_sets.scoring.length_baseline import sample_length_matched, summarize
from auto_challenge_sets.scoring.metrics import AveragedMetric
from auto_challenge_sets.scoring.metrics.bleu import TOKENIZE
from auto_challenge_sets.scoring.metrics.ribes import Ribes

from conftest import corpus_ribes

HYP = ["the cat sat on the mat", "he gave the plan up", "a b c d", "Das Haus ist rot", "x y z", "one two"]
REF = ["the cat is on the mat", "he gave up the plan", "a b c e", "das Haus ist blau", "x z y", "one two"]
SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" + sacrebleu.__version__


def _ribes(hyps: list[str], refs: list[str], lowercase: bool = True) -> float:
    tok = Tokenizer13a()
    return corpus_ribes([tok(h) for h in hyps], [[tok(r)] for r in refs], lowercase=lowercase)


def test_compute_of_a_whole_corpus_is_sacrebleus() -> None:
    got = compute(HYP, REF)
    assert set(got) >= {"bleu", "ribes", "n", "signature", "chrf", "chrf_signature", "ribes_signature"}
    assert got["bleu"] == sacrebleu.corpus_bleu(HYP, [REF]).score
    assert got["chrf"] == pytest.approx(sacrebleu.corpus_chrf(HYP, [REF]).score)
    assert got["ribes"] == pytest.approx(_ribes(HYP, REF)) and got["n"] == 6
    assert got["signature"] == SIGNATURE and got["chrf_signature"].startswith("nrefs:1|")
    assert compute(HYP, [[r, r] for r in REF])["signature"].startswith("nrefs:2|")
    assert compute(HYP, REF, lowercase_ribes=False)["ribes"] == pytest.approx(_ribes(HYP, REF, False))
    with pytest.raises(ValueError, match="^references has 5 items but predictions has 6$"):
        compute(HYP, REF[:5])
    with pytest.raises(ValueError, match="^lowercase_ribes must be True or False, got 'yes'$"):
        compute(HYP, REF, lowercase_ribes="yes")


def _chrf_signature(hyps: list[str], refs: list[str]) -> str:
    chrf = sacrebleu.metrics.CHRF()
    chrf.corpus_score(hyps, [refs])
    return chrf.get_signature().format()


@pytest.mark.parametrize("lowercase", [True, False])
def test_compute_without_a_pool_or_distances(lowercase: bool) -> None:
    got = compute(HYP[:3], REF[:3], lowercase_ribes=lowercase)
    case = "lc" if lowercase else "mixed"
    assert got == {
        "bleu": sacrebleu.corpus_bleu(HYP[:3], [REF[:3]]).score, "ribes": pytest.approx(_ribes(HYP[:3], REF[:3])),
        "n": 3, "signature": SIGNATURE,
        "ribes_signature": f"nrefs:1|case:{case}|tok:13a|alpha:0.25|beta:0.1|version:ntt-1.03.1",
        "chrf": pytest.approx(sacrebleu.corpus_chrf(HYP[:3], [REF[:3]]).score),
        "chrf_signature": _chrf_signature(HYP[:3], REF[:3]),
        "random_baseline": None, "distance_breakdown": None, "spearman": None, "targeted": None,
    }


def _rows(ds: list[int], bleus: list[float]) -> list[dict]:
    return [{"min_distance": d, "n": 3, "bleu": b, "ribes": 0.5 + d / 10} for d, b in zip(ds, bleus)]


@pytest.mark.parametrize(("ds", "bleus"), [([0, 1], [30.0, 20.0]), ([0, 0, 1], [30.0, 25.0, 20.0]),
                                           ([0, 1, 2], [30.0, 30.0, 20.0]), ([0, 1, 2, 3], [10.0, 30.0, 20.0, 25.0])])
def test_spearman_is_scipys_wherever_it_is_defined(ds: list[int], bleus: list[float]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scipy is not asked about a constant input
        got = spearman_by_distance(_rows(ds, bleus), ["bleu", "ribes"])
    expected = spearmanr(ds, bleus)
    assert got["bleu"]["rho"] == pytest.approx(expected.statistic)
    if np.isnan(expected.pvalue):  # two points: a correlation, no p-value
        assert got["bleu"]["p"] is None
    else:
        assert got["bleu"]["p"] == pytest.approx(expected.pvalue)
    assert got["ribes"]["rho"] == pytest.approx(spearmanr(ds, [0.5 + d / 10 for d in ds]).statistic)
    assert set(got) == {"bleu", "ribes"} and set(got["bleu"]) == {"rho", "p"}


@pytest.mark.parametrize(("ds", "bleus"), [([0], [30.0]), ([1, 1], [30.0, 20.0]), ([0, 1, 2], [20.0, 20.0, 20.0])])
def test_spearman_is_none_where_it_is_undefined(ds: list[int], bleus: list[float]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = spearman_by_distance(_rows(ds, bleus), ["bleu", "ribes"])
    assert got["bleu"] == {"rho": None, "p": None}


def test_spearman_leaves_out_empty_rows_and_covers_the_metrics_named() -> None:
    rows = _rows([0, 1, 2], [30.0, 20.0, 10.0]) + [{"min_distance": 3, "n": 0, "bleu": None, "ribes": None}]
    assert spearman_by_distance(rows, ["bleu"])["bleu"]["rho"] == pytest.approx(-1.0)
    with_chrf = [{**r, "chrf": 50.0 - r["min_distance"]} for r in rows[:3]]
    assert spearman_by_distance(with_chrf, ["chrf"])["chrf"]["rho"] == pytest.approx(-1.0)


POOL_HYP = [f"w{i} x{i % 3} y z{i % 5} q" + " r" * (i % 4) for i in range(40)]
POOL_REF = [f"w{i} x{i % 3} y z{i % 4} q" + " r" * (i % 3) for i in range(40)]
POOL_LEN = [5 + i % 4 for i in range(40)]


def test_the_challenge_rows_leave_the_pool_by_id_when_ids_are_given() -> None:
    """Rows 0-4 of the pool repeated as rows 40-44 (same text, other ids): by id only 0-4 leave
    the pool, by text all ten do."""
    hyps, refs, lens = POOL_HYP + POOL_HYP[:5], POOL_REF + POOL_REF[:5], POOL_LEN + POOL_LEN[:5]
    rows = [0, 1, 2, 3, 4]
    common = dict(lengths=[lens[i] for i in rows], pool_predictions=hyps, pool_references=refs,
                  pool_lengths=lens, n_samples=5, seed=3)
    by_id = compute([hyps[i] for i in rows], [refs[i] for i in rows], ids=rows, pool_ids=list(range(45)), **common)
    by_text = compute([hyps[i] for i in rows], [refs[i] for i in rows], **common)
    assert by_id["random_baseline"]["pool_size"] == 40 and by_text["random_baseline"]["pool_size"] == 35
    kept = compute([hyps[i] for i in rows], [refs[i] for i in rows], exclude_challenge=False, **common)
    assert kept["random_baseline"]["pool_size"] == 45


def test_each_distance_slice_draws_from_its_own_seeded_stream() -> None:
    """The slice D of the breakdown is sampled with numpy's generator seeded [seed, 1, D]; a slice
    of every row is the whole set, whose baseline (seeded [seed, 0]) it reuses."""
    rows = list(range(0, 20, 2))
    dist = [i % 4 for i in rows]
    got = compute([POOL_HYP[i] for i in rows], [POOL_REF[i] for i in rows], lengths=[POOL_LEN[i] for i in rows],
                  distances=dist, pool_predictions=POOL_HYP, pool_references=POOL_REF, pool_lengths=POOL_LEN,
                  n_samples=8, seed=5)
    exclude = np.zeros(40, dtype=bool)
    exclude[rows] = True
    assert [row["min_distance"] for row in got["distance_breakdown"]] == [0, 2]
    for row in got["distance_breakdown"]:
        d = row["min_distance"]
        mask = np.array(dist) >= d
        samples = sample_length_matched(np.array([POOL_LEN[i] for i in rows])[mask], POOL_LEN, 8, 1, exclude,
                                        np.random.default_rng([5, 0] if mask.all() else [5, 1, d]))
        ribes = [float(np.mean([_ribes([POOL_HYP[i]], [POOL_REF[i]]) for i in sample]))
                 for sample in samples.index]
        assert row["random_baseline"]["ribes"] == pytest.approx(summarize(ribes, row["ribes"]))
        assert row["random_baseline"]["widened"] == samples.widened


_H, _R = ["a b", "c d"], ["a b", "c e"]
_P = {"pool_predictions": ["a b", "c d", "e"], "pool_references": ["a b", "c e", "e"], "pool_lengths": [2, 2, 1]}


@pytest.mark.parametrize(("arguments", "message"), [
    ({"references": ["a"]}, "references has 1 items but predictions has 2"),
    ({"lengths": [1]}, "lengths has 1 items but predictions has 2"),
    ({"pool_predictions": ["a"], "pool_references": ["a", "b"], "pool_lengths": [1], "lengths": [1, 1]},
     "pool_references has 2 items but pool_predictions has 1"),
    ({"pool_predictions": ["a"], "pool_references": ["a"], "lengths": [1, 1]},
     "pool_lengths is None; the random baseline needs source lengths of the pool"),
    ({"pool_predictions": ["a"], "pool_references": ["a"], "pool_lengths": [1, 2], "lengths": [1, 1]},
     "pool_lengths has 2 items but pool_predictions has 1"),
    (_P, "lengths is None; the random baseline needs the challenge rows' source lengths"),
    ({**_P, "lengths": [1]}, "lengths has 1 items but predictions has 2"),
    ({**_P, "lengths": [2, 2], "ids": [1, 2]}, "ids is given but pool_ids is None: the challenge rows are left "
     "out of the pool by id only when both are given"),
    ({**_P, "lengths": [2, 2], "pool_ids": [1, 2, 3]}, "pool_ids is given but ids is None: the challenge rows are "
     "left out of the pool by id only when both are given"),
    ({"pool_ids": [1]}, "pool_ids given without pool_predictions"),
    ({**_P, "lengths": [2, 2], "ids": [1, 2], "pool_ids": [1, 2]}, "pool_ids has 2 items but pool_predictions has 3"),
    ({"ids": [1]}, "ids has 1 items but predictions has 2"),
    ({"distances": [1]}, "distances has 1 items but predictions has 2"),
    ({"lowercase_ribes": 1}, "lowercase_ribes must be True or False, got 1"),
    ({"exclude_challenge": "no"}, "exclude_challenge must be True or False, got 'no'"),
    ({"return_samples": None}, "return_samples must be True or False, got None"),
    ({"length_relative": 1.5}, "length_relative must be a number from 0 to 1, got 1.5"),
])
def test_each_bad_argument_is_named_in_a_value_error(arguments: dict, message: str) -> None:
    arguments = {"predictions": _H, "references": _R, **arguments}
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        compute(**arguments)


def test_the_baseline_defaults_and_its_seeded_stream() -> None:
    """100 samples by default, drawn with numpy's generator seeded [seed, 0]; samples only on request."""
    rows = [0, 2, 4]
    common = {"pool_predictions": POOL_HYP, "pool_references": POOL_REF, "pool_lengths": POOL_LEN,
              "lengths": [POOL_LEN[i] for i in rows], "seed": 9}
    got = compute([POOL_HYP[i] for i in rows], [POOL_REF[i] for i in rows], **common)
    baseline = got["random_baseline"]
    assert baseline["n_samples"] == 100 and baseline["length_tolerance"] == 1 and "samples" not in baseline
    assert baseline["length_relative"] == 0.02 and baseline["signature"] == "random[n:100|tol:1|rel:0.02|seed:9]"
    exclude = np.zeros(40, dtype=bool)
    exclude[rows] = True
    samples = sample_length_matched(common["lengths"], POOL_LEN, 100, 1, exclude, np.random.default_rng([9, 0]))
    ribes = [float(np.mean([_ribes([POOL_HYP[i]], [POOL_REF[i]]) for i in sample])) for sample in samples.index]
    assert baseline["ribes"] == pytest.approx(summarize(ribes, got["ribes"]))
    assert "|case:lc|tok:13a|" in got["ribes_signature"]


def test_other_registered_metrics_are_scored_wherever_the_three_are() -> None:
    """``metrics=["ter"]``: the score, the signature, the random baseline over the very corpora the
    others use (sacrebleu on each drawn corpus; worse is higher for TER), the breakdown, spearman."""
    pool_h, pool_r = HYP * 4, REF * 4
    lengths = [len(h.split()) for h in pool_h]
    got = compute(HYP[:4], REF[:4], lengths=lengths[:4], distances=[0, 1, 2, 3], pool_predictions=pool_h,
                  pool_references=pool_r, pool_lengths=lengths, n_samples=12, seed=4, return_samples=True,
                  exclude_challenge=False, metrics=["ter", "bleu"])
    assert got["ter"] == sacrebleu.corpus_ter(HYP[:4], [REF[:4]]).score
    assert got["ter_signature"].startswith("nrefs:1|case:lc|tok:tercom")
    assert "bleu_signature" not in got  # BLEU is always scored: naming it adds nothing
    drawn = [sacrebleu.corpus_ter([pool_h[i] for i in row], [[pool_r[i] for i in row]]).score
             for row in got["random_baseline"]["samples"]["index"]]
    assert got["random_baseline"]["samples"]["ter"] == pytest.approx(drawn)
    base = got["random_baseline"]["ter"]
    worse = sum(d >= got["ter"] for d in drawn)
    assert base["mean"] == pytest.approx(np.mean(drawn)) and base["percentile"] == pytest.approx(100 * worse / 12)
    assert base["p_value"] == pytest.approx((1 + worse) / 13)
    rows = got["distance_breakdown"]
    assert [r["ter"] for r in rows] == [sacrebleu.corpus_ter(HYP[d:4], [REF[d:4]]).score for d in range(4)]
    assert set(rows[1]["random_baseline"]) == {"bleu", "ribes", "chrf", "ter", "widened"}
    rho = spearmanr([0, 1, 2, 3], [r["ter"] for r in rows]).statistic
    assert got["spearman"]["ter"]["rho"] == pytest.approx(rho)


@pytest.mark.parametrize("metrics,message", [("ter", "'ter'"), (None, "None"), ({"ter"}, "{'ter'}"), ([1], "[1]")])
def test_other_metrics_must_be_a_list_of_names(metrics, message) -> None:
    with pytest.raises(ValueError, match=f"^metrics must be a list of registered metric names, got {re.escape(message)}$"):
        compute(HYP, REF, metrics=metrics)


def test_other_metrics_must_be_registered_names() -> None:
    with pytest.raises(ValueError, match="^metrics unknown metric 'nope' "):
        compute(HYP, REF, metrics=["nope"])


def test_a_ribes_registered_without_lowercase_ribes_is_refused_naming_the_option(monkeypatch) -> None:
    """compute() always passes ``lowercase_ribes``; a plug-in registered as ``ribes`` that does not
    declare it makes the option one no metric has: the registry's own message, alone."""
    monkeypatch.setitem(metric_registry._REGISTRY, "ribes", type("Ribes", (Ribes,), {"options": (TOKENIZE,)}))
    with pytest.raises(ValueError, match="^no metric of bleu, chrf, ribes has an option 'lowercase_ribes'"):
        compute(HYP, REF)


class _Fussy(AveragedMetric):
    """A plug-in metric that scores sets of 2 rows or more, and random corpora of 3 rows or more."""

    name, label = "fussy", "Fussy"

    def sentence_scores(self, hypotheses, references, sources=None):
        return [1.0] * len(hypotheses)

    def corpus_score(self, stats):
        if len(stats) < 2:
            raise RuntimeError("too few rows")
        return float(stats.mean())

    def sample_scores(self, stats, index):
        if np.shape(index)[1] < 3:
            raise RuntimeError("too few rows in a random corpus")
        return stats[np.asarray(index)].mean(axis=1)

    def signature(self, nrefs: int) -> str:
        return "fussy"


_POOL = {"pool_predictions": HYP, "pool_references": REF, "pool_lengths": [6, 5, 4, 4, 3, 2], "n_samples": 2}


@pytest.mark.parametrize(("arguments", "message"), [
    ({"predictions": HYP[:1], "references": REF[:1]}, "the challenge set for system (predictions): RuntimeError: "
     "too few rows"),
    ({"predictions": HYP[:3], "references": REF[:3], "distances": [0, 1, 2]},
     "the rows at distance >= 2 for system (predictions): RuntimeError: too few rows"),
    ({"predictions": HYP[:2], "references": REF[:2], "lengths": [6, 5], **_POOL},
     "a random corpus of the challenge set for system (predictions): RuntimeError: too few rows in a random corpus"),
    ({"predictions": HYP[:3], "references": REF[:3], "lengths": [6, 5, 4], "distances": [0, 1, 1], **_POOL},
     "a random corpus of the rows at distance >= 1 for system (predictions): RuntimeError: too few rows in a "
     "random corpus"),
])
def test_a_failing_plugin_metric_is_named_with_the_system_and_the_rows_it_failed_on(monkeypatch, arguments,
                                                                                    message) -> None:
    """The whole set, a slice of the breakdown or the random corpora of either, with a pool or without."""
    monkeypatch.setitem(metric_registry._REGISTRY, _Fussy.name, _Fussy)
    with pytest.raises(MetricFailure, match=f"^metric fussy failed on {re.escape(message)}$"):
        compute(**arguments, metrics=["fussy"])


class _Counting(AveragedMetric):
    """A plug-in metric that records how many sentences it was asked to score."""

    name, label = "counting", "Counting"
    scored: list[int] = []

    def sentence_scores(self, hypotheses, references, sources=None):
        self.scored.append(len(hypotheses))
        return [float(len(h.split())) for h in hypotheses]

    def signature(self, nrefs: int) -> str:
        return "counting"


def test_a_challenge_row_the_pool_holds_is_scored_once(monkeypatch) -> None:
    """The pool's 6 rows and the one challenge row the pool does not hold: 7 sentences for a plug-in
    metric (as expensive as COMET, say), not 6 + 3."""
    monkeypatch.setitem(metric_registry._REGISTRY, _Counting.name, _Counting)
    monkeypatch.setattr(_Counting, "scored", [])
    got = compute([HYP[0], HYP[3], "new words"], [REF[0], REF[3], "new ones"], lengths=[6, 4, 2],
                  pool_predictions=HYP, pool_references=REF, pool_lengths=[6, 5, 4, 4, 3, 2], n_samples=2,
                  metrics=["counting"])
    assert sum(_Counting.scored) == 7
    assert got["counting"] == pytest.approx((6 + 4 + 2) / 3)


def test_targeted_accuracy_follows_the_hypothesis_alignments_and_the_chrf_threshold() -> None:
    """Row 0 is word for word the reference, but its alignment links the head "lehnt" to "she": wrong
    (the present match, without alignments, would find "turns" anywhere). Row 1's head "turned"
    matches the reference's "turns" only by chrF: correct at a threshold of exactly their chrF,
    wrong just above it."""
    links = "0-0 1-1 2-2 3-3"  # sie-she lehnt-turns es-it ab-down
    particle = [{"head": 2, "dependent": 4, "distance": 2}]
    chrf = sacrebleu.sentence_chrf("turned", ["turns"]).score
    for threshold, row_1 in ((chrf, "correct"), (chrf + 1, "wrong")):
        got = compute(["she turns it down", "she turned it down"], ["she turns it down"] * 2,
                      instances=[particle, particle], source_alignments=[links, links],
                      hypothesis_alignments=["0-1 1-0 2-2 3-3", links], targeted_chrf=threshold)["targeted"]
        assert (got["correct"], got["wrong"]) == ((1, 1) if row_1 == "correct" else (0, 2))
        assert got["signature"].startswith("targeted:aligned|") and f"|fallback:chrF>={threshold:g}|" in got["signature"]


def test_spearman_of_a_nan_score_is_none() -> None:
    from auto_challenge_sets.metrics.compute import _spearman

    assert _spearman([1, 2, 3], [10.0, 20.0, float("nan")]) == {"rho": None, "p": None}
