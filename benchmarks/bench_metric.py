"""Benchmark of the ldd_challenge metric's shared-statistics design (issue 5).

Job: one system scored on 30 challenge subsets (sizes 50-3,000) of a pool of >= 50,000 lines
(WMT21 de-en lines repeated), each with a 100-sample length-matched random baseline.

(a) the job through the metric (pool statistics once, then row sums) against the obvious way:
    every random corpus scored by ``sacrebleu.corpus_bleu``. The obvious way is timed on a few
    samples of every config and extrapolated to 100 (printed as such).
(b) the job's time divided by one ``sacrebleu.corpus_bleu`` over the whole pool — the physical
    limit, since the pool must be read once.

The metric's job also computes RIBES for every sentence and sample; the sacrebleu path does BLEU
only, so (a) and (b) are conservative. Run: ``python benchmarks/bench_metric.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import sacrebleu

from auto_challenge_sets.scoring.challenge import compute
from auto_challenge_sets.scoring.length_baseline import sample_length_matched
from auto_challenge_sets.scoring.statistics import clear_pool_cache

REPO = Path(__file__).resolve().parent.parent


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "wmt21")
    parser.add_argument("--pool-lines", type=int, default=50_000)
    parser.add_argument("--configs", type=int, default=30)
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--slow-samples", type=int, default=3,
                        help="samples per config actually scored through corpus_bleu (then extrapolated)")
    parser.add_argument("--system", default="Online-B")
    args = parser.parse_args()
    if not args.data.exists():
        print(f"needs WMT21 data at {args.data}", file=sys.stderr)
        return 1

    src = _lines(args.data / "sources" / "newstest2021.de-en.src.de")
    ref = _lines(args.data / "references" / "newstest2021.de-en.ref.A.en")
    hyp = _lines(args.data / "system-outputs" / f"newstest2021.de-en.hyp.{args.system}.en")
    repeats = -(-args.pool_lines // len(src))
    pool_hyp, pool_ref = hyp * repeats, ref * repeats
    pool_len = [len(s.split()) for s in src] * repeats
    pool_ids = list(range(len(pool_hyp)))
    n_pool = len(pool_hyp)

    rng = np.random.default_rng(2019)
    sizes = np.unique(np.geomspace(50, 3000, args.configs).astype(int))
    while len(sizes) < args.configs:  # keep exactly `configs` subsets
        sizes = np.unique(np.append(sizes, rng.integers(50, 3001)))
    subsets = [np.sort(rng.choice(n_pool, size=int(s), replace=False)) for s in sizes]
    print(f"pool: {n_pool:,} lines (WMT21 de-en {args.system}, {len(src):,} lines x {repeats}); "
          f"{len(subsets)} challenge subsets of {sizes.min()}-{sizes.max()} lines; {args.n_samples} samples each")

    # The physical limit: one corpus_bleu over the pool.
    t0 = time.perf_counter()
    sacrebleu.corpus_bleu(pool_hyp, [pool_ref])
    t_pool_bleu = time.perf_counter() - t0
    print(f"one sacrebleu.corpus_bleu over the pool: {t_pool_bleu:.2f} s")

    # The metric: pool statistics once (cache cleared first), then every config.
    clear_pool_cache()
    t0 = time.perf_counter()
    results = []
    for rows in subsets:
        results.append(compute(
            [pool_hyp[i] for i in rows], [pool_ref[i] for i in rows], lengths=[pool_len[i] for i in rows],
            ids=rows.tolist(), pool_ids=pool_ids, pool_predictions=pool_hyp, pool_references=pool_ref,
            pool_lengths=pool_len, n_samples=args.n_samples, seed=1,
        ))
    t_fast = time.perf_counter() - t0
    print(f"metric, all {len(subsets)} configs x {args.n_samples} samples (BLEU + RIBES): {t_fast:.2f} s")

    # The obvious way: corpus_bleu per random corpus, on `slow_samples` samples per config.
    t0 = time.perf_counter()
    exclude_base = np.zeros(n_pool, dtype=bool)
    scored = 0
    for k, rows in enumerate(subsets):
        exclude = exclude_base.copy()
        exclude[rows] = True
        samples = sample_length_matched(np.asarray(pool_len)[rows], pool_len, args.slow_samples, 1, exclude,
                                        np.random.default_rng([1, k]))
        for index in samples.index:
            sacrebleu.corpus_bleu([pool_hyp[i] for i in index], [[pool_ref[i] for i in index]])
            scored += 1
    t_slow_measured = time.perf_counter() - t0
    t_slow = t_slow_measured * args.n_samples / args.slow_samples
    print(f"sacrebleu path: measured {t_slow_measured:.2f} s for {scored} corpora "
          f"({args.slow_samples} per config), extrapolated to {args.n_samples} per config: {t_slow:.1f} s")

    print(f"(a) speed-up of the shared-statistics path over resampling through corpus_bleu: "
          f"{t_slow / t_fast:.0f}x  (target >= 50x; sacrebleu side extrapolated from "
          f"{args.slow_samples} of {args.n_samples} samples)")
    print(f"(b) whole job / one corpus_bleu over the pool: {t_fast / t_pool_bleu:.2f}  (target <= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
