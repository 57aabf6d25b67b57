"""`acs stats` and the size table."""

from __future__ import annotations

import json
from pathlib import Path

from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.dataset.integrity import describe_files
from auto_challenge_sets.tables import distance_table


def test_stats_prints_one_row_per_pair_phenomenon_and_split(tmp_path: Path, capsys) -> None:
    build_demo(tmp_path / "sets")
    assert main(["stats", str(tmp_path / "sets")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["pair", "phenomenon", "split", "all", "d0", "d1", "d2", "d3", "d4", "d5",
                                "d10", "d15", "d20", "d30"]
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in lines[2:] if line[:2] in ("de", "en")}
    assert rows["de-en", "particle"] == ["sample", "29", "11", "10", "9", "7", "5", "3"]
    # reorder shows 0 where a distance it is built with selected nothing
    assert rows["de-en", "reorder"][-2:] == ["0", "0"]  # d15, d20; reorder has no d30 column value
    assert rows["de-en", "crossing"][:2] == ["sample", "29"]
    # the distances that selected nothing are listed from the build record, and the 0 explained (a
    # German source has no prep_stranding row at all: not in its language profile)
    assert rows["en-de", "reflexive"] == ["sample", "29", "2", "0", "0", "0", "0", "0"]
    assert ("de-en", "prep_stranding") not in rows
    assert lines[-1] == "0: no sentence pair selected, so no config (datasets cannot load an empty split)"
    assert main(["stats", str(tmp_path / "sets"), "--markdown"]) == 0
    assert "| de-en | particle | sample | 29 | 11 | 10 | 9 | 7 | 5 | 3 |" in capsys.readouterr().out


def test_stats_on_a_folder_without_data(tmp_path: Path, capsys) -> None:
    assert main(["stats", str(tmp_path)]) == 2
    assert "has no README.md" in capsys.readouterr().err
    (tmp_path / "data" / "de-en.baseline").mkdir(parents=True)  # data, no card: a build that did not finish
    assert main(["stats", str(tmp_path)]) == 2
    assert "incomplete" in capsys.readouterr().err


def test_table_fills_zeros_only_for_built_distances() -> None:
    table = distance_table({"de-en.baseline": {"a": 10}, "de-en.particle.d0": {"a": 3},
                            "de-en.particle.d1": {"a": 2}}, markdown=True)
    assert "| de-en | particle | a | 10 | 3 | 2 | 0 | 0 | 0 | 0 |" in table
    assert "| de-en | baseline | a | 10 |" in table


def test_stats_warns_when_datasets_cache_holds_another_build_of_the_name(tmp_path: Path, monkeypatch, capsys) -> None:
    """A real load_dataset fills datasets' cache from one build; a later build of the same name
    with other sizes is told apart, naming the config, both sizes and the way out."""
    import pyarrow.parquet as pq
    from datasets import load_dataset

    cache = tmp_path / "hf-datasets"
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    old = tmp_path / "old" / "auto_challenge_sets"
    build_demo(old)
    assert load_dataset(str(old), "de-en.particle.d3", split="sample", cache_dir=str(cache)).num_rows == 7
    assert main(["stats", str(old)]) == 0
    assert "datasets' cache" not in capsys.readouterr().err  # the cached copy is this very build
    new = tmp_path / "new" / "auto_challenge_sets"
    build_demo(new)
    shard = next((new / "data" / "de-en.particle.d3").glob("sample-*.parquet"))
    pq.write_table(pq.read_table(shard).slice(0, 5), shard)  # a rebuild that selects fewer pairs
    _rerecord(new)  # as a rebuild records its files
    assert main(["stats", str(new)]) == 0
    err = capsys.readouterr().err
    assert "holds another build of 'auto_challenge_sets'" in err
    assert "de-en.particle.d3: sample: 7 rows cached, 5 here" in err and "load by path" in err


def _rerecord(folder: Path) -> None:
    record = json.loads((folder / "acs_build.json").read_text(encoding="utf-8"))
    for build in record["builds"]:
        build["files"] = describe_files(folder, build["pair"], build["corpus"])
    (folder / "acs_build.json").write_text(json.dumps(record), encoding="utf-8")


def test_doctor_names_an_older_cached_build_of_the_folder_here(tmp_path: Path, monkeypatch, capsys) -> None:
    import pyarrow.parquet as pq
    from datasets import load_dataset

    cache = tmp_path / "hf-datasets"
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    monkeypatch.chdir(tmp_path)
    build_demo(tmp_path / "auto_challenge_sets")
    load_dataset(str(tmp_path / "auto_challenge_sets"), "de-en.particle.d3", split="sample", cache_dir=str(cache))
    assert main(["doctor"]) == 0
    assert "datasets' cache holds no other build" in " ".join(capsys.readouterr().out.split())  # wrapped at 100
    shard = next((tmp_path / "auto_challenge_sets" / "data" / "de-en.particle.d3").glob("sample-*.parquet"))
    pq.write_table(pq.read_table(shard).slice(0, 5), shard)
    assert main(["doctor"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "holds another build of 1 config(s) (e.g. de-en.particle.d3)" in out and "load it by path" in out
