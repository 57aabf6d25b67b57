"""The sets' provenance in an evaluation (evaluation/inputs.py reads it, results.py types it): one
line in the terminal's text, report.md and index.html; ``provenance`` in results.json, valid
against the schema; a folder built before provenance was recorded says so instead of failing;
and the targeted section of a run whose links are eflomal's on fewer than 10,000 pairs without
priors carries the warning beside its numbers (and no other run does). The records are the demo
build's, edited by hand where a case needs another aligner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from markupsafe import escape

from auto_challenge_sets.demo_data import demo_file
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
from auto_challenge_sets.evaluation.report.name_text import markdown_text
from auto_challenge_sets.evaluation.report.report_writer import markdown_report, text_report, write_report
from auto_challenge_sets.evaluation.report.sections.findings_section import text as findings_text
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.sentences import collect
from auto_challenge_sets.evaluation.stats.targeted_scores import alignment_warning

from conftest import check_results_json


@pytest.fixture
def demo(demo_sets) -> Path:
    return demo_sets


def _copy(demo: Path, tmp_path: Path, edit=None) -> Path:
    """The demo folder with its de-en record's provenance changed by ``edit(build)`` (files untouched)."""
    folder = tmp_path / "sets"
    shutil.copytree(demo, folder)
    if edit is not None:
        path = folder / "acs_build.json"
        record = json.loads(path.read_text(encoding="utf-8"))
        for build in record["builds"]:
            if build["pair"] == "de-en":
                edit(build)
        path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return folder


def _run(folder: Path, targeted: bool = True):
    request = EvaluationRequest(folder, {"ref": demo_file("sample.en")}, config="de-en.particle.d0,de-en.reflexive.d0",
                                pair="de-en", n_samples=3, metrics=("bleu",), min_rows=1,
                                targeted=TargetedRequest(random_pairs=0) if targeted else None)
    return evaluate(request), request


def _eflomal(pairs: int, priors: dict | None = None):
    def edit(build: dict) -> None:
        build["provenance"]["aligner"] = {
            "backend": "eflomal", "package": "eflomal", "version": "2.0.0", "model": None, "file": None, "sha256": None,
            "symmetrization": "grow-diag-final-and", "priors": priors, "priors_used": priors is not None,
            "options": {"seed": 1}, "pairs": pairs}
    return edit


def test_the_one_line_is_in_the_text_report_md_html_and_results_json(demo, tmp_path) -> None:
    evaluation, request = _run(demo, targeted=False)
    provenance = evaluation.provenance
    assert provenance.recorded and provenance.parser.backend == "conllu" and provenance.parser.file == "sample.de.conllu"
    assert provenance.aligner.backend == "pharaoh" and provenance.aligner.pairs == 29 and provenance.warning is None
    assert provenance.parser_label == "conllu (hand-checked gold trees)"
    line = provenance.summary
    assert line.startswith("parser conllu (sample.de.conllu, sha256 ") and "aligner pharaoh (sample.de-en.pharaoh" in line
    after = len(findings_text(evaluation))  # the findings first, then the header
    assert f"sets made by: {line}" in text_report(evaluation).splitlines()[after:after + 3]
    written = write_report(tmp_path / "out", evaluation, collect(request, evaluation))
    markdown = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert f"- **sets made by**: {markdown_text(line)}\n" in markdown.split("## How to read")[0]  # the header
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert f'<dt>sets made by</dt><dd class="provenance"><bdi>{escape(line)}</bdi></dd>' in page
    results = tmp_path / "out" / "results.json"
    assert results in written
    check_results_json(results)
    document = json.loads(results.read_text(encoding="utf-8"))
    assert document["schema"] == "acs-evaluation/4"
    assert document["provenance"]["summary"] == line and document["provenance"]["aligner"]["pairs"] == 29
    assert document["provenance"]["parser"]["sha256"] == provenance.parser.sha256


def test_a_folder_built_before_provenance_says_so_and_still_evaluates(demo, tmp_path) -> None:
    folder = _copy(demo, tmp_path, lambda build: build.pop("provenance"))
    evaluation, request = _run(folder, targeted=True)
    provenance = evaluation.provenance
    assert not provenance.recorded and provenance.parser is None and provenance.aligner is None
    assert provenance.summary == ("parser conllu (hand-checked gold trees); aligner pharaoh (hand alignment); "
                                  "provenance not recorded (built before acs_build.json recorded the parser's and "
                                  "aligner's models, checksums and versions; build again to record them)")
    assert f"sets made by: {provenance.summary}" in text_report(evaluation)
    assert evaluation.targeted.alignment_warning is None  # nothing recorded: nothing claimed
    write_report(tmp_path / "out", evaluation, collect(request, evaluation))
    check_results_json(tmp_path / "out" / "results.json")


def test_a_folder_without_a_record_of_the_split_says_so(demo, tmp_path) -> None:
    from auto_challenge_sets.evaluation.inputs import read_provenance

    found = read_provenance(None, "de-en", "sample")
    assert not found.recorded and found.summary == ("provenance not recorded (the folder's acs_build.json has no "
                                                    "build of de-en, split sample)")


@pytest.mark.parametrize(("pairs", "priors", "warned"), [
    (1_000, None, True),
    (9_999, None, True),
    (10_000, None, False),
    (1_000, {"file": "de-en.priors", "sha256": "ab" * 32}, False),
])
def test_the_targeted_section_warns_of_eflomal_on_fewer_than_10000_pairs_without_priors(demo, tmp_path, pairs, priors,
                                                                                      warned) -> None:
    folder = _copy(demo, tmp_path, _eflomal(pairs, priors))
    evaluation, request = _run(folder)
    expected = (f"these verdicts rest on the dataset's alignment column (the build's links): eflomal aligned {pairs:,} "
                "pairs without priors (fewer than 10,000): its links are noisy at this size")
    assert evaluation.targeted.alignment_warning == (expected if warned else None)
    assert (evaluation.provenance.warning is not None) == warned
    text = text_report(evaluation)
    section = text[text.index("targeted accuracy\n"):]
    assert (f"warning: {expected}" in section) == warned  # where the targeted numbers are
    markdown = markdown_report(evaluation, [])
    targeted = markdown[markdown.index("## Targeted accuracy"):]
    assert (f"> **warning**: {expected}" in targeted.split("### ")[0]) == warned  # above the first table
    write_report(tmp_path / "out", evaluation, collect(request, evaluation))
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('<section id="targeted">'):]
    section = section[:section.index("</section>")]
    assert (f'<p class="warning" role="note"><strong>Warning:</strong> {escape(expected)}</p>'
            in section) == warned
    check_results_json(tmp_path / "out" / "results.json")
    document = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert document["targeted"]["alignment_warning"] == (expected if warned else None)


def test_an_alignment_made_for_the_run_is_judged_by_its_own_pairs_not_the_builds() -> None:
    from auto_challenge_sets.evaluation.results import Provenance

    weak_build = Provenance(True, "line", warning="eflomal aligned 29 pairs without priors (fewer than 10,000): ...")
    here = {"backend": "eflomal", "priors_used": False, "pairs": 20_000}
    assert alignment_warning(here, weak_build) is None  # 19 systems' outputs and the references: enough pairs
    assert alignment_warning({**here, "pairs": 2_000}, None) == (
        "these verdicts rest on the links of the references and outputs aligned for this run: eflomal aligned 2,000 "
        "pairs without priors (fewer than 10,000): its links are noisy at this size")
    assert alignment_warning({**here, "backend": "simalign", "pairs": 10}, weak_build) is None
    assert alignment_warning(None, weak_build).startswith("these verdicts rest on the dataset's alignment column")


def test_wmt21_targeted_verdicts_on_its_1000_pair_eflomal_alignment_carry_the_warning(wmt21_de_en, tmp_path) -> None:
    """The suite's real UDPipe + eflomal build of WMT21 de-en: the targeted section the issue saw
    without a word of warning ("nach" aligned to "carrier." on line 188) now carries one."""
    from conftest import shared_path

    reference = shared_path("data", "wmt21", "references", "newstest2021.de-en.ref.A.en")
    request = EvaluationRequest(wmt21_de_en, {"A": reference}, config="de-en.particle.d1", split="newstest2021",
                                n_samples=3, metrics=("bleu",), targeted=TargetedRequest(random_pairs=0))
    evaluation = evaluate(request)
    pairs = evaluation.provenance.aligner.pairs
    assert evaluation.provenance.aligner.backend == "eflomal" and pairs < 10_000
    assert "udpipe" in evaluation.provenance.summary and "german.udpipe" in evaluation.provenance.summary
    assert evaluation.targeted.alignment_warning.endswith(f"eflomal aligned {pairs:,} pairs without priors (fewer "
                                                          "than 10,000): its links are noisy at this size")
    text = text_report(evaluation)
    assert f"warning: {evaluation.targeted.alignment_warning}" in text[text.index("targeted accuracy\n"):]
    write_report(tmp_path / "out", evaluation, collect(request, evaluation))
    check_results_json(tmp_path / "out" / "results.json")


def test_acs_evaluate_prints_the_one_line_in_its_terminal_summary(demo, capsys) -> None:
    from auto_challenge_sets.cli import main

    assert main(["evaluate", "--dataset", str(demo), "--pair", "de-en", "--config", "de-en.particle.d0",
                 "--hyp", str(demo_file("sample.en")), "--n-samples", "3", "--metrics", "bleu", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    made = [line for line in out if line.startswith("sets made by: ")]
    assert len(made) == 1 and made[0].startswith("sets made by: parser conllu (sample.de.conllu, sha256 ")
    assert out[0] == "findings" and out[out.index(made[0]) - 2].startswith("signature: ")  # the header, after the findings


@pytest.mark.parametrize("broken", [
    "a string",
    {"parser": None, "aligner": None},
    {"parser": {"backend": "udpipe"}, "aligner": {"pairs": 3}},
    {"parser": {"backend": "udpipe"}, "aligner": {"backend": "eflomal", "priors": {"sha256": "x"}}},
])
def test_a_provenance_a_build_never_writes_is_an_error_naming_the_record(demo, tmp_path, broken) -> None:
    from auto_challenge_sets.errors import InputError

    folder = _copy(demo, tmp_path, lambda build: build.update(provenance=broken))
    with pytest.raises(InputError) as raised:
        _run(folder, targeted=False)
    assert str(raised.value) == (f"{folder / 'acs_build.json'}: the provenance of build de-en/sample is not what acs "
                                 "build records (a parser and an aligner or null, each naming its backend): build "
                                 "again to record it")
