"""evaluation/stats/targeted_scores.py on the toy folder: the judgement does not depend on the random-pair
control (with it every source word is matched, without it only the instances' words), the extra
references judge only when asked, the lemma step and the outputs' own alignments reach the
judgement, the signature names all of it, and the summary by distance buckets at the configs'
boundaries."""

from __future__ import annotations

import dataclasses

import pytest

from mutation_scope import per_test_under_mutmut
from toy_dataset import make


def _evaluate(toy, references=(), aligner="present", **targeted):
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest

    return evaluate(EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=3,
                                      targeted=TargetedRequest(aligner, references=references, **targeted)))


INFLECTED = {"ran": "run", "sat": "sit"}


@pytest.fixture(scope=per_test_under_mutmut)
def runs(tmp_path_factory):
    """Four runs of the toy plus a "lemmas" system: (0) with the control (100 draws); (1) without
    it, "good"'s output given as the judge's second translation (not judged against by default); (2) judged
    against "good"'s and "worse"'s outputs too, without the lemma step; (3) the outputs aligned by stored Pharaoh files."""
    toy = make(tmp_path_factory.mktemp("toy"))
    # the reference with "ran" and "sat" as "run" and "sit": right by their lemmas only
    lemmas = toy["tmp"] / "toy.hyp.lemmas.en"
    lemmas.write_text("".join(" ".join(INFLECTED.get(w, w) for w in ref[:-1].lower().split()) + ".\n"
                              for ref in toy["corpus"]["refs"]), encoding="utf-8")
    toy["hyps"] = {**toy["hyps"], "lemmas": lemmas}
    second = (toy["hyps"]["good"],)
    # each output aligned word for word with the source (as the toy's references are)
    outputs = {**toy["corpus"]["outputs"], "lemmas": lemmas.read_text(encoding="utf-8").splitlines()}
    links = {}
    for system, lines in outputs.items():
        links[system] = toy["tmp"] / f"{system}.pharaoh"
        links[system].write_text("".join(" ".join(f"{k}-{k}" for k in range(min(len(src), len(out.split())))) + "\n"
                                         for src, out in zip(toy["corpus"]["sources"], lines)), encoding="utf-8")
    return (_evaluate(toy), _evaluate(toy, second, random_pairs=0),
            _evaluate(toy, (toy["hyps"]["good"], toy["hyps"]["worse"]), random_pairs=0, all_references=True,
                      lemma=False),
            _evaluate(toy, random_pairs=0, aligner="stored", hyp_alignments=links))


def _scores(evaluation):
    return {name: {s: r.targeted for s, r in config.systems.items()} for name, config in evaluation.configs.items()}


def test_the_instances_words_alone_judge_as_every_word_does(runs):
    with_control, without, _, _ = runs
    full, lean = _scores(with_control), _scores(without)
    assert full.keys() == lean.keys()
    judged = 0
    for name in full:
        for system, score in full[name].items():
            if score is None:  # a reorder config: no targeted accuracy either way
                assert lean[name][system] is None
                continue
            assert score.random_pairs is not None and lean[name][system].random_pairs is None
            assert dataclasses.replace(score, random_pairs=None) == lean[name][system], (name, system)
            judged += score.correct + score.wrong
    assert judged > 100 and any(s.wrong for per in full.values() for s in per.values() if s is not None)


def test_the_signature_names_the_control_its_draws_and_the_seed(runs):
    with_control, without, _, _ = runs
    assert without.targeted.signature == "targeted:present|case:lc|punct:strip|match:lemma-simplemma-en|fallback:chrF>=50|tok:space"
    assert with_control.targeted.signature == without.targeted.signature + "|control:random-pairs:100|seed:1"
    assert with_control.targeted.aligner == without.targeted.aligner
    assert with_control.targeted.aligner == "present (the dataset's alignment column; output words not aligned)"


def test_every_reference_judges_when_asked(runs):
    """Judged against "good"'s and "worse"'s outputs too: the same instances judged (the first
    reference decides), none less often correct, and "good" and "worse" (each judged against its
    own output, each reference with its own links) less often wrong than "better" and "lower"; the
    signature counts the references and the extra references' aligner is named."""
    _, one, both, _ = runs
    assert both.targeted.signature == "targeted:present|case:lc|punct:strip|match:exact|fallback:chrF>=50|refs:3|tok:space"
    assert both.targeted.aligner == one.targeted.aligner + "; extra references: eflomal"
    gained = dict.fromkeys(both.systems, 0)  # correct instances won by the extra references
    wrong = dict.fromkeys(both.systems, 0)
    for name, config in one.configs.items():
        for system, result in config.systems.items():
            if system == "lemmas":  # right by the lemma step alone, which the third run leaves out
                continue
            first, every = result.targeted, both.configs[name].systems[system].targeted
            if first is None:
                assert every is None
                continue
            assert (every.instances, every.unaligned) == (first.instances, first.unaligned), (name, system)
            assert every.correct >= first.correct and every.wrong <= first.wrong, (name, system)
            gained[system] += every.correct - first.correct
            wrong[system] += every.wrong
    assert gained["ref"] == 0 and all(gained[s] > 0 for s in ("better", "good", "lower", "worse"))
    assert max(wrong["good"], wrong["worse"]) < min(wrong["better"], wrong["lower"])


def test_the_lemma_step_matches_other_forms_of_a_word(runs):
    """"lemmas" writes the reference's "ran"/"sat" as "run"/"sit": with the lemma step as right
    as the reference itself, without it (the third run) wrong wherever an instance's word is one of them."""
    with_lemmas, _, without_lemmas, _ = runs
    wrong = 0
    for name, config in with_lemmas.configs.items():
        ref, lemmas = config.systems["ref"].targeted, config.systems["lemmas"].targeted
        if ref is None:
            continue
        assert dataclasses.replace(lemmas, random_pairs=None) == dataclasses.replace(ref, random_pairs=None), name
        assert lemmas.wrong == 0
        wrong += without_lemmas.configs[name].systems["lemmas"].targeted.wrong
    assert wrong > 0


def test_the_summary_buckets_at_the_configs_boundaries(runs):
    """Configs at D = 1, 2, 3, 5, 10 (the toy's d0..d4 relabelled) give buckets 1, 2, 3-4, 5-9, 10+
    counted from the smallest-D config's own counts; distance 0 falls below every bucket."""
    from auto_challenge_sets.evaluation.stats.targeted_scores import run_summary

    evaluation, _, _, _ = runs
    particle = sorted((c.min_distance, n) for n, c in evaluation.configs.items() if c.phenomenon == "de-en.particle")
    assert [d for d, _ in particle][:5] == [0, 1, 2, 3, 4]
    source = particle[0][1]
    configs = {}
    for (_, name), d in zip(particle, (5, 1, 10, 3, 2)):
        config = evaluation.configs[source if d == 1 else name]
        configs[name if d != 1 else "x.d1"] = dataclasses.replace(config, min_distance=d)
    reorder = [n for n, c in evaluation.configs.items() if c.phenomenon != "de-en.particle"]
    configs.update({n: evaluation.configs[n] for n in reorder})  # no targeted accuracy: no summary
    run = run_summary(evaluation.targeted, configs, evaluation.systems)
    assert list(run.by_distance) == ["de-en.particle"] and run.signature == evaluation.targeted.signature
    summary = run.by_distance["de-en.particle"]
    assert summary.config == "x.d1" and summary.buckets == ("1", "2", "3-4", "5-9", "10+")
    bounds = {"1": (1, 1), "2": (2, 2), "3-4": (3, 4), "5-9": (5, 9), "10+": (10, 10**9)}
    means = {}
    for system in evaluation.systems:
        items = evaluation.configs[source].systems[system].targeted.by_distance
        for label, (low, high) in bounds.items():
            correct = sum(i.correct for i in items if low <= i.distance <= high)
            judged = sum(i.correct + i.wrong for i in items if low <= i.distance <= high)
            assert summary.judged[system][label] == judged, (system, label)
            assert summary.accuracy[system][label] == (correct / judged if judged else None), (system, label)
            if judged:
                means.setdefault(label, []).append(correct / judged)
    assert summary.mean == {label: (pytest.approx(sum(means[label]) / len(means[label])) if label in means else None)
                            for label in bounds}
    assert any(label not in means for label in bounds) and len(means) >= 3  # both sides of the mean's rule


def test_bucket_labels():
    from auto_challenge_sets.evaluation.stats.targeted_scores import _bucket_label

    assert [_bucket_label([1, 2, 3, 5, 10], k) for k in range(5)] == ["1", "2", "3-4", "5-9", "10+"]
    assert _bucket_label([0], 0) == "0+" and _bucket_label([0, 4], 0) == "0-3"


def test_aligned_output_words_must_be_the_ones_that_match(runs):
    """With the outputs' own alignment, a reference word elsewhere in the output no longer counts:
    never more correct than the present match, the reference (and its lemmas) still all right,
    the noisier systems less often right."""
    _, present, _, aligned = runs
    assert aligned.targeted.signature == "targeted:aligned|case:lc|punct:strip|match:lemma-simplemma-en|fallback:chrF>=50|tok:space"
    assert aligned.targeted.aligner == "stored (the dataset's alignment column and --hyp-alignment files)"
    lost = dict.fromkeys(aligned.systems, 0)
    for name, config in present.configs.items():
        for system, result in config.systems.items():
            loose, strict = result.targeted, aligned.configs[name].systems[system].targeted
            if loose is None:
                assert strict is None
                continue
            assert (strict.instances, strict.unaligned) == (loose.instances, loose.unaligned), (name, system)
            assert strict.correct <= loose.correct, (name, system)
            lost[system] += loose.correct - strict.correct
    assert lost["ref"] == lost["lemmas"] == 0 and lost["worse"] > lost["better"] > 0


def test_each_instances_verdict_is_kept_for_the_page(runs):
    """The engine keeps every row's verdicts (config -> system -> per row, one per instance): they
    count to the config's numbers."""
    evaluation = runs[0]
    assert evaluation.verdicts is not None
    scored = 0
    for name, config in evaluation.configs.items():
        for system, result in config.systems.items():
            score = result.targeted
            if score is None:
                continue
            rows = evaluation.verdicts[name][system]
            assert len(rows) == config.n, (name, system)
            flat = [v for row in rows for v in row]
            assert len(flat) == score.instances
            assert (flat.count("correct"), flat.count("wrong"), flat.count("unaligned"), flat.count("absorbed")) == \
                (score.correct, score.wrong, score.unaligned, score.absorbed), (name, system)
            scored += 1
    assert scored == 6 * 6


# -- score() called alone, on the engine's own readers of the toy --

def _inputs(toy, references=(), **targeted):
    """The request, the corpus and every system's output as the engine reads them."""
    from auto_challenge_sets.evaluation.inputs import read_corpus, read_systems
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.formats.corpus import ReadReport

    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu",), n_samples=3,
                                targeted=TargetedRequest("present", references=references, **targeted))
    corpus = read_corpus(request)
    return request.targeted, corpus, read_systems(request, corpus, ReadReport())


def test_the_control_is_drawn_from_seed_1_one_stream_per_config_and_no_verdicts_are_kept(tmp_path):
    """score() alone (no verdicts, no seed): the signature says seed 1, and each config's draws are
    draw_pairs on the stream [seed, 3, crc32(config name)], judged by every source word's match
    (part_table with the stored alignment, the lemma step, the default chrF threshold)."""
    import zlib

    import numpy as np

    from auto_challenge_sets.evaluation.stats.targeted_scores import score
    from auto_challenge_sets.formats.pharaoh import parse_pharaoh
    from auto_challenge_sets.scoring.targeted import part_table
    from auto_challenge_sets.scoring.targeted_control import draw_pairs, pair_accuracies

    request, corpus, outputs = _inputs(make(tmp_path), random_pairs=20)
    run, per_config, controls = score(request, corpus, outputs)
    assert run.signature.endswith("|control:random-pairs:20|seed:1") and run.by_distance == {}  # run_summary's
    lengths = [len(tokens) for tokens in corpus.base["source_tokens"]]
    lexical = [config for config in corpus.configs if config.instances is not None]
    assert len(lexical) == 6 and sorted(controls) == sorted(per_config) == sorted(c.name for c in lexical)
    for config in lexical:
        positions = config.positions.tolist()
        rng = np.random.default_rng([1, 3, zlib.crc32(config.name.encode())])
        pairs = draw_pairs(config.instances, [lengths[p] for p in positions], 20, rng)
        for output in outputs:
            rows = [part_table([(corpus.base["reference"][p].split(), parse_pharaoh(corpus.base["alignment"][p]))],
                               None, output.predictions[p].split(), lengths[p], lang="en") for p in positions]
            np.testing.assert_array_equal(controls[config.name][output.name], pair_accuracies(pairs, rows))


def test_one_system_judged_against_every_reference_alone_as_among_others(tmp_path):
    """The extra references are the corpus's, whichever system comes first: one system scored
    alone gets the numbers it gets among the others."""
    from auto_challenge_sets.evaluation.stats.targeted_scores import score

    toy = make(tmp_path)
    request, corpus, outputs = _inputs(toy, (toy["hyps"]["good"],), random_pairs=0, all_references=True)
    _, together, _ = score(request, corpus, outputs)
    alone_run, alone, _ = score(request, corpus, [o for o in outputs if o.name == "worse"])
    assert "refs:2" in alone_run.signature
    assert {name: per["worse"] for name, per in alone.items()} == {name: per["worse"] for name, per in together.items()}


def test_a_row_without_an_alignment_names_the_full_corpus_file(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.evaluation.stats.targeted_scores import score

    toy = make(tmp_path)
    base = toy["root"] / "data" / "de-en.baseline" / "toytest-00000-of-00001.parquet"
    table = pq.read_table(base)
    column = table.schema.get_field_index("alignment")
    pq.write_table(table.set_column(column, "alignment", pa.nulls(table.num_rows, pa.string())), base)
    request, corpus, outputs = _inputs(toy)
    with pytest.raises(InputError) as raised:
        score(request, corpus, outputs)
    assert str(raised.value) == (f"{base}: row 'toytest:1' has no alignment: the dataset was built without an aligner, "
                                 "so the aligner stored or present has no reference side (use eflomal or simalign)")


def test_a_configs_accuracy_does_not_depend_on_the_other_configs(tmp_path):
    """As a build stores them, a row of config dD holds only its instances at d >= D: here every
    particle row gets a second instance at d = 0, in d0 only. d0 scored in the full folder and in
    a folder of d0 alone: the same numbers (the words to match of a row are those of every config
    holding it)."""
    import pyarrow.parquet as pq

    from auto_challenge_sets.evaluation.stats.targeted_scores import score

    from toy_dataset import config_lines, corpus, write_folder, write_outputs

    c = corpus()
    lines = config_lines(c)
    roots = {"all": write_folder(tmp_path / "all", c),
             "d0": write_folder(tmp_path / "d0", c, {k: lines[k] for k in ("de-en.baseline", "de-en.particle.d0")})}
    for root in roots.values():
        for path in root.glob("data/de-en.particle.d*/*.parquet"):
            d = int(path.parent.name.rsplit(".d", 1)[1])
            table = pq.read_table(path)
            rows = table.to_pylist()
            for row in rows:
                extra = {"dependent": 2, "head": 3, "dependent_form": "x", "head_form": "y", "distance": 0}
                row["instances"] = [i for i in row["instances"] + [extra] if i["distance"] >= d]
            pq.write_table(table.from_pylist(rows, schema=table.schema), path)
    hyps = write_outputs(tmp_path, c)
    scored = {}
    for name, root in roots.items():
        request, folder_corpus, outputs = _inputs({"root": root, "hyps": hyps}, random_pairs=0)
        scored[name] = score(request, folder_corpus, outputs)[1]["de-en.particle.d0"]
    assert scored["all"] == scored["d0"]
    assert all(s.instances == 2 * len(lines["de-en.particle.d0"]) for s in scored["d0"].values())


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The packaged sample (hand-checked trees and alignment) and a second translation of it, the
    dataset's reference with the particle verb of lines 3, 5 and 13 reworded: "calls" -> "phones",
    "switches" -> "turns", "picked up" -> "lifted"."""
    from auto_challenge_sets.dataset.demo_folder import build_demo
    from auto_challenge_sets.demo_data import demo_file

    root = tmp_path_factory.mktemp("demo")
    build_demo(root / "sets")
    lines = demo_file("sample.en").read_text(encoding="utf-8").splitlines()
    lines[2], lines[4], lines[12] = "She phones him .", "He turns the old television off .", "She lifted the heavy box ."
    second = root / "second.en"
    second.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"sets": root / "sets", "second": second, "first": demo_file("sample.en")}


def _demo_run(demo, out, *flags: str) -> tuple[dict, str]:
    """acs evaluate on de-en.particle.d1 and .d3 of the sample with the second translation as system
    B (and the dataset's reference as system A): results.json and report.md."""
    import contextlib
    import io
    import json

    from auto_challenge_sets.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["evaluate", "--dataset", str(demo["sets"]), "--pair", "de-en", "--config",
                     "de-en.particle.d1,de-en.particle.d3", "--hyp", f"B={demo['second']}", f"A={demo['first']}",
                     "--targeted", "--n-samples", "3", "--quiet", "--out", str(out), *flags]) == 0
    return json.loads((out / "results.json").read_text(encoding="utf-8")), (out / "report.md").read_text(encoding="utf-8")


def test_the_judge_passes_a_second_translation_as_counted_by_hand(demo, tmp_path):
    """de-en.particle.d1 holds 10 particle instances (lines 3-7 and 9-13), each a sentence's verb and
    its particle, the reference's verb aligned to both: the second translation keeps the verb of 7
    and rewords 3, so the judge passes 7 of 10; of d3's 7 (lines 5-7, 9, 10, 12, 13) it passes 5,
    and over both configs each instance counts once: 7 of 10. Without --judge-ref: unmeasured, and said."""
    found, report = _demo_run(demo, tmp_path / "with", "--judge-ref", str(demo["second"]))
    judge = found["targeted"]["judge"]
    assert (judge["status"], judge["references"], judge["judged"], judge["correct"]) == ("measured", 1, 10, 7)
    assert judge["pass_rate"] == 0.7
    by_config = {name: (c["correct"], c["wrong"]) for name, c in judge["by_config"].items()}
    assert by_config == {"de-en.particle.d1": (7, 3), "de-en.particle.d3": (5, 2)}
    # the second translation as a system is judged exactly so: the judge reads it as it reads a system
    systems = {name: c["systems"]["B"]["targeted"] for name, c in found["configs"].items()}
    assert {name: (s["correct"], s["wrong"]) for name, s in systems.items()} == by_config
    assert "this judge passes 70% of a second human translation (10 instances judged;" in report
    assert "targeted accuracy is a diagnostic of reference-word recall, not a ranking measure" in report
    assert "| 2nd human translation | 70 | 71 |" in report  # beside the systems, per config
    alone, report = _demo_run(demo, tmp_path / "without")
    judge = alone["targeted"]["judge"]
    assert (judge["status"], judge["pass_rate"], judge["judged"], judge["by_config"]) == ("unmeasured", None, 0, {})
    assert "this judge is unmeasured (no second human translation (--judge-ref)" in report
    assert "2nd human translation" not in report


def test_all_refs_changes_the_systems_accuracy_and_never_lets_the_second_translation_judge_itself(demo, tmp_path):
    """--targeted-all-refs: the second translation given as --judge-ref also judges, so B (the same text)
    is right on its 3 reworded instances too (10 of 10, was 7); its own pass rate stays 7 of 10, it
    is judged against the dataset's reference alone, never against itself."""
    plain, _ = _demo_run(demo, tmp_path / "plain", "--judge-ref", str(demo["second"]))
    every, report = _demo_run(demo, tmp_path / "every", "--judge-ref", str(demo["second"]), "--targeted-all-refs")
    for found, expected in ((plain, (7, 3)), (every, (10, 0))):
        b = found["configs"]["de-en.particle.d1"]["systems"]["B"]["targeted"]
        assert (b["correct"], b["wrong"]) == expected
    assert "|refs:2|" in every["targeted"]["signature"] and "|refs:" not in plain["targeted"]["signature"]
    assert every["targeted"]["judge"] == plain["targeted"]["judge"]


def test_the_control_reads_the_parts_of_speech_and_counts_how_it_matched(demo, tmp_path):
    """The sample's rows carry source_upos; each particle sentence has one VERB, the instance's
    head, so no other pair has a VERB head and all 10 (7) instances fall back: counted, and said.
    The toy folder has no source_upos column: the control says it is not matched."""
    found, report = _demo_run(demo, tmp_path / "demo")
    assert found["targeted"]["control_upos"] is True
    assert found["targeted"]["control"] == {
        "de-en.particle.d1": {"instances": 10, "matched": 0, "head_only": 0, "unmatched": 10, "itself": 0},
        "de-en.particle.d3": {"instances": 7, "matched": 0, "head_only": 0, "unmatched": 7, "itself": 0}}
    assert ("random-pair control: pairs with the instance's head and dependent UPOS for 0% of 10 instances, with "
            "the head's UPOS only for 0%, with neither (no such pair in the sentence) for 100%") in report
    toy = _evaluate(make(tmp_path / "toy"))
    assert toy.targeted.control_upos is False and sum(m.instances for m in toy.targeted.control.values()) > 0
    assert all(m.unmatched + m.itself == m.instances for m in toy.targeted.control.values())


def test_the_targeted_tau_is_placed_among_the_random_pair_draws(tmp_path):
    """The targeted τ's percentile and mean are among the τ (scipy's) of the random-pair draws of
    score() over the systems, not among the metric's random corpora: with no draws it has none,
    while BLEU's τ keeps its own."""
    import numpy as np
    from scipy.stats import kendalltau

    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human
    from auto_challenge_sets.evaluation.stats.targeted_scores import score

    from toy_dataset import HUMAN

    toy = make(tmp_path)
    human = read_human(toy["human"], list(toy["hyps"]))
    config = "de-en.particle.d2"
    request = EvaluationRequest(toy["root"], toy["hyps"], config=config, metrics=("bleu",), n_samples=5,
                                paired_samples=20, seed=6, targeted=TargetedRequest("present", random_pairs=40))
    found = evaluate(request, human).configs[config].human_targeted
    targeted, corpus, outputs = _inputs(toy, random_pairs=40)
    draws = score(targeted, corpus, outputs, seed=6)[2][config]
    systems = list(HUMAN)
    taus = np.array([kendalltau([draws[s][k] for s in systems], [HUMAN[s] for s in systems]).statistic
                     for k in range(40)])
    taus = taus[np.isfinite(taus)]
    assert len(taus) > 30 and found.random_kendall_percentile == 100 * np.count_nonzero(taus <= found.kendall) / len(taus)
    assert found.random_kendall_mean == pytest.approx(taus.mean())
    none = evaluate(dataclasses.replace(request, targeted=TargetedRequest("present", random_pairs=0)), human)
    assert none.configs[config].human_targeted.random_kendall_percentile is None
    assert none.configs[config].human["bleu"].random_kendall_percentile is not None
