"""Benchmark of the ldd_challenge metric's shared-statistics design (issue 5).

Part "cost" (issue 25): RIBES on one pair of 2,000 copies of one token and on 20,000 shuffled
unique tokens, the new alignment against the old one (kept below, the baseline, nowhere else),
their values equal, and old = new on every WMT21 de-en system's sentences and on random ones;
then ``compute()`` on 100,000 distinct pairs against ``sacrebleu.corpus_bleu`` on the same rows.
Targets: each RIBES case < 1 s; compute() on 100k <= 30 s.

Part "wmt21" (issue 36): ``evaluate.load("ldd_challenge").compute`` of one 1,000-sentence config
with a 100-sample length-matched baseline over the 19,000-line pool of the 19 WMT21 de-en systems,
against one ``sacrebleu.corpus_bleu`` over that pool, timed in one run. Target: at most 2x.

Part "pool" (issue 5). Job: one system scored on 30 challenge subsets (sizes 50-3,000) of a pool of >= 50,000 lines
(WMT21 de-en lines repeated), each with a 100-sample length-matched random baseline.

(a) the job through the metric (per call, the pool's statistics, then row sums) against the obvious way:
    every random corpus scored by ``sacrebleu.corpus_bleu``. The obvious way is timed on a few
    samples of every config and extrapolated to 100 (printed as such).
(b) the job's time divided by one ``sacrebleu.corpus_bleu`` over the whole pool: each call reads
    the pool again (``acs evaluate`` reads it once for every config).

The metric's job also computes RIBES for every sentence and sample; the sacrebleu path does BLEU
only, so (a) and (b) are conservative. Run: ``python benchmarks/bench_metric.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import sacrebleu

from auto_challenge_sets.metrics.compute import compute
from auto_challenge_sets.scoring.length_baseline import sample_length_matched
from auto_challenge_sets.scoring.metrics import ribes
from auto_challenge_sets.workers import cores

REPO = Path(__file__).resolve().parent.parent


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


# -- the RIBES alignment before issue 25, the baseline of part "cost" (rescans the reference per
# -- window: cubic on repeated words; ref.index: quadratic on unique ones) ---------------------

_OLD_NONE = -1  # _unique_start: the n-gram does not occur
_OLD_MANY = -2  # _unique_start: the n-gram occurs more than once


def _old_unique_start(seq: list[str], starts: list[int], ngram: list[str]) -> int:
    """Start of the only occurrence of ``ngram`` in ``seq``, or _OLD_NONE, or _OLD_MANY.

    Occurrences may overlap. ``starts`` lists the positions of ``ngram[0]`` in ``seq``: only
    those can start a match.
    """
    n = len(ngram)
    found = _OLD_NONE
    for k in starts:
        if seq[k : k + n] == ngram:
            if found >= 0:
                return _OLD_MANY
            found = k
    return found


def _old_by_context(hyp: list[str], ref: list[str], i: int, ref_pos: dict, hyp_pos: dict) -> int | None:
    """Reference position of ambiguous ``hyp[i]`` from the shortest unique context, if any.

    A context that does not occur in the reference cannot occur once it is extended either, so
    that side is dropped then (an exact shortcut: the result is the same as trying every window).
    """
    length = len(hyp)
    word = hyp[i]
    left = right = True
    for window in range(1, max(i, length - 1 - i) + 1):
        if left and window <= i:  # left context first
            ngram = hyp[i - window : i + 1]
            at = _old_unique_start(ref, ref_pos.get(ngram[0], ()), ngram)
            if at == _OLD_NONE:
                left = False
            elif at >= 0 and _old_unique_start(hyp, hyp_pos[ngram[0]], ngram) >= 0:
                return at + window
        if right and i + window < length:
            ngram = hyp[i : i + window + 1]
            at = _old_unique_start(ref, ref_pos[word], ngram)
            if at == _OLD_NONE:
                right = False
            elif at >= 0 and _old_unique_start(hyp, hyp_pos[word], ngram) >= 0:
                return at
        if not left and not right:
            return None
    return None


def _old_align(hyp: Sequence[str], ref: Sequence[str]) -> list[int]:
    """Reference positions of the aligned hypothesis words, in hypothesis order."""
    hyp = list(hyp)
    ref = list(ref)
    ref_counts = Counter(ref)
    hyp_counts = Counter(hyp)
    ref_pos = hyp_pos = None  # built only when some word is ambiguous
    aligned: list[int] = []
    for i, word in enumerate(hyp):
        in_ref = ref_counts.get(word, 0)
        if not in_ref:
            continue
        if in_ref == 1 and hyp_counts[word] == 1:
            aligned.append(ref.index(word))
            continue
        if ref_pos is None:
            ref_pos, hyp_pos = ribes._positions(ref), ribes._positions(hyp)  # unchanged by issue 25
        at = _old_by_context(hyp, ref, i, ref_pos, hyp_pos)
        if at is not None:
            aligned.append(at)
    return aligned


def _old_kendall(hyp: Sequence[str], ref: Sequence[str]) -> tuple[float, float, float]:
    """``(nkt, precision, bp)`` of one hypothesis against one reference (word lists)."""
    if len(ref) == 0 or len(hyp) == 0:
        return (0.0, 0.0, 0.0)
    return ribes.order_scores(_old_align(hyp, ref), len(hyp), len(ref))


def _old_sentence_ribes(hyp: list[str], refs: list[list[str]]) -> float:
    best = 0.0
    for ref in refs:
        nkt, precision, bp = _old_kendall(hyp, ref)
        best = max(best, nkt * (precision**ribes.ALPHA) * (bp**ribes.BETA))
    return best


def _timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (compute()'s workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def cost(data: Path, pairs: int, repeated: int, shuffled: int) -> None:
    """Part "cost": RIBES's worst cases, old against new, and compute() on ``pairs`` rows."""
    rng = random.Random(25)
    words = [f"w{k}" for k in range(shuffled)]
    mixed = words[:]
    rng.shuffle(mixed)
    for name, hyp, ref in ((f"{repeated:,} copies of one token", ["a"] * repeated, ["a"] * repeated),
                           (f"{shuffled:,} shuffled unique tokens", mixed, words)):
        new, t_new = _timed(ribes.sentence_ribes, hyp, [ref])
        old, t_old = _timed(_old_sentence_ribes, hyp, [ref])
        print(f"RIBES, {name}: new {t_new:.3f} s, old {t_old:.2f} s, old/new {t_old / t_new:,.0f}x; "
              f"values {'equal' if new == old else f'DIFFER: {new!r} vs {old!r}'} ({new:.6f}); target < 1 s")
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tokenize = Tokenizer13a()
    ref = [ribes.words(tokenize(line)) for line in _lines(data / "references" / "newstest2021.de-en.ref.A.en")]
    same = total = 0
    for path in sorted((data / "system-outputs").glob("newstest2021.de-en.hyp.*.en")):
        for line, reference in zip(_lines(path), ref, strict=True):
            hyp = ribes.words(tokenize(line))
            same += ribes.sentence_ribes(hyp, [reference]) == _old_sentence_ribes(hyp, [reference])
            total += 1
    for _ in range(5000):  # few words, many repeats: the context windows do the work
        vocab = [chr(97 + k) for k in range(rng.randint(1, 6))]
        hyp = [rng.choice(vocab) for _ in range(rng.randint(0, 40))]
        reference = [rng.choice(vocab) for _ in range(rng.randint(0, 40))]
        same += ribes.sentence_ribes(hyp, [reference]) == _old_sentence_ribes(hyp, [reference])
        total += 1
    print(f"RIBES old = new on {same:,} of {total:,} sentence pairs (every WMT21 de-en system, 5,000 random)")
    compute_cost(data, pairs)


def compute_cost(data: Path, pairs: int) -> None:
    """Part "compute": compute() on ``pairs`` distinct rows against sacrebleu.corpus_bleu on them."""
    hyps = _lines(data / "system-outputs" / "newstest2021.de-en.hyp.Online-B.en")
    ref_lines = _lines(data / "references" / "newstest2021.de-en.ref.A.en")
    # distinct rows (a row number appended), so that no cache or repeat makes the work smaller
    predictions = [f"{hyps[i % len(hyps)]} r{i}" for i in range(pairs)]
    references = [f"{ref_lines[i % len(ref_lines)]} r{i}" for i in range(pairs)]
    cpu = _cpu()
    scores, t_compute = _timed(compute, predictions, references)
    cpu = _cpu() - cpu
    cpu_bleu = _cpu()
    _, t_bleu = _timed(sacrebleu.corpus_bleu, predictions, [references])
    cpu_bleu = _cpu() - cpu_bleu
    print(f"compute() on {pairs:,} pairs (BLEU, chrF, RIBES per sentence, {cores()} core(s)): {t_compute:.1f} s "
          f"({cpu:.1f} s CPU, its worker processes included); "
          f"sacrebleu.corpus_bleu on the same rows (BLEU only): {t_bleu:.1f} s ({cpu_bleu:.1f} s CPU); "
          f"ratio {t_compute / t_bleu:.2f} ({cpu / cpu_bleu:.2f} CPU); target <= 30 s "
          f"(bleu {scores['bleu']:.4f}, chrf {scores['chrf']:.4f}, ribes {scores['ribes']:.6f})")
    assert math.isfinite(scores["ribes"])


def wmt21(data: Path, rows: int, n_samples: int) -> None:
    """Part "wmt21" (issue 36): ``evaluate.load("ldd_challenge").compute`` of one config of ``rows``
    sentences with an ``n_samples`` length-matched baseline over the pool of every WMT21 de-en
    system's output (19 x 1,000 lines), against one ``sacrebleu.corpus_bleu`` over that pool, in one
    run (wall and CPU). Target: at most 2x."""
    import evaluate

    import auto_challenge_sets

    src = _lines(data / "sources" / "newstest2021.de-en.src.de")
    ref = _lines(data / "references" / "newstest2021.de-en.ref.A.en")
    systems = sorted((data / "system-outputs").glob("newstest2021.de-en.hyp.*.en"))
    pool_hyp = [line for path in systems for line in _lines(path)]
    pool_ref, pool_len = ref * len(systems), [len(s.split()) for s in src] * len(systems)
    chosen = np.sort(np.random.default_rng(2019).choice(len(pool_hyp), size=rows, replace=False)).tolist()
    ldd = evaluate.load(auto_challenge_sets.METRIC_PATH)  # loading is not timed: once per session
    cpu, t0 = _cpu(), time.perf_counter()
    result = ldd.compute(predictions=[pool_hyp[i] for i in chosen], references=[pool_ref[i] for i in chosen],
                         lengths=[pool_len[i] for i in chosen], ids=chosen, pool_ids=list(range(len(pool_hyp))),
                         pool_predictions=pool_hyp, pool_references=pool_ref, pool_lengths=pool_len,
                         n_samples=n_samples)
    t_metric, cpu_metric = time.perf_counter() - t0, _cpu() - cpu
    cpu, t0 = _cpu(), time.perf_counter()
    sacrebleu.corpus_bleu(pool_hyp, [pool_ref])
    t_bleu, cpu_bleu = time.perf_counter() - t0, _cpu() - cpu
    print(f"evaluate.load(ldd_challenge).compute, {rows:,} rows, {n_samples} samples, pool {len(pool_hyp):,} lines "
          f"({len(systems)} WMT21 de-en systems): {t_metric:.2f} s ({cpu_metric:.2f} s CPU); one "
          f"sacrebleu.corpus_bleu over the pool: {t_bleu:.2f} s ({cpu_bleu:.2f} s CPU); ratio "
          f"{t_metric / t_bleu:.2f} ({cpu_metric / cpu_bleu:.2f} CPU); target <= 2 "
          f"(bleu {result['bleu']:.4f}, chrf {result['chrf']:.4f}, ribes {result['ribes']:.6f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "wmt21")
    parser.add_argument("--pool-lines", type=int, default=50_000)
    parser.add_argument("--configs", type=int, default=30)
    parser.add_argument("--n-samples", type=int, default=100)
    parser.add_argument("--slow-samples", type=int, default=3,
                        help="samples per config actually scored through corpus_bleu (then extrapolated)")
    parser.add_argument("--system", default="Online-B")
    parser.add_argument("--part", choices=("cost", "compute", "pool", "wmt21", "all"), default="all")
    parser.add_argument("--rows", type=int, default=1_000, help="rows of the config of part wmt21")
    parser.add_argument("--pairs", type=int, default=100_000, help="rows of compute() in part cost")
    parser.add_argument("--repeated", type=int, default=2_000, help="copies of one token (part cost)")
    parser.add_argument("--shuffled", type=int, default=20_000, help="shuffled unique tokens (part cost)")
    args = parser.parse_args()
    if not args.data.exists():
        print(f"needs WMT21 data at {args.data}", file=sys.stderr)
        return 1
    if args.part in ("cost", "all"):
        cost(args.data, args.pairs, args.repeated, args.shuffled)
    if args.part == "compute":
        compute_cost(args.data, args.pairs)
        return 0
    if args.part in ("wmt21", "all"):
        wmt21(args.data, args.rows, args.n_samples)
    if args.part in ("cost", "wmt21"):
        return 0

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

    # The metric: every config, each call computing the pool's statistics again.
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
    print(f"(b) whole job / one corpus_bleu over the pool: {t_fast / t_pool_bleu:.2f}  ({len(subsets)} calls, "
          "each reading the pool)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
