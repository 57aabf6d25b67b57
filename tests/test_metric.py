"""The metric interface and registry (scoring/metrics/__init__.py) and the built-in entries
(scoring/metrics/{bleu,chrf,ter,ribes}.py): sacrebleu's numbers, the averaged kind, and a metric from another
package, defined in one file and registered through the entry point, reported everywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy.stats import kendalltau

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.options import Option
from auto_challenge_sets.scoring.metrics import (
    _REGISTRY,
    AveragedMetric,
    Metric,
    PairedTestAdapter,
    create_metric,
    metric_class,
    metric_names,
    option_lines,
    register_metric,
    route_options,
)

from toy_dataset import HUMAN, make

HYPS = ["the cat sat on the mat .", "a dog ran", "He gave the plan up .", "", "quickly slowly up"]
REFS = [("the cat sat on a mat .",), ("the dog ran away",), ("He gave up the plan .",), ("empty",), ("slowly up",)]


def test_the_built_ins_are_registered_with_their_direction():
    assert metric_names()[:4] == ["bleu", "chrf", "ter", "ribes"]
    assert [metric_class(n).higher_is_better for n in ("bleu", "chrf", "ter", "ribes")] == [True, True, False, True]
    with pytest.raises(ValueError, match="unknown metric 'nope' .known: bleu, chrf, ter, ribes"):
        metric_class("nope")


@pytest.mark.parametrize("name,corpus_score", [("bleu", sacrebleu.corpus_bleu), ("chrf", sacrebleu.corpus_chrf),
                                              ("ter", sacrebleu.corpus_ter)])
def test_sacrebleu_metrics_equal_sacrebleu_on_any_subset(name, corpus_score):
    metric = create_metric(name)
    stats = metric.statistics(HYPS, REFS)
    assert metric.corpus_score(stats) == corpus_score(HYPS, [[r[0] for r in REFS]]).score
    index = np.array([[0, 2, 2, 4], [1, 3, 0, 0]])
    for row, score in zip(index, metric.sample_scores(stats, index)):
        assert score == corpus_score([HYPS[i] for i in row], [[REFS[i][0] for i in row]]).score
    assert metric.signature(1).startswith("nrefs:1|")


def test_ter_with_two_references_equals_sacrebleu():
    refs = [(r[0], h or "x") for r, h in zip(REFS, HYPS)]
    metric = create_metric("ter")
    streams = [[r[0] for r in refs], [r[1] for r in refs]]
    assert metric.corpus_score(metric.statistics(HYPS, refs)) == sacrebleu.corpus_ter(HYPS, streams).score


def test_ribes_is_a_mean_of_sentence_scores_and_its_paired_statistics_sum_to_it():
    metric = create_metric("ribes", lowercase_ribes=False)
    scores = metric.statistics(HYPS, REFS)
    assert scores.shape == (5,) and metric.corpus_score(scores) == pytest.approx(scores.mean())
    assert metric.score_of_totals(metric.paired_statistics(scores).sum(axis=0)) == pytest.approx(scores.mean())
    assert "case:mixed" in metric.signature(1)


def test_the_adapter_gives_sacrebleus_paired_test_what_it_reads():
    adapter = PairedTestAdapter(create_metric("ribes"))
    stats = adapter._extract_corpus_statistics(HYPS, [[r[0] for r in REFS]])
    assert stats.shape == (5, 2) and (stats[:, 1] == 1).all()
    assert adapter._aggregate_and_compute(stats).score == pytest.approx(stats[:, 0].mean())
    known = [HYPS[0]]
    adapter.known[id(known)] = np.array([[0.25, 1.0]])
    assert adapter._extract_corpus_statistics(known, [["x"]]).tolist() == [[0.25, 1.0]]


def test_registering_checks_the_class():
    with pytest.raises(ValueError, match="lower-case name"):
        register_metric(type("Bad", (AveragedMetric,), {"name": "Bad"}))
    for name in ("a/../b", "..", "a,b", "é", "x" * 65, "1st", " bleu", "a.b"):  # each would reach a file name
        with pytest.raises(ValueError, match=r"lower-case name: ASCII letters, digits, _ and -"):
            register_metric(type("Bad", (AveragedMetric,), {"name": name}))
    with pytest.raises(TypeError, match="subclass"):
        register_metric(type("Plain", (), {"name": "plain"}))  # type: ignore[arg-type]
    assert issubclass(metric_class("bleu"), Metric)


PLUGIN = '''\
"""A sentence-level metric in one file: the share of reference words the output has."""
import numpy as np
from auto_challenge_sets.scoring.metrics import AveragedMetric


class WordRecall(AveragedMetric):
    name, label, digits = "recall", "Recall", 3

    def sentence_scores(self, hypotheses, references, sources=None):
        return np.array([len(set(h.split()) & set(r[0].split())) / max(1, len(set(r[0].split())))
                         for h, r in zip(hypotheses, references)])

    def signature(self, nrefs):
        return f"recall|nrefs:{nrefs}"
'''


def _plugin(tmp_path: Path, entry: str = "recall = toy_recall:WordRecall") -> Path:
    """``toy_recall.py`` and the metadata an installed distribution has (its entry point)."""
    site = tmp_path / "site"
    (site / "toy_recall-0.1.dist-info").mkdir(parents=True)
    (site / "toy_recall.py").write_text(PLUGIN, encoding="utf-8")
    (site / "toy_recall-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-recall\nVersion: 0.1\n")
    (site / "toy_recall-0.1.dist-info" / "entry_points.txt").write_text(
        f"[auto_challenge_sets.metrics]\n{entry}\n", encoding="utf-8")
    return site


def _acs(site: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *argv], capture_output=True, text=True,
                          env=env, timeout=600)


def test_a_plugin_metric_is_reported_everywhere(tmp_path):
    toy = make(tmp_path / "toy")
    site = _plugin(tmp_path)
    out = tmp_path / "report"
    run = _acs(site, "evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d0,de-en.particle.d1,"
               "de-en.particle.d2", "--hyp", *(f"{n}={p}" for n, p in toy["hyps"].items()), "--metrics", "bleu,recall",
               "--human", str(toy["human"]), "--n-samples", "10", "--paired-samples", "50", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert ", Recall: best " in run.stdout and "Recall < random p5" in run.stdout  # the --out summary (the findings)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "ΔRecall (p)" in (out / "tables.recall.md").read_text(encoding="utf-8") and "## Summary, Recall" in report
    assert "## Correlation with human scores, Recall" in report
    payload = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert payload["metrics"] == ["bleu", "recall"] and "Recall[recall|nrefs:1]" in payload["signature"]
    c = toy["corpus"]
    lines = toy["configs"]["de-en.particle.d1"]
    by_hand = {}
    for system in toy["hyps"]:
        shares = [len(set(c["outputs"][system][n - 1].split()) & set(c["refs"][n - 1].split()))
                  / len(set(c["refs"][n - 1].split())) for n in lines]
        by_hand[system] = float(np.mean(shares))
        cell = payload["configs"]["de-en.particle.d1"]["systems"][system]["scores"]["recall"]
        assert cell["score"] == pytest.approx(by_hand[system])
        assert (cell["vs_baseline"] is None) == (system == payload["baseline_system"])
    systems = list(HUMAN)
    human = payload["configs"]["de-en.particle.d1"]["human"]["recall"]
    assert human["kendall"] == pytest.approx(kendalltau([by_hand[s] for s in systems], [HUMAN[s] for s in systems]).statistic)
    assert "recall" in payload["trends"] and "recall" in payload["summary"]
    assert "## Summary, Recall" in (out / "report.md").read_text(encoding="utf-8")
    assert (out / "de-en.recall.heatmap.svg").is_file() and (out / "de-en.recall.human.svg").is_file()


def test_a_broken_plugin_is_a_warning_and_the_built_ins_still_work(tmp_path):
    site = _plugin(tmp_path, "broken = no_such_module:Nothing")
    code = ("import warnings; warnings.simplefilter('always')\n"
            "from auto_challenge_sets.scoring.metrics import metric_names\nprint(metric_names())")
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "'bleu', 'chrf', 'ter', 'ribes'" in run.stdout and "broken" not in run.stdout
    assert "metric 'broken' from no_such_module:Nothing is not loaded: ModuleNotFoundError" in run.stderr


@pytest.mark.models
def test_comet_when_its_model_is_here(tmp_path):
    """COMET through its entry point; runs only where unbabel-comet and a checkpoint are installed
    (``COMET_CHECKPOINT=.../model.ckpt``): no model can be downloaded here."""
    checkpoint = os.environ.get("COMET_CHECKPOINT")
    pytest.importorskip("comet", reason="unbabel-comet is not installed (the comet extra)")
    if not checkpoint or not Path(checkpoint).is_file():
        pytest.skip("no COMET checkpoint on disk: set COMET_CHECKPOINT to a model.ckpt")
    metric = create_metric("comet", comet_model=checkpoint)
    scores = metric.statistics(["The cat sat."], [("The cat sat.",)], ["Die Katze saß."])
    assert scores.shape == (1,) and 0 < scores[0] <= 1.2


def test_comet_is_registered_by_this_packages_entry_point_without_importing_comet():
    cls = metric_class("comet")
    assert cls.needs_sources and cls.__module__ == "auto_challenge_sets.metrics.comet"
    with pytest.raises(ValueError, match="needs the source sentences"):
        cls().statistics(["a"], [("a",)])


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter", "ribes"])
def test_vectorized_scores_of_totals_equal_the_scalar_code(name):
    """Every exact_scores_of_totals does the scalar code's arithmetic in the same order: the same
    numbers; BLEU's faster scores_of_totals may round otherwise (the paired test rechecks near ties)."""
    rng = np.random.default_rng(3)
    metric = create_metric(name)
    if name == "bleu":
        totals = rng.integers(0, 40, (3000, 10))
        totals[:, 6:] = totals[:, 2:6] + rng.integers(0, 20, (3000, 4))
        totals[::7, 2:6] = 0  # no match at all
        totals[::11, 4] = 0  # one order without a match: exp smoothing
        totals[::13, 8] = totals[::13, 4] = 0  # an order without n-grams: sacrebleu stops there
        totals[::5, 0] = rng.integers(0, 3, 600)  # shorter than the reference (brevity penalty, also 0)
    elif name == "chrf":
        totals = rng.integers(0, 30, (3000, 18))
        for i in range(6):
            totals[:, 3 * i + 2] = np.minimum(totals[:, 3 * i + 2], totals[:, 3 * i : 3 * i + 2].min(axis=1))
        totals[::9] = 0
    elif name == "ter":
        totals = np.column_stack([rng.integers(0, 30, 3000), rng.integers(0, 20, 3000) + rng.choice([0, 0.5], 3000)])
    else:
        totals = np.column_stack([rng.random(3000) * 40, rng.integers(1, 60, 3000)]).astype(float)
    scalar = np.array([metric.score_of_totals(row) for row in totals.tolist()])
    vectorized = metric.scores_of_totals(totals)
    assert (metric.exact_scores_of_totals(totals) == scalar).all()
    if name == "bleu":
        assert np.allclose(vectorized, scalar, rtol=1e-13, atol=1e-12) and (vectorized == 0).sum() == (scalar == 0).sum()
    else:
        assert (vectorized == scalar).all()


# -- declared options -----------------------------------------------------------------------------

def test_the_built_ins_declare_their_options_and_a_run_routes_each_key_to_the_metrics_declaring_it():
    assert [o.name for o in metric_class("bleu").options] == ["tokenize"]
    assert [o.name for o in metric_class("ribes").options] == ["tokenize", "lowercase_ribes"]
    assert metric_class("chrf").options == () and metric_class("ter").options == ()
    routed = route_options(["bleu", "chrf", "ribes"], {"tokenize": "intl", "lowercase_ribes": "false"})
    assert routed == {"bleu": {"tokenize": "intl"}, "chrf": {},
                      "ribes": {"tokenize": "intl", "lowercase_ribes": False}}
    assert route_options(["ribes"], {}) == {"ribes": {"tokenize": "13a", "lowercase_ribes": True}}


def test_a_key_none_of_the_metrics_declares_is_an_error_naming_theirs():
    """`comet_gpu` (a typo) was silently ignored: now it names the options there are."""
    with pytest.raises(RequestError) as error:
        route_options(["bleu", "ribes"], {"lowercase_ribs": "false"})
    assert (error.value.field, error.value.detail) == (
        "metric_options", "no metric of bleu, ribes has an option 'lowercase_ribs' (did you mean lowercase_ribes?) "
        "(their options: lowercase_ribes, tokenize)")
    with pytest.raises(RequestError, match=r"no metric of chrf has an option 'tokenize'; it is an option of bleu, "
                       r"ribes, which is not among the metrics \(their options: none\)"):
        route_options(["chrf"], {"tokenize": "intl"})
    gpus = type("Gpus", (AveragedMetric,), {"name": "gpus", "options": (Option("comet_gpus", int, 0, "", minimum=0),)})
    register_metric(gpus)  # COMET's option, without its entry point (installed metadata may name another path)
    try:
        with pytest.raises(RequestError, match=r"comet_gpu' \(did you mean comet_gpus\?\)"):
            route_options(["bleu", "gpus"], {"comet_gpu": "1"})
        with pytest.raises(RequestError, match=r"metric_options: comet_gpus=１: must be an integer >= 0 in ASCII"):
            route_options(["gpus"], {"comet_gpus": "１"})
    finally:
        _REGISTRY.pop("gpus")


def test_an_option_changes_the_signature_that_records_the_run():
    assert "tok:intl" in create_metric("bleu", tokenize="intl").signature(1)
    assert "case:mixed" in create_metric("ribes", lowercase_ribes="false").signature(1)
    assert "case:lc|tok:13a" in create_metric("ribes").signature(1)
    assert create_metric("ribes", lowercase_ribes=False).values == {"tokenize": "13a", "lowercase_ribes": False}


def test_registering_checks_the_declared_options():
    with pytest.raises(TypeError, match="options must be a tuple of auto_challenge_sets.options.Option"):
        register_metric(type("Bad", (AveragedMetric,), {"name": "bad", "options": ("tokenize",)}))
    twice = (Option("x", int, 0, ""), Option("x", int, 1, ""))
    with pytest.raises(ValueError, match="declares an option twice"):
        register_metric(type("Bad", (AveragedMetric,), {"name": "bad", "options": twice}))
    assert "bad" not in metric_names()


def test_option_lines_list_a_shared_option_once():
    assert option_lines(["bleu", "ribes"]) == [
        "tokenize (str, default 13a; bleu, ribes): sacrebleu's tokenizer for BLEU and RIBES (13a, intl, zh, "
        "ja-mecab, ...)",
        "lowercase_ribes (bool, default true; ribes): lowercase before RIBES, as RIBES.py does (false: RIBES.py's "
        "--case)"]


OPTION_PLUGIN = PLUGIN.replace('''    name, label, digits = "recall", "Recall", 3
''', '''    name, label, digits = "recall", "Recall", 3
    options = (Option("min_len", int, 0, "words shorter than this are left out"),)
''').replace("import numpy as np\n", "import numpy as np\nfrom auto_challenge_sets.options import Option\n")


def test_a_plugin_declares_options_that_acs_lists_and_checks(tmp_path):
    site = _plugin(tmp_path)
    (site / "toy_recall.py").write_text(OPTION_PLUGIN, encoding="utf-8")
    listed = _acs(site, "metric", "list")
    assert listed.returncode == 0, listed.stderr
    assert "recall: Recall, higher is better\n  min_len (int, default 0): words shorter than this" in listed.stdout
    toy = make(tmp_path / "toy")
    run = _acs(site, "evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d1", "--hyp",
               f"good={toy['hyps']['good']}", "--metrics", "recall", "--metric-option", "min_lem=2", "--quiet")
    assert run.returncode == 2 and run.stderr.strip().splitlines()[-1] == (  # after any other plug-in's warning
        "acs evaluate: error: --metric-option: no metric of recall has an option 'min_lem' (did you mean min_len?) "
        "(their options: min_len)")
