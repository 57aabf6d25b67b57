"""The configs as the evaluation reads them (evaluation/inputs.py): which are small, and which hold
the rows of an earlier one, on hand-made folders in the toy's layout (counts by hand)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.errors import CorpusError, InputError
from auto_challenge_sets.evaluation.inputs import (
    _check_line_lengths,
    _check_lines,
    choose_configs,
    read_corpus,
    read_provenance,
    read_systems,
)
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.evaluation.results import (
    AlignerProvenance,
    FileDigest,
    ParserProvenance,
    Provenance,
)
from auto_challenge_sets.formats.corpus import STDIN, ReadReport
from auto_challenge_sets.pipeline.build_provenance import NOT_RECORDED, summary_line

from toy_dataset import SPLIT, N, corpus, rows_table, write_folder, write_outputs

C = corpus()
LINES = [n for n in range(1, N + 1) if C["distances"][n - 1] >= 5]  # rows every particle config may hold


def _folder(tmp_path, configs: dict[str, list[int]]):
    c = C
    root = write_folder(tmp_path / "ldd", c, {"de-en.baseline": list(range(1, N + 1)), **configs})
    return root, write_outputs(tmp_path, c)


def test_three_configs_with_the_same_rows_all_name_the_first(tmp_path):
    """d2 and d3 hold d1's rows (d2 in another order): both point to d1, the earliest, not d3 to
    d2; d4 differs by one row and points nowhere."""
    root, hyps = _folder(tmp_path, {"de-en.particle.d1": LINES, "de-en.particle.d2": LINES[::-1],
                                    "de-en.particle.d3": LINES, "de-en.particle.d4": LINES[:-1]})
    found = {c.name: c.same_rows_as for c in read_corpus(EvaluationRequest(root, hyps, n_samples=5)).configs}
    assert found == {"de-en.particle.d1": None, "de-en.particle.d2": "de-en.particle.d1",
                     "de-en.particle.d3": "de-en.particle.d1", "de-en.particle.d4": None}


@pytest.mark.parametrize(("extra", "small"), [(-1, False), (0, False), (1, True)])
def test_small_means_fewer_rows_than_min_rows(tmp_path, extra, small):
    """The documented rule (--min-rows: "configs with fewer rows are ... flagged small"): a config
    of exactly min_rows rows is not small, one row short of it is."""
    root, hyps = _folder(tmp_path, {"de-en.particle.d1": LINES})
    rows = len(LINES)
    (config,) = read_corpus(EvaluationRequest(root, hyps, n_samples=5, min_rows=rows + extra)).configs
    assert len(config.positions) == rows > 5 and config.small is small


def test_each_corpus_of_a_pair_has_its_own_line_count(tmp_path):
    """Two corpora of one pair (the wide toy: toytest 120 lines with empty ones, toydev 40): each
    split's corpus lines are its own build's, not the first build of the pair's."""
    from auto_challenge_sets.dataset.record import corpus_lines

    from toy_dataset import make_wide

    toy = make_wide(tmp_path)
    for split, lines in toy["lines"].items():
        assert corpus_lines(toy["root"], "de-en", split) == lines
        corpus = read_corpus(EvaluationRequest(toy["root"], {"a": "a.txt"}, config="de-en.particle.d3", split=split,
                                               metrics=("bleu",), n_samples=5))
        assert corpus.total_lines == lines
        assert max(corpus.base["line"]) > lines - 13 and len(corpus.base["line"]) < lines  # empty lines have no row
    assert corpus_lines(toy["root"], "en-de", "toytest") is None


# Issue 38 (item 14): what the evaluation refuses, and the messages, files and lines it names; the
# provenance it reads from the build record; the systems' lines as they are matched to the rows.
# Hand-made folders: `_write` takes configs as {name: {split: corpus lines}}.

def _write(root: Path, configs: dict[str, dict[str, list[int]]], c=C, record: list[dict] | None = None,
           drop: tuple[str, ...] = ()) -> Path:
    card = ["---", "configs:"]
    for name, splits in configs.items():
        card += [f"- config_name: {name}", "  data_files:"]
        for split, lines in splits.items():
            folder = root / "data" / name
            folder.mkdir(parents=True, exist_ok=True)
            table = rows_table(c, lines, name.split(".")[1] if "." in name else name)
            src, _, tgt = name.split(".")[0].partition("-")
            table = table.set_column(table.schema.get_field_index("src_lang"), "src_lang", pa.array([src] * len(lines)))
            table = table.set_column(table.schema.get_field_index("tgt_lang"), "tgt_lang", pa.array([tgt] * len(lines)))
            pq.write_table(table.drop_columns(list(drop)), folder / f"{split}-00000-of-00001.parquet")
            card += [f"  - split: {split}", f"    path: data/{name}/{split}-*"]
    card += ["---", "", "# A hand-made LDD dataset", ""]
    (root / "README.md").write_text("\n".join(card), encoding="utf-8")
    if record is not None:
        from auto_challenge_sets.dataset.integrity import describe_files

        builds = [{"files": describe_files(root, b["pair"], b["corpus"]), **b} for b in record]
        (root / "acs_build.json").write_text(json.dumps({"format": 3, "license": "other", "builds": builds}),
                                              encoding="utf-8")
    return root


def _refused(call) -> tuple[str, str | None, int | None]:
    with pytest.raises(InputError) as caught:
        call()
    return caught.value.reason, caught.value.path, caught.value.line


ALL_LINES = list(range(1, N + 1))
PARTICLES = {f"de-en.particle.d{d}": {SPLIT: LINES} for d in range(6)}


def _names(tmp_path, extra: dict[str, dict[str, list[int]]] | None = None) -> tuple[Path, DatasetFolder]:
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, **PARTICLES, **(extra or {})})
    return root, DatasetFolder(root)


def test_a_mistyped_config_is_told_the_three_nearest_names(tmp_path):
    """difflib's three closest (n=3, cutoff 0.6); equally close ones in difflib's order."""
    root, folder = _names(tmp_path)
    assert _refused(lambda: choose_configs(folder, "de-en.particle.d9")) == (
        "has no config 'de-en.particle.d9' (did you mean de-en.particle.d5 or de-en.particle.d4 or "
        "de-en.particle.d3?)", str(root / "README.md"), None)


@pytest.mark.parametrize(("extra", "listed"), [
    ({}, ""),  # 7 configs: all of them
    ({"de-en.reorder.d5": {SPLIT: LINES}}, ""),  # 8: still all of them
    ({"de-en.reorder.d5": {SPLIT: LINES}, "de-en.reorder.d6": {SPLIT: LINES}},
     ", … 1 more: `acs stats` lists them"),  # 9: the first 8 and a count
])
def test_a_name_near_no_config_is_told_at_most_eight_configs_and_how_many_more(tmp_path, extra, listed):
    root, folder = _names(tmp_path, extra)
    shown = ", ".join(sorted(folder.files)[:8])
    assert _refused(lambda: choose_configs(folder, "xyz")) == (
        f"has no config 'xyz' (configs: {shown}{listed})", str(root / "README.md"), None)


def test_named_configs_are_split_at_commas_once_each_in_the_order_given(tmp_path):
    root, folder = _names(tmp_path)
    assert choose_configs(folder, " de-en.particle.d3, de-en.particle.d1,,de-en.particle.d3 ") == [
        "de-en.particle.d3", "de-en.particle.d1"]
    assert choose_configs(folder, "de-en.particle.d3", "de-en") == ["de-en.particle.d3"]
    readme = str(root / "README.md")
    assert _refused(lambda: choose_configs(folder, "de-en.particle.d3", "en-de")) == (
        "config 'de-en.particle.d3' is not of the pair en-de", readme, None)


def test_all_is_every_challenge_config_of_the_pair_once_by_distance(tmp_path):
    """An alias is scored once, as its full name; an alias whose full name is not in the folder is
    scored as itself; a name that is no config name is skipped, not the end of the list; D sorts
    as a number; another pair's configs are left out when a pair is given."""
    root = _write(tmp_path / "ldd", {
        "custom": {SPLIT: LINES},  # sorts first: not a config name
        "de-en.baseline": {SPLIT: ALL_LINES},
        "de-en.particle": {SPLIT: LINES}, "de-en.particle.d1": {SPLIT: LINES},
        "de-en.particle.d10": {SPLIT: []}, "de-en.particle.d2": {SPLIT: LINES},
        "de-en.reflexive": {SPLIT: LINES},  # the alias of de-en.reflexive.d1, absent
        "en-de.baseline": {SPLIT: ALL_LINES}, "en-de.particle.d1": {SPLIT: LINES}})
    folder = DatasetFolder(root)
    assert choose_configs(folder, "all", "de-en") == [
        "de-en.particle.d1", "de-en.particle.d2", "de-en.particle.d10", "de-en.reflexive"]
    assert choose_configs(folder, "all", "en-de") == ["en-de.particle.d1"]
    readme = str(root / "README.md")
    assert _refused(lambda: choose_configs(folder, "all")) == (
        "configs of several language pairs (de-en, en-de) cannot share one system output; choose one pair",
        readme, None)
    assert _refused(lambda: choose_configs(folder, "de-en.particle.d1,en-de.particle.d1")) == (
        "configs of several language pairs (de-en, en-de) cannot share one system output; choose one pair",
        readme, None)
    assert _refused(lambda: choose_configs(folder, "all", "fr-en")) == ("has no challenge configs for fr-en",
                                                                     readme, None)
    assert _refused(lambda: choose_configs(folder, "custom")) == (
        "not a config name: 'custom' (expected e.g. 'de-en.particle.d3')", readme, None)


def test_a_folder_of_baselines_only_has_no_challenge_configs(tmp_path):
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}})
    assert _refused(lambda: choose_configs(DatasetFolder(root), "all")) == (
        "has no challenge configs", str(root / "README.md"), None)


def _request(root: Path, **options) -> EvaluationRequest:
    return EvaluationRequest(root, {"ref": "ref.txt"}, n_samples=options.pop("n_samples", 5), **options)


def test_the_split_is_the_full_corpus_configs_only_one_or_the_one_asked_for(tmp_path):
    both = {SPLIT: ALL_LINES, "dev": ALL_LINES}
    root = _write(tmp_path / "ldd", {"de-en.baseline": both, "de-en.particle.d1": {SPLIT: LINES, "dev": LINES}})
    readme = str(root / "README.md")
    with pytest.raises(InputError) as caught:
        read_corpus(_request(root))
    assert (caught.value.reason, caught.value.path, caught.value.field) == (
        "config 'de-en.baseline' has splits dev, toytest; choose one: split", readme, "split")
    assert _refused(lambda: read_corpus(_request(root, split="test"))) == (
        "config 'de-en.baseline' has no split 'test' (splits: dev, toytest)", readme, None)
    assert read_corpus(_request(root, split="dev")).split == "dev"
    one = _write(tmp_path / "one", {"de-en.baseline": {"dev": ALL_LINES}, "de-en.particle.d1": {"dev": LINES}})
    assert read_corpus(_request(one)).split == "dev"
    assert _refused(lambda: read_corpus(_request(one, ref_config="de-en.full"))) == (
        "has no config 'de-en.full', the full corpus the random baseline draws from", str(one / "README.md"), None)


def test_a_config_without_the_split_is_an_error_when_named_and_a_note_with_all(tmp_path):
    root = _write(tmp_path / "ldd", {
        "de-en.baseline": {SPLIT: ALL_LINES, "dev": ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES},
        "de-en.particle.d2": {SPLIT: LINES, "dev": LINES}, "de-en.particle.d3": {SPLIT: LINES},
        "de-en.particle.d4": {SPLIT: LINES, "dev": LINES}})
    corpus = read_corpus(_request(root, split="dev"))
    assert [c.name for c in corpus.configs] == ["de-en.particle.d2", "de-en.particle.d4"]
    assert corpus.notes == ["no rows in split dev (not exported): de-en.particle.d1, de-en.particle.d3"]
    readme = str(root / "README.md")
    assert _refused(lambda: read_corpus(_request(root, split="dev", config="de-en.particle.d1"))) == (
        "config 'de-en.particle.d1' has no split 'dev' (splits: toytest)", readme, None)
    assert read_corpus(_request(root, split=SPLIT)).notes == []
    other = _write(tmp_path / "other", {"de-en.baseline": {SPLIT: ALL_LINES, "dev": ALL_LINES},
                                        "de-en.particle.d1": {SPLIT: LINES, "test": LINES}, "de-en.particle.d2": {}})
    assert _refused(lambda: read_corpus(_request(other, split="dev", config="de-en.particle.d1"))) == (
        "config 'de-en.particle.d1' has no split 'dev' (splits: test, toytest)", str(other / "README.md"), None)
    assert _refused(lambda: read_corpus(_request(other, split="dev", config="de-en.particle.d2"))) == (
        "config 'de-en.particle.d2' has no split 'dev' (splits: none)", str(other / "README.md"), None)
    none = _write(tmp_path / "none", {"de-en.baseline": {SPLIT: ALL_LINES, "dev": ALL_LINES},
                                      "de-en.particle.d1": {SPLIT: LINES}, "de-en.particle.d2": {SPLIT: LINES}})
    assert _refused(lambda: read_corpus(_request(none, split="dev"))) == (
        "none of the chosen configs has rows in split 'dev'", str(none / "README.md"), None)


def test_all_with_a_pair_reads_only_that_pairs_configs(tmp_path):
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES},
                                     "en-de.baseline": {SPLIT: ALL_LINES}, "en-de.particle.d2": {SPLIT: LINES}})
    corpus = read_corpus(_request(root, pair="en-de"))
    assert (corpus.pair, corpus.base_name, [c.name for c in corpus.configs]) == (
        "en-de", "en-de.baseline", ["en-de.particle.d2"])


def _file(root: Path, config: str, split: str = SPLIT) -> str:
    return str(root / "data" / config / f"{split}-00000-of-00001.parquet")


def test_rows_outside_the_corpus_or_the_pool_name_their_file(tmp_path):
    """Line 0, a line past the recorded corpus, a config row missing from the full corpus (the
    first of them), an empty full corpus."""
    root = _write(tmp_path / "zero", {"de-en.baseline": {SPLIT: [0, *ALL_LINES[1:]]}, "de-en.particle.d1": {SPLIT: LINES}})
    assert _refused(lambda: read_corpus(_request(root))) == (
        "row 'toytest:0' has line 0, outside the corpus's lines 1..90", _file(root, "de-en.baseline"), None)
    past_line = N + LINES[0]  # a copy of a row every particle config may hold
    record = [{"pair": "de-en", "corpus": SPLIT, "lines": past_line - 1}]
    past = _write(tmp_path / "past", {"de-en.baseline": {SPLIT: ALL_LINES},
                                      "de-en.particle.d1": {SPLIT: [*LINES, past_line]}},
                  c=_longer(C, past_line), record=record)
    assert _refused(lambda: read_corpus(_request(past))) == (
        f"row 'toytest:{past_line}' has line {past_line}, outside the corpus's lines 1..{past_line - 1}",
        _file(past, "de-en.particle.d1"), None)
    gaps = _write(tmp_path / "gaps", {"de-en.baseline": {SPLIT: [n for n in ALL_LINES if n not in LINES[2:4]]},
                                      "de-en.particle.d1": {SPLIT: LINES}}, record=[{"pair": "de-en", "corpus": SPLIT,
                                                                                     "lines": N}])
    assert _refused(lambda: read_corpus(_request(gaps))) == (
        f"row of line {LINES[2]} is not in de-en.baseline, the full corpus", _file(gaps, "de-en.particle.d1"), None)
    empty = _write(tmp_path / "empty", {"de-en.baseline": {SPLIT: []}, "de-en.particle.d1": {SPLIT: LINES}})
    assert _refused(lambda: read_corpus(_request(empty))) == (
        "has no rows: the full corpus is empty", _file(empty, "de-en.baseline"), None)


def _longer(c, lines: int):
    """The toy corpus with copies of its first lines appended up to ``lines`` lines."""
    return {key: (value * (lines // len(value) + 1))[:lines] for key, value in c.items() if key != "outputs"}


@pytest.mark.parametrize("line", [2.5, True, "2", None])
def test_a_line_that_is_not_a_whole_number_is_outside_the_corpus(tmp_path, line):
    """A hand-written row's line 2.5, true or "2" (true == 1 in Python) is refused."""
    where = tmp_path / "rows.parquet"
    assert _refused(lambda: _check_lines([1, line], ["a", "b"], 3, where)) == (
        f"row 'b' has line {line!r}, outside the corpus's lines 1..3", str(where), None)
    _check_lines([1, 3], ["a", "b"], 3, where)


def test_the_sample_count_is_bounded_per_config_for_sampled_indices_only(tmp_path):
    """n_samples x rows may reach 2**27 (the sampled indices), not only 2**24 (the limit with
    returned samples): 20,000 x 1,400 = 28,000,000 rows is accepted, 100,000 x 1,400 refused."""
    big = 1_400
    c = _longer(C, big)
    c = {**c, "distances": [5] * big}
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: list(range(1, big + 1))},
                                     "de-en.particle.d1": {SPLIT: list(range(1, big + 1))}}, c=c)
    assert len(read_corpus(_request(root, n_samples=20_000)).configs[0].positions) == big
    assert _refused(lambda: read_corpus(_request(root, n_samples=100_000))) == (
        "n_samples is too large for 1400 challenge rows: n_samples x rows = 140_000_000 exceeds the limit of "
        "134_217_728 sampled rows; use at most 95869 samples", _file(root, "de-en.particle.d1"), None)


def test_a_config_with_no_rows_reads_as_empty_integer_arrays(tmp_path):
    """Positions index the pool: an empty config is int64 too (numpy's default is float64)."""
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: []}})
    (config,) = read_corpus(_request(root, config="de-en.particle.d1")).configs
    assert config.positions.dtype == np.int64 and config.lengths.dtype == np.int64
    assert len(config.positions) == 0 and config.small


def test_instances_are_read_for_lexical_configs_with_targeted_accuracy_only(tmp_path):
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest

    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES},
                                     "de-en.reorder.d5": {SPLIT: LINES}})
    plain = read_corpus(_request(root))
    assert [c.instances for c in plain.configs] == [None, None]
    targeted = read_corpus(_request(root, targeted=TargetedRequest("present")))
    expected = rows_table(C, LINES, "particle").column("instances").to_pylist()
    assert [c.instances for c in targeted.configs] == [expected, None]
    assert [int(x) for x in targeted.configs[0].lengths] == [len(C["sources"][n - 1]) for n in LINES]


def test_a_folder_built_before_the_alignment_or_the_upos_column_is_refused_naming_its_file(tmp_path):
    """A folder built by an older acs, without the alignment or the source_upos column, is one error
    naming the full corpus's file: rebuild it (with targeted accuracy or without)."""
    for column in ("alignment", "source_upos"):
        root = _write(tmp_path / column, {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES}},
                      drop=(column,))
        base = root / "data" / "de-en.baseline" / f"{SPLIT}-00000-of-00001.parquet"
        assert _refused(lambda root=root: read_corpus(_request(root))) == (
            f"has no {column} column (built by an older acs): rebuild the dataset", str(base), None)


def test_the_provenance_comes_from_the_record_of_the_pair_and_split(tmp_path):
    """A build without provenance gives its old labels; no record of the split says so; a malformed
    provenance is an error naming the record and the build."""
    configs = {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES}}
    root = _write(tmp_path / "ldd", configs, record=[
        {"pair": "de-en", "corpus": SPLIT, "lines": N, "parser": "conllu (gold)", "aligner": "pharaoh (hand)"}])
    corpus = read_corpus(_request(root, split=SPLIT))
    assert corpus.provenance == Provenance(False, f"parser conllu (gold); aligner pharaoh (hand); {NOT_RECORDED}",
                                           "conllu (gold)", "pharaoh (hand)")
    unrecorded = _write(tmp_path / "unrecorded", {"de-en.baseline": {"dev": ALL_LINES},
                                                  "de-en.particle.d1": {"dev": LINES}})
    assert read_corpus(_request(unrecorded)).provenance == Provenance(
        False, "provenance not recorded (the folder's acs_build.json has no build of de-en, split dev)")
    bad = _write(tmp_path / "bad", configs, record=[{"pair": "de-en", "corpus": SPLIT, "lines": N,
                                                     "provenance": {"parser": {}}}])
    assert _refused(lambda: read_corpus(_request(bad, split=SPLIT))) == (
        "the provenance of build de-en/toytest is not what acs build records (a parser and an aligner or null, "
        "each naming its backend): build again to record it", str(bad / "acs_build.json"), None)


PARSER = {"backend": "udpipe", "package": "ufal.udpipe", "version": "1.3.1", "model": "german.udpipe", "file": None,
          "sha256": "0123456789abcdef" * 4, "options": {"batch": 8}}
EFLOMAL = {"backend": "eflomal", "package": "eflomal", "version": "2.0.0", "model": None, "file": None, "sha256": None,
           "symmetrization": "grow-diag-final-and", "pairs": 1_000, "priors": None, "priors_used": False,
           "options": None}


def test_a_recorded_provenance_is_typed_field_by_field():
    """Every field the record has; options None or absent read as {}; a key of a later version
    ignored; priors as a FileDigest; eflomal on 1,000 pairs without priors warned of."""
    recorded = {"parser": {**PARSER, "later": 1}, "aligner": EFLOMAL, "tokenization": {"source": "udpipe",
                "target": "white space"}, "packages": {"auto_challenge_sets": "0.9"}}
    found = read_provenance({"pair": "de-en", "parser": "udpipe (old label)", "aligner": "eflomal (old label)",
                             "provenance": recorded}, "de-en", "toytest")
    warning = "eflomal aligned 1,000 pairs without priors (fewer than 10,000): its links are noisy at this size"
    assert found == Provenance(
        True, "parser udpipe 1.3.1 (german.udpipe, sha256 0123456789ab); aligner eflomal 2.0.0 (grow-diag-final-and, "
              "1,000 pairs, no priors); tokens: udpipe (source), white space (target); auto_challenge_sets 0.9",
        "udpipe (old label)", "eflomal (old label)",
        ParserProvenance("udpipe", "ufal.udpipe", "1.3.1", "german.udpipe", None, "0123456789abcdef" * 4, {"batch": 8}),
        AlignerProvenance("eflomal", "eflomal", "2.0.0", None, None, None, {}, "grow-diag-final-and", 1_000, None, False),
        {"source": "udpipe", "target": "white space"}, {"auto_challenge_sets": "0.9"}, warning)
    assert found.summary == summary_line(recorded)
    priors = {**EFLOMAL, "priors": {"file": "de-en.priors", "sha256": None, "size": 3}, "priors_used": True}
    with_priors = read_provenance({"provenance": {"parser": {"backend": "conllu"}, "aligner": priors}}, "de-en", "t")
    assert with_priors.aligner.priors == FileDigest("de-en.priors", None) and with_priors.warning is None
    assert with_priors.parser == ParserProvenance("conllu", None, None, None, None, None, {})
    unaligned = read_provenance({"provenance": {"parser": PARSER, "aligner": None}}, "de-en", "t")
    assert unaligned.recorded and unaligned.aligner is None and unaligned.tokenization is None
    assert unaligned.summary == "parser udpipe 1.3.1 (german.udpipe, sha256 0123456789ab); not aligned"


@pytest.mark.parametrize("recorded", [
    ["parser"],  # not a mapping
    {"aligner": None},  # no parser
    {"parser": {}, "aligner": None},  # a parser naming no backend
    {"parser": {"backend": 3}},
    {"parser": {"backend": "conllu"}, "aligner": {"file": "x.pharaoh"}},  # an aligner naming no backend
    {"parser": {"backend": "conllu"}, "aligner": "eflomal"},
    {"parser": {"backend": "conllu"}, "aligner": {"backend": "eflomal", "priors": {"sha256": None}}},  # no file
    {"parser": {"backend": "conllu"}, "aligner": {"backend": "eflomal", "priors": "x.priors"}},
])
def test_a_provenance_not_shaped_as_acs_build_records_it_is_an_error_naming_the_build(tmp_path, recorded):
    where = tmp_path / "acs_build.json"
    assert _refused(lambda: read_provenance({"provenance": recorded}, "de-en", "dev", where)) == (
        "the provenance of build de-en/dev is not what acs build records (a parser and an aligner or null, each "
        "naming its backend): build again to record it", str(where), None)


def test_the_systems_lines_are_the_rows_lines_with_each_extra_reference(tmp_path):
    """The full corpus's rows in their own order (line 2 first) over a corpus with lines that are
    no row; an extra reference's line is its corpus line's; CRLF files noted in the report."""
    rows = [2, 1, *range(4, N + 1)]  # line 3: no row
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: rows}, "de-en.particle.d1": {SPLIT: LINES}},
                  record=[{"pair": "de-en", "corpus": SPLIT, "lines": N}])
    good = tmp_path / "good.txt"
    good.write_bytes("".join(f"out {n}\r\n" for n in range(1, N + 1)).encode())
    extra = tmp_path / "extra.txt"
    extra.write_bytes("".join(f"ref {n}\r\n" for n in range(1, N + 1)).encode())
    request = EvaluationRequest(root, {"good": good}, n_samples=5, references=(extra,))
    report = ReadReport()
    (system,) = read_systems(request, read_corpus(request), report)
    assert system.name == "good" and system.predictions == [f"out {n}" for n in rows]
    assert system.references == [(C["refs"][n - 1], f"ref {n}") for n in rows]
    assert report.crlf_lines == {str(extra): N, str(good): N}


def _system_refused(request: EvaluationRequest, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    return _refused(lambda: read_systems(request, read_corpus(request), ReadReport()))


def test_a_file_of_another_line_count_names_the_file_and_the_corpus(tmp_path, monkeypatch):
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES}})
    short = tmp_path / "short.txt"
    short.write_text("a\nb\n", encoding="utf-8")
    full = tmp_path / "full.txt"
    full.write_text("x\n" * N, encoding="utf-8")
    expected = "has 2 lines but the corpus of de-en.baseline, split toytest, has 90: one line per corpus line"
    assert _system_refused(EvaluationRequest(root, {"a": full}, n_samples=5, references=(short,))) == (
        expected, str(short), None)
    assert _system_refused(EvaluationRequest(root, {"a": short}, n_samples=5)) == (f"(a) {expected}", str(short), None)
    assert _system_refused(EvaluationRequest(root, {"a": "-"}, n_samples=5), b"a\nb\n", monkeypatch) == (
        f"(a) {expected}", STDIN, None)


def test_a_system_read_from_standard_input_is_noted_in_the_report(tmp_path, monkeypatch):
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES}})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x\r\n" * N)))
    request = EvaluationRequest(root, {"a": "-"}, n_samples=5)
    report = ReadReport()
    (system,) = read_systems(request, read_corpus(request), report)
    assert system.predictions == ["x"] * N and report.crlf_lines == {STDIN: N}


def test_a_system_output_that_is_a_pipe_is_refused_with_the_stdin_hint(tmp_path):
    root = _write(tmp_path / "ldd", {"de-en.baseline": {SPLIT: ALL_LINES}, "de-en.particle.d1": {SPLIT: LINES}})
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    request = EvaluationRequest(root, {"a": fifo}, n_samples=5)
    with pytest.raises(CorpusError) as caught:
        read_systems(request, read_corpus(request), ReadReport())
    assert (caught.value.reason, caught.value.path) == (
        "is a pipe (a FIFO, or a process substitution such as <(...)), not a regular file; write it to a file "
        "first or give it on standard input as -", str(fifo))


LONG_OK = " ".join(["a"] * 6_000)  # 11,999 characters, above the 10,000 that skip tokenizing, but 6,000 tokens
TOO_LONG = "a " * 10_001  # 10,001 tokens


def _long_folder(tmp_path, reference: str = "", pair: str = "de-en") -> Path:
    """The full corpus in another order (corpus line 2 first), line 2's reference ``reference``."""
    c = {**C, "refs": [*C["refs"]]}
    if reference:
        c["refs"][1] = reference
    return _write(tmp_path / "ldd", {f"{pair}.baseline": {SPLIT: [2, 1, *ALL_LINES[2:]]},
                                     f"{pair}.particle.d1": {SPLIT: LINES}}, c=c)


def _lines(path: Path, long: str, line: int = 2) -> Path:
    path.write_text("".join((long if n == line else "x") + "\n" for n in range(1, N + 1)), encoding="utf-8")
    return path


@pytest.mark.parametrize("metrics", [("bleu",), ("chrf",)])
def test_long_lines_within_the_token_limit_are_read(tmp_path, metrics):
    """Lines over 10,000 characters are tokenized (13a, also when no metric tokenizes) and kept."""
    root = _long_folder(tmp_path, LONG_OK)
    request = EvaluationRequest(root, {"a": _lines(tmp_path / "a.txt", LONG_OK)}, n_samples=5, metrics=metrics,
                                references=(_lines(tmp_path / "ref.txt", LONG_OK),))
    (system,) = read_systems(request, read_corpus(request), ReadReport())
    assert system.predictions[0] == LONG_OK and system.references[0] == (LONG_OK, LONG_OK)


def test_a_line_over_the_token_limit_names_its_file_and_line(tmp_path, monkeypatch):
    """The full corpus's reference by its corpus line (its row is the first), an extra reference
    and a system by their line, standard input as <stdin>."""
    why = "has 10,001 tokens, above the limit of 10,000 per line"
    root = _long_folder(tmp_path, TOO_LONG)
    assert _system_refused(EvaluationRequest(root, {"a": _lines(tmp_path / "a.txt", "x")}, n_samples=5)) == (
        f"the reference of this corpus line {why}", _file(root, "de-en.baseline"), 2)
    root = _long_folder(tmp_path / "2")
    ref = _lines(tmp_path / "ref.txt", TOO_LONG, 3)
    plain = _lines(tmp_path / "plain.txt", "x")
    assert _system_refused(EvaluationRequest(root, {"a": plain}, n_samples=5, references=(ref,))) == (why, str(ref), 3)
    hyp = _lines(tmp_path / "hyp.txt", TOO_LONG, 3)
    assert _system_refused(EvaluationRequest(root, {"a": hyp}, n_samples=5)) == (why, str(hyp), 3)
    assert _system_refused(EvaluationRequest(root, {"a": "-"}, n_samples=5), hyp.read_bytes(), monkeypatch) == (
        why, STDIN, 3)


def test_the_token_limit_counts_the_tokens_of_the_runs_tokenizer(tmp_path):
    """12,000 characters without a space: one 13a token, 12,000 of the "char" tokenizer, or of
    sacrebleu's "zh" for a Chinese target (the tokenizer of the pair's target language)."""
    word = "字" * 12_000
    root = _long_folder(tmp_path)
    hyp = _lines(tmp_path / "hyp.txt", word, 3)
    read_systems(request := EvaluationRequest(root, {"a": hyp}, n_samples=5), read_corpus(request), ReadReport())
    why = "has 12,000 tokens, above the limit of 10,000 per line"
    assert _system_refused(EvaluationRequest(root, {"a": hyp}, n_samples=5, metric_options={"tokenize": "char"})) == (
        why, str(hyp), 3)
    zh = _long_folder(tmp_path / "zh", pair="de-zh")
    assert _system_refused(EvaluationRequest(zh, {"a": hyp}, n_samples=5, metrics=("chrf", "bleu"))) == (
        why, str(hyp), 3)


def test_an_empty_list_of_lines_has_no_line_too_long(tmp_path):
    _check_line_lengths([], tmp_path / "empty.txt", str)
