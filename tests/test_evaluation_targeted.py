"""Targeted accuracy through the evaluation engine (evaluation/output_alignment.py, targeted_scores.py,
report.py) on WMT21 de-en, built with UDPipe and eflomal: the validation the method
needs (the reference as output is right, the reference without the aligned words is wrong, a
swapped particle verb is wrong), the stored alignments, many systems and human scores."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from scipy.stats import kendalltau

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.dataset.integrity import describe_files
from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.stats.human import read_human
from auto_challenge_sets.formats.corpus import read_lines
from auto_challenge_sets.formats.pharaoh import parse_pharaoh
from auto_challenge_sets.pipeline.run_build import BuildSpec

from conftest import shared_path

SPLIT = "newstest2021"
CONFIGS = "de-en.particle.d1,de-en.reflexive.d1"
SYSTEMS = ("Facebook-AI", "UEdin", "happypoet", "Online-W", "UF", "VolcTrans-GLAT")


@pytest.fixture(scope="module")
def wmt(wmt21_de_en) -> dict:
    """WMT21 de-en built with UDPipe and eflomal (conftest's wmt21_de_en, shared with the
    many-system tests)."""
    wmt21 = shared_path("data", "wmt21")
    return {"out": wmt21_de_en, "wmt21": wmt21, "reference": wmt21 / "references" / "newstest2021.de-en.ref.A.en"}


def _targeted(wmt, hypothesis: Path, **targeted) -> dict[str, dict]:
    evaluation = evaluate(EvaluationRequest(dataset=wmt["out"], hypotheses={"system": hypothesis}, config=CONFIGS,
                                            split=SPLIT, n_samples=5, metrics=("bleu",),
                                            targeted=TargetedRequest(**targeted)))
    return {name: dataclasses.asdict(config.systems["system"].targeted) for name, config in evaluation.configs.items()}


def _rows(wmt, config: str) -> dict:
    return DatasetFolder(wmt["out"]).read(config, SPLIT, ["line", "alignment", "instances"])


def _edited_reference(wmt, tmp_path: Path, edit) -> Path:
    """The reference with ``edit(tokens, positions)`` applied to every row of the two configs, where
    ``positions`` are the reference tokens the stored alignment links to an instance's head or
    dependent (``edit`` gets the head's and the dependents' positions apart)."""
    lines = read_lines(wmt["reference"])
    for config in CONFIGS.split(","):
        rows = _rows(wmt, config)
        for line, alignment, instances in zip(rows["line"], rows["alignment"], rows["instances"]):
            links = parse_pharaoh(alignment)
            heads = {j for i, j in links for inst in instances if i == inst["head"] - 1}
            dependents = {j for i, j in links for inst in instances if i == inst["dependent"] - 1}
            tokens = lines[line - 1].split()
            lines[line - 1] = " ".join(edit(tokens, heads, dependents))
    path = tmp_path / "edited.en"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("aligner", ["auto", "eflomal"])
def test_the_reference_as_output_is_always_correct(wmt, aligner) -> None:
    for config, result in _targeted(wmt, wmt["reference"], aligner=aligner).items():
        assert result["wrong"] == 0 and result["correct"] > 20 and result["accuracy"] == 1.0, config
        assert result["correct"] + result["unaligned"] == result["instances"]


def test_the_reference_without_its_aligned_words_is_nearly_always_wrong(wmt, tmp_path) -> None:
    removed = _edited_reference(wmt, tmp_path, lambda tokens, heads, deps: [
        t for k, t in enumerate(tokens) if k not in heads | deps])
    for config, result in _targeted(wmt, removed).items():  # auto: the present match
        assert result["correct"] + result["wrong"] > 20, config
        # measured: particle 2 of 69, reflexive 6 of 49 (the present match finds a removed word
        # that occurs elsewhere in the sentence); the code before the one engine gave the same
        assert result["accuracy"] < 0.15, (config, result)
    # eflomal's links of 1,000 pairs are noisy (the reason auto is not eflomal): far from 100%
    # all the same, and far from 0% (measured 32% and 37%)
    for config, result in _targeted(wmt, removed, aligner="eflomal").items():
        assert result["accuracy"] < 0.6, (config, result)


def test_a_swapped_particle_verb_is_counted_wrong(wmt, tmp_path) -> None:
    """The particle verb's English words (head and particle) become one other verb."""
    def swap(tokens, heads, deps):
        words = heads | deps
        kept = []
        for k, token in enumerate(tokens):
            if k not in words:
                kept.append(token)
            elif k == min(words):
                kept.append("forgot")
        return kept

    swapped = _edited_reference(wmt, tmp_path, swap)
    particle = _targeted(wmt, swapped)["de-en.particle.d1"]
    assert particle["correct"] + particle["wrong"] > 20
    assert particle["accuracy"] < 0.1, particle


def test_stored_alignments_read_the_dataset_column_and_pharaoh_files(wmt, tmp_path) -> None:
    base = DatasetFolder(wmt["out"]).read("de-en.baseline", SPLIT, ["line", "alignment"])
    by_line = dict(zip(base["line"], base["alignment"]))
    pharaoh = tmp_path / "ref.pharaoh"
    pharaoh.write_text("".join(by_line.get(n, "") + "\n" for n in range(1, 1001)), encoding="utf-8")
    stored = _targeted(wmt, wmt["reference"], aligner="stored", hyp_alignments={"system": pharaoh})
    assert all(r["accuracy"] == 1.0 and r["wrong"] == 0 for r in stored.values())
    with pytest.raises(InputError, match="the aligner stored needs an alignment file for every system; none for system"):
        _targeted(wmt, wmt["reference"], aligner="stored")
    lines = pharaoh.read_text(encoding="utf-8").split("\n")
    lines[6] = "0-999"
    pharaoh.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=rf"{pharaoh}:7: target index 999 in link '0-999' is out of range"):
        _targeted(wmt, wmt["reference"], hyp_alignments={"system": pharaoh})


def test_many_systems_with_human_scores(wmt, tmp_path) -> None:
    wmt21 = wmt["wmt21"]
    hyps = {name: wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en" for name in SYSTEMS[:4]}
    request = EvaluationRequest(dataset=wmt["out"], hypotheses=hyps, split=SPLIT, pair="de-en", n_samples=10,
                                paired_samples=20, metrics=("bleu",), targeted=TargetedRequest())
    human = read_human(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv", list(hyps))
    payload = evaluate(request, human).to_json()
    assert payload["targeted"]["aligner"].startswith("present")
    assert payload["targeted"]["signature"].startswith("targeted:present|")
    particle = payload["configs"]["de-en.particle.d1"]
    accuracy = {s: e["targeted"]["accuracy"] for s, e in particle["systems"].items()}
    assert all(0.1 < a < 0.9 for a in accuracy.values()), accuracy
    assert all(e["targeted"] is None for e in payload["configs"]["de-en.reorder.d5"]["systems"].values())
    names = list(accuracy)
    tau = kendalltau([accuracy[s] for s in names], [human.scores[s] for s in names]).statistic
    assert particle["human_targeted"]["kendall"] == pytest.approx(tau)
    # the control: 100 random-pair draws per system, and the targeted τ among the draws' τ
    assert all(e["targeted"]["random_pairs"]["draws"] == 100 for e in particle["systems"].values())
    assert 0 <= particle["human_targeted"]["random_kendall_percentile"] <= 100
    summary = payload["targeted"]["by_distance"]["de-en.particle"]
    assert summary["config"] == "de-en.particle.d0" and summary["buckets"][:2] == ["0", "1"]
    # the d >= 0 config's accuracy is the judged-weighted mean of its buckets
    one, counts = summary["accuracy"]["UEdin"], summary["judged"]["UEdin"]
    judged = sum(counts.values())
    weighted = sum(one[b] * counts[b] for b in summary["buckets"] if one[b] is not None) / judged
    assert weighted == pytest.approx(payload["configs"]["de-en.particle.d0"]["systems"]["UEdin"]["targeted"]["accuracy"])


def test_acs_evaluate_targeted_prints_and_writes_it(wmt, tmp_path, capsys) -> None:
    wmt21 = wmt["wmt21"]
    hyps = [str(wmt21 / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en") for name in SYSTEMS[:3]]
    out = tmp_path / "report"
    code = main(["evaluate", "--dataset", str(wmt["out"]), "--config", CONFIGS, "--split", SPLIT, "--hyp", *hyps,
                 "--human", str(wmt21 / "humaneval" / "ad-sys-scores-de-en.csv"), "--targeted", "--n-samples", "5",
                 "--paired-samples", "10", "--targeted-aligner", "eflomal", "--align-seed", "2", "--out", str(out)])
    assert code == 0
    capsys.readouterr()  # with --out the terminal has the summary; the tables are in report.md
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "### de-en.particle: targeted accuracy (%) by distance d (from de-en.particle.d1)" in report
    assert "## Targeted accuracy" in report and "targeted τ" in report
    assert (out / "de-en.targeted.svg").stat().st_size > 1000
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert saved["targeted"]["aligner"].startswith("eflomal (seed=2)")
    # one system: the same tables, with one row
    assert main(["evaluate", "--dataset", str(wmt["out"]), "--config", CONFIGS, "--split", SPLIT, "--hyp",
                 str(wmt["reference"]), "--targeted", "--n-samples", "5"]) == 0
    printed = capsys.readouterr().out
    section = printed[printed.index("de-en.particle: targeted accuracy (%) by distance d"):]
    row = next(line for line in section.splitlines() if line.startswith("newstest2021.de-en.ref.A"))
    assert set(row.split()[1:]) <= {"100", "-"} and "100" in row  # every judged instance correct


def test_targeted_flags_without_targeted_are_an_error(wmt, capsys) -> None:
    code = main(["evaluate", "--dataset", str(wmt["out"]), "--config", CONFIGS, "--split", SPLIT,
                 "--hyp", str(wmt["reference"]), "--targeted-aligner", "eflomal"])
    assert code != 0 and "the targeted-accuracy flags need --targeted" in capsys.readouterr().err


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """The packaged sample: hand-checked trees and a hand alignment."""
    out = tmp_path_factory.mktemp("sample") / "sets"
    build_demo(out)
    return out


def test_the_sample_with_its_hand_alignment(sample) -> None:
    for aligner, files in (("auto", {}), ("stored", {"system": demo_file("sample.de-en.pharaoh")})):
        evaluation = evaluate(EvaluationRequest(sample, {"system": demo_file("sample.en")}, pair="de-en", n_samples=3,
                                                targeted=TargetedRequest(aligner, hyp_alignments=files)))
        scored = {name: c.systems["system"].targeted for name, c in evaluation.configs.items()}
        lexical = [t for t in scored.values() if t is not None]
        assert lexical and all(t.accuracy in (1.0, None) for t in lexical)
        assert sum(t.correct for t in lexical) > 10
        assert all(t is None for name, t in scored.items() if ".reorder" in name)


def test_a_dataset_without_alignments_says_so(sample, tmp_path) -> None:
    import pyarrow.parquet as pq

    folder = DatasetFolder(sample)
    unaligned = tmp_path / "unaligned"
    build_into_folder(BuildSpec(pair="de-en", corpus="sample", source=demo_file("sample.de"),
                                target=demo_file("sample.en"), source_conllu=demo_file("sample.de.conllu")),
                      unaligned, license="apache-2.0", progress=False)
    with pytest.raises(InputError, match="built without an aligner, so the aligner stored or present"):
        evaluate(EvaluationRequest(unaligned, {"system": demo_file("sample.en")}, pair="de-en", n_samples=3,
                                   targeted=TargetedRequest()))
    # a folder written before the alignment column existed (its record matching its files)
    base = folder.files["de-en.baseline"]["sample"][0]
    table, original = pq.read_table(base), base.read_bytes()
    record_path = sample / "acs_build.json"
    record_text = record_path.read_text(encoding="utf-8")
    record = json.loads(record_text)
    pq.write_table(table.drop(["alignment"]), base)
    for build in record["builds"]:
        build["files"] = describe_files(sample, build["pair"], build["corpus"])
    record_path.write_text(json.dumps(record), encoding="utf-8")
    try:
        with pytest.raises(InputError, match="has no alignment column .built by an older acs.: rebuild"):
            evaluate(EvaluationRequest(sample, {"system": demo_file("sample.en")}, pair="de-en", n_samples=3,
                                       targeted=TargetedRequest()))
    finally:
        base.write_bytes(original)  # the bytes the record has
        record_path.write_text(record_text, encoding="utf-8")


def test_on_wmt21_the_judge_is_measured_on_reference_b_and_the_control_matches_parts_of_speech(wmt) -> None:
    """Reference B given as --judge-ref: the judge's pass rate on it is measured (46% over every config of
    a full build; 35-60% asserted here) and equals B's own accuracy as a system on each config.
    The control draws with the instances' UPOS where the sentence allows, which makes it harder
    than the same draws without UPOS (the verbs every phenomenon has as head are matched less
    often than the nouns and function words an unmatched pair lands on)."""
    import numpy as np

    from auto_challenge_sets.evaluation.inputs import read_corpus, read_systems
    from auto_challenge_sets.evaluation.stats.targeted_scores import score
    from auto_challenge_sets.formats.corpus import ReadReport

    b = wmt["wmt21"] / "references" / "newstest2021.de-en.ref.B.en"
    hyps = {name: wmt["wmt21"] / "system-outputs" / f"newstest2021.de-en.hyp.{name}.en" for name in SYSTEMS}
    request = EvaluationRequest(dataset=wmt["out"], hypotheses={**hyps, "B": b}, config=CONFIGS, split=SPLIT,
                                n_samples=5, metrics=("bleu",), targeted=TargetedRequest(references=(b,)))
    corpus = read_corpus(request)
    outputs = read_systems(request, corpus, ReadReport())
    run, per_config, matched = score(request.targeted, corpus, outputs)
    judge = run.judge
    assert judge.status == "measured" and judge.references == 1 and 0.35 < judge.pass_rate < 0.6
    for name, counts in judge.by_config.items():
        assert (counts.correct, counts.wrong) == (per_config[name]["B"].correct, per_config[name]["B"].wrong)
    assert run.control_upos and all(m.instances == m.matched + m.head_only + m.unmatched + m.itself
                                    for m in run.control.values())
    assert sum(m.matched + m.head_only for m in run.control.values()) > 0
    corpus.base["source_upos"] = [None] * len(corpus.base["line"])  # the same draws' places, no part of speech
    unmatched = score(request.targeted, corpus, outputs)[2]
    for name in CONFIGS.split(","):
        with_upos = np.nanmean([matched[name][s] for s in SYSTEMS])
        without = np.nanmean([unmatched[name][s] for s in SYSTEMS])
        assert with_upos < without, name


def test_extra_references_are_aligned_with_the_aligners_options(tmp_path) -> None:
    """With the present aligner the extra references still go through eflomal, with the given
    options: intersection's links are a subset of union's, strictly fewer over the toy corpus."""
    from auto_challenge_sets.evaluation.output_alignment import align_outputs

    from toy_dataset import corpus

    c = corpus()
    lines = list(range(1, len(c["sources"]) + 1))
    base = {"id": [f"t:{n}" for n in lines], "line": lines, "source_tokens": c["sources"], "reference": c["refs"],
            "alignment": [" ".join(f"{k}-{k}" for k in range(min(len(s), len(r.split()))))
                          for s, r in zip(c["sources"], c["refs"])]}
    extra = [c["outputs"]["worse"]]
    links = {}
    for way in ("intersection", "union"):
        aligned = align_outputs(TargetedRequest("present", {"symmetrization": way}), base, {}, len(lines),
                                tmp_path / "rows.parquet", extra)
        assert aligned.aligner.endswith(f"; extra references: eflomal (symmetrization={way})")
        (links[way],) = aligned.extra
    assert all(set(i) <= set(u) for i, u in zip(links["intersection"], links["union"]))
    assert sum(map(len, links["intersection"])) < sum(map(len, links["union"]))
