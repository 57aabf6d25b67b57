"""The length-matched random baseline on a paragraph-level corpus (issue 50 item 4): how closely
its random corpora match, under the rules it had and the one it has.

WMT's general test sets since 2023 are paragraphs; here one is made from WMT21 de-en by joining
every 3, 4, 5, 6, 3, 4, … consecutive lines (tests/paragraph_corpus.py: the source, reference A
and the system outputs alike). Both corpora, WMT21 as is and joined, are built with UDPipe and
eflomal (seed 1, as tests/conftest.py builds WMT21) into ``--work`` (kept: a second run only
draws). For every config the random corpora are drawn as ``acs evaluate`` draws them (100, seed 1)
under four rules: ±1 token or max(±1, 5 %) from the rows outside the config alone (the rules before
issue 50, when a config was degenerate also where the rest held fewer rows than the config), and
±1 token or the default max(±1, 2 %), where a row whose window holds fewer than three rows outside
the config draws from the whole corpus (scoring/length_baseline.py). Printed per corpus and rule:
the rows widened, the rows that drew from the whole corpus, the mean |Δlength| of a replacement in
tokens and relative to the row's length, the distinct replacements of a row (mean over rows), and
the degenerate configs; the default's figures are checked against ``acs evaluate``'s (results.json
``length_gap``, ``distinct``, ``degenerate_baseline``).

    python studies/paragraph_baseline.py [--work DIR] [--dataset DIR] [--write | --check]

``--dataset``: the sentence-level build, if made already (studies/wmt21.py builds it the same way);
``--work``: where the joined corpus is built (kept; default: a temporary folder). ``--write`` writes
the summary into its block of docs/method.md; ``--check`` exits 1 when that block differs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from stored_table import store_block_or_check

from auto_challenge_sets.dataset.layout import DatasetFolder
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation.engine import evaluate
from auto_challenge_sets.evaluation.inputs import read_corpus
from auto_challenge_sets.evaluation.request import EvaluationRequest
from auto_challenge_sets.pipeline.run_build import BuildSpec
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.scoring import kernel
from auto_challenge_sets.scoring.length_baseline import (
    DEFAULT_LENGTH_RELATIVE,
    DEGENERATE_WIDENED_SHARE,
    MIN_CANDIDATES,
    is_degenerate,
    sample_length_matched,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ACS_SHARED_DIR", REPO.parent / "shared"))  # as tests/conftest.py finds it
sys.path.insert(0, str(REPO / "tests"))
from paragraph_corpus import write_joined  # noqa: E402 - a test helper, shared with the tests

NAME, SCRIPT = "paragraph-baseline", "paragraph_baseline.py"


def _build(source: Path, reference: Path, out: Path) -> Path:
    if not (out / "README.md").is_file():
        build_into_folder(BuildSpec(
            pair="de-en", corpus="newstest2021", source=source, target=reference,
            parser=ParserSpec("udpipe", {"udpipe_model": SHARED / "models" / "german.udpipe"}),
            aligner=AlignerSpec("eflomal", {"seed": 1}), cache_dir=out.parent / "cache"), out,
            license="other", progress=False)
    return out


# (label, relative window, fewer others than this draw from the whole corpus, degenerate also for
# a rest smaller than the config): the rules before issue 50, and today's
RULES = (("±1, the rest alone", 0.0, 0, True), ("max(±1, 5%), the rest alone", 0.05, 0, True),
         ("±1, whole corpus below 3", 0.0, MIN_CANDIDATES, False),
         (f"max(±1, {DEFAULT_LENGTH_RELATIVE:.0%}), whole corpus below 3 (default)", DEFAULT_LENGTH_RELATIVE,
          MIN_CANDIDATES, False))


def measure_rule(corpus, relative: float, min_candidates: int, complement_rule: bool) -> dict[str, object]:
    """The draws of every config with a random baseline under one rule, as the engine seeds them."""
    rows = widened = shared = degenerate = 0
    gaps, shares, distinct, per_config = [], [], [], {}
    for config in corpus.configs:
        exclude = np.zeros(len(corpus.pool_lengths), dtype=bool)
        exclude[config.positions] = True
        if exclude.all():
            continue
        drawn = sample_length_matched(config.lengths, corpus.pool_lengths, 100, 1, exclude,
                                      np.random.default_rng([kernel.DEFAULT_SEED, 0]), relative, min_candidates)
        n = len(config.positions)
        gap, share = drawn.length_gap(config.lengths, corpus.pool_lengths)
        flagged = is_degenerate(n, drawn.widened) or (complement_rule and len(corpus.pool_lengths) - n < n)
        rows, widened, shared, degenerate = rows + n, widened + drawn.widened, shared + drawn.shared, degenerate + flagged
        gaps.append(gap), shares.append(share), distinct.append(drawn.distinct())
        per_config[config.name] = (gap, drawn.distinct(), flagged)
    return {"rows": rows, "widened": widened, "shared": shared, "gap": float(np.mean(gaps)),
            "share": float(np.mean(shares)), "distinct": float(np.mean(distinct)), "degenerate": degenerate,
            "configs": len(gaps), "per_config": per_config}


def measure(sentences: Path, work: Path) -> str:
    data = SHARED / "data" / "wmt21"
    source = data / "sources" / "newstest2021.de-en.src.de"
    reference = data / "references" / "newstest2021.de-en.ref.A.en"
    system = next(iter(sorted((data / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))))
    joined = write_joined({"source": source, "reference": reference, "system": system}, work / "joined-text")
    paragraphs = _build(joined["source"], joined["reference"], work / "paragraphs")
    lengths = sorted(DatasetFolder(paragraphs).read("de-en.baseline", "newstest2021", ["length"])["length"])
    lines = [f"WMT21 de→en as is and joined 3–6 lines at a time ({len(lengths)} paragraphs, median "
             f"{lengths[len(lengths) // 2]} source tokens, the longest {lengths[-1]}); every config's 100 random "
             "corpora (seed 1); |Δlength|: a replacement's, mean over the configs:", "",
             "| corpus | rule | rows widened | rows from the whole corpus | mean abs Δlength (tokens) "
             "| relative to the row | distinct replacements of a row | degenerate configs |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for label, folder, hyp in (("sentences", sentences, system), ("joined 3–6", paragraphs, joined["system"])):
        request = EvaluationRequest(folder, {"system": hyp}, metrics=("bleu",), paired_samples=10)
        corpus = read_corpus(request)
        for rule, relative, min_candidates, complement_rule in RULES:
            m = measure_rule(corpus, relative, min_candidates, complement_rule)
            lines.append(f"| {label} | {rule} | {m['widened']:,} of {m['rows']:,} | {m['shared']:,} | {m['gap']:.2f} "
                         f"| {m['share']:.1%} | {m['distinct']:.1f} | {m['degenerate']} of {m['configs']} |")
        # the default's figures are the engine's
        evaluation = evaluate(request)
        for name, (gap, distinct, flagged) in m["per_config"].items():
            config = evaluation.configs[name]
            assert (config.length_gap, config.distinct, config.degenerate_baseline) == (gap, distinct, flagged), name
        whole = [name for name, config in evaluation.configs.items() if config.random_unavailable]
        notes.append(f"{label}: {len(whole)} holding every row ({', '.join(whole) or 'none'}) gets no random corpora")
    return "\n".join([*lines, "", f"A config is degenerate where more than {DEGENERATE_WIDENED_SHARE:.0%} of its "
                       "rows were widened (and, before issue 50, where the rows outside it were fewer than its own); a "
                       "config holding every row has no random corpora and is left out above (" + "; ".join(notes) + ")."]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, help="where the joined corpus is built (kept)")
    parser.add_argument("--dataset", type=Path, help="the sentence-level WMT21 build, if made already")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the summary into docs/method.md")
    action.add_argument("--check", action="store_true", help="exit 1 if docs/method.md's summary differs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        data = SHARED / "data" / "wmt21"
        sentences = args.dataset or _build(data / "sources" / "newstest2021.de-en.src.de",
                                           data / "references" / "newstest2021.de-en.ref.A.en", work / "sentences")
        table = measure(sentences, work)
    return store_block_or_check(table, NAME, SCRIPT, write=args.write, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
