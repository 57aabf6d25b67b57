"""User-defined phenomena: a query on the command line (--rule) and rules from installed packages
(entry point group auto_challenge_sets.phenomena), each building configs like the built-ins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import demo_file
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.registry import (
    PHENOMENA,
    find_instances,
    load_entry_point_phenomena,
)
from auto_challenge_sets.phenomena.rule_query import RuleQueryError, parse_rule_query
from auto_challenge_sets.phenomena.word_tests import WordTest

from conftest import shared_path


@pytest.mark.parametrize("text,message", [
    ("deprel=aux", "give the phenomenon a name"),
    ("name=x", "give at least one condition"),
    ("name=Light deprel=aux", "must be a lower-case identifier"),
    ("name=x colour=red", "unknown field 'colour'"),
    ("name=x head.colour=red", "unknown field 'head.colour'"),
    ("name=x deprel", "cannot read 'deprel'"),
    ("name=x name=y deprel=aux", "name= is given twice"),
    ("name=x feats=Case=Acc=Dat", "'feats=Case=Acc=Dat' has more than one '='; a feature is Name=Value"),
])
def test_bad_queries_say_which_term_and_why(text: str, message: str) -> None:
    with pytest.raises(RuleQueryError, match=message):
        parse_rule_query(text)


def test_error_messages_name_the_rules_of_names_and_fields() -> None:
    with pytest.raises(RuleQueryError) as caught:
        parse_rule_query("name=Light deprel=aux")
    assert str(caught.value).endswith("must be a lower-case identifier (letters, digits, _), as config names need")
    with pytest.raises(RuleQueryError) as caught:
        parse_rule_query("name=x colour=red")
    assert "(fields: form, lemma, upos, xpos, feats, deprel, misc, and head.FIELD for the head word)" in str(caught.value)


def test_feats_equal_is_a_feature_and_feats_prefix_is_the_column() -> None:
    """``feats=Number=Plur`` holds wherever the word has that feature; ``feats~Number=Plur`` only where its
    FEATS column starts with it; another field never reads a feature."""
    feature, prefix = parse_rule_query("name=a feats=Number=Plur").rule(), parse_rule_query("name=b feats~Number=Plur").rule()
    lemma = parse_rule_query("name=c lemma=Number=Plur").rule()
    seen = {"feature": 0, "prefix": 0, "feature only": 0}
    for sentence in read_conllu(shared_path("data", "pud", "de_pud-ud-test.conllu")):
        for word in sentence.words:
            head = sentence.words[word.head - 1] if word.head else word
            assert feature(word, head) == word.has_feature("Number", "Plur")
            assert prefix(word, head) == word.feats.startswith("Number=Plur")
            assert not lemma(word, head)
            seen["feature"] += feature(word, head)
            seen["prefix"] += prefix(word, head)
            seen["feature only"] += feature(word, head) and not prefix(word, head)
    assert seen["prefix"] > 0 and seen["feature only"] > 0, seen


def test_queries_select_what_the_built_in_rules_do_on_gold_pud() -> None:
    """A query that spells a built-in rule finds the same instances in every gold German sentence
    (for aux_bracket and verb_final, those with a VERB head: a query cannot run to a copula)."""
    pairs = [("name=q_aux deprel~aux head.upos=VERB", "aux_bracket"),
             ("name=q_reflexive feats=Reflex=Yes", "reflexive"),
             ("name=q_final upos=SCONJ deprel=mark head.upos=VERB", "verb_final")]
    rules = [(parse_rule_query(text), builtin) for text, builtin in pairs]
    for sentence in read_conllu(shared_path("data", "pud", "de_pud-ud-test.conllu")):
        for query, builtin in rules:
            rule = query.rule()
            words = sentence.words
            found = [w.id for w in words if w.head and rule(w, words[w.head - 1])]
            expected = [i.dependent for i in find_instances(sentence, builtin)
                        if builtin == "reflexive" or words[i.head - 1].upos == "VERB"]
            assert found == expected, (query.name, sentence.sent_id)


def _sample(out: Path) -> list[str]:
    return ["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
            "--target", str(demo_file("sample.en")), "--source-conllu", str(demo_file("sample.de.conllu")),
            "--aligner", "none", "--out", str(out), "--quiet"]


def test_a_rule_from_the_command_line_builds_configs(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sets"
    query = "name=det_noun deprel=det head.upos=NOUN"
    try:
        assert main([*_sample(out), "--rule", query]) == 0
        expected = sum(1 for s in read_conllu(demo_file("sample.de.conllu"))
                       if any(w.deprel == "det" and s.words[w.head - 1].upos == "NOUN" for w in s.words if w.head))
    finally:
        PHENOMENA.pop("det_noun", None)
    sizes = folder_sizes(out)
    assert sizes["de-en.det_noun.d0"] == {"sample": expected} and expected > 5
    assert "de-en.particle.d0" in sizes  # the built-ins are built too
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "phenomenon `det_noun`, added by the user: user rule: deprel=det head.upos=NOUN" in card
    assert "config_name: de-en.det_noun" in card
    capsys.readouterr()
    assert main(["stats", str(out)]) == 0
    assert any(line.split()[:2] == ["de-en", "det_noun"] for line in capsys.readouterr().out.splitlines())


def test_a_rule_for_other_source_languages_makes_no_config(tmp_path: Path) -> None:
    out = tmp_path / "sets"
    try:
        assert main([*_sample(out), "--rule", "name=test_hindi_det deprel=det lang=hi"]) == 0
    finally:
        PHENOMENA.pop("test_hindi_det", None)
    sizes = folder_sizes(out)
    assert "de-en.particle.d0" in sizes and not [name for name in sizes if ".test_hindi_det." in name]


def test_a_rule_may_not_take_a_built_in_name(tmp_path: Path, capsys) -> None:
    assert main([*_sample(tmp_path / "sets"), "--rule", "name=particle deprel=det"]) == 2
    assert "'particle' is a built-in phenomenon; choose another name" in capsys.readouterr().err
    assert PHENOMENA["particle"].description.startswith("a separable-verb")


def _installed_plugin(site: Path) -> None:
    """A package installed the way pip leaves one: its module and a dist-info with entry points."""
    (site / "my_ldd_rules.py").write_text(
        "def light_verb(word, head):\n"
        "    \"\"\"a verb's object or light-verb part: DEPREL obj or compound:lvc under a VERB\"\"\"\n"
        "    return word.deprel in ('obj', 'compound:lvc') and head.upos == 'VERB'\n"
        "from auto_challenge_sets.phenomena.word_tests import WordTest\n"
        "light_verb.word_test = WordTest('deprel', 'equals', ('obj', 'compound:lvc'))\n"
        "light_verb.languages = ('de', 'hi')\n"
        "def not_a_test(word):\n"
        "    return True\n"
        "not_a_test.word_test = 'deprel=obj'\n", encoding="utf-8")
    info = site / "my_ldd_rules-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-ldd-rules\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[auto_challenge_sets.phenomena]\nlight_verb = my_ldd_rules:light_verb\nmissing = my_ldd_rules:nowhere\n"
        "bad_test = my_ldd_rules:not_a_test\n",
        encoding="utf-8")


def test_an_entry_point_rule_brings_its_word_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _installed_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        with pytest.warns(UserWarning) as warned:
            loaded = load_entry_point_phenomena()
        assert loaded == ["light_verb"]
        assert PHENOMENA["light_verb"].word_test == WordTest("deprel", "equals", ("obj", "compound:lvc"))
        assert PHENOMENA["light_verb"].languages == frozenset({"de", "hi"})  # its languages attribute
        assert any("'bad_test'" in str(w.message) and "not a WordTest" in str(w.message) for w in warned)
    finally:
        PHENOMENA.pop("light_verb", None)


def test_a_rule_from_an_entry_point_builds_configs(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _installed_plugin(site)
    out = tmp_path / "sets"
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *_sample(out)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    # the broken entry point is skipped with a warning naming it; the build goes on
    assert "phenomenon 'missing' from my_ldd_rules:nowhere is not loaded" in done.stderr
    expected = sum(1 for s in read_conllu(demo_file("sample.de.conllu"))
                   if any(w.deprel in ("obj", "compound:lvc") and s.words[w.head - 1].upos == "VERB"
                          for w in s.words if w.head))
    assert expected > 5 and folder_sizes(out)["de-en.light_verb.d0"] == {"sample": expected}
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "phenomenon `light_verb`, added by the user: a verb's object or light-verb part" in card
    stats = subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", "stats", str(out)], env=env,
                           capture_output=True, text=True, timeout=300)
    assert any(line.split()[:2] == ["de-en", "light_verb"] for line in stats.stdout.splitlines())


def test_a_condition_built_directly_splits_its_feats_value_at_the_first_equals_sign() -> None:
    """parse_rule_query refuses a second ``=``; a Condition made by hand reads ``A=B=C`` as feature
    A with the value ``B=C`` (which FEATS ``A=B,B=C`` has), the split of its word_test."""
    from auto_challenge_sets.formats.ud import Token
    from auto_challenge_sets.phenomena.rule_query import Condition

    word = Token(1, "w", "w", "X", "_", "A=B,B=C", 0, "root", "_", "_")
    condition = Condition(False, "feats", "=", "A=B=C")
    assert condition.holds(word, word)
    assert condition.word_test() == WordTest("feats", "contains", "A=")


def test_a_rule_for_another_source_language_says_so_and_one_for_its_base_language_applies(tmp_path: Path,
                                                                                           capsys) -> None:
    rule = "name=test_chinese_det deprel=det lang=zh,hi"
    try:
        assert main([*_sample(tmp_path / "de"), "--rule", rule]) == 0
        assert [line for line in capsys.readouterr().err.splitlines() if "--rule" in line] == [
            f"note: --rule {rule!r} is for lang=hi,zh, not this build's source 'de': it makes no configs"]
        taiwan = [*_sample(tmp_path / "zh_TW"), "--rule", rule]
        assert main([*taiwan[:2], "zh_TW-en", *taiwan[3:]]) == 0  # zh_TW is zh: the rule applies
        assert "--rule" not in capsys.readouterr().err
    finally:
        PHENOMENA.pop("test_chinese_det", None)
    assert "zh_TW-en.test_chinese_det.d0" in folder_sizes(tmp_path / "zh_TW")
