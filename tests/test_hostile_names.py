"""Names a build must refuse before any work: a --rule or --phenomena name that is another config
family's or is given twice, a rule that would give one config name two meanings in a folder, a
card whose markers are broken. Each is exit 2 with one line naming the argument (or file:line),
and leaves no file behind and the previous folder as it was. Then what --replace-rule does."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo import demo_file
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.errors import AcsError
from auto_challenge_sets.phenomena import PHENOMENA, register_phenomenon, unregister_phenomenon

NSUBJ = "name=lv deprel=nsubj"
OBJ = "name=lv deprel=obj"


def _build(out: Path, corpus: str = "first", *extra: str) -> list[str]:
    return ["build", "--pair", "de-en", "--corpus", corpus, "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--aligner", "none", "--out", str(out), "--quiet", *extra]


@pytest.fixture(autouse=True)
def registry() -> Iterator[None]:
    """Rules a command registered in this process go again, so that each case starts alike."""
    before = set(PHENOMENA)
    yield
    for name in set(PHENOMENA) - before:
        unregister_phenomenon(name)


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with split 'first' built with rule lv = nsubj."""
    out = tmp_path_factory.mktemp("previous") / "sets"
    try:
        assert main(_build(out, "first", "--rule", NSUBJ)) == 0
    finally:
        unregister_phenomenon("lv")
    return out


def _files(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def _break_an_end_marker(out: Path) -> None:
    card = out / "README.md"
    card.write_text(card.read_text(encoding="utf-8").replace("<!-- acs:end fields -->\n", ""), encoding="utf-8")


# (id, extra arguments, whether a previous folder is there (the build is then of split 'second'), what the
# one line says)
CASES = [
    ("baseline", ["--rule", "name=baseline deprel=det"], False,
     r"--rule 'name=baseline deprel=det': 'baseline' is the full corpus's config; choose another name"),
    ("built-in lexical", ["--rule", "name=particle deprel=det"], False,
     r"--rule 'name=particle deprel=det': 'particle' is a built-in phenomenon; choose another name"),
    ("built-in on the tree, by head", ["--rule", "name=verb_final upos=SCONJ"], False,
     r"--rule 'name=verb_final upos=SCONJ': 'verb_final' is a built-in phenomenon"),
    ("alignment measure", ["--rule", "name=reorder deprel=det"], False,
     r"--rule 'name=reorder deprel=det': 'reorder' is a built-in alignment measure"),
    ("another alignment measure", ["--rule", "name=crossing deprel=det"], False,
     r"--rule 'name=crossing deprel=det': 'crossing' is a built-in alignment measure"),
    ("phenomenon twice", ["--phenomena", "particle", "particle"], False,
     r"--phenomena names 'particle' twice"),
    ("the same rule twice", ["--rule", OBJ, "--rule", OBJ], False,
     r"--rule 'name=lv deprel=obj': the name 'lv' is given twice \(also by --rule 'name=lv deprel=obj'\)"),
    ("one name, two rules", ["--rule", NSUBJ, "--rule", OBJ], False,
     r"--rule 'name=lv deprel=obj': the name 'lv' is given twice \(also by --rule 'name=lv deprel=nsubj'\)"),
    ("replace what no rule names", ["--rule", OBJ, "--replace-rule", "lx"], False,
     r"--replace-rule 'lx': no --rule of this build nor installed rule is named so"),
    ("replace without a rule", ["--replace-rule", "lv"], False,
     r"--replace-rule 'lv': no --rule of this build nor installed rule is named so"),
    ("a name that is no identifier", ["--rule", "name=Baseline deprel=det"], False,
     r"rule 'name=Baseline deprel=det': the name 'Baseline' must be a lower-case identifier"),
    ("another split has another rule of the name", ["--rule", OBJ], True,
     r"rule 'lv' means 'user rule: deprel=obj' in this build but 'user rule: deprel=nsubj' in split 'first' "
     r"of the folder \(acs_build.json\): config de-en.lv would mean both; .*--replace-rule lv$"),
    ("a card with an end marker gone", [], True,
     r"README.md:\d+: '<!-- acs:begin provenance -->' inside block 'fields', which has no end marker"),
]


@pytest.mark.parametrize(("extra", "existing", "message"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_refused_before_any_work_in_one_line(extra: list[str], existing: bool, message: str, previous: Path,
                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sets"
    if existing:
        shutil.copytree(previous, out)
        (tmp_path / ".sets.lock").touch()  # left by the previous build, as a build leaves it
        if not extra:
            _break_an_end_marker(out)
    args = _build(out, "second" if existing else "first", *extra)
    before, registered = _files(tmp_path), set(PHENOMENA)
    capsys.readouterr()
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert re.fullmatch(r"acs build: error: .*", lines[0]) and re.search(message, lines[0]), lines[0]
    assert _files(tmp_path) == before  # nothing new beside or in the folder, the previous one as it was
    if not existing:
        assert set(PHENOMENA) == registered  # refused before registering any rule


def test_replace_rule_drops_the_other_splits_of_that_config(previous: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sets"
    shutil.copytree(previous, out)
    assert main(_build(out, "third", "--phenomena", "particle")) == 0  # a split without the rule keeps it
    assert set(folder_sizes(out)["de-en.lv.d0"]) == {"first"}
    assert main(_build(out, "second", "--rule", OBJ, "--replace-rule", "lv")) == 0
    sizes = folder_sizes(out)
    assert all(set(sizes[f"de-en.lv.d{d}"]) == {"second"} for d in range(6) if f"de-en.lv.d{d}" in sizes)
    assert sizes["de-en.particle.d0"].keys() == {"first", "second", "third"}  # the other configs keep them
    record = {b["corpus"]: b for b in json.loads((out / "acs_build.json").read_text(encoding="utf-8"))["builds"]}
    assert "user_rules" not in record["first"] and record["second"]["user_rules"] == {"lv": "user rule: deprel=obj"}
    assert not [path for path in record["first"].get("files", {}) if "/de-en.lv." in path]
    assert not [name for name in record["first"]["empty_configs"] if ".lv." in name]
    card = (out / "README.md").read_text(encoding="utf-8")
    assert card.count("added by the user") == 1 and "`lv`, added by the user: user rule: deprel=obj" in card
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0  # the record and the files agree (integrity checks)


def test_a_rule_may_change_in_a_rebuild_of_its_own_split_and_repeat_in_another(previous: Path,
                                                                               tmp_path: Path) -> None:
    out = tmp_path / "sets"
    shutil.copytree(previous, out)
    assert main(_build(out, "first", "--rule", OBJ)) == 0  # the same split: its record is replaced
    unregister_phenomenon("lv")
    assert main(_build(out, "second", "--rule", OBJ)) == 0  # the same definition: one meaning
    assert set(folder_sizes(out)["de-en.lv.d0"]) == {"first", "second"}


def test_the_python_api_refuses_the_same_names() -> None:
    common = {"pair": "de-en", "corpus": "c", "source": demo_file("sample.de"), "target": demo_file("sample.en"),
              "source_conllu": demo_file("sample.de.conllu")}
    with pytest.raises(AcsError, match="phenomena names 'particle' twice"):
        BuildSpec(**common, phenomena=("particle", "particle"))
    for name in ("reorder", "baseline", "nothing"):
        with pytest.raises(AcsError, match=f"phenomena: '{name}' is not a phenomenon found on the source tree"):
            BuildSpec(**common, phenomena=(name,))
    with pytest.raises(AcsError, match="lexical_distances gives a distance twice: 1, 2, 1"):
        BuildSpec(**common, lexical_distances=(1, 2, 1))
    with pytest.raises(ValueError, match="'baseline' is the full corpus's config"):
        register_phenomenon("baseline", "every word")(lambda word: True)
    assert "baseline" not in PHENOMENA
