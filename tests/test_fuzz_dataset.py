"""Fuzzing the dataset folder's readers: the build record and the card's `configs:` front matter.

Whatever bytes those two files hold, reading them gives a record or a folder, or an InputError
naming the file — nothing else. ``ACS_FUZZ_EXAMPLES`` examples per test (default 100), derandomized
so CI always runs the same ones."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.dataset.record import BUILD_RECORD, read_build_record
from auto_challenge_sets.errors import InputError

FUZZ = settings(max_examples=int(os.environ.get("ACS_FUZZ_EXAMPLES", "100")), derandomize=True, deadline=None,
                database=None, suppress_health_check=[HealthCheck.too_slow])

JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                       max_leaves=12)
RECORD_LIKE = st.fixed_dictionaries({"format": st.just(3), "builds": st.lists(st.dictionaries(
    st.sampled_from(["pair", "corpus", "lines", "license", "parser", "source"]), JSONISH, max_size=6), max_size=3)})


@FUZZ
@given(st.one_of(st.binary(max_size=200), JSONISH.map(lambda v: json.dumps(v).encode()),
                 RECORD_LIKE.map(lambda v: json.dumps(v).encode())))
def test_any_build_record_reads_or_is_an_input_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / BUILD_RECORD).write_bytes(data)
        try:
            record = read_build_record(folder)
        except InputError as error:
            assert BUILD_RECORD in str(error)
            return
        assert isinstance(record["builds"], list)
        assert all({"pair", "corpus", "lines"} <= set(build) for build in record["builds"])


DATA_FILES = st.one_of(
    st.text(max_size=30), JSONISH,
    st.lists(st.fixed_dictionaries({"split": st.text(max_size=5), "path": st.one_of(
        st.sampled_from(["data/x/*.parquet", "../outside/*", "/etc/*", "data/**", "", "*"]), st.text(max_size=20))}),
        max_size=3))
CONFIGS = st.lists(st.one_of(JSONISH, st.fixed_dictionaries({"config_name": st.text(max_size=12),
                                                              "data_files": DATA_FILES})), max_size=4)


@FUZZ
@given(st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda text: ("---\n" + text + "\n---\n").encode("utf-8", "surrogatepass")),
    CONFIGS.map(lambda configs: ("---\n" + json.dumps({"configs": configs}) + "\n---\nbody\n").encode()),
))
def test_any_card_reads_or_is_an_input_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "sets"
        (root / "data" / "x").mkdir(parents=True)
        (root / "data" / "x" / "a.parquet").write_bytes(b"")
        (root / "README.md").write_bytes(data)
        try:
            dataset = DatasetFolder(root)
        except InputError:
            return
        inside = root.resolve()
        for splits in dataset.files.values():
            for paths in splits.values():
                assert all(path.resolve().is_relative_to(inside) for path in paths)
