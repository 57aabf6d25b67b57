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
from typing import TYPE_CHECKING, TypedDict

import pyarrow as pa
import pyarrow.parquet as pq

if TYPE_CHECKING:  # the engine is imported by evaluated() alone: make() stays quick to import
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.results import Evaluation
    from auto_challenge_sets.evaluation.stats.human import HumanScores

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
    ("source_upos", pa.list_(pa.string())),  # none: the toy has no parse (link_toy gives it one)
])


class Corpus(TypedDict):
    """The toy's text: per corpus line (0-based here, 1-based in configs) its source words, its
    reference and its particle distance (-1: none); each system's output lines."""

    sources: list[list[str]]
    refs: list[str]
    distances: list[int]
    outputs: dict[str, list[str]]


class Toy(TypedDict):
    """What :func:`make` writes and a test reads: a TypedDict, not a dataclass, so that tests index it
    as they did (``toy["root"]``) and a checker still knows every key."""

    root: Path  # the dataset folder (``acs build``'s layout)
    hyps: dict[str, Path]  # system -> its output file
    human: Path  # the WMT-like human-score table
    corpus: Corpus
    configs: dict[str, list[int]]  # config -> its 1-based corpus lines
    tmp: Path  # the folder everything was written into


def corpus(systems: dict[str, float] = SYSTEMS) -> Corpus:
    rng = random.Random(5)
    sources, refs, distances = [], [], []
    for _ in range(N):
        src = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        ref = [rng.choice(WORDS) for _ in range(len(src) + rng.randint(-1, 2))]
        sources.append(src)
        refs.append(" ".join(ref).capitalize() + ".")
        distances.append(rng.choice([-1, 0, 1, 2, 3, 5]))
    outputs = {}
    for k, (name, keep) in enumerate(systems.items()):
        rng = random.Random(100 + k)
        lines = []
        for ref in refs:
            words = ref[:-1].lower().split()
            out = " ".join(w if rng.random() < keep else rng.choice(WORDS) for w in words)
            lines.append(out + "." if name == "lower" else out.capitalize() + ".")
        outputs[name] = refs if name == "ref" else lines
    return {"sources": sources, "refs": refs, "distances": distances, "outputs": outputs}


def config_lines(c: Corpus) -> dict[str, list[int]]:
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
        cols["source_upos"].append(None)
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


def write_human(path: Path, human: dict[str, float] = HUMAN) -> Path:
    """A WMT-like white-space table (SYS with a run number, Z.SCR)."""
    lines = ["SYS Z.SCR N"] + [f"{name}.{k} {score} 10" for k, (name, score) in enumerate(human.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def make(tmp: Path) -> Toy:
    """Everything a test needs: the folder, the outputs, the human table and the corpus. The one
    factory of the toy (the ``toy`` and ``fresh_toy`` fixtures of tests/conftest.py call it)."""
    c = corpus()
    tmp.mkdir(parents=True, exist_ok=True)
    return Toy(root=write_folder(tmp / "ldd", c), hyps=write_outputs(tmp, c), human=write_human(tmp / "human.txt"),
               corpus=c, configs=config_lines(c), tmp=tmp)


def evaluated(tmp: Path) -> tuple[Toy, EvaluationRequest, Evaluation, HumanScores]:
    """The toy folder scored as the report tests read it: BLEU, TER and RIBES, targeted accuracy
    (present match), the human table; returns (the folder's make(), request, evaluation, human scores)."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human

    toy = make(tmp)
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu", "ter", "ribes"), n_samples=20,
                                paired_samples=50, targeted=TargetedRequest("present"))
    human = read_human(toy["human"], list(toy["hyps"]))
    return toy, request, evaluate(request, human), human


def with_failed_matching(evaluation: Evaluation, names: tuple[str, ...] = ("de-en.particle.d0", "de-en.particle.d1")
                         ) -> Evaluation:
    """The evaluation with ``names`` marked degenerate, as if a tenth of their rows and one more had
    found no segment within their length window (the toy's lengths always match), so that the
    renderers' degenerate marks are drawn; the rest of the evaluation is the engine's."""
    from dataclasses import replace

    return replace(evaluation, configs={name: replace(config, degenerate_baseline=True, widened=config.n // 10 + 1)
                                        if name in names else config for name, config in evaluation.configs.items()})


# The crowded toy: 14 systems of close quality and close human scores, names up to 30 characters,
# where the figures' labels crowd (issue 48 item 5: labels drawn over each other, or cut at the edge).
CROWDED = {name: 0.62 + 0.01 * k for k, name in enumerate(
    ["Facebook-AI", "Online-A", "Online-B", "VolcTrans-GLAT", "VolcTrans-AT-ensemble-big", "UEdin",
     "happypoet", "Online-W", "UF", "HuaweiTSC-transformer-deep-v2", "P3AI", "nuclear_trans-deen-v3",
     "Manifold-transformer-base-2021", "Online-Y"])}


def crowded(tmp: Path) -> tuple[Evaluation, HumanScores]:
    """The crowded toy scored with BLEU and the human table: (evaluation, human scores)."""
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human

    c = corpus(CROWDED)
    tmp.mkdir(parents=True, exist_ok=True)
    hyps = write_outputs(tmp, c)
    human = write_human(tmp / "human.txt", {name: round(0.1 + 0.004 * k, 3) for k, name in enumerate(CROWDED)})
    request = EvaluationRequest(write_folder(tmp / "ldd", c), hyps, metrics=("bleu",), n_samples=20, paired_samples=50)
    scores = read_human(human, list(hyps))
    return evaluate(request, scores), scores


# The wide toy: what the default toy cannot show (issue 38, item 14: most surviving bugs sat in its
# blind spots). A separate builder, so that the default toy's numbers, which many tests pin, stay.
# - two corpora of one pair (WIDE_SPLITS: the build record orders toydev before toytest, so a
#   lookup on the pair alone finds toydev's line count for toytest);
# - empty corpus lines (every EMPTY_EVERY-th line: no row in any config, an empty output line), so
#   the corpus has more lines than the baseline has rows;
# - several instances per row (a row's distance is its largest instance's);
# - distances up to WIDE_D (particle.d10 after particle.d2, not before);
# - a system name outside ASCII (NON_ASCII);
# - an acs_build.json recording each corpus's lines and files, as `acs build` writes it.
WIDE_SPLITS = {"toytest": 120, "toydev": 40}  # corpus -> lines, empty ones included
EMPTY_EVERY = 13
WIDE_D = 12
NON_ASCII = "Übersetzer-β"
# lines around the page's words-file boundary (100 lines a file) with one instance at distance 0:
# only particle.d0 holds them, past its first 50 rows, so their words go to sidecar files
BOUNDARY = range(96, 106)
WIDE_SYSTEMS = {"ref": 1.0, "better": 0.85, NON_ASCII: 0.7, "worse": 0.5}


def wide_corpus(split: str = SPLIT) -> dict:
    """Like :func:`corpus`, for one corpus of the wide toy: ``instances`` per line (a list of
    distances, empty for an empty line) and ``empty`` (the 1-based empty lines)."""
    rng = random.Random(f"wide-{split}")
    n = WIDE_SPLITS[split]
    empty = {line for line in range(1, n + 1) if line % EMPTY_EVERY == 0}
    sources, refs, distances, instances = [], [], [], []
    for line in range(1, n + 1):
        if line in empty:
            sources.append([])
            refs.append("")
            distances.append(-1)
            instances.append([])
            continue
        src = [rng.choice(WORDS) for _ in range(rng.randint(3, 16))]
        ref = [rng.choice(WORDS) for _ in range(len(src) + rng.randint(-1, 2))]
        sources.append(src)
        refs.append(" ".join(ref).capitalize() + ".")
        found = sorted(rng.sample(range(WIDE_D + 1), rng.randint(0, 3)))
        if line in BOUNDARY:
            found = [0]
        instances.append(found)
        distances.append(found[-1] if found else -1)
    outputs = {}
    for k, (name, keep) in enumerate(WIDE_SYSTEMS.items()):
        rng = random.Random(200 + k)
        lines = []
        for ref in refs:
            words = ref[:-1].lower().split()
            lines.append(" ".join(w if rng.random() < keep else rng.choice(WORDS) for w in words).capitalize()
                         + ("." if words else ""))
        outputs[name] = refs if name == "ref" else lines
    return {"sources": sources, "refs": refs, "distances": distances, "instances": instances, "empty": empty,
            "outputs": outputs}


def wide_config_lines(c: dict) -> dict[str, list[int]]:
    lines = [n for n in range(1, len(c["sources"]) + 1) if n not in c["empty"]]
    configs = {"de-en.baseline": lines}
    for d in range(WIDE_D + 1):
        configs[f"de-en.particle.d{d}"] = [n for n in lines if c["distances"][n - 1] >= d]
    return configs


def _wide_rows(c: dict, split: str, lines: list[int], phenomenon: str) -> pa.Table:
    table = rows_table(c, lines, phenomenon).to_pydict()
    table["id"] = [f"{split}:{line}" for line in lines]
    table["corpus"] = [split] * len(lines)
    if phenomenon != "baseline":  # one instance per distance the line holds, heads to the right
        table["instances"] = [
            [{"dependent": 1, "head": min(d + 2, len(c["sources"][line - 1])), "dependent_form": "x",
              "head_form": "y", "distance": d} for d in c["instances"][line - 1]] for line in lines]
    return pa.Table.from_pydict(table, schema=SCHEMA)


def make_wide(tmp: Path) -> dict:
    """The wide toy's folder (both corpora, with acs_build.json) and toytest's outputs: like
    :func:`make`, plus ``corpora`` (split -> wide_corpus) and ``lines`` (split -> corpus lines)."""
    import json

    from auto_challenge_sets.dataset.integrity import describe_files

    tmp.mkdir(parents=True, exist_ok=True)
    root = tmp / "ldd"
    corpora = {split: wide_corpus(split) for split in WIDE_SPLITS}
    configs = {split: wide_config_lines(c) for split, c in corpora.items()}
    card = ["---", "configs:"]
    for name in configs[SPLIT]:
        folder = root / "data" / name
        folder.mkdir(parents=True)
        card += [f"- config_name: {name}", "  data_files:"]
        for split, c in corpora.items():
            if configs[split][name]:  # an empty selection is no file (as `acs build` writes it)
                pq.write_table(_wide_rows(c, split, configs[split][name], name.split(".")[1]),
                               folder / f"{split}-00000-of-00001.parquet")
                card += [f"  - split: {split}", f"    path: data/{name}/{split}-*"]
    card += ["---", "", "# A wide toy LDD dataset", ""]
    (root / "README.md").write_text("\n".join(card), encoding="utf-8")
    builds = [{"pair": "de-en", "corpus": split, "lines": WIDE_SPLITS[split],
               "files": describe_files(root, "de-en", split)} for split in sorted(WIDE_SPLITS)]
    (root / "acs_build.json").write_text(json.dumps({"format": 3, "license": "other", "builds": builds}, indent=2),
                                          encoding="utf-8")
    c = corpora[SPLIT]
    hyps = {}
    for name, lines in c["outputs"].items():
        hyps[name] = tmp / f"wide.hyp.{name}.en"
        hyps[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"root": root, "hyps": hyps, "corpus": c, "corpora": corpora, "configs": configs[SPLIT],
            "lines": dict(WIDE_SPLITS), "tmp": tmp}


# The toy with a parse and a build record (the sentence view's link checks, tests/test_sentence_links.py):
# every source word a NOUN, and on three particle.d3 lines one link added from source word 2 to the
# reference word of the particle (word 0, its dependent): against a NOUN where the particle is an ADP
# (contradicted), against an ADV where the particle is an ADV (checked, not contradicted), from a DET
# (not a content word: not checked). Every other reference word has one link, from its own source word.
LINKED = {3: {0: "ADP"}, 9: {0: "ADV", 2: "ADV"}, 10: {0: "ADP", 2: "DET"}}
CONTRADICTED, CONSISTENT, UNCHECKED = LINKED


def eflomal(pairs: int, priors: bool = False) -> dict:
    """An aligner's provenance as ``acs build`` records eflomal's."""
    return {"backend": "eflomal", "package": "eflomal", "version": "2.0.0", "model": None, "file": None,
            "sha256": None, "symmetrization": "grow-diag-final-and", "priors_used": priors, "options": {"seed": 1},
            "priors": {"file": "priors.txt", "sha256": None} if priors else None, "pairs": pairs}


def link_toy(root: Path, aligner: dict) -> Path:
    """The toy folder ``root`` with :data:`LINKED`'s parse and links in its full corpus and a build
    record whose provenance names ``aligner`` (:func:`eflomal`'s, or a Pharaoh file's)."""
    import json

    from auto_challenge_sets.dataset.integrity import describe_files

    path = next((root / "data" / "de-en.baseline").glob("*.parquet"))
    table = pq.read_table(path)
    alignments, upos = table.column("alignment").to_pylist(), []
    for k, (line, tokens) in enumerate(zip(table.column("line").to_pylist(), table.column("source_tokens").to_pylist())):
        upos.append([LINKED.get(line, {}).get(i, "NOUN") for i in range(len(tokens))])
        if line in LINKED:
            alignments[k] += " 2-0"
    table = table.set_column(table.schema.get_field_index("alignment"), "alignment", pa.array(alignments))
    column = table.schema.get_field_index("source_upos")
    pq.write_table(table.set_column(column, "source_upos", pa.array(upos, pa.list_(pa.string()))), path)
    provenance = {"parser": {"backend": "udpipe", "model": "german.udpipe"}, "aligner": aligner,
                  "tokenization": {"source": "udpipe's tokenizer", "target": "white space"}}
    build = {"pair": "de-en", "corpus": SPLIT, "lines": N, "files": describe_files(root, "de-en", SPLIT),
             "provenance": provenance}
    (root / "acs_build.json").write_text(json.dumps({"format": 3, "license": "other", "builds": [build]}), encoding="utf-8")
    return root
