"""``acs evaluate --human`` on the hand-made toy folder: ``--human-alias A=B`` maps the table's
name A to the system B (not the other way round), and the correlation is scipy's over the
matched systems."""

from __future__ import annotations

import json

import pytest
from scipy.stats import kendalltau

from auto_challenge_sets.cli import main

from toy_dataset import SPLIT, make

HUMAN = {"Online-X.3": 0.2, "better": 0.45, "worse": -0.4}  # the table's names and scores


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> dict:
    toy = make(tmp_path_factory.mktemp("toy"))
    table = toy["tmp"] / "human.csv"
    table.write_text("SYS,Z.SCR\n" + "".join(f"{name},{score}\n" for name, score in HUMAN.items()), encoding="utf-8")
    return {**toy, "table": table}


def _evaluate(toy, capsys, *extra: str) -> tuple[int, dict, str]:
    rc = main(["evaluate", "--dataset", str(toy["root"]), "--config", "de-en.particle.d2", "--split", SPLIT,
               "--hyp", *(f"{s}={toy['hyps'][s]}" for s in ("good", "better", "worse")), "--metrics", "bleu",
               "--human", str(toy["table"]), "--json", "--n-samples", "5", "--paired-samples", "10", *extra])
    out, err = capsys.readouterr()
    return rc, json.loads(out) if rc == 0 else {}, err


def test_an_alias_maps_the_tables_name_to_the_system(toy, capsys):
    rc, payload, err = _evaluate(toy, capsys, "--human-alias", "Online-X.3=good")
    assert rc == 0, err
    assert payload["human_unmatched"] == {"table": [], "systems": []} and "matching no system" not in err
    full = payload["human_full"]["bleu"]
    systems = ["good", "better", "worse"]
    human = [HUMAN["Online-X.3"], HUMAN["better"], HUMAN["worse"]]
    assert full["systems"] == 3
    assert full["kendall"] == pytest.approx(kendalltau([payload["full"][s]["bleu"] for s in systems], human).statistic)


def test_an_alias_written_the_other_way_matches_nothing_and_says_so(toy, capsys):
    rc, payload, err = _evaluate(toy, capsys, "--human-alias", "good=Online-X.3")
    assert rc == 0, err
    assert payload["human_unmatched"] == {"table": ["Online-X.3"], "systems": ["good"]}
    assert "note: table rows matching no system: Online-X.3" in err
    assert payload["human_full"]["bleu"] is None  # two matched systems: no correlation
