"""The human-score table reader (evaluation/human.read_human): each way a table can be wrong is one
InputError naming file:line and saying what is wrong, in full; the format is told by the header."""

from __future__ import annotations

import re

import pytest

from auto_challenge_sets.errors import InputError
from auto_challenge_sets.evaluation.stats.human import read_human


def _table(tmp_path, text: str, name: str = "human.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text,where,message", [
    ("\n  \n", "", "is empty: a human-score table needs a header and a row per system"),
    ("SYS,SCORE\nA,1\n", ":1", "has no column 'Z.SCR' (columns: SYS, SCORE)"),
    ("\nSYS Z.SCR\n\nA 0.5\nB\n", ":5", "has 1 columns, the header 2"),
    ("SYS Z.SCR\nA 0.5\nB high\n", ":3", "score 'high' is not a number"),
    ("SYS Z.SCR\nA.1 0.5\nA.2 0.7\n", ":3", "'A.2' is a second row for system 'A' (the first is on line 2): one row per system"),
    ("SYS Z.SCR\nX 0.5\nX 0.7\n", ":3", "a second row for 'X' (the first is on line 2): one row per system"),
])
def test_a_bad_table_is_one_error_naming_its_line(tmp_path, text, where, message):
    path = _table(tmp_path, text)
    with pytest.raises(InputError) as error:
        read_human(path, ["A", "B"])
    assert str(error.value) == f"{path}{where}: {message}"


def test_a_white_space_table_stays_one_even_with_a_comma_in_a_row(tmp_path):
    """The header decides the format: a system name with a comma in a white-space table is a name."""
    path = _table(tmp_path, "SYS Z.SCR\nsys,1 0.5\nB 0.1\n")
    human = read_human(path, ["sys,1", "B"])
    assert human.scores == {"sys,1": 0.5, "B": 0.1}


def test_a_csv_table_keeps_quoted_cells_and_line_numbers(tmp_path):
    path = _table(tmp_path, 'SYS,Z.SCR\n\n"A, the first",0.5\nB,zero\n', "human.csv")
    with pytest.raises(InputError, match=re.escape(f"{path}:4: score 'zero' is not a number")):
        read_human(path, ["A, the first", "B"])


def test_the_row_reader_takes_the_callers_empty_message_and_error_class(tmp_path):
    """numbered_table_rows as the segment table reads it: its own message for an empty file, its own
    error class for a line that is not UTF-8 (the human table's: CorpusError)."""
    from auto_challenge_sets.errors import AlignmentError, CorpusError
    from auto_challenge_sets.evaluation.stats.human import numbered_table_rows

    empty = _table(tmp_path, "\n\n", "empty.txt")
    with pytest.raises(InputError) as error:
        numbered_table_rows(empty, "has nothing")
    assert str(error.value) == f"{empty}: has nothing"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"SYS Z.SCR\n\xff 0.5\n")
    with pytest.raises(InputError) as error:
        numbered_table_rows(bad, error=AlignmentError)
    assert type(error.value) is AlignmentError
    with pytest.raises(InputError) as error:
        read_human(bad, ["A"])
    assert type(error.value) is CorpusError
    assert numbered_table_rows(_table(tmp_path, "\nSYS,Z.SCR\n\n A , 1 \n")) == [(2, ["SYS", "Z.SCR"]), (4, ["A", "1"])]
    assert numbered_table_rows(_table(tmp_path, "SYS  Z.SCR\nA\t1\n")) == [(1, ["SYS", "Z.SCR"]), (2, ["A", "1"])]
