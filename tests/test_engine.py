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
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.human import read_human
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.scoring import metric as metric_registry
from auto_challenge_sets.scoring import validation
from auto_challenge_sets.scoring.challenge import compute
from auto_challenge_sets.scoring.length_baseline import sample_length_matched
from auto_challenge_sets.scoring.metric import AveragedMetric

from mutation_scope import per_test_under_mutmut
from toy_dataset import HUMAN, SPLIT, N, make

METRICS = ("bleu", "chrf", "ribes", "ter")
SACREBLEU = {"bleu": sacrebleu.corpus_bleu, "chrf": sacrebleu.corpus_chrf, "ter": sacrebleu.corpus_ter}


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> dict:
    return make(tmp_path_factory.mktemp("toy"))


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


def test_the_metric_modules_compute_gives_the_same_random_baseline(toy, run):
    config, system = "de-en.particle.d1", "worse"
    lines = toy["configs"][config]
    c = toy["corpus"]
    direct = compute([c["outputs"][system][n - 1] for n in lines], [c["refs"][n - 1] for n in lines],
                     lengths=[len(c["sources"][n - 1]) for n in lines], ids=[f"{SPLIT}:{n}" for n in lines],
                     pool_predictions=c["outputs"][system], pool_references=c["refs"],
                     pool_lengths=[len(s) for s in c["sources"]], pool_ids=[f"{SPLIT}:{n}" for n in range(1, N + 1)],
                     n_samples=40, seed=3)
    ours = run["evaluation"].configs[config].systems[system].scores
    for metric in ("bleu", "chrf", "ribes"):
        assert ours[metric].score == direct[metric]
        assert ours[metric].random.mean == pytest.approx(direct["random_baseline"][metric]["mean"], abs=1e-12)
        assert ours[metric].random.p_value == direct["random_baseline"][metric]["p_value"]


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
    # a degenerate baseline: the other 90 - n rows are fewer than the config's n (d0: 77, d1: 61)
    assert [n for n, c in configs.items() if c.degenerate_baseline] == ["de-en.particle.d0", "de-en.particle.d1"]
    usable = [name for name, c in configs.items() if c.phenomenon == "de-en.particle" and c.n >= 20
              and c.same_rows_as is None and 90 - c.n >= c.n]
    assert usable == ["de-en.particle.d2", "de-en.particle.d3"]
    for metric in METRICS:
        for system in evaluation.systems:  # two usable configs: every trend is n/a, never "not worsening"
            trend = evaluation.trends[metric]["de-en.particle"][system]
            assert trend.n == 2 and trend.spearman is None and trend.p_value is None
        summary = evaluation.summary[metric]["de-en.particle"]
        cells = [(s, configs[n].systems[s].scores[metric]) for n in usable for s in evaluation.systems]
        lower_is_better = metric == "ter"
        worse = (lambda a, b: a > b) if lower_is_better else (lambda a, b: a < b)
        assert summary.cells == len(cells) == 10 and summary.systems == 5
        assert summary.worse_than_full == sum(worse(e.score, evaluation.full[s][metric]) for s, e in cells) / 10
        assert summary.worse_than_random_mean == sum(worse(e.score, e.random.mean) for _, e in cells) / 10
        band = [e.score > e.random.p95 if lower_is_better else e.score < e.random.p5 for _, e in cells]
        assert summary.worse_than_random_p5 == sum(band) / 10
        assert summary.mean_delta_random == pytest.approx(np.mean([e.score - e.random.mean for _, e in cells]))
        assert summary.worsening_trend is None and summary.trends == 0
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
    assert document["schema"] == "acs-evaluation/2"
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
    ("n_samples", 0, "from 1 to"), ("n_samples", 10**9, "from 1 to"), ("paired_samples", 0, "from 1 to"),
    ("min_rows", -1, ">= 0"), ("length_tolerance", -1, ">= 0"), ("paired_test", "xx", "ar or bs"),
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
    monkeypatch.setattr(validation, "MAX_SAMPLED", 1000)  # the limit, not the code: 40 x 61 rows is over it
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


class _SourceLengthRatio(AveragedMetric):
    """A plug-in metric that reads the sources, as COMET does: output words per source word."""

    name = "srcratio"
    label = "src ratio"
    needs_sources = True
    parallel_safe = False

    def sentence_scores(self, hypotheses, references, sources=None):
        return [len(h.split()) / len(s.split()) for h, s in zip(hypotheses, sources, strict=True)]

    def signature(self, nrefs: int) -> str:
        return "srcratio"


def test_a_metric_that_reads_sources_gets_each_lines_source(toy, monkeypatch):
    monkeypatch.setitem(metric_registry._REGISTRY, _SourceLengthRatio.name, _SourceLengthRatio)
    config = "de-en.particle.d3"
    evaluation = evaluate(EvaluationRequest(toy["root"], toy["hyps"], config=config, metrics=("srcratio", "bleu"),
                                            n_samples=5, paired_samples=20))
    sources = [" ".join(words) for words in toy["corpus"]["sources"]]
    for system, outputs in toy["corpus"]["outputs"].items():
        ratios = [len(o.split()) / len(s.split()) for o, s in zip(outputs, sources)]
        assert evaluation.full[system]["srcratio"] == pytest.approx(np.mean(ratios), abs=1e-12)
        on_config = [ratios[n - 1] for n in toy["configs"][config]]
        assert evaluation.configs[config].systems[system].scores["srcratio"].score == pytest.approx(np.mean(on_config))
