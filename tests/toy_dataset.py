"""A small hand-made dataset folder in the exported layout (``acs build``'s), with several systems'
outputs and a human-score table: the fast fixture of the evaluation tests. Every expected number
in those tests comes from sacrebleu, scipy or a count over these rows, never from our engine.

90 corpus lines of random words; a particle distance per line (-1: no particle), so that the
particle configs d0..d5 nest; d4 and d5 hold the same rows (no line has distance 4); reorder.d5
holds every 7th line (12 rows, under the default min_rows of 20).
"""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

SPLIT = "toytest"
N = 90
WORDS = "the a cat dog sat ran on under mat house red big small quickly slowly up down back off".split()
# system -> share of reference words kept (the rest replaced at random); "ref" is the reference
SYSTEMS = {"ref": 1.0, "better": 0.85, "good": 0.7, "lower": 0.7, "worse": 0.5}
HUMAN = {"ref": 1.0, "better": 0.45, "good": 0.2, "lower": 0.05, "worse": -0.4}

INSTANCE = pa.struct([("dependent", pa.int64()), ("head", pa.int64()), ("dependent_form", pa.string()),
                      ("head_form", pa.string()), ("distance", pa.int64())])
SCHEMA = pa.schema([
    ("id", pa.string()), ("corpus", pa.string()), ("line", pa.int64()), ("src_lang", pa.string()),
    ("tgt_lang", pa.string()), ("source", pa.string()), ("reference", pa.string()),
    ("source_tokens", pa.list_(pa.string())), ("length", pa.int64()), ("phenomenon", pa.string()),
    ("distance", pa.int64()), ("instances", pa.list_(INSTANCE)), ("alignment", pa.string()),
])


def corpus() -> dict:
    rng = random.Random(5)
    sources, refs, distances = [], [], []
    for _ in range(N):
        src = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        ref = [rng.choice(WORDS) for _ in range(len(src) + rng.randint(-1, 2))]
        sources.append(src)
        refs.append(" ".join(ref).capitalize() + ".")
        distances.append(rng.choice([-1, 0, 1, 2, 3, 5]))
    outputs = {}
    for k, (name, keep) in enumerate(SYSTEMS.items()):
        rng = random.Random(100 + k)
        lines = []
        for ref in refs:
            words = ref[:-1].lower().split()
            out = " ".join(w if rng.random() < keep else rng.choice(WORDS) for w in words)
            lines.append(out + "." if name == "lower" else out.capitalize() + ".")
        outputs[name] = refs if name == "ref" else lines
    return {"sources": sources, "refs": refs, "distances": distances, "outputs": outputs}


def config_lines(c: dict) -> dict[str, list[int]]:
    lines = range(1, N + 1)
    configs = {"de-en.baseline": list(lines)}
    for d in range(6):
        configs[f"de-en.particle.d{d}"] = [n for n in lines if c["distances"][n - 1] >= d]
    configs["de-en.reorder.d5"] = [n for n in lines if n % 7 == 0]
    return configs


def rows_table(c: dict, lines: list[int], phenomenon: str) -> pa.Table:
    cols: dict[str, list] = {name: [] for name in SCHEMA.names}
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
            [{"dependent": 1, "head": min(d + 2, len(c["sources"][i])), "dependent_form": "x", "head_form": "y",
              "distance": d}]
        )
        # a monotone alignment of source and reference words (Pharaoh), for targeted accuracy
        cols["alignment"].append(" ".join(f"{k}-{k}" for k in range(min(len(c["sources"][i]),
                                                                          len(c["refs"][i].split())))))
    return pa.Table.from_pydict(cols, schema=SCHEMA)


def write_folder(root: Path, c: dict, configs: dict[str, list[int]] | None = None) -> Path:
    """The dataset folder: ``data/{config}/{split}-00000-of-00001.parquet`` and a card listing them."""
    configs = config_lines(c) if configs is None else configs
    card = ["---", "configs:"]
    for name, lines in configs.items():
        folder = root / "data" / name
        folder.mkdir(parents=True)
        pq.write_table(rows_table(c, lines, name.split(".")[1]), folder / f"{SPLIT}-00000-of-00001.parquet")
        card += [f"- config_name: {name}", "  data_files:", f"  - split: {SPLIT}", f"    path: data/{name}/{SPLIT}-*"]
    card += ["---", "", "# A toy LDD dataset", ""]
    (root / "README.md").write_text("\n".join(card), encoding="utf-8")
    return root


def write_outputs(folder: Path, c: dict) -> dict[str, Path]:
    paths = {}
    for name, lines in c["outputs"].items():
        paths[name] = folder / f"toy.hyp.{name}.en"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def write_human(path: Path) -> Path:
    """A WMT-like white-space table (SYS with a run number, Z.SCR)."""
    lines = ["SYS Z.SCR N"] + [f"{name}.{k} {score} 10" for k, (name, score) in enumerate(HUMAN.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def make(tmp: Path) -> dict:
    """Everything a test needs: the folder, the outputs, the human table and the corpus."""
    c = corpus()
    tmp.mkdir(parents=True, exist_ok=True)
    return {"root": write_folder(tmp / "ldd", c), "hyps": write_outputs(tmp, c), "human": write_human(tmp / "human.txt"),
            "corpus": c, "configs": config_lines(c), "tmp": tmp}


def evaluated(tmp: Path) -> tuple:
    """The toy folder scored as the report tests read it: BLEU, TER and RIBES, targeted accuracy
    (present match), the human table; returns (the folder's make(), request, evaluation, human scores)."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.human import read_human
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.targeted import TargetedRequest

    toy = make(tmp)
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu", "ter", "ribes"), n_samples=20,
                                paired_samples=50, targeted=TargetedRequest("present"))
    human = read_human(toy["human"], list(toy["hyps"]))
    return toy, request, evaluate(request, human), human
