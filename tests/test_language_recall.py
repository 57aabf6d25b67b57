"""Recall of each phenomenon x language on gold PUD (studies/language_recall.py): its arithmetic on
hand-made counts, the stored table counted from the verdicts file, and (with ../shared) the stored
table and candidate sample equal to a fresh draw (``--check``)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from conftest import REPO, shared_path

sys.path.insert(0, str(REPO / "studies"))

from language_recall import TABLE, VERDICTS, merge, recall  # noqa: E402


def test_recall_is_the_rules_true_instances_over_those_plus_the_estimated_misses() -> None:
    """90 rule instances at 9 of 10 correct (81 true) and 40 candidates of which 5 of 20 read are
    genuine (10 estimated): 81 / 91; the interval holds it and is not a point."""
    point, low, high = recall([(90, 9, 10)], 40, 5, 20)
    assert point == pytest.approx(100 * 81 / 91)
    assert low < point < high


def test_a_cell_with_no_genuine_miss_in_a_sample_still_has_an_interval_below_100() -> None:
    assert recall([(90, 10, 10)], 40, 0, 20)[1] < 99.0


def test_a_cell_whose_candidates_are_all_read_is_exact_on_their_side() -> None:
    """Every candidate judged and none genuine: recall is 100 whatever the precision; none at all: no recall."""
    assert recall([(90, 5, 10)], 12, 0, 12) == pytest.approx((100.0, 100.0, 100.0))
    assert recall([(0, 0, 0)], 4, 2, 4) == (0.0, 0.0, 0.0)
    assert recall([(0, 0, 0)], 0, 0, 0) is None
    assert recall([(90, 9, 10)], 40, 0, 0) is None  # candidates not judged yet


def test_the_precision_is_weighted_by_each_stratum_of_d() -> None:
    """80 instances at D = 1 all correct in 8 judged, 20 at D >= 5 all wrong in 8: 80 true, not the
    plain share's 50; with 20 genuine misses, 80 / 100. A stratum without verdicts takes the pooled share."""
    assert recall([(80, 8, 8), (20, 0, 8)], 20, 10, 10)[0] == pytest.approx(80.0)
    assert recall([(80, 8, 8), (20, 0, 0)], 20, 10, 10)[0] == pytest.approx(100 * 100 / 120)


def _row(name: str, dependent: str, verdict: str = "") -> dict:
    return {"lang": "de", "sent_id": "s1", "phenomenon": name, "D": "1", "dependent": dependent, "head": "1",
            "forms": "x", "verdict": verdict, "reason": "r" if verdict else ""}


def test_a_new_draw_keeps_the_verdicts_given_and_carries_them_to_a_renamed_phenomenon() -> None:
    kept = [_row("verb_final", "3", "missed"), _row("particle", "4", "not"), _row("particle", "9", "not")]
    drawn = [_row("subordinator", "3"), _row("particle", "4"), _row("particle", "5")]
    merged = merge(drawn, kept)
    assert [(row["phenomenon"], row["verdict"]) for row in merged] == [
        ("subordinator", "missed"), ("particle", "not"), ("particle", "")]


def test_the_recall_table_is_the_verdicts_file_counted() -> None:
    """Every candidate has a verdict and a reason; the stored table's judged and genuine-missed
    counts are the verdicts file's."""
    lines = VERDICTS.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:]]
    assert all(row["verdict"] in ("missed", "not") and row["reason"] for row in rows)
    judged = Counter((row["lang"], row["phenomenon"]) for row in rows)
    missed = Counter((row["lang"], row["phenomenon"]) for row in rows if row["verdict"] == "missed")
    table = [line.split("|")[1:-1] for line in TABLE.read_text(encoding="utf-8").splitlines()[4:]]
    assert table and all([int(c) for c in cells[5:7]] == [judged[cells[0].strip(), cells[1].strip()],
                                                           missed[cells[0].strip(), cells[1].strip()]] for cells in table)


@pytest.mark.shared
def test_the_stored_recall_table_equals_a_fresh_count() -> None:
    """studies/language_recall.py --check: the candidates drawn now are the judged ones, and the rule
    counts, precision verdicts and recall verdicts give the stored table."""
    shared = shared_path("data", "pud", "cs_pud-ud-test.conllu").parent.parent.parent
    done = subprocess.run([sys.executable, str(REPO / "studies" / "language_recall.py"), "--check",
                           "--shared", str(shared)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| de | particle | 109 |" in done.stdout
