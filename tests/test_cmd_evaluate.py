"""``acs evaluate`` on a small dataset folder this test writes in the exported layout."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import sacrebleu

import auto_challenge_sets
from auto_challenge_sets.cli import main
from auto_challenge_sets.scoring.challenge import compute

SPLIT = "toytest"
N = 90
WORDS = "the a cat dog sat ran on under mat house red big small quickly slowly up down back off".split()

INSTANCE = pa.struct([("dependent", pa.int64()), ("head", pa.int64()), ("dependent_form", pa.string()),
                      ("head_form", pa.string()), ("distance", pa.int64())])
SCHEMA = pa.schema([
    ("id", pa.string()), ("corpus", pa.string()), ("line", pa.int64()), ("src_lang", pa.string()),
    ("tgt_lang", pa.string()), ("source", pa.string()), ("reference", pa.string()),
    ("source_tokens", pa.list_(pa.string())), ("length", pa.int64()), ("phenomenon", pa.string()),
    ("distance", pa.int64()), ("instances", pa.list_(INSTANCE)),
])


def _corpus() -> dict:
    rng = random.Random(5)
    sources, refs, hyps, distances = [], [], [], []
    for _ in range(N):
        src = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        ref = [rng.choice(WORDS) for _ in range(len(src) + rng.randint(-1, 2))]
        hyp = [w if rng.random() < 0.7 else rng.choice(WORDS) for w in ref]
        sources.append(src)
        refs.append(" ".join(ref).capitalize() + ".")
        hyps.append(" ".join(hyp).capitalize() + ".")
        distances.append(rng.choice([-1, 0, 1, 2, 3]))  # -1: no particle in the sentence
    return {"sources": sources, "refs": refs, "hyps": hyps, "distances": distances}


def _rows(c: dict, lines: list[int], phenomenon: str) -> pa.Table:
    cols = {name: [] for name in SCHEMA.names}
    for line in lines:
        i = line - 1
        d = max(c["distances"][i], 0)
        cols["id"].append(f"{SPLIT}:{line}")
        cols["corpus"].append(SPLIT)
        cols["line"].append(line)
        cols["src_lang"].append("de")
        cols["tgt_lang"].append("en")
        cols["source"].append(" ".join(c["sources"][i]))
        cols["reference"].append(c["refs"][i])
        cols["source_tokens"].append(c["sources"][i])
        cols["length"].append(len(c["sources"][i]))
        cols["phenomenon"].append(phenomenon)
        cols["distance"].append(d)
        cols["instances"].append(
            [] if phenomenon == "baseline" else
            [{"dependent": 1, "head": d + 2, "dependent_form": "x", "head_form": "y", "distance": d}]
        )
    return pa.Table.from_pydict(cols, schema=SCHEMA)


def _configs(c: dict) -> dict[str, list[int]]:
    lines = range(1, N + 1)
    configs = {"de-en.baseline": list(lines)}
    for d in range(4):
        configs[f"de-en.particle.d{d}"] = [n for n in lines if c["distances"][n - 1] >= d]
    configs["de-en.reorder.d5"] = [n for n in lines if n % 7 == 0]
    return configs


@pytest.fixture
def dataset(tmp_path: Path) -> dict:
    c = _corpus()
    root = tmp_path / "ldd"
    card = ["---", "configs:"]
    for name, lines in _configs(c).items():
        folder = root / "data" / name
        folder.mkdir(parents=True)
        phenomenon = name.split(".")[1]
        pq.write_table(_rows(c, lines, phenomenon), folder / f"{SPLIT}-00000-of-00001.parquet")
        card += [f"- config_name: {name}", "  data_files:", f"  - split: {SPLIT}",
                 f"    path: data/{name}/{SPLIT}-*"]
    card += ["---", "", "# A toy LDD dataset", ""]
    (root / "README.md").write_text("\n".join(card), encoding="utf-8")
    hyp = tmp_path / "system.en"
    hyp.write_text("\n".join(c["hyps"]) + "\n", encoding="utf-8")
    return {"root": root, "hyp": hyp, "corpus": c, "configs": _configs(c), "tmp": tmp_path}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["evaluate", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_all_configs_as_json(dataset, capsys):
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--split", SPLIT,
                      "--hyp", str(dataset["hyp"]), "--json", "--n-samples", "25", "--seed", "9")
    assert rc == 0
    payload = json.loads(out)
    c = dataset["corpus"]
    assert payload["full_corpus"]["bleu"] == sacrebleu.corpus_bleu(c["hyps"], [c["refs"]]).score
    assert sorted(payload["configs"]) == sorted(n for n in dataset["configs"] if n != "de-en.baseline")
    for name, result in payload["configs"].items():
        lines = dataset["configs"][name]
        preds = [c["hyps"][n - 1] for n in lines]
        refs = [c["refs"][n - 1] for n in lines]
        assert result["bleu"] == sacrebleu.corpus_bleu(preds, [refs]).score
        direct = compute(preds, refs, lengths=[len(c["sources"][n - 1]) for n in lines],
                         ids=[f"{SPLIT}:{n}" for n in lines], pool_predictions=c["hyps"], pool_references=c["refs"],
                         pool_lengths=[len(s) for s in c["sources"]], pool_ids=[f"{SPLIT}:{n}" for n in range(1, N + 1)],
                         n_samples=25, seed=9)
        assert result == json.loads(json.dumps(direct))
        if name == "de-en.particle.d2":  # the evaluate module installed with the package: the same digits
            module = auto_challenge_sets.load_metric().compute(
                predictions=preds, references=refs, lengths=[len(c["sources"][n - 1]) for n in lines],
                ids=[f"{SPLIT}:{n}" for n in lines], pool_predictions=c["hyps"], pool_references=c["refs"],
                pool_lengths=[len(s) for s in c["sources"]], pool_ids=[f"{SPLIT}:{n}" for n in range(1, N + 1)],
                n_samples=25, seed=9)
            assert result == json.loads(json.dumps(module))
    particle = payload["by_phenomenon"]["de-en.particle"]
    assert [r["min_distance"] for r in particle["distance_breakdown"]] == [0, 1, 2, 3]
    assert set(particle["spearman"]) == {"bleu", "ribes"}


def test_report_folder_and_table(dataset, capsys):
    out_dir = dataset["tmp"] / "report"
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--hyp", str(dataset["hyp"]),
                      "--out", str(out_dir), "--n-samples", "10")
    assert rc == 0
    assert "de-en.particle.d2" in out and "(full corpus)" in out and "Spearman" in out
    assert (out_dir / "report.md").is_file()
    assert (out_dir / "de-en.particle.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out_dir / "results.json").read_text(encoding="utf-8"))["split"] == SPLIT


def test_single_config_breakdown_and_extra_reference(dataset, capsys):
    ref2 = dataset["tmp"] / "ref2.en"
    ref2.write_text("\n".join(dataset["corpus"]["hyps"]) + "\n", encoding="utf-8")  # a perfect reference
    rc, out, _ = _run(capsys, "--dataset", str(dataset["root"]), "--config", "de-en.particle.d1", "--split", SPLIT,
                      "--hyp", str(dataset["hyp"]), "--ref", str(ref2), "--json", "--n-samples", "10")
    assert rc == 0
    result = json.loads(out)["configs"]["de-en.particle.d1"]
    assert result["signature"].startswith("nrefs:2|")
    assert result["bleu"] == pytest.approx(100.0)
    assert [r["min_distance"] for r in result["distance_breakdown"]][:3] == [1, 2, 3]


def test_hyp_with_wrong_line_count_is_an_error(dataset, capsys):
    short = dataset["tmp"] / "short.en"
    short.write_text("\n".join(dataset["corpus"]["hyps"][:-3]) + "\n", encoding="utf-8")
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--split", SPLIT,
                      "--hyp", str(short))
    assert rc == 2
    assert str(short) in err and f"has {N - 3} lines" in err and f"has {N};" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--config", "de-en.nothing.d1"], "has no config 'de-en.nothing.d1'"),
        (["--config", "all", "--split", "other"], "has no split 'other'"),
        (["--config", "all", "--ref-config", "de-en.missing"], "de-en.missing"),
    ],
)
def test_bad_requests_name_what_is_wrong(dataset, capsys, argv, message):
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--hyp", str(dataset["hyp"]), *argv)
    assert rc == 2 and message in err


def test_non_utf8_hypothesis_names_the_line(dataset, capsys):
    bad = dataset["tmp"] / "bad.en"
    lines = [s.encode() for s in dataset["corpus"]["hyps"]]
    lines[4] = b"caf\xe9"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    rc, _, err = _run(capsys, "--dataset", str(dataset["root"]), "--config", "all", "--hyp", str(bad))
    assert rc == 2 and f"{bad}:5" in err


def test_help_mentions_the_interface(capsys):
    with pytest.raises(SystemExit, match="^0$"):
        main(["evaluate", "--help"])
    out = capsys.readouterr().out
    for option in ("--dataset", "--config", "--split", "--hyp", "--out", "--json", "--n-samples", "--seed",
                   "--tokenize", "--ref-config"):
        assert option in out


def test_on_a_folder_built_by_acs_build(tmp_path, capsys):
    """The real export layout: the sample built by `acs demo`'s code, scored with its own references."""
    from auto_challenge_sets.dataset.demo import build_demo, demo_file

    build_demo(tmp_path / "sets")
    rc, out, err = _run(capsys, "--dataset", str(tmp_path / "sets"), "--config", "all", "--pair", "de-en",
                        "--hyp", str(demo_file("sample.en")), "--json", "--n-samples", "5")
    assert rc == 0, err
    configs = json.loads(out)["configs"]
    assert "de-en.particle.d3" in configs and "de-en.reorder.d5" in configs
    assert "de-en.particle" not in configs  # the D = 1 alias is scored once, as .d1
    assert configs["de-en.particle.d3"]["bleu"] == pytest.approx(100.0)
