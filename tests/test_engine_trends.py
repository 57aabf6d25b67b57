"""The engine's trends over D, its summary flags and its paired tests with several references, on
a hand-made folder built to tell a right answer from the plausible wrong ones: systems that
clearly worsen or improve with D, nested configs above and below ``min_rows``, and a second
reference that changes the scores. Every expected number comes from sacrebleu or scipy on the
rows, computed here; seconds, no shared data."""

from __future__ import annotations

import random

import numpy as np
import pytest
import sacrebleu
from scipy.stats import spearmanr

from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.request import EvaluationRequest

from mutation_scope import per_test_under_mutmut
from toy_dataset import WORDS, write_folder, write_outputs

N = 200
# line k (1-based) has distance _DISTANCE[k % 25]: 120 lines without the phenomenon, then the
# nested configs d1 ⊃ … ⊃ d6 hold 80, 64, 48, 32, 16 and 8 rows (d5 and d6 under min_rows 20)
_DISTANCE = [-1] * 15 + [1, 1, 2, 2, 3, 3, 4, 4, 5, 6]
# system -> share of reference words kept on a line of distance d: two worsen with D, one improves
KEEP = {"decays": lambda d: 0.95 - 0.13 * d, "slides": lambda d: 0.8 - 0.06 * d,
        "improves": lambda d: 0.35 + 0.1 * d, "flat": lambda d: 0.63}
TREND_CONFIGS = [f"de-en.particle.d{d}" for d in (1, 2, 3, 4)]  # d5, d6: small


def _corpus() -> dict:
    rng = random.Random(11)
    sources, refs, distances = [], [], []
    for line in range(1, N + 1):
        source = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        sources.append(source)
        refs.append(" ".join(rng.choice(WORDS) for _ in range(len(source) + 1)).capitalize() + ".")
        distances.append(_DISTANCE[line % 25])
    outputs = {}
    for k, (name, keep) in enumerate(KEEP.items()):
        rng = random.Random(300 + k)
        outputs[name] = [" ".join(w if rng.random() < keep(max(d, 0)) else rng.choice(WORDS) for w in ref[:-1].split())
                         .capitalize() + "." for ref, d in zip(refs, distances)]
    return {"sources": sources, "refs": refs, "distances": distances, "outputs": outputs}


def _configs(c: dict) -> dict[str, list[int]]:
    lines = range(1, N + 1)
    return {"de-en.baseline": list(lines),
            **{f"de-en.particle.d{d}": [n for n in lines if c["distances"][n - 1] >= d] for d in range(1, 7)}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("trends")
    c = _corpus()
    configs = _configs(c)
    root = write_folder(tmp / "ldd", c, configs)
    return {"root": root, "hyps": write_outputs(tmp, c), "corpus": c, "configs": configs, "tmp": tmp}


@pytest.fixture(scope=per_test_under_mutmut)
def evaluation(folder):
    return evaluate(EvaluationRequest(folder["root"], folder["hyps"], metrics=("bleu", "ter"), n_samples=30,
                                      paired_samples=20))


def _score(folder, metric: str, config: str, system: str) -> float:
    lines, c = folder["configs"][config], folder["corpus"]
    scorer = sacrebleu.corpus_bleu if metric == "bleu" else sacrebleu.corpus_ter
    return scorer([c["outputs"][system][n - 1] for n in lines], [[c["refs"][n - 1] for n in lines]]).score


def test_the_fixture_has_the_sizes_it_claims(folder, evaluation):
    sizes = {name: len(lines) for name, lines in folder["configs"].items()}
    assert [sizes[f"de-en.particle.d{d}"] for d in range(1, 7)] == [80, 64, 48, 32, 16, 8]
    flagged = {name for name, config in evaluation.configs.items() if config.small}
    assert flagged == {"de-en.particle.d5", "de-en.particle.d6"}


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_trends_are_spearman_over_the_configs_with_enough_rows(folder, evaluation, metric):
    """One Spearman per system over D = 1..4; the small d5 and d6 stay out of it."""
    ds = [1, 2, 3, 4]
    for system in KEEP:
        scores = [_score(folder, metric, config, system) for config in TREND_CONFIGS]
        trend = evaluation.trends[metric]["de-en.particle"][system]
        assert trend.n == 4, system
        assert trend.spearman == pytest.approx(spearmanr(ds, scores).statistic), system
        assert trend.p_value == pytest.approx(spearmanr(ds, scores).pvalue), system


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_the_worsening_trends_are_counted_in_the_metrics_direction(folder, evaluation, metric):
    """Lower BLEU and higher TER with D are worsening: the two decaying systems, never the improving one."""
    rhos = {s: spearmanr([1, 2, 3, 4], [_score(folder, metric, c, s) for c in TREND_CONFIGS]).statistic for s in KEEP}
    worse = {s for s, rho in rhos.items() if (rho < 0 if metric == "bleu" else rho > 0)}
    better = {s for s, rho in rhos.items() if (rho > 0 if metric == "bleu" else rho < 0)}
    assert {"decays", "slides"} <= worse and "improves" in better and len(worse) != len(better)
    assert evaluation.summary[metric]["de-en.particle"].worsening_trend == len(worse)


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_the_summary_counts_scores_beyond_the_random_band_on_the_worse_side(folder, evaluation, metric):
    """"< random p5": below the 5th percentile for BLEU, above the 95th for TER, over the cells of
    d1..d4; this fixture's counts differ from the other percentile's, so a swapped band shows."""
    cells = [evaluation.configs[c].systems[s].scores[metric] for c in TREND_CONFIGS for s in KEEP]
    for config in TREND_CONFIGS:
        for system in KEEP:
            assert evaluation.configs[config].systems[system].scores[metric].score == _score(folder, metric, config, system)
    if metric == "bleu":
        band, other = [e.score < e.random.p5 for e in cells], [e.score < e.random.p95 for e in cells]
    else:
        band, other = [e.score > e.random.p95 for e in cells], [e.score > e.random.p5 for e in cells]
    assert sum(band) != sum(other)
    summary = evaluation.summary[metric]["de-en.particle"]
    assert summary.cells == 16 and summary.worse_than_random_p5 == sum(band) / 16


@pytest.mark.parametrize("test_type", ["ar", "bs"])
def test_paired_tests_use_every_reference(folder, tmp_path, test_type):
    """With a second reference (here: one system's own output), sacrebleu's paired test on both
    reference streams; one stream alone gives other deltas, so a dropped reference shows."""
    from sacrebleu.significance import PairedTest

    c, config = folder["corpus"], "de-en.particle.d2"
    second = tmp_path / "ref2.en"
    second.write_text("\n".join(c["outputs"]["improves"]) + "\n", encoding="utf-8")
    request = EvaluationRequest(folder["root"], folder["hyps"], config=config, references=(second,), metrics=("bleu",),
                                baseline="flat", n_samples=5, paired_test=test_type, paired_samples=60)
    result = evaluate(request).configs[config].systems
    lines = folder["configs"][config]
    order = ["flat", *[s for s in KEEP if s != "flat"]]
    named = [(s, [c["outputs"][s][n - 1] for n in lines]) for s in order]
    streams = [[c["refs"][n - 1] for n in lines], [c["outputs"]["improves"][n - 1] for n in lines]]

    def sacrebleus(references):
        _, scores = PairedTest(named, {"BLEU": sacrebleu.BLEU()}, references, test_type=test_type, n_samples=60)()
        return scores["BLEU"]

    both, first = sacrebleus(streams), sacrebleus(streams[:1])
    for index, system in enumerate(order[1:], start=1):
        test = result[system].scores["bleu"].vs_baseline
        assert test.delta == pytest.approx(both[index].score - both[0].score), system
        assert test.p_value == both[index].p_value, system
    k = order.index("improves")
    assert not np.isclose(both[k].score - both[0].score, first[k].score - first[0].score)


# trends and summaries over hand-made configs: every case the toy folders cannot reach (ties, two
# distinct scores, a ρ of exactly 0), with the expected numbers from scipy and counts written here

_HAND = {"tie": [2.0, 1.0, 2.0], "up": [1.0, 2.0, 3.0], "upish": [1.0, 3.0, 2.0], "down": [3.0, 2.0, 1.0],
         "flat": [5.0, 5.0, 5.0]}  # system -> score on d1, d2, d3: ρ 0, 1, 0.5, −1 and none


def _hand_configs(metric: str = "bleu"):
    from auto_challenge_sets.evaluation.results import ConfigResult, MetricScore, RandomBaseline, SystemResult

    def config(d, scores, **flags):
        systems = {s: SystemResult({metric: MetricScore(v, RandomBaseline(mean=2.0, std=1.0, p5=1.5, p95=2.5,
                                                                       percentile=50.0, p_value=0.5))})
                   for s, v in scores.items()}
        return ConfigResult(n=30, phenomenon="de-en.particle", min_distance=d, small=flags.get("small", False),
                            same_rows_as=flags.get("same", None), widened=0, systems=systems,
                            degenerate_baseline=flags.get("degenerate", False))

    configs = {f"de-en.particle.d{d}": config(d, {s: v[d - 1] for s, v in _HAND.items()}) for d in (1, 2, 3)}
    far = {s: 100.0 for s in _HAND}  # a score that would turn every trend, were it counted
    configs.update({"de-en.particle.d4": config(4, far, small=True),
                    "de-en.particle.d5": config(5, far, same="de-en.particle.d3"),
                    "de-en.particle.d6": config(6, far, degenerate=True),
                    "de-en.particle": config(None, far),
                    "de-en.reorder.d2": config(2, far, small=True)})
    return configs


def test_trends_over_hand_made_configs_count_only_usable_ones_with_scipys_rho():
    from auto_challenge_sets.evaluation.engine import _trends

    trends = _trends(_hand_configs(), list(_HAND), "bleu")
    assert list(trends) == ["de-en.particle"] and list(trends["de-en.particle"]) == list(_HAND)
    for system, scores in _HAND.items():
        trend = trends["de-en.particle"][system]
        assert trend.n == 3 and trend.p_corrected is None
        if system == "flat":
            assert trend.spearman is None and trend.p_value is None
            continue
        expected = spearmanr([1, 2, 3], scores)
        assert (trend.spearman, trend.p_value) == (pytest.approx(expected.statistic), pytest.approx(expected.pvalue))
    assert trends["de-en.particle"]["tie"].spearman == 0.0 and trends["de-en.particle"]["upish"].spearman == 0.5


@pytest.mark.parametrize("metric,worsening", [("bleu", 1), ("ter", 2)])
def test_a_summary_over_hand_made_configs_counts_by_hand(metric, worsening):
    """BLEU: only "down" worsens (ρ −1); TER: "up" and "upish" (ρ 1, 0.5); a ρ of 0 never does."""
    from auto_challenge_sets.evaluation.engine import _summary, _trends
    from auto_challenge_sets.scoring.metrics import create_metric

    configs = _hand_configs(metric)
    full = {s: {metric: 2.0} for s in _HAND}
    summary = _summary(configs, full, create_metric(metric), _trends(configs, list(_HAND), metric))
    assert list(summary) == ["de-en.particle"]
    found = summary["de-en.particle"]
    cells = [v for values in _HAND.values() for v in values]  # 15 cells, full and random mean 2, band 1.5..2.5
    lower = sum(v < 2.0 for v in cells)   # 1.0 x 4 -> 4
    higher = sum(v > 2.0 for v in cells)  # 3.0 x 3, 5.0 x 3 -> 6
    assert (lower, higher) == (4, 6)
    worse = lower if metric == "bleu" else higher
    assert (found.cells, found.systems, found.trends, found.worsening_trend) == (15, 5, 4, worsening)
    assert found.worse_than_full == worse / 15 and found.worse_than_random_mean == worse / 15
    assert found.worse_than_random_p5 == (sum(v < 1.5 for v in cells) if metric == "bleu"
                                          else sum(v > 2.5 for v in cells)) / 15
    assert found.mean_delta_random == pytest.approx(sum(v - 2.0 for v in cells) / 15)
    # no trend computed for the phenomenon (none in the mapping): "n/a", never "none worsening"
    untrended = _summary(configs, full, create_metric(metric), {})["de-en.particle"]
    assert (untrended.cells, untrended.trends, untrended.worsening_trend) == (15, 0, None)
