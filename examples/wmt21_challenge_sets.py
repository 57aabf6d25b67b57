"""Challenge sets from newstest2021 (both directions), every WMT21 system scored on every config.

    python examples/wmt21_challenge_sets.py [--shared ../shared] [--out wmt21_sets] [--n-samples 100]

1. Builds the challenge sets of newstest2021 de→en and en→de into one dataset folder, parsing the
   source with the UDPipe models in ../shared/models (the only real offline parsers here) and
   aligning with eflomal for the reordering configs. Both stages are cached: a rerun is quick.
2. Scores the primary submission of every WMT21 system on every config: BLEU (sacrebleu) and the
   length-matched random baseline (100 samples: every challenge sentence replaced by a random
   sentence of the full test set whose source length differs by at most one token).
3. Prints one table per direction (systems × configs, challenge BLEU; `*` where it falls below the
   5th percentile of the random samples, `-` where the config is empty), a summary of how often
   the challenge sets score below the full test set and below the random baseline, the Spearman
   correlation of BLEU with D, and draws a heat map of challenge BLEU minus the random mean.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from auto_challenge_sets.builder.pipeline.build import BuildSpec
from auto_challenge_sets.builder.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.dataset.writer import build_into_folder
from auto_challenge_sets.evaluation.service import EvaluationRequest, evaluate_system

MODELS = {"de": "german.udpipe", "en": "english.udpipe"}
REFERENCE = {"de-en": "A.en", "en-de": "A.de"}


def build(shared: Path, out: Path) -> None:
    wmt = shared / "data" / "wmt21"
    for pair in ("de-en", "en-de"):
        src, tgt = pair.split("-")
        print(f"building {pair} ...", file=sys.stderr)
        build_into_folder(BuildSpec(
            pair=pair, corpus="newstest2021",
            source=wmt / "sources" / f"newstest2021.{pair}.src.{src}",
            target=wmt / "references" / f"newstest2021.{pair}.ref.{REFERENCE[pair]}",
            parser=ParserSpec("udpipe", {"udpipe_model": shared / "models" / MODELS[src]}),
            aligner=AlignerSpec("eflomal", {"seed": 1}),
        ), out, license="other", progress=True)


def score_direction(shared: Path, out: Path, pair: str, n_samples: int) -> dict:
    """Every system of the direction on every config, through the evaluation service."""
    tgt = pair.split("-")[1]
    outputs = shared / "data" / "wmt21" / "system-outputs"
    systems = sorted(p.name.split(".")[3] for p in outputs.glob(f"newstest2021.{pair}.hyp.*.{tgt}"))
    results: dict = {"configs": [], "systems": systems, "full": {}, "cells": {}}
    for system in tqdm(systems, desc=f"scoring {pair}", unit="system"):
        evaluation = evaluate_system(EvaluationRequest(
            dataset=out, hypothesis=outputs / f"newstest2021.{pair}.hyp.{system}.{tgt}", config="all",
            split="newstest2021", pair=pair, n_samples=n_samples, seed=0))
        results["full"][system] = evaluation.full["bleu"]
        results["configs"] = [item.config for item in evaluation.results]
        for item in evaluation.results:
            random = item.result["random_baseline"]["bleu"]
            results["cells"][system, item.config] = (item.result["bleu"], random["mean"], random["p5"],
                                                     item.result["n"])
    return results


def print_table(pair: str, results: dict) -> None:
    configs, systems = results["configs"], results["systems"]
    short = [c.split(".", 1)[1].replace("prep_stranding", "strand").replace("reflexive", "refl")
             .replace("particle", "prt").replace("reorder", "reord") for c in configs]
    sizes = [results["cells"][systems[0], c][3] for c in configs]
    width = max(len(s) for s in systems)
    print(f"\n{pair}: BLEU of every system on every config (* below the 5th percentile of 100 "
          "length-matched random samples)")
    print(" " * width + "   full  " + " ".join(f"{s:>9}" for s in short))
    print(" " * width + "         " + " ".join(f"{'n=' + str(n):>9}" for n in sizes))
    for system in systems:
        cells = []
        for name in configs:
            bleu, _, p5, _ = results["cells"][system, name]
            cells.append(f"{bleu:8.1f}{'*' if bleu < p5 else ' '}")
        print(f"{system:<{width}}  {results['full'][system]:5.1f}  " + " ".join(cells))


def summarize(pair: str, results: dict) -> list[str]:
    from scipy.stats import spearmanr

    cells = results["cells"]
    below_full = sum(bleu < results["full"][s] for (s, _), (bleu, _, _, _) in cells.items())
    below_mean = sum(bleu < mean for (bleu, mean, _, _) in cells.values())
    below_p5 = sum(bleu < p5 for (bleu, _, p5, _) in cells.values())
    lines = [f"{pair}: {len(cells)} (system, config) cells: challenge BLEU below the full test set in "
             f"{below_full} ({below_full / len(cells):.0%}), below the random mean in {below_mean} "
             f"({below_mean / len(cells):.0%}), below the random 5th percentile in {below_p5} "
             f"({below_p5 / len(cells):.0%})"]
    by_phenomenon = defaultdict(list)
    for name in results["configs"]:
        config = parse_config_name(name)
        by_phenomenon[config.phenomenon].append((config.min_distance, name))
    for phenomenon, items in sorted(by_phenomenon.items()):
        if len(items) < 3:
            continue
        rhos = []
        for system in results["systems"]:
            ds = [d for d, _ in items]
            bleus = [cells[system, name][0] for _, name in items]
            rhos.append(spearmanr(ds, bleus).statistic)
        delta = np.mean([cells[s, n][0] - cells[s, n][1] for s in results["systems"] for _, n in items])
        lines.append(f"  {phenomenon}: D = {', '.join(str(d) for d, _ in items)}; Spearman(BLEU, D) over systems: "
                     f"median {np.nanmedian(rhos):+.2f}, negative for {sum(r < 0 for r in rhos)}/{len(rhos)}; "
                     f"mean challenge − random BLEU {delta:+.1f}")
    return lines


def heatmap(pair: str, results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs, systems = results["configs"], results["systems"]
    grid = np.array([[results["cells"][s, c][0] - results["cells"][s, c][1] for c in configs] for s in systems])
    limit = np.nanmax(np.abs(grid))
    fig, ax = plt.subplots(figsize=(1 + 0.45 * len(configs), 1 + 0.3 * len(systems)))
    image = ax.imshow(grid, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
    ax.set_xticks(range(len(configs)), [c.split(".", 1)[1] for c in configs], rotation=70, fontsize=8)
    ax.set_yticks(range(len(systems)), systems, fontsize=8)
    for i, s in enumerate(systems):
        for j, c in enumerate(configs):
            if results["cells"][s, c][0] < results["cells"][s, c][2]:
                ax.text(j, i, "*", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="challenge BLEU − random-baseline mean")
    ax.set_title(f"newstest2021 {pair}: challenge sets vs length-matched random (* < 5th pct)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    parser.add_argument("--out", type=Path, default=Path("wmt21_challenge_sets"))
    parser.add_argument("--n-samples", type=int, default=100)
    args = parser.parse_args()
    if not (args.shared / "data" / "wmt21").is_dir() or not (args.shared / "models" / "german.udpipe").is_file():
        print(f"needs {args.shared}/data/wmt21 and {args.shared}/models/*.udpipe", file=sys.stderr)
        return 1
    build(args.shared, args.out)
    summary = []
    for pair in ("de-en", "en-de"):
        results = score_direction(args.shared, args.out, pair, args.n_samples)
        print_table(pair, results)
        heatmap(pair, results, args.out / f"wmt21-{pair}-heatmap.png")
        summary += summarize(pair, results)
    print("\n" + "\n".join(summary))
    print(f"\nheat maps: {args.out}/wmt21-de-en-heatmap.png, {args.out}/wmt21-en-de-heatmap.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
