"""``acs evaluate --human`` on the hand-made toy folder: ``--human-alias A=B`` maps the table's
name A to the system B (not the other way round), and the correlation is scipy's over the
matched systems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import kendalltau

from auto_challenge_sets.cli import main

from toy_dataset import SPLIT, Toy

HUMAN = {"Online-X.3": 0.2, "better": 0.45, "worse": -0.4}  # the table's names and scores


@pytest.fixture(scope="module")
def human_csv(toy) -> Path:
    """The toy's human scores as a CSV table (SYS, Z.SCR) naming the systems as WMT does."""
    table = toy["tmp"] / "human.csv"
    table.write_text("SYS,Z.SCR\n" + "".join(f"{name},{score}\n" for name, score in HUMAN.items()), encoding="utf-8")
    return table


def _evaluate(toy: Toy, table: Path, capsys, *extra: str) -> tuple[int, dict, str]:
    rc = main(["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT,
               "--hyp", *(f"{s}={toy['hyps'][s]}" for s in ("good", "better", "worse")), "--metrics", "bleu",
               "--human", str(table), "--json", "--n-samples", "5", "--paired-samples", "10", *extra])
    out, err = capsys.readouterr()
    return rc, json.loads(out) if rc == 0 else {}, err


def test_an_alias_maps_the_tables_name_to_the_system(toy, human_csv, capsys):
    rc, payload, err = _evaluate(toy, human_csv, capsys, "--human-alias", "Online-X.3=good")
    assert rc == 0, err
    assert payload["human_unmatched"] == {"table": [], "systems": []} and "matching no system" not in err
    full = payload["human_full"]["bleu"]
    systems = ["good", "better", "worse"]
    human = [HUMAN["Online-X.3"], HUMAN["better"], HUMAN["worse"]]
    assert full["systems"] == 3
    assert full["kendall"] == pytest.approx(kendalltau([payload["full"][s]["bleu"] for s in systems], human).statistic)


def test_an_alias_written_the_other_way_matches_nothing_and_says_so(toy, human_csv, capsys):
    rc, payload, err = _evaluate(toy, human_csv, capsys, "--human-alias", "good=Online-X.3")
    assert rc == 0, err
    assert payload["human_unmatched"] == {"table": ["Online-X.3"], "systems": ["good"]}
    assert "note: table rows matching no system: Online-X.3" in err
    assert payload["human_full"]["bleu"] is None  # two matched systems: no correlation


# --human-seg on the wide toy: a corpus with empty lines (120 lines, 111 rows), a second corpus of
# the pair (toydev, 40 lines) and a system name outside ASCII

@pytest.fixture(scope="module")
def wide(tmp_path_factory) -> dict:
    from toy_dataset import NON_ASCII, make_wide

    toy = make_wide(tmp_path_factory.mktemp("wide"))
    total = toy["lines"][SPLIT]
    table = toy["tmp"] / "seg.txt"
    names = {"better": "better.1", NON_ASCII: "MT-X.2"}  # the table's names: MT-X.2 is the alias
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{names[s]} {line} 70 {0.01 * (line % 7) - 0.2 * k} 1"
                                           for k, s in enumerate(names) for line in range(1, total + 1)]
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {**toy, "seg": table, "total": total}


def _evaluate_seg(wide, capsys, seg, *extra: str) -> tuple[int, str]:
    from toy_dataset import NON_ASCII

    rc = main(["evaluate", "--dataset", str(wide["root"]), "--config", "de-en.particle.d10", "--split", SPLIT,
               "--hyp", *(f"{s}={wide['hyps'][s]}" for s in ("better", NON_ASCII, "worse")), "--metrics", "bleu",
               "--human-seg", str(seg), "--json", "--n-samples", "5", "--paired-samples", "10", "--quiet", *extra])
    return rc, capsys.readouterr().err


def test_an_alias_maps_a_segment_tables_name_to_the_system(wide, capsys):
    from toy_dataset import NON_ASCII

    rc, err = _evaluate_seg(wide, capsys, wide["seg"], "--human-alias", f"MT-X.2={NON_ASCII}")
    assert rc == 0, err
    assert "MT-X.2" not in err and "systems without segment scores: worse" in err  # worse has none: a note
    rc, err = _evaluate_seg(wide, capsys, wide["seg"])
    assert rc == 0 and "segment scores of systems not evaluated: MT-X.2" in err
    assert f"systems without segment scores: {NON_ASCII}, worse" in err


def test_segment_ids_are_checked_against_the_corpus_lines_not_the_rows(wide, capsys, tmp_path):
    """The last SIDs (past the 111 rows, within the 120 lines, empty lines included) are corpus
    lines; one past them is an error naming the table's line."""
    rc, err = _evaluate_seg(wide, capsys, wide["seg"])
    assert rc == 0, err
    past = tmp_path / "seg.txt"
    past.write_text(wide["seg"].read_text(encoding="utf-8") + f"better.1 {wide['total'] + 1} 70 0.1 1\n",
                    encoding="utf-8")
    rc, err = _evaluate_seg(wide, capsys, past)
    at = 2 * wide["total"] + 2
    assert rc == 2 and err.strip().endswith(
        f"{past}:{at}: SID {wide['total'] + 1} (better) is past the corpus's {wide['total']} lines"), err
