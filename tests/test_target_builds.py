"""English-source builds into every other PUD language (gold English trees, eflomal), built once
into one folder; the reorder figures of docs/method.md are their row counts; `acs evaluate` with
targeted accuracy on en→zh (characters, exact match) and en→hi (lemmas), with system outputs made
here from the PUD reference."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import conllu
import pyarrow.parquet as pq
import pytest

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.formats.pharaoh import parse_pharaoh
from auto_challenge_sets.formats.target_languages import target_tokens
from auto_challenge_sets.phenomena.profiles import source_phenomena

from conftest import shared_path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "studies"))

from stored_table import ALLOWED, stated_spread  # noqa: E402

TARGETS = ("cs", "de", "es", "fr", "hi", "is", "ru", "zh")
MEASURES = {"reorder": 5, "reorder_norm": 5, "crossing": 5}  # each measure's default D


def _by_id(lang: str) -> dict[str, str]:
    with open(shared_path("data", "pud", f"{lang}_pud-ud-test.conllu"), encoding="utf-8") as handle:
        return {sentence.metadata["sent_id"]: sentence.metadata["text"] for sentence in conllu.parse_incr(handle)}


def _texts(lang: str) -> list[str]:
    """The PUD sentences of ``lang`` in the English treebank's order: Icelandic PUD orders 500 of
    its 1,000 sentences otherwise, so pairing the files line by line would mismatch them."""
    texts = _by_id(lang)
    return [texts[sent_id] for sent_id in _by_id("en")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("en_to_all")
    for lang in ("en", *TARGETS):
        (root / f"pud.{lang}").write_text("".join(line + "\n" for line in _texts(lang)), encoding="utf-8")
    out = root / "out"
    for target in TARGETS:
        assert main(["build", "--pair", f"en-{target}", "--corpus", "pud", "--source", str(root / "pud.en"),
                     "--target", str(root / f"pud.{target}"),
                     "--source-conllu", str(shared_path("data", "pud", "en_pud-ud-test.conllu")),
                     "--out", str(out), "--license", "cc-by-sa-3.0", "--quiet", "--aligner", "eflomal"]) == 0
    return {"root": root, "out": out}


def _rows(out: Path, config: str) -> list[dict]:
    return [row for path in sorted((out / "data" / config).glob("*.parquet")) for row in pq.read_table(path).to_pylist()]


def test_every_target_has_every_english_phenomenon_and_the_reorder_configs(built: dict[str, Path]) -> None:
    sizes = folder_sizes(built["out"])
    for target in TARGETS:
        pair = f"en-{target}"
        for name in [*source_phenomena("en"), *MEASURES]:
            configs = [c for c in sizes if c.startswith(f"{pair}.{name}.d")]
            smallest = min(configs, key=lambda c: int(c.rsplit(".d", 1)[1]))
            assert sizes[smallest]["pud"] > 0, f"{smallest} is empty"
        assert sizes[f"{pair}.baseline"] == {"pud": 1000}


def test_chinese_rows_align_characters_and_say_so(built: dict[str, Path]) -> None:
    rows = _rows(built["out"], "en-zh.crossing.d5")
    assert rows
    for row in rows[:50]:
        tokens = row["target_tokens"]
        assert tokens == target_tokens(row["reference"], "zh")
        assert "".join(tokens) == "".join(row["reference"].split())  # every character kept, in order
        assert all(j < len(tokens) for _, j in parse_pharaoh(row["alignment"]))
    han = re.compile(r"[\u4e00-\u9fff]")
    assert not [t for row in rows for t in row["target_tokens"] if len(han.findall(t)) > 1]  # one Han character each
    record = json.loads((built["out"] / "acs_build.json").read_text(encoding="utf-8"))
    found = json.dumps(record, ensure_ascii=False)
    assert "characters (sacrebleu's zh tokenizer)" in found


def test_the_reorder_figures_in_the_docs_are_these_builds_row_counts(built: dict[str, Path]) -> None:
    """docs/method.md's table (studies/reorder_targets.py) aligns as the build does: each share
    selected is the build's config's rows over 1,000, within what the spread over eflomal seeds that
    the table states allows (eflomal's links differ from one CPU to another); the distant pairs rank
    above en→es."""
    method = (REPO / "docs" / "method.md").read_text(encoding="utf-8")
    block = method.split("<!-- table reorder-targets:", 1)[1].split("<!-- end of table reorder-targets", 1)[0]
    points, _ = stated_spread(block)
    sizes = folder_sizes(built["out"])
    shares = {}
    for target in TARGETS:
        line = next(line for line in block.splitlines() if line.startswith(f"| en→{target} |"))
        cells = [c.strip() for c in line.strip("|").split("|")][2:]
        for k, (name, d) in enumerate(MEASURES.items()):
            share = float(cells[2 * k].rstrip("%"))
            assert share == pytest.approx(sizes[f"en-{target}.{name}.d{d}"]["pud"] / 10, abs=ALLOWED * points + 1e-9), (target, name)
            shares[target, name] = share
    for name in MEASURES:
        assert min(shares["zh", name], shares["hi", name]) > shares["es", name]
    assert re.search(r"`crossing`: yes\.", block)


def _damaged(reference: str, links: str, heads: list[int], target: str) -> str:
    """The reference without the tokens aligned to the given source words (0-based): each
    instance's expected head gone. Chinese tokens are characters, joined without spaces."""
    tokens = target_tokens(reference, target)
    gone = {j for i, j in parse_pharaoh(links) if i in heads}
    kept = [t for j, t in enumerate(tokens) if j not in gone]
    return ("" if target == "zh" else " ").join(kept)


@pytest.mark.parametrize(("target", "match"), [("zh", "match:exact"), ("hi", "match:lemma-simplemma-hi")])
def test_acs_evaluate_scores_targeted_accuracy_on_a_distant_target(built: dict[str, Path], tmp_path: Path,
                                                                   target: str, match: str) -> None:
    """Two hand-made systems: the reference itself (every judged instance correct) and the
    reference with each subj_verb.d1 row's first instance's head words deleted (that instance can
    no longer be correct unless its words occur elsewhere in the sentence)."""
    pair, config = f"en-{target}", f"en-{target}.subj_verb.d1"
    references = _texts(target)
    damaged = list(references)
    rows = _rows(built["out"], config)
    for row in rows:
        damaged[row["line"] - 1] = _damaged(row["reference"], row["alignment"], [row["instances"][0]["head"] - 1],
                                            target)
    copy, broken = tmp_path / f"copy.{target}", tmp_path / f"broken.{target}"
    copy.write_text("".join(line + "\n" for line in references), encoding="utf-8")
    broken.write_text("".join(line + "\n" for line in damaged), encoding="utf-8")
    out = tmp_path / "report"
    assert main(["evaluate", "--dataset", str(built["out"]), "--pair", pair, "--split", "pud",
                 "--config", f"{config},en-{target}.aux_bracket.d1", "--hyp", str(copy), str(broken),
                 "--targeted", "--n-samples", "5", "--targeted-random-pairs", "10", "--quiet",
                 "--tokenize", "zh" if target == "zh" else "13a", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    signature = results["targeted"]["signature"]
    tokens = "tok:sacrebleu-zh" if target == "zh" else "tok:space"
    assert f"|{match}|" in signature and f"|{tokens}" in signature
    scored = results["configs"][config]["systems"]
    assert scored["copy"]["targeted"]["accuracy"] == 1.0
    judged = scored["broken"]["targeted"]["correct"] + scored["broken"]["targeted"]["wrong"]
    assert judged == scored["copy"]["targeted"]["correct"] > 0
    assert scored["broken"]["targeted"]["wrong"] > 0.5 * len(rows)
    untouched = results["configs"][f"en-{target}.aux_bracket.d1"]["systems"]["copy"]["targeted"]
    assert untouched["accuracy"] == 1.0
