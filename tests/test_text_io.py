"""The one decoding policy of every reader, and atomic writes (text_io.py)."""

from __future__ import annotations

import io
import os
import re
import threading
from pathlib import Path

import pytest

from auto_challenge_sets.errors import ConlluError, InputError
from auto_challenge_sets.formats.text import (
    MAX_DIGITS,
    ascii_float,
    ascii_int,
    ascii_number,
    atomic_write_text,
    numbered_lines,
)


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), ("0012", 12), ("9" * 18, 10**18 - 1),
                                             ("9" * 19, None), ("", None), ("-1", None), ("+1", None),
                                             ("1.0", None), (" 1", None), ("²", None), ("٣", None),
                                             ("３", None), ("1a", None)])
def test_numbers_are_ascii_digits_up_to_max_digits(text: str, value: int | None) -> None:
    assert MAX_DIGITS == 18
    assert ascii_number(text) == value


def test_numbered_lines_drop_bom_and_lf_only_and_name_bad_lines() -> None:
    raw = b"\xef\xbb\xbfeins\r\nzwei\n\xef\xbb\xbfdrei\r\r\nvier"
    bom_files: list[str] = []
    assert list(numbered_lines(io.BytesIO(raw), "x.txt", bom_files=bom_files)) == [
        (1, "eins\r"), (2, "zwei"), (3, "\ufeffdrei\r\r"), (4, "vier")]
    assert bom_files == ["x.txt"]
    assert list(numbered_lines(io.BytesIO(b""), "x.txt")) == list(numbered_lines(io.BytesIO(b"\xef\xbb\xbf"), "x")) == []
    with pytest.raises(InputError, match=re.escape("a.txt:3: invalid UTF-8 (byte 3 of the line)")) as caught:
        list(numbered_lines(io.BytesIO(b"a\n\xc3\x84\nab\xc4rger\n"), "a.txt"))
    assert type(caught.value) is InputError and (caught.value.path, caught.value.line) == ("a.txt", 3)
    with pytest.raises(ConlluError, match=re.escape("x.conllu:2: invalid UTF-8 (byte 2 of the line)")):
        list(numbered_lines(io.BytesIO(b"ok\no\xe9\n"), "x.conllu", ConlluError))


def test_atomic_write_leaves_the_old_file_or_the_new_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.txt"
    atomic_write_text(path, "a\nb\n")
    assert path.read_bytes() == b"a\nb\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    atomic_write_text(str(path), "Ärger\n")
    assert path.read_bytes() == "Ärger\n".encode()
    names = []
    real_replace = os.replace

    def failing_replace(src, dst):
        names.append(Path(src).name)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space left on device"):
        atomic_write_text(path, "new\n")
    monkeypatch.setattr(os, "replace", real_replace)
    assert names == [f".out.txt.{os.getpid()}.{threading.get_ident()}.partial"]
    assert path.read_bytes() == "Ärger\n".encode() and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_write_that_cannot_start_raises_its_own_error(tmp_path: Path) -> None:
    """No temporary file was made: the cleanup must not hide the error with one of its own."""
    with pytest.raises(FileNotFoundError, match="No such file or directory") as caught:
        atomic_write_text(tmp_path / "missing" / "out.txt", "x")
    assert caught.value.__context__ is None and not (tmp_path / "missing").exists()


# -- numbers and booleans: ASCII only, strictly (issue 38 item 9) ---------------------------------

@pytest.mark.parametrize("text", ["٣", "１２", "+12", "1_2", " 12", "12 ", "", "-", "0x1", "1" * 19])
def test_integers_are_ascii_digits_only(text):
    assert ascii_int(text) is None


@pytest.mark.parametrize("text, value", [("12", 12), ("-3", -3), ("007", 7), ("9" * 18, 10**18 - 1)])
def test_ascii_integers_are_read(text, value):
    assert ascii_int(text) == value


@pytest.mark.parametrize("text", ["０.５", "٣", "+0.5", "1_0.5", "0.5.1", ".", "e3", "0,5", "½"])
def test_floats_are_ascii_only(text):
    assert ascii_float(text) is None


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("-.25", -0.25), ("1e-3", 0.001), ("2.", 2.0), ("-1E+2", -100.0)])
def test_ascii_floats_are_read(text, value):
    assert ascii_float(text) == value
