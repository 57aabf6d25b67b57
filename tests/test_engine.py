"""The evaluation engine (evaluation/engine.py) on the hand-made toy folder: every expected number
comes from sacrebleu, scipy or a count over the rows, computed here; seconds, no shared data."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyarrow.parquet as pq
import pytest
import sacrebleu
from scipy.stats import kendalltau, permutation_test, spearmanr

from auto_challenge_sets.errors import InputError, RequestError
from auto_challenge_sets.evaluation import memory
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.metrics.compute import compute
from auto_challenge_sets.scoring import metrics as metric_registry
from auto_challenge_sets.scoring.length_baseline import sample_length_matched
from auto_challenge_sets.scoring.metrics import AveragedMetric

from mutation_scope import per_test_under_mutmut
from source_metric import SourceLengthRatio
from toy_dataset import HUMAN, SPLIT, N

METRICS = ("bleu", "chrf", "ribes", "ter")
SACREBLEU = {"bleu": sacrebleu.corpus_bleu, "chrf": sacrebleu.corpus_chrf, "ter": sacrebleu.corpus_ter}


@pytest.fixture(scope=per_test_under_mutmut)
def run(toy) -> dict:
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=METRICS, n_samples=40, seed=3,
                                paired_samples=200)
    human = read_human(toy["human"], list(toy["hyps"]))
    return {"request": request, "evaluation": evaluate(request, human), "human": human}


def _cell(toy, config: str, system: str) -> tuple[list[str], list[str]]:
    lines = toy["configs"][config]
    return ([toy["corpus"]["outputs"][system][n - 1] for n in lines], [toy["corpus"]["refs"][n - 1] for n in lines])


def test_every_cell_equals_sacrebleu_on_the_configs_rows(toy, run):
    evaluation = run["evaluation"]
    assert set(evaluation.configs) == set(toy["configs"]) - {"de-en.baseline"}
    for config, result in evaluation.configs.items():
        assert result.n == len(toy["configs"][config])
        for system in toy["hyps"]:
            preds, refs = _cell(toy, config, system)
            for metric, corpus_score in SACREBLEU.items():
                assert result.systems[system].scores[metric].score == corpus_score(preds, [refs]).score, (config, metric)
    for system in toy["hyps"]:
        preds = toy["corpus"]["outputs"][system]
        assert evaluation.full[system]["ter"] == sacrebleu.corpus_ter(preds, [toy["corpus"]["refs"]]).score


def _drawn(toy, config: str) -> np.ndarray:
    """The random corpora of a config (pool rows), as the engine draws them: stream [seed, 0], the
    config's rows left out of the pool."""
    lines = toy["configs"][config]
    lengths = [len(s) for s in toy["corpus"]["sources"]]
    exclude = np.zeros(N, dtype=bool)
    exclude[[n - 1 for n in lines]] = True
    return sample_length_matched([lengths[n - 1] for n in lines], lengths, 40, 1, exclude,
                                 np.random.default_rng([3, 0])).index


def test_the_random_baseline_is_sacrebleu_over_the_drawn_corpora(toy, run):
    """The draws of stream [seed, 0], scored by sacrebleu corpus by corpus; percentile and p-value
    counted by hand: worse means lower for BLEU and higher for TER."""
    config, system = "de-en.particle.d2", "good"
    index = _drawn(toy, config)
    preds, refs = toy["corpus"]["outputs"][system], toy["corpus"]["refs"]
    result = run["evaluation"].configs[config].systems[system].scores
    for metric, worse in (("bleu", np.less_equal), ("ter", np.greater_equal)):
        drawn = np.array([SACREBLEU[metric]([preds[i] for i in row], [[refs[i] for i in row]]).score for row in index])
        random, score = result[metric].random, result[metric].score
        assert random.mean == pytest.approx(drawn.mean(), abs=1e-9)
        assert random.p5 == pytest.approx(np.percentile(drawn, 5), abs=1e-9)
        assert random.p95 == pytest.approx(np.percentile(drawn, 95), abs=1e-9)
        at_or_worse = int(worse(drawn, score).sum())
        assert random.percentile == pytest.approx(100 * at_or_worse / 40)
        assert random.p_value == pytest.approx((1 + at_or_worse) / 41)


def test_one_system_gets_the_numbers_it_gets_among_many(toy, run):
    one = evaluate(EvaluationRequest(toy["root"], {"good": toy["hyps"]["good"]}, metrics=METRICS, n_samples=40, seed=3,
                                     paired_samples=200))
    assert one.systems == ("good",) and one.baseline_system == "good"
    for config, result in one.configs.items():
        many = run["evaluation"].configs[config].systems["good"].scores
        for metric, score in result.systems["good"].scores.items():
            assert score.score == many[metric].score and score.random == many[metric].random
            assert score.vs_baseline is None


def test_evaluate_load_gives_the_engines_numbers_and_signatures(toy, run, monkeypatch, tmp_path):
    """One kernel: ``evaluate.load("ldd_challenge")`` on one system's rows of a config, with the
    full corpus as its pool, gives acs evaluate's scores, random baselines and signatures, to the
    last bit, for BLEU, chrF, RIBES and TER."""
    import auto_challenge_sets

    for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
        monkeypatch.setenv(variable, "1")
    monkeypatch.setenv("HF_MODULES_CACHE", str(tmp_path / "modules"))
    ldd = auto_challenge_sets.load_metric()
    c = toy["corpus"]
    for config, system in (("de-en.particle.d1", "worse"), ("de-en.particle.d2", "good")):
        lines = toy["configs"][config]
        direct = ldd.compute(
            predictions=[c["outputs"][system][n - 1] for n in lines], references=[c["refs"][n - 1] for n in lines],
            lengths=[len(c["sources"][n - 1]) for n in lines], ids=[f"{SPLIT}:{n}" for n in lines],
            pool_predictions=c["outputs"][system], pool_references=c["refs"],
            pool_lengths=[len(s) for s in c["sources"]], pool_ids=[f"{SPLIT}:{n}" for n in range(1, N + 1)],
            n_samples=40, seed=3, metrics=["ter"])
        ours = run["evaluation"].configs[config].systems[system].scores
        assert set(ours) == {"bleu", "chrf", "ribes", "ter"}
        for metric, score in ours.items():
            assert score.score == direct[metric], (config, metric)
            spread = direct["random_baseline"][metric]
            assert score.random == replace(score.random, **{k: spread[k] for k in ("mean", "std", "p5", "p95",
                                                                                   "percentile", "p_value")})
            label = metric_registry.metric_class(metric).label
            key = "signature" if metric == "bleu" else f"{metric}_signature"
            assert f"{label}[{direct[key]}]" in run["evaluation"].signature.split("+"), metric
        assert direct["random_baseline"]["widened"] == run["evaluation"].configs[config].widened


def test_paired_tests_equal_sacrebleus_and_an_independent_randomization(toy, run):
    from sacrebleu.significance import PairedTest

    evaluation, config = run["evaluation"], "de-en.particle.d1"
    baseline = evaluation.baseline_system
    assert baseline == max(evaluation.systems, key=lambda s: evaluation.full[s]["bleu"]) == "ref"
    order = [baseline, *[s for s in evaluation.systems if s != baseline]]
    named = [(s, _cell(toy, config, s)[0]) for s in order]
    refs = _cell(toy, config, baseline)[1]
    _, scores = PairedTest(named, {"BLEU": sacrebleu.BLEU(), "chrF2": sacrebleu.CHRF(), "TER": sacrebleu.TER()},
                           [refs], test_type="ar", n_samples=200)()
    entry = evaluation.configs[config].systems
    for index, system in enumerate(order[1:], start=1):
        for metric, key in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
            test = entry[system].scores[metric].vs_baseline
            assert test.p_value == scores[key][index].p_value
            assert test.delta == pytest.approx(scores[key][index].score - scores[key][0].score)
    assert all(score.vs_baseline is None for score in entry[baseline].scores.values())
    # RIBES, a mean of sentence scores, through the adapter: the same trials as sacrebleu draws
    # (seed 12345, one coin per row and trial), the statistic |mean a − mean b| counted by hand
    ribes = {s: np.array([compute([p], [r])["ribes"] for p, r in zip(_cell(toy, config, s)[0], refs)]) for s in order}
    rng = np.random.default_rng(12345)
    coins = rng.integers(2, size=(200, len(refs)), dtype=bool)
    for system in order[1:]:
        a, b = ribes[baseline], ribes[system]
        real = abs(a.mean() - b.mean())
        swapped = np.abs(np.where(coins, a, b).sum(1) / len(refs) - np.where(coins, b, a).sum(1) / len(refs))
        expected = (int((swapped > real).sum()) + 1) / 201
        assert entry[system].scores["ribes"].vs_baseline.p_value == pytest.approx(expected)


def test_flags_trends_and_summary_counted_by_hand(toy, run):
    evaluation = run["evaluation"]
    configs = evaluation.configs
    assert configs["de-en.reorder.d5"].small and configs["de-en.reorder.d5"].n == 12
    assert configs["de-en.particle.d5"].same_rows_as == "de-en.particle.d4"
    assert configs["de-en.particle.d4"].same_rows_as is None
    # matched: the rows of d0 (77 of 90) that the other 13 cannot match draw from the whole corpus
    assert not any(c.degenerate_baseline for c in configs.values()) and configs["de-en.particle.d0"].shared > 0
    usable = [name for name, c in configs.items() if c.phenomenon == "de-en.particle" and c.n >= 20
              and c.same_rows_as is None]
    assert usable == ["de-en.particle.d0", "de-en.particle.d1", "de-en.particle.d2", "de-en.particle.d3"]
    for metric in METRICS:
        computed = []
        for system in evaluation.systems:  # four usable configs: a trend wherever the scores vary
            trend = evaluation.trends[metric]["de-en.particle"][system]
            scores = [configs[n].systems[system].scores[metric].score for n in usable]
            assert trend.n == 4
            if len(set(scores)) == 1:
                assert trend.spearman is None
            else:
                assert trend.spearman == pytest.approx(spearmanr(range(4), scores).statistic)
                computed.append(trend.spearman)
        summary = evaluation.summary[metric]["de-en.particle"]
        cells = [(s, configs[n].systems[s].scores[metric]) for n in usable for s in evaluation.systems]
        lower_is_better = metric == "ter"
        worse = (lambda a, b: a > b) if lower_is_better else (lambda a, b: a < b)
        assert summary.cells == len(cells) == 20 and summary.systems == 5
        assert summary.worse_than_full == sum(worse(e.score, evaluation.full[s][metric]) for s, e in cells) / 20
        assert summary.worse_than_random_mean == sum(worse(e.score, e.random.mean) for _, e in cells) / 20
        band = [e.score > e.random.p95 if lower_is_better else e.score < e.random.p5 for _, e in cells]
        assert summary.worse_than_random_p5 == sum(band) / 20
        assert summary.mean_delta_random == pytest.approx(np.mean([e.score - e.random.mean for _, e in cells]))
        assert summary.trends == len(computed) and summary.worsening_trend == sum(
            (t > 0) if lower_is_better else (t < 0) for t in computed)
    assert "de-en.reorder" not in evaluation.trends["bleu"]  # its only config is small


def test_human_correlations_equal_scipy_with_lower_is_better_turned(toy, run):
    evaluation, human = run["evaluation"], run["human"]
    assert human.scores == HUMAN and not human.unmatched_systems  # "ref.0" matched without its run number
    systems = list(HUMAN)
    ys = [HUMAN[s] for s in systems]
    for metric in METRICS:
        sign = -1 if metric == "ter" else 1
        xs = [sign * evaluation.full[s][metric] for s in systems]
        full = evaluation.human_full[metric]
        assert full.kendall == pytest.approx(kendalltau(xs, ys).statistic)
        assert full.p_value == pytest.approx(kendalltau(xs, ys).pvalue)
        assert full.spearman == pytest.approx(spearmanr(xs, ys).statistic)
        # 5 systems: the exact permutation p over all 5! orders (human.SMALL_N), not the t-approximation
        exact = permutation_test((xs,), lambda a: spearmanr(a, ys).statistic, permutation_type="pairings",
                                 vectorized=False, n_resamples=np.inf).pvalue
        assert full.spearman_p == pytest.approx(exact)
    config = evaluation.configs["de-en.particle.d1"]
    xs = [config.systems[s].scores["bleu"].score for s in systems]
    bleu = config.human["bleu"]
    assert bleu.kendall == pytest.approx(kendalltau(xs, ys).statistic)
    # the 95% bootstrap interval over systems (stream [seed, 2]), recomputed here
    rng = np.random.default_rng([3, 2])
    taus = []
    for _ in range(1000):
        pick = rng.integers(0, 5, 5)
        if len(set(pick.tolist())) > 2:
            tau = kendalltau(np.array(xs)[pick], np.array(ys)[pick]).statistic
            if np.isfinite(tau):
                taus.append(tau)
    assert bleu.ci == (np.percentile(taus, 2.5), np.percentile(taus, 97.5))  # scipy's τ, bit for bit


def test_the_random_kendall_control_counts_random_taus_at_or_below(toy, run):
    """Each random corpus of the config ranks the systems: τ per corpus from sacrebleu's BLEU of
    every system on it; the config's percentile is the share of those τ at or below its own."""
    evaluation, config = run["evaluation"], "de-en.particle.d2"
    index = _drawn(toy, config)
    systems, refs = list(HUMAN), toy["corpus"]["refs"]
    bleu = np.array([[sacrebleu.corpus_bleu([toy["corpus"]["outputs"][s][i] for i in row], [[refs[i] for i in row]]).score
                      for row in index] for s in systems])
    taus = np.array([kendalltau(bleu[:, k], [HUMAN[s] for s in systems]).statistic for k in range(len(index))])
    taus = taus[np.isfinite(taus)]
    human = evaluation.configs[config].human["bleu"]
    assert human.random_kendall_percentile == 100 * np.count_nonzero(taus <= human.kendall) / len(taus)
    assert human.random_kendall_mean == pytest.approx(taus.mean())


def test_results_validate_and_the_long_table_holds_the_same_numbers(toy, run):
    import json

    import jsonschema

    from auto_challenge_sets.evaluation.results import SCHEMA_PATH

    evaluation = run["evaluation"]
    document = json.loads(json.dumps(evaluation.to_json()))
    jsonschema.validate(document, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")),
                        cls=jsonschema.Draft202012Validator)
    assert document["schema"] == "acs-evaluation/4"
    table = evaluation.to_pandas()
    assert len(table) == 5 * 4 + len(evaluation.configs) * 5 * 4
    for row in table.itertuples():
        if row.config == "de-en.baseline":
            assert row.score == evaluation.full[row.system][row.metric]
            continue
        score = evaluation.configs[row.config].systems[row.system].scores[row.metric]
        assert (row.score, row.random_mean, row.random_p5) == (score.score, score.random.mean, score.random.p5)
        test = score.vs_baseline
        assert (np.isnan(row.paired_p_value) if test is None else row.paired_p_value == test.p_value)
        assert document["configs"][row.config]["systems"][row.system]["scores"][row.metric]["score"] == row.score


@pytest.fixture(params=[1, 3], ids=["one system", "three systems"])
def systems(request, toy) -> dict:
    return dict(list(toy["hyps"].items())[: request.param])


def _bad_folder(toy, tmp_path, config: str, line: int):
    """A copy of the toy folder whose config has ``line`` as its first row's line."""
    import shutil

    root = tmp_path / "bad"
    shutil.copytree(toy["root"], root)
    path = root / "data" / config / f"{SPLIT}-00000-of-00001.parquet"
    table = pq.read_table(path).to_pydict()
    table["line"][0] = line
    import pyarrow as pa

    pq.write_table(pa.Table.from_pydict(table, schema=pq.read_schema(path)), path)
    return root, path


@pytest.mark.parametrize("config", ["de-en.baseline", "de-en.particle.d1"])
@pytest.mark.parametrize("line", [0, N + 1])
def test_a_row_outside_the_corpus_lines_is_an_error_for_every_n(toy, tmp_path, systems, config, line):
    root, path = _bad_folder(toy, tmp_path, config, line)
    with pytest.raises(InputError, match=rf"has line {line}, outside the corpus's lines 1\.\.{N}") as error:
        evaluate(EvaluationRequest(root, systems, n_samples=5))
    assert error.value.path == str(path)


def test_a_named_config_without_the_split_is_an_error_for_every_n(toy, tmp_path, systems):
    import shutil

    root = tmp_path / "two"
    shutil.copytree(toy["root"], root)
    other = root / "data" / "de-en.baseline" / "other-00000-of-00001.parquet"
    shutil.copy(root / "data" / "de-en.baseline" / f"{SPLIT}-00000-of-00001.parquet", other)
    card = (root / "README.md").read_text(encoding="utf-8").replace(
        f"  - split: {SPLIT}\n    path: data/de-en.baseline/{SPLIT}-*",
        f"  - split: {SPLIT}\n    path: data/de-en.baseline/{SPLIT}-*\n  - split: other\n    path: data/de-en.baseline/other-*")
    (root / "README.md").write_text(card, encoding="utf-8")
    with pytest.raises(InputError, match="config 'de-en.particle.d1' has no split 'other'"):
        evaluate(EvaluationRequest(root, systems, config="de-en.particle.d1", split="other", n_samples=5))
    # with `all`, the configs without rows in the split are skipped, and a note says which
    with pytest.raises(InputError, match="none of the chosen configs has rows in split 'other'"):
        evaluate(EvaluationRequest(root, systems, split="other", n_samples=5))
    with pytest.raises(InputError, match=f"has splits other, {SPLIT}; choose one: split$") as error:
        evaluate(EvaluationRequest(root, systems, n_samples=5))
    assert error.value.field == "split"  # the command line names it --split


@pytest.mark.parametrize("config", [" , ", "", ","])
def test_a_blank_config_list_is_a_request_error(toy, systems, config):
    with pytest.raises(RequestError, match="is empty: give a name") as error:
        EvaluationRequest(toy["root"], systems, config=config)
    assert error.value.field == "config"


@pytest.mark.parametrize("field,value,message", [
    ("n_samples", 0, "from 1 to"), ("n_samples", 10**9, "above the limit of 100_000"), ("paired_samples", 0, "from 1 to"),
    ("min_rows", -1, ">= 0"), ("length_tolerance", -1, "from 0 to 2,147,483,647"), ("paired_test", "xx", "ar or bs"),
    ("metrics", ("bleu", "bleu"), "twice"), ("metrics", ("nope",), "unknown metric 'nope'"),
    ("baseline", "nobody", "none of the systems"), ("seed", True, "integer"),
])
def test_bad_request_fields_are_named(toy, systems, field, value, message):
    with pytest.raises(RequestError, match=message) as error:
        EvaluationRequest(toy["root"], systems, **{field: value})
    assert error.value.field == field


def test_the_request_is_immutable(toy):
    request = EvaluationRequest(toy["root"], toy["hyps"])
    with pytest.raises(AttributeError):
        request.n_samples = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        request.hypotheses["x"] = "y"  # type: ignore[index]
    assert replace(request, n_samples=7).n_samples == 7


def test_the_memory_guard_holds_for_every_n(toy, systems, monkeypatch):
    monkeypatch.setattr(memory, "MAX_SAMPLED", 1000)  # the limit, not the code: 40 x 61 rows is over it
    rows = len(toy["configs"]["de-en.particle.d1"])
    with pytest.raises(InputError, match=f"n_samples is too large for {rows} challenge rows"):
        evaluate(EvaluationRequest(toy["root"], systems, config="de-en.particle.d1", n_samples=40))


def test_a_system_output_of_the_wrong_length_names_its_file(toy, tmp_path, systems):
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"short\.en: \(short\) has 1 lines but the corpus of de-en\.baseline"):
        evaluate(EvaluationRequest(toy["root"], {**systems, "short": short}, n_samples=5))


def test_human_scores_for_fewer_than_three_systems_are_a_note(toy, tmp_path):
    one = {"good": toy["hyps"]["good"]}
    human = read_human(toy["human"], list(one))
    evaluation = evaluate(EvaluationRequest(toy["root"], one, config="de-en.particle.d1", n_samples=5), human)
    assert evaluation.human_full == {"bleu": None, "chrf": None, "ribes": None}
    assert any("a correlation needs at least 3" in note for note in evaluation.notes)


def test_only_ter_ranks_by_its_own_direction(toy):
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d0", metrics=("ter",),
                                            n_samples=5, paired_samples=20))
    assert evaluation.baseline_system == min(evaluation.systems, key=lambda s: evaluation.full[s]["ter"]) == "ref"
    assert evaluation.higher_is_better == {"ter": False}


def test_worker_processes_give_the_same_results(toy, run):
    """--jobs: the systems' statistics on two worker processes, the very same document."""
    request = replace(run["request"], jobs=2)
    assert evaluate(request, run["human"]).to_json() == run["evaluation"].to_json()


def test_a_metric_that_reads_sources_gets_each_lines_source(toy, monkeypatch):
    monkeypatch.setitem(metric_registry._REGISTRY, SourceLengthRatio.name, SourceLengthRatio)
    config = "de-en.particle.d3"
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config=config, metrics=("srcratio", "bleu"),
                                            n_samples=5, paired_samples=20))
    sources = [" ".join(words) for words in toy["corpus"]["sources"]]
    for system, outputs in toy["corpus"]["outputs"].items():
        ratios = [len(o.split()) / len(s.split()) for o, s in zip(outputs, sources)]
        assert evaluation.full[system]["srcratio"] == pytest.approx(np.mean(ratios), abs=1e-12)
        on_config = [ratios[n - 1] for n in toy["configs"][config]]
        assert evaluation.configs[config].systems[system].scores["srcratio"].score == pytest.approx(np.mean(on_config))


def test_the_evaluation_names_its_run_settings_and_signature(toy, run):
    """The run's own fields, written out: every metric's sacrebleu-style signature (nrefs 1),
    the random corpora's and the paired test's settings; no human gaps, notes or extras."""
    evaluation, version = run["evaluation"], sacrebleu.__version__
    assert evaluation.signature == "+".join([
        f"BLEU[nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{version}]",
        f"chrF[nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{version}]",
        "RIBES[nrefs:1|case:lc|tok:13a|alpha:0.25|beta:0.1|version:ntt-1.03.1]",
        f"TER[nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{version}]",
        "random[n:40|tol:1|rel:0.02|seed:3]", "paired[ar:200|seed:sacrebleu]"])
    assert (evaluation.dataset, evaluation.pair, evaluation.split) == (str(toy["root"]), "de-en", SPLIT)
    assert (evaluation.full_corpus_config, evaluation.full_corpus_rows) == ("de-en.baseline", N)
    assert evaluation.systems == tuple(toy["hyps"]) and evaluation.metrics == METRICS
    assert evaluation.higher_is_better == {"bleu": True, "chrf": True, "ribes": True, "ter": False}
    settings = evaluation.settings
    assert (settings.n_samples, settings.length_tolerance, settings.seed, settings.paired_test,
            settings.paired_samples, settings.min_rows, settings.length_relative) == (40, 1, 3, "ar", 200, 20, 0.02)
    assert settings.metric_options == {"bleu": {"tokenize": "13a"}, "chrf": {}, "ribes": {"tokenize": "13a",
                                       "lowercase_ribes": True}, "ter": {}}
    assert evaluation.human_unmatched == {"table": (), "systems": ()}
    assert evaluation.notes == () and evaluation.targeted is None and evaluation.segment_full is None
    assert evaluation.verdicts is None
    assert all(c.segment is None and c.segment_targeted is None and c.human_targeted is None
               for c in evaluation.configs.values())
    assert all(r.targeted is None for c in evaluation.configs.values() for r in c.systems.values())


def test_a_named_baseline_and_the_bootstrap_test_are_what_the_run_uses(toy):
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d3", metrics=("bleu",),
                                            baseline="good", n_samples=5, paired_test="bs", paired_samples=20,
                                            length_tolerance=2, seed=9, min_rows=7))
    assert evaluation.baseline_system == "good"
    systems = evaluation.configs["de-en.particle.d3"].systems
    assert systems["good"].scores["bleu"].vs_baseline is None
    for system in ("ref", "better", "lower", "worse"):
        test = systems[system].scores["bleu"].vs_baseline
        assert test.delta == pytest.approx(systems[system].scores["bleu"].score - systems["good"].scores["bleu"].score)
    assert evaluation.signature.endswith("+random[n:5|tol:2|rel:0.02|seed:9]+paired[bs:20|seed:sacrebleu]")
    assert (evaluation.settings.paired_test, evaluation.settings.min_rows, evaluation.settings.seed) == ("bs", 7, 9)
    assert evaluation.human_full is None and evaluation.human_unmatched is None  # no human scores given
    assert evaluation.configs["de-en.particle.d3"].human is None


@pytest.mark.parametrize("count", [2, 3])
def test_human_scores_for_three_systems_need_no_note(toy, count):
    hyps = dict(list(toy["hyps"].items())[:count])
    human = read_human(toy["human"], list(hyps))
    evaluation = evaluate(EvaluationRequest(toy["root"], hyps, config="de-en.particle.d3", metrics=("bleu",),
                                            n_samples=5, paired_samples=20), human)
    expected = () if count == 3 else ("human scores match 2 system(s): a correlation needs at least 3",)
    assert evaluation.notes == expected
    assert evaluation.human_unmatched == {"table": ("good.2", "lower.3", "worse.4")[count - 2:], "systems": ()}


def test_segment_notes_name_the_systems_without_scores_and_the_scores_without_a_system(toy, tmp_path):
    from auto_challenge_sets.evaluation.stats.segments import read_human_seg

    seg = tmp_path / "seg.txt"
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{system}.{k} {line} 70 {0.1 * k + 0.01 * (line % 7)} 1"
                                          for k, system in enumerate(("ref", "better", "good")) for line in range(1, N + 1)]
    seg.write_text("\n".join([*rows, "HUMAN.0 1 80 0.5 1", "Other.1 2 60 0.1 1"]) + "\n", encoding="utf-8")
    systems = list(toy["hyps"])
    bom = tmp_path / "bom.en"  # a note of the reading policy comes first, and stays
    bom.write_bytes(b"\xef\xbb\xbf" + toy["hyps"]["good"].read_bytes())
    evaluation = evaluate(EvaluationRequest(toy["root"], {**toy["hyps"], "good": bom}, config="de-en.particle.d3",
                                            metrics=("bleu",), n_samples=5, paired_samples=20),
                          human_seg=read_human_seg(seg, systems))
    assert evaluation.notes == (f"{bom}: dropped a UTF-8 byte-order mark",
                                "segment scores of systems not evaluated: HUMAN.0, Other.1",
                                "systems without segment scores: lower, worse")
    lines = toy["configs"]["de-en.particle.d3"]
    found = evaluation.configs["de-en.particle.d3"].segment["bleu"]
    assert found.segments == 3 * len(lines)
    assert evaluation.segment_full["bleu"].segments == 3 * N


def test_the_stages_show_their_bars_with_their_units_on_a_terminal(toy, monkeypatch):
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for jobs in (1, 2):
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d3", metrics=("bleu",),
                                   n_samples=5, paired_samples=20, jobs=jobs), progress=True)
        shown = terminal.getvalue()
        # tqdm's first line of each bar: the stage, its total and its unit
        assert "\rstatistics per system:   0%|          | 0/5 [00:00<?, ? system/s]" in shown, shown
        assert "\rconfigs (random baseline, paired tests):   0%|          | 0/1 [00:00<?, ? config/s]" in shown, shown
        assert shown.count("| 0/5 [") == 1, shown  # on workers, the systems are not gone over a second time
        monkeypatch.setattr(sys, "stderr", pipe := io.StringIO())
        evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d3", metrics=("bleu",),
                                   n_samples=5, paired_samples=20, jobs=jobs))
        assert pipe.getvalue() == ""


class _Refusing(AveragedMetric):
    """A plug-in metric whose constructor refuses the run's options with a ValueError."""

    name = "refusing"
    label = "refusing"
    error: Exception = ValueError("no such option")

    def __init__(self, **options) -> None:
        raise self.error

    def sentence_scores(self, hypotheses, references, sources=None):  # pragma: no cover - never built
        return []

    def signature(self, nrefs: int) -> str:  # pragma: no cover
        return "refusing"


@pytest.mark.parametrize("refusal,field", [(ValueError("no such option"), "metrics"),
                                           (RequestError("tokenize", "no such option"), "tokenize")])
def test_a_metric_that_refuses_its_options_names_the_field_its_error_carries(toy, monkeypatch, refusal, field):
    """A RequestError keeps its field; a bare ValueError blames the metric. The message is never searched."""
    monkeypatch.setitem(metric_registry._REGISTRY, _Refusing.name, _Refusing)
    monkeypatch.setattr(_Refusing, "error", refusal)
    message = "no such option"
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu", "refusing"), n_samples=5)
    with pytest.raises(RequestError) as error:
        evaluate(request)
    assert (error.value.field, error.value.detail, str(error.value)) == (field, message, f"{field}: {message}")


def test_an_unknown_tokenizer_is_named_by_the_field_that_gave_it(toy):
    expected = "unknown sacrebleu tokenizer 'zzz'; one of " + str(sorted(sacrebleu.BLEU.TOKENIZERS))
    with pytest.raises(RequestError) as error:
        evaluate(EvaluationRequest(toy["root"], toy["hyps"], metric_options={"tokenize": "zzz"}, n_samples=5))
    assert (error.value.field, error.value.detail) == ("metric_options", f"tokenize=zzz: {expected}")
    assert str(error.value) == f"metric_options: tokenize=zzz: {expected}"


def test_the_random_kendall_control_turns_ter_like_its_score(toy, run):
    """TER, lower is better: the config's τ and every random corpus's τ are of −TER with the human
    scores, so a TER that ranks as humans do sits high among its random corpora, as BLEU does."""
    evaluation, config = run["evaluation"], "de-en.particle.d3"
    index = _drawn(toy, config)
    systems, refs, ys = list(HUMAN), toy["corpus"]["refs"], list(HUMAN.values())
    ter = np.array([[sacrebleu.corpus_ter([toy["corpus"]["outputs"][s][i] for i in row], [[refs[i] for i in row]]).score
                     for row in index] for s in systems])
    taus = np.array([kendalltau(-ter[:, k], ys).statistic for k in range(len(index))])
    taus = taus[np.isfinite(taus)]
    human = evaluation.configs[config].human["ter"]
    own = [-evaluation.configs[config].systems[s].scores["ter"].score for s in systems]
    assert human.kendall == pytest.approx(kendalltau(own, ys).statistic) and human.kendall > 0
    assert human.random_kendall_percentile == 100 * np.count_nonzero(taus <= human.kendall) / len(taus)
    assert human.random_kendall_mean == pytest.approx(taus.mean())
    assert human.systems == 5 and evaluation.configs[config].human_targeted is None


def test_targeted_accuracy_ranks_the_systems_against_humans_with_the_runs_seed(toy):
    """The targeted τ of a lexical config: scipy's over the systems' accuracies, its bootstrap
    interval drawn from stream [seed, 2] of the run's seed (6, not the default), its control among
    the random-pair draws; a config without targeted accuracy has none."""
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest

    human = read_human(toy["human"], list(toy["hyps"]))
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d2,de-en.reorder.d5",
                                            metrics=("bleu",), n_samples=5, paired_samples=20, seed=6,
                                            targeted=TargetedRequest("present")), human)
    config = evaluation.configs["de-en.particle.d2"]
    systems = list(HUMAN)
    xs = [config.systems[s].targeted.accuracy for s in systems]
    ys = [HUMAN[s] for s in systems]
    found = config.human_targeted
    assert found.systems == 5 and found.kendall == pytest.approx(kendalltau(xs, ys).statistic)
    assert found.spearman == pytest.approx(spearmanr(xs, ys).statistic)
    assert found.ci == _bootstrap_ci(xs, ys, 6) and found.ci != _bootstrap_ci(xs, ys, 1)  # (0.14, 1) vs (0, 1)
    assert 0 <= found.random_kendall_percentile <= 100 and found.random_kendall_mean is not None
    assert evaluation.targeted.signature.endswith("|seed:6")  # the random pairs are drawn from the run's seed
    other = evaluation.configs["de-en.reorder.d5"]
    assert other.human_targeted is None and other.human["bleu"] is not None
    assert all(r.targeted is None for r in other.systems.values())


def test_what_the_reading_policy_did_to_an_output_is_a_note(toy, tmp_path):
    crlf = tmp_path / "crlf.en"
    crlf.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(toy["corpus"]["outputs"]["good"]).encode("utf-8") + b"\r\n")
    evaluation = evaluate(EvaluationRequest(toy["root"], {"good": crlf, "ref": toy["hyps"]["ref"]},
                                            config="de-en.particle.d3", metrics=("bleu",), n_samples=5,
                                            paired_samples=20))
    assert evaluation.notes == (f"{crlf}: dropped a UTF-8 byte-order mark", f"{crlf}: read {N} CRLF line ends as LF")
    preds, refs = _cell(toy, "de-en.particle.d3", "good")
    assert evaluation.configs["de-en.particle.d3"].systems["good"].scores["bleu"].score == \
        sacrebleu.corpus_bleu(preds, [refs]).score


def _bootstrap_ci(xs, ys, seed):
    """The 95% interval of Kendall's τ over systems drawn from stream [seed, 2], as the engine does."""
    rng = np.random.default_rng([seed, 2])
    taus = []
    for _ in range(1000):
        pick = rng.integers(0, len(xs), len(xs))
        if len(set(pick.tolist())) > 2:
            tau = kendalltau(np.array(xs)[pick], np.array(ys)[pick]).statistic
            if np.isfinite(tau):
                taus.append(tau)
    return np.percentile(taus, 2.5), np.percentile(taus, 97.5)


def test_the_full_corpus_interval_is_drawn_from_the_runs_seed(toy, tmp_path):
    """Human scores that rank the systems otherwise than BLEU and TER do, so that the interval
    depends on the draws: stream [seed, 2] of the run's seed (5, not the default 1)."""
    shuffled = {"ref": 0.2, "better": 1.0, "good": -0.4, "lower": 0.45, "worse": 0.05}
    table = tmp_path / "human.txt"
    table.write_text("SYS Z.SCR N\n" + "".join(f"{s} {z} 10\n" for s, z in shuffled.items()), encoding="utf-8")
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d3",
                                            metrics=("bleu", "ter"), n_samples=5, paired_samples=20, seed=5),
                          read_human(table, list(toy["hyps"])))
    ys = list(shuffled.values())
    for metric in ("ter", "bleu"):
        xs = [(-1 if metric == "ter" else 1) * evaluation.full[s][metric] for s in shuffled]
        found = evaluation.human_full[metric]
        assert found.kendall == pytest.approx(kendalltau(xs, ys).statistic)
        assert found.ci == _bootstrap_ci(xs, ys, 5)
    assert found.ci != pytest.approx(_bootstrap_ci(xs, ys, 1))  # BLEU's: -0.71 here, -0.5 from seed 1
    config = evaluation.configs["de-en.particle.d3"]  # each config's interval: the same stream of the run's seed
    for metric in ("ter", "bleu"):
        xs = [(-1 if metric == "ter" else 1) * config.systems[s].scores[metric].score for s in shuffled]
        assert config.human[metric].ci == _bootstrap_ci(xs, ys, 5) != _bootstrap_ci(xs, ys, 1)


class _WrongLength(AveragedMetric):
    """A plug-in metric that returns one score too few: its statistics are refused."""

    name = "wronglength"
    label = "wrong length"

    def sentence_scores(self, hypotheses, references, sources=None):
        return [1.0] * (len(hypotheses) - 1)

    def signature(self, nrefs: int) -> str:
        return "wronglength"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_metric_that_fails_on_the_outputs_names_the_full_corpus_file(toy, monkeypatch, jobs):
    monkeypatch.setitem(metric_registry._REGISTRY, _WrongLength.name, _WrongLength)
    with pytest.raises(InputError) as error:
        evaluate(EvaluationRequest(toy["root"], toy["hyps"], config="de-en.particle.d3", metrics=("wronglength",),
                                   n_samples=5, jobs=jobs))
    path = toy["root"] / "data" / "de-en.baseline" / f"{SPLIT}-00000-of-00001.parquet"
    assert error.value.path == str(path)
    assert str(error.value) == f"{path}: metric wronglength: sentence_scores returned shape ({N - 1},) for {N} sentences"
