"""The metric's compute function: scores, random baseline, distance breakdown, bad input."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from scipy.stats import spearmanr

from auto_challenge_sets.evaluation.memory import check_sample_size
from auto_challenge_sets.metrics.compute import compute

from conftest import corpus_ribes

SHARED = Path(os.environ.get("ACS_SHARED_DIR", Path(__file__).resolve().parents[2] / "shared"))
TOK = Tokenizer13a()


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def corpus() -> dict:
    """WMT21 de-en, one system, reference A; the challenge set = 80 rows picked by a rule."""
    base = SHARED / "data" / "wmt21"
    if not base.exists():
        pytest.skip(f"needs {base} (the team's shared data, absent in a fresh clone)")
    src = _lines(base / "sources" / "newstest2021.de-en.src.de")
    ref = _lines(base / "references" / "newstest2021.de-en.ref.A.en")
    ref_b = _lines(base / "references" / "newstest2021.de-en.ref.B.en")
    hyp = _lines(base / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en")
    lengths = [len(s.split()) for s in src]
    rows = [i for i in range(len(src)) if 8 <= lengths[i] <= 25][::5][:80]
    distances = [(i * 7) % 6 for i in rows]
    return {"src": src, "ref": ref, "ref_b": ref_b, "hyp": hyp, "lengths": lengths, "rows": rows,
            "distances": distances, "ids": [f"newstest2021:{i + 1}" for i in range(len(src))]}


def _call(c: dict, **kwargs) -> dict:
    rows = c["rows"]
    args = dict(
        predictions=[c["hyp"][i] for i in rows],
        references=[c["ref"][i] for i in rows],
        lengths=[c["lengths"][i] for i in rows],
        pool_predictions=c["hyp"],
        pool_references=c["ref"],
        pool_lengths=c["lengths"],
        n_samples=30,
        seed=3,
    )
    args.update(kwargs)
    return compute(**args)


def test_challenge_scores_equal_sacrebleu_and_ribes(corpus):
    rows = corpus["rows"]
    hyp = [corpus["hyp"][i] for i in rows]
    ref = [corpus["ref"][i] for i in rows]
    result = _call(corpus)
    assert result["bleu"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert result["ribes"] == pytest.approx(corpus_ribes([TOK(h) for h in hyp], [[TOK(r)] for r in ref]),
                                            rel=1e-14)
    assert result["n"] == len(rows)
    assert result["signature"] == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" + sacrebleu.__version__
    assert result["chrf"] == sacrebleu.corpus_chrf(hyp, [ref]).score
    assert result["chrf_signature"] == "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:" + sacrebleu.__version__


def test_random_baseline_summarises_chrf_like_bleu(corpus):
    result = _call(corpus, distances=corpus["distances"], return_samples=True)
    base = result["random_baseline"]
    assert set(base["chrf"]) == set(base["bleu"])
    assert {"mean", "p5", "p95"} <= set(base["chrf"])
    chrf = np.asarray(base["samples"]["chrf"])
    assert base["chrf"]["mean"] == pytest.approx(chrf.mean())
    assert base["chrf"]["min"] <= base["chrf"]["p5"] <= base["chrf"]["p95"] <= base["chrf"]["max"]
    assert 0 < base["chrf"]["mean"] < 100
    assert base["chrf"]["p_value"] == (1 + sum(c <= result["chrf"] for c in chrf)) / 31
    # one sampling for the three metrics: the same corpora gave bleu, ribes and chrf
    assert len(base["samples"]["chrf"]) == len(base["samples"]["bleu"]) == len(base["samples"]["index"]) == 30
    for row in result["distance_breakdown"]:
        assert set(row["random_baseline"]["chrf"]) == set(base["chrf"])
    assert set(result["spearman"]) == {"bleu", "ribes", "chrf"}


def test_several_references(corpus):
    rows = corpus["rows"]
    hyp = [corpus["hyp"][i] for i in rows]
    refs = [[corpus["ref"][i], corpus["ref_b"][i]] for i in rows]
    result = compute(hyp, refs)
    assert result["bleu"] == sacrebleu.corpus_bleu(hyp, [list(x) for x in zip(*refs)]).score
    tok = [[TOK(r) for r in rr] for rr in refs]
    assert result["ribes"] == pytest.approx(corpus_ribes([TOK(h) for h in hyp], tok), rel=1e-14)
    assert result["signature"].startswith("nrefs:2|")
    assert result["chrf"] == sacrebleu.corpus_chrf(hyp, [list(x) for x in zip(*refs)]).score
    assert result["chrf_signature"].startswith("nrefs:2|")
    assert result["random_baseline"] is None and result["distance_breakdown"] is None


def test_every_sampled_corpus_equals_corpus_bleu(corpus):
    result = _call(corpus, n_samples=40, return_samples=True)
    samples = result["random_baseline"]["samples"]
    hyp, ref = corpus["hyp"], corpus["ref"]
    assert len(samples["index"]) == 40
    for index, bleu, ribes, chrf in zip(samples["index"], samples["bleu"], samples["ribes"], samples["chrf"]):
        assert bleu == sacrebleu.corpus_bleu([hyp[i] for i in index], [[ref[i] for i in index]]).score
        assert chrf == sacrebleu.corpus_chrf([hyp[i] for i in index], [[ref[i] for i in index]]).score
        expected = corpus_ribes([TOK(hyp[i]) for i in index], [[TOK(ref[i])] for i in index])
        assert ribes == pytest.approx(expected, rel=1e-12)
    # length-matched, and never a challenge sentence (excluded by identical pairs here)
    index = np.asarray(samples["index"])
    lengths = np.asarray(corpus["lengths"])
    challenge = lengths[corpus["rows"]]
    assert np.abs(lengths[index] - challenge).max() <= 1
    assert not np.isin(index, corpus["rows"]).any()
    base = result["random_baseline"]
    assert base["bleu"]["mean"] == pytest.approx(np.mean(samples["bleu"]))
    at_or_below = sum(b <= result["bleu"] for b in samples["bleu"])
    assert base["bleu"]["p_value"] == (1 + at_or_below) / 41
    assert base["n_samples"] == 40 and base["length_tolerance"] == 1


def test_same_seed_same_numbers(corpus):
    a = _call(corpus, distances=corpus["distances"])
    b = _call(corpus, distances=corpus["distances"])
    c = _call(corpus, seed=4)
    assert a == b
    assert a["random_baseline"]["bleu"] != c["random_baseline"]["bleu"]


def test_exclusion_by_ids(corpus):
    rows = corpus["rows"]
    result = _call(corpus, ids=[corpus["ids"][i] for i in rows], pool_ids=corpus["ids"], return_samples=True)
    assert not np.isin(np.asarray(result["random_baseline"]["samples"]["index"]), rows).any()
    assert result["random_baseline"]["pool_size"] == len(corpus["hyp"]) - len(rows)
    kept = _call(corpus, exclude_challenge=False)
    assert kept["random_baseline"]["pool_size"] == len(corpus["hyp"])


def test_distance_breakdown_and_spearman(corpus):
    rows, dist = corpus["rows"], corpus["distances"]
    result = _call(corpus, distances=dist)
    breakdown = result["distance_breakdown"]
    assert [r["min_distance"] for r in breakdown] == sorted(set(dist))
    for row in breakdown:
        keep = [i for i, d in zip(rows, dist) if d >= row["min_distance"]]
        assert row["n"] == len(keep)
        assert row["bleu"] == sacrebleu.corpus_bleu([corpus["hyp"][i] for i in keep],
                                                    [[corpus["ref"][i] for i in keep]]).score
        assert row["chrf"] == sacrebleu.corpus_chrf([corpus["hyp"][i] for i in keep],
                                                    [[corpus["ref"][i] for i in keep]]).score
        assert set(row["random_baseline"]) == {"bleu", "ribes", "chrf", "widened"}
    rho, p = spearmanr([r["min_distance"] for r in breakdown], [r["bleu"] for r in breakdown])
    assert result["spearman"]["bleu"]["rho"] == pytest.approx(rho)
    assert result["spearman"]["bleu"]["p"] == pytest.approx(p)
    assert breakdown[0]["bleu"] == result["bleu"]  # D = min(distance) keeps every row
    assert breakdown[0]["chrf"] == result["chrf"]
    # explicit D values, one beyond every row
    explicit = compute([corpus["hyp"][i] for i in rows], [corpus["ref"][i] for i in rows], distances=dist,
                       min_distances=[2, 99])
    assert [r["min_distance"] for r in explicit["distance_breakdown"]] == [2, 99]
    assert explicit["distance_breakdown"][1] == {"min_distance": 99, "n": 0, "bleu": None, "ribes": None,
                                                 "chrf": None}


def test_rows_in_blocks_on_the_engines_workers_score_as_one_pass(corpus, monkeypatch):
    """Above PARALLEL_ROWS the kernel gives the engine's workers one block of rows each (three here,
    uneven): every number is the one of a single pass, the random baseline's and the breakdown's too."""
    from auto_challenge_sets.evaluation import request
    from auto_challenge_sets.scoring import kernel

    both = list(zip(corpus["ref"], corpus["ref_b"]))
    kwargs = {"references": [both[i] for i in corpus["rows"]], "pool_references": both,
              "distances": corpus["distances"], "metrics": ["ter"], "return_samples": True}
    one = _call(corpus, **kwargs)
    monkeypatch.setattr(kernel, "PARALLEL_ROWS", 100)
    monkeypatch.setattr(request, "cores", lambda: 3)
    blocks = []
    real = kernel.imap
    monkeypatch.setattr(kernel, "imap", lambda function, items, jobs: real(
        function, [blocks.append(jobs) or item for item in items], jobs))
    assert _call(corpus, **kwargs) == one and blocks == [3, 3, 3]


def test_challenge_rows_not_in_the_pool_are_scored(corpus):
    result = _call(corpus, predictions=["a new sentence"] * len(corpus["rows"]))
    assert result["bleu"] == sacrebleu.corpus_bleu(["a new sentence"] * len(corpus["rows"]),
                                                   [[corpus["ref"][i] for i in corpus["rows"]]]).score
    assert result["chrf"] == sacrebleu.corpus_chrf(["a new sentence"] * len(corpus["rows"]),
                                                   [[corpus["ref"][i] for i in corpus["rows"]]]).score
    # some rows from the pool, some not: both parts of the chrF matrix are the right rows
    mixed = [corpus["hyp"][i] if k % 2 else "a new sentence" for k, i in enumerate(corpus["rows"])]
    result = _call(corpus, predictions=mixed)
    assert result["chrf"] == sacrebleu.corpus_chrf(mixed, [[corpus["ref"][i] for i in corpus["rows"]]]).score


# -- small, self-contained cases -------------------------------------------------------------


def test_empty_strings_are_scored():
    result = compute(["", "the cat sat"], ["a b", "the cat sat"])
    assert result["ribes"] == 0.5  # (0 + 1) / 2
    assert result["bleu"] == sacrebleu.corpus_bleu(["", "the cat sat"], [["a b", "the cat sat"]]).score
    assert result["chrf"] == sacrebleu.corpus_chrf(["", "the cat sat"], [["a b", "the cat sat"]]).score


def test_widening_is_reported():
    preds = ["a b c d e f g h i j k l"]
    pool = ["x y", "y z", "z x"]
    result = compute(preds, preds, lengths=[12], pool_predictions=pool, pool_references=pool,
                     pool_lengths=[2, 2, 3], n_samples=5, seed=0)
    assert result["random_baseline"]["widened"] == 1
    assert result["random_baseline"]["max_tolerance"] == 9


def test_length_relative_widens_each_rows_window_and_is_reported():
    """A row of 12 words with ``length_relative=1.0`` may be matched by any pool row within
    max(1, 12 * 1.0) = 12 words: the pool's 2- and 3-word rows need no widening (at the default
    0.05 they do, above)."""
    preds = ["a b c d e f g h i j k l"]
    pool = ["x y", "y z", "z x"]
    result = compute(preds, preds, lengths=[12], pool_predictions=pool, pool_references=pool, pool_lengths=[2, 2, 3],
                     n_samples=5, seed=0, length_relative=1.0)
    baseline = result["random_baseline"]
    assert baseline["widened"] == 0 and baseline["max_tolerance"] == 12
    assert baseline["length_relative"] == 1.0 and baseline["signature"] == "random[n:5|tol:1|rel:1|seed:0]"


GOOD = {"predictions": ["a b", "c d"], "references": ["a b", "c d"]}


@pytest.mark.parametrize(
    "change,argument",
    [
        ({"predictions": ["a b"]}, "references"),  # count mismatch names the longer list
        ({"predictions": [], "references": []}, "predictions"),
        ({"predictions": None}, "predictions"),
        ({"references": None}, "references"),
        ({"predictions": "a b"}, "predictions"),
        ({"predictions": ["a b", 3]}, r"predictions\[1\]"),
        ({"predictions": ["a b", None]}, r"predictions\[1\]"),
        ({"references": ["a b", None]}, r"references\[1\]"),
        ({"references": [["a b"], []]}, r"references\[1\]"),
        ({"references": [["a b"], ["x", 5]]}, r"references\[1\]\[1\]"),
        ({"distances": [1]}, "distances"),
        ({"distances": [1, "2"]}, r"distances\[1\]"),
        ({"lengths": [1, 2.5]}, r"lengths\[1\]"),
        ({"pool_predictions": ["a"], "pool_references": ["a"], "pool_lengths": [1]}, "lengths"),
        ({"pool_predictions": ["a"], "pool_references": ["a"], "lengths": [1, 1]}, "pool_lengths"),
        ({"pool_predictions": ["a"], "pool_references": ["a", "b"], "pool_lengths": [1], "lengths": [1, 1]},
         "pool_references"),
        ({"pool_predictions": [], "pool_references": [], "pool_lengths": [], "lengths": [1, 1]},
         "pool_predictions"),
        ({"n_samples": 0}, "n_samples"),
        ({"length_tolerance": -1}, "length_tolerance"),
        ({"seed": "x"}, "seed"),
        ({"tokenize": "nope"}, "tokenize"),
        ({"ids": ["1"]}, "ids"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_argument(change, argument):
    with pytest.raises(ValueError, match=argument):
        compute(**{**GOOD, **change})


def test_pool_of_only_challenge_sentences_is_an_error():
    with pytest.raises(ValueError, match="pool_predictions"):
        compute(["a"], ["a"], lengths=[1], pool_predictions=["a"], pool_references=["a"], pool_lengths=[1])


def test_ids_without_pool_ids_is_an_error():
    with pytest.raises(ValueError, match="ids is given but pool_ids is None"):
        compute(predictions=["a b"], references=["a b"], lengths=[2], ids=[1],
                pool_predictions=["a b", "c d"], pool_references=["a b", "c d"], pool_lengths=[2, 2])
    with pytest.raises(ValueError, match="pool_ids is given but ids is None"):
        compute(predictions=["a b"], references=["a b"], lengths=[2], pool_ids=[1, 2],
                pool_predictions=["a b", "c d"], pool_references=["a b", "c d"], pool_lengths=[2, 2])


# -- hostile input: every bad argument is a ValueError naming it -------------------------------

POOL = {"pool_predictions": ["a b", "c d", "e f"], "pool_references": ["a b", "c d", "e f"],
        "pool_lengths": [2, 2, 2], "lengths": [2, 2]}
LIST_ARGUMENTS = ["predictions", "references", "lengths", "distances", "pool_predictions", "pool_references",
                  "pool_lengths", "ids", "pool_ids", "min_distances"]


def _with(**change) -> dict:
    """GOOD with a pool, distances and ids, then ``change``."""
    return {**GOOD, **POOL, "distances": [1, 2], "min_distances": [1], "ids": [1, 2], "pool_ids": [3, 4, 5],
            "n_samples": 3, "seed": 0, **change}


def test_the_call_the_hostile_cases_start_from_is_valid():
    result = compute(**_with())
    assert result["random_baseline"]["n_samples"] == 3 and len(result["distance_breakdown"]) == 1


@pytest.mark.parametrize("argument", LIST_ARGUMENTS)
@pytest.mark.parametrize("value", ["a b", "", b"a b", {"a b"}, {"a": "b"}, np.array("a b")])
def test_a_string_where_a_list_is_expected_is_refused(argument, value):
    with pytest.raises(ValueError, match=rf"^{argument} must be a list"):
        compute(**_with(**{argument: value}))


@pytest.mark.parametrize(
    "change,argument",
    [
        ({"predictions": [None, "a"]}, r"predictions\[0\] is NoneType"),
        ({"references": [["a", None], "b"]}, r"references\[0\]\[1\] is NoneType"),
        ({"lengths": [None, 2]}, r"lengths\[0\] is NoneType"),
        ({"distances": [1, None]}, r"distances\[1\] is NoneType"),
        ({"ids": [None, 2]}, r"ids\[0\] is NoneType"),
        ({"pool_ids": [3, None, 5]}, r"pool_ids\[1\] is NoneType"),
        ({"pool_predictions": ["a", None, "c"]}, r"pool_predictions\[1\] is NoneType"),
        ({"pool_lengths": [2, 2, None]}, r"pool_lengths\[2\] is NoneType"),
        ({"min_distances": [None]}, r"min_distances\[0\]"),
        ({"pool_ids": [3, 4]}, "pool_ids has 2 items"),
        ({"pool_ids": [3, None, 5], "exclude_challenge": False}, r"pool_ids\[1\]"),  # checked even if unused
    ],
)
def test_none_items_are_refused_by_name_and_index(change, argument):
    with pytest.raises(ValueError, match=argument):
        compute(**_with(**change))


@pytest.mark.parametrize("argument", ["lengths", "distances", "pool_lengths"])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 2.5, 2.0, np.float64(2.0), True,
                                 -1, 2**31, 10**30, "2"])
def test_bad_numbers_in_integer_lists_are_refused_by_name_and_index(argument, bad):
    values = list(_with()[argument])
    values[-1] = bad
    with pytest.raises(ValueError, match=rf"{argument}\[{len(values) - 1}\]"):
        compute(**_with(**{argument: values}))


def test_integer_arrays_of_any_width_are_accepted_and_checked():
    assert compute(**_with(lengths=np.array([2, 2], dtype=np.uint8)))["n"] == 2
    with pytest.raises(ValueError, match=r"lengths\[0\] is float"):
        compute(**_with(lengths=np.array([np.nan, 2.0])))
    with pytest.raises(ValueError, match=r"lengths\[1\] is 18446744073709551615"):
        compute(**_with(lengths=np.array([2, 2**64 - 1], dtype=np.uint64)))


@pytest.mark.parametrize(
    "change,message",
    [
        ({"n_samples": 10**9}, r"n_samples is 1000000000, above the limit of 100_000"),
        ({"n_samples": 100_000, "predictions": ["a"] * 2000, "references": ["a"] * 2000, "lengths": [1] * 2000,
          "distances": None, "min_distances": None, "ids": None, "pool_ids": None},
         r"n_samples is too large for 2000 challenge rows: .* limit of 134_217_728"),
        ({"n_samples": 10**5, "return_samples": True, "predictions": ["a"] * 170, "references": ["a"] * 170,
          "lengths": [1] * 170, "distances": None, "min_distances": None, "ids": None, "pool_ids": None},
         r"n_samples .* 16_777_216 sampled rows with return_samples=True"),
        ({"n_samples": -1}, "n_samples"), ({"n_samples": True}, "n_samples"), ({"n_samples": 2.0}, "n_samples"),
        ({"n_samples": "3"}, "n_samples"), ({"n_samples": None}, "n_samples"),
        ({"length_tolerance": True}, "length_tolerance"), ({"length_tolerance": 1.0}, "length_tolerance"),
        ({"length_tolerance": 2**31}, "length_tolerance"), ({"length_tolerance": None}, "length_tolerance"),
        ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"), ({"seed": True}, "seed"), ({"seed": [1]}, "seed"),
        ({"min_distances": [1.5]}, r"min_distances\[0\]"), ({"min_distances": [1, -1]}, r"min_distances\[1\]"),
        ({"min_distances": [True]}, r"min_distances\[0\]"), ({"min_distances": [2**31]}, r"min_distances\[0\]"),
        ({"min_distances": [1], "distances": None}, "min_distances given without distances"),
        ({"tokenize": "nope"}, "tokenize"), ({"tokenize": ["13a"]}, "tokenize"), ({"tokenize": None}, "tokenize"),
        ({"lowercase_ribes": "no"}, "lowercase_ribes"), ({"exclude_challenge": None}, "exclude_challenge"),
        ({"return_samples": 1}, "return_samples"),
    ],
)
def test_bad_settings_are_refused_by_name(change, message):
    with pytest.raises(ValueError, match=message):
        compute(**_with(**change))


def test_sizes_within_the_limits_are_accepted():
    check_sample_size(2**27 // 4, 4, return_samples=False)  # exactly at the limits
    check_sample_size(2**24 // 4, 4, return_samples=True)
    with pytest.raises(ValueError, match="use at most 33554432 samples"):
        check_sample_size(2**27 // 4 + 1, 4, return_samples=False)
    assert compute(**GOOD, n_samples=10**5)["n"] == 2  # no pool: nothing is sampled, only the cap applies
    assert compute(**{**GOOD, "lengths": [2**31 - 1, 0]})["n"] == 2


def test_a_pool_length_far_from_every_challenge_length_is_quick():
    result = compute(["a b"], ["a b"], lengths=[0], pool_predictions=["x"], pool_references=["x"],
                     pool_lengths=[2**31 - 1], n_samples=2, seed=0, length_tolerance=2**31 - 1)
    assert result["random_baseline"]["widened"] == 0
    far = compute(["a b"], ["a b"], lengths=[0], pool_predictions=["x"], pool_references=["x"],
                  pool_lengths=[10**9], n_samples=2, seed=0)
    assert far["random_baseline"]["widened"] == 1 and far["random_baseline"]["max_tolerance"] == 10**9


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"predictions": "a b", "references": ["a b"] * 3}, "predictions must be a list"),
        ({"predictions": ["a b"], "references": "a b"}, "references must be a list"),
        ({"predictions": [None], "references": ["a"]}, r"predictions\[0\]"),
        ({"predictions": ["a"], "references": ["a"], "tokenize": ["13a"]}, "tokenize"),
        ({"predictions": ["a"], "references": ["a"], "lowercase_ribes": "yes"}, "lowercase_ribes"),
    ],
)
def test_compute_without_a_pool_refuses_bad_input_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compute(**kwargs)


def test_a_breakdown_row_holding_every_row_reuses_the_sets_own_baseline(corpus):
    """One set, one random baseline: its d-row equal to the whole set never gets a second draw."""
    result = _call(corpus, distances=corpus["distances"], min_distances=[0, 2])
    whole, partial = result["distance_breakdown"]
    assert whole["n"] == len(corpus["rows"]) and partial["n"] < whole["n"]
    for metric in ("bleu", "chrf", "ribes"):
        assert whole["random_baseline"][metric] == result["random_baseline"][metric]
    assert partial["random_baseline"]["bleu"] != result["random_baseline"]["bleu"]
