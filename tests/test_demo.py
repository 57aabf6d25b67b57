"""The packaged sample: both directions build, every rule fires, and sizes match an independent
reading of the hand-made trees and alignment."""

from __future__ import annotations

from pathlib import Path

import pytest
from datasets import load_dataset

from auto_challenge_sets.dataset.demo_folder import SAMPLE, build_demo, demo_file, reversed_alignment
from auto_challenge_sets.dataset.layout import folder_sizes
from auto_challenge_sets.formats.pharaoh import parse_pharaoh

from independent import independent_selection


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "sets"
    build_demo(out)
    return out


@pytest.mark.parametrize(("src", "tgt"), [("de", "en"), ("en", "de")])
def test_lexical_sizes_match_an_independent_reading(demo_folder: Path, src: str, tgt: str) -> None:
    expected, _ = independent_selection(demo_file(f"sample.{src}.conllu"), src)
    built = folder_sizes(demo_folder)
    for (phenomenon, minimum), n in expected.items():
        name = f"{src}-{tgt}.baseline" if phenomenon == "baseline" else f"{src}-{tgt}.{phenomenon}.d{minimum}"
        assert built.get(name, {}).get(SAMPLE, 0) == n, name


def test_every_phenomenon_is_represented(demo_folder: Path) -> None:
    sizes = folder_sizes(demo_folder)
    assert sizes["de-en.particle.d5"][SAMPLE] >= 2
    assert sizes["de-en.reflexive.d3"][SAMPLE] >= 2
    assert sizes["en-de.prep_stranding.d1"][SAMPLE] >= 1
    assert sizes["en-de.particle.d0"][SAMPLE] >= 1
    assert sizes["de-en.reorder.d10"][SAMPLE] >= 1
    assert sizes["de-en.baseline"][SAMPLE] == 29


def test_reorder_rows_follow_the_hand_alignment(demo_folder: Path, tmp_path: Path) -> None:
    alignment = [parse_pharaoh(line) for line in demo_file("sample.de-en.pharaoh").read_text().splitlines()]
    expected = {n for n, links in enumerate(alignment, start=1) if any(abs(i - j) >= 5 for i, j in links)}
    rows = load_dataset(str(demo_folder), "de-en.reorder.d5", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
    assert set(rows["line"]) == expected
    for row in rows:
        for instance in row["instances"]:
            assert instance["distance"] >= 5
            assert row["source_tokens"][instance["source_index"] - 1] == instance["source_form"]
            assert row["target_tokens"][instance["target_index"] - 1] == instance["target_form"]
    # the short name of reorder is its smallest D, 5
    short = load_dataset(str(demo_folder), "de-en.reorder", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
    assert sorted(short["line"]) == sorted(rows["line"])
    # en→de uses the same links reversed: the same pairs are selected.
    reverse = load_dataset(str(demo_folder), "en-de.reorder.d5", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
    assert set(reverse["line"]) == expected


def test_reversed_alignment(tmp_path: Path) -> None:
    source = tmp_path / "a.pharaoh"
    source.write_text("0-1 2-0\n\n1-1\n", encoding="utf-8")
    out = reversed_alignment(source, tmp_path / "b.pharaoh")
    assert out.read_text(encoding="utf-8") == "0-2 1-0\n\n1-1\n"


def test_sample_files_ship_with_a_license() -> None:
    assert "Apache" in demo_file("LICENSE").read_text(encoding="utf-8")
    assert len(demo_file("sample.de").read_text(encoding="utf-8").splitlines()) == 29


def test_the_reorder_measures_follow_the_hand_alignment(demo_folder: Path, tmp_path: Path) -> None:
    """reorder_norm and crossing rows against a straightforward reading of docs/method.md."""
    alignment = [parse_pharaoh(line) for line in demo_file("sample.de-en.pharaoh").read_text().splitlines()]
    rows = load_dataset(str(demo_folder), "de-en.baseline", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
    targets = {row["line"]: row["reference"].split() for row in rows}
    sources = {row["line"]: row["source_tokens"] for row in rows}

    def words(line: int, links: list) -> list:
        src, tgt = sources[line], targets[line]
        return [(i, j) for i, j in links if any(c.isalnum() for c in src[i]) and any(c.isalnum() for c in tgt[j])]

    def normalised(line: int, links: list) -> int:
        n, m = len(sources[line]), len(targets[line])
        return max((int(abs(i - j * n / m) + 1e-9) for i, j in words(line, links)), default=-1)

    def crossing(line: int, links: list) -> float:
        w = words(line, links)
        pairs = [(a, b) for k, a in enumerate(w) for b in w[k + 1:]]
        return 100 * sum((a[0] - b[0]) * (a[1] - b[1]) < 0 for a, b in pairs) / len(pairs) if pairs else -1

    for name, score, d in (("reorder_norm", normalised, 5), ("crossing", crossing, 5), ("crossing", crossing, 10)):
        expected = {n for n, links in enumerate(alignment, start=1) if n in sources and score(n, links) >= d}
        got = load_dataset(str(demo_folder), f"de-en.{name}.d{d}", split=SAMPLE, cache_dir=str(tmp_path / "hf"))
        assert set(got["line"]) == expected and expected, (name, d)
