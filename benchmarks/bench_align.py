"""Alignment throughput: batched vs stock simalign on the same model and pairs, and eflomal.

    python benchmarks/bench_align.py                        # tiny random BERT, CPU
    python benchmarks/bench_align.py --hidden 768 --layers 12 --device cuda --batch-size 256
    python benchmarks/bench_align.py --model /path/to/mbert --layer 8 --device cuda

Without --model, a random BERT is built from the benchmark's own sentences (tests/tiny_bert.py;
--hidden 768 --layers 12 gives one of mBERT's size). Both aligners run the argmax method on the
same pairs in one process; the script also checks that their links are identical. Reads
newstest2013 from ../shared/data (or --data DIR).

Measured here (2 shared CPU cores, 1 thread): tiny model 2.1x (184 -> 386 pairs/s); a random
model of mBERT's size 1.17x (8.4 -> 9.8 pairs/s): on a CPU the big model is compute-bound, the
gain of batching is on a GPU.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _pairs(data: Path, n: int) -> list[tuple[list[str], list[str]]]:
    de = (data / "newstest2013.de").read_text(encoding="utf-8").splitlines()[:n]
    en = (data / "newstest2013.en").read_text(encoding="utf-8").splitlines()[:n]
    return [(d.split(), e.split()) for d, e in zip(de, en)]


def bench_simalign(args: argparse.Namespace, pairs, model: str) -> None:
    import torch
    from simalign import SentenceAligner

    from auto_challenge_sets.backends.aligners import get_aligner

    logging.getLogger("simalign.simalign").setLevel(logging.WARNING)
    if args.threads:
        torch.set_num_threads(args.threads)
    ours = get_aligner("simalign", model=model, layer=args.layer, token_type=args.token_type,
                       method="argmax", device=args.device, batch_size=args.batch_size)
    stock = SentenceAligner(model=model, token_type=args.token_type, matching_methods="a",
                            device=args.device, layer=args.layer)
    ours.load()
    ours.align(pairs[:8])  # warm up both (first CUDA calls, allocator)
    for src, tgt in pairs[:8]:
        stock.get_word_aligns(src, tgt)

    def timed(function):
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()
        started = time.perf_counter()
        result = function()
        if args.device.startswith("cuda"):
            torch.cuda.synchronize()
        return result, time.perf_counter() - started

    batched, batched_s = timed(lambda: ours.align(pairs))
    reference, stock_s = timed(lambda: [stock.get_word_aligns(s, t)["inter"] for s, t in pairs])
    same = sum(1 for a, b in zip(batched, reference) if a == [tuple(map(int, x)) for x in b])
    print(f"simalign ({model}, layer {args.layer}, {args.token_type}, argmax, {args.device}, "
          f"batch size {args.batch_size}) on {len(pairs)} pairs:")
    print(f"  stock   {stock_s:8.2f} s  {len(pairs) / stock_s:9.1f} pairs/s")
    print(f"  batched {batched_s:8.2f} s  {len(pairs) / batched_s:9.1f} pairs/s")
    print(f"  batched/stock throughput ratio: {stock_s / batched_s:.2f}x; identical links: {same}/{len(pairs)}")


def bench_eflomal(pairs) -> None:
    from auto_challenge_sets.backends.aligners import get_aligner

    aligner = get_aligner("eflomal", seed=1)
    started = time.perf_counter()
    links = aligner.align(pairs)
    seconds = time.perf_counter() - started
    print(f"eflomal (both directions, grow-diag-final-and, seed 1) on {len(pairs)} pairs: {seconds:.1f} s, "
          f"{len(pairs) / seconds:.1f} pairs/s, {sum(map(len, links)) / len(pairs):.1f} links per pair")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "newstest2013")
    parser.add_argument("--pairs", type=int, default=300, help="pairs for simalign (default 300)")
    parser.add_argument("--eflomal-pairs", type=int, default=3000, help="pairs for eflomal; 0 skips it")
    parser.add_argument("--model", help="a real model folder or name; default: a random BERT built here")
    parser.add_argument("--hidden", type=int, default=32, help="random BERT: hidden size (mBERT: 768)")
    parser.add_argument("--layers", type=int, default=2, help="random BERT: layers (mBERT: 12)")
    parser.add_argument("--layer", type=int, help="hidden state to align with (default: the last, at most 8)")
    parser.add_argument("--token-type", choices=["bpe", "word"], default="bpe")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch CPU threads (default 1: on a shared machine more threads spin and the "
                        "timings become noise; 0 = torch's default)")
    args = parser.parse_args(argv)
    if not (args.data / "newstest2013.de").is_file():
        print(f"needs {args.data}/newstest2013.de (the team's shared data)", file=sys.stderr)
        return 1
    pairs = _pairs(args.data, args.pairs)
    with tempfile.TemporaryDirectory(prefix="acs-bench-") as work:
        model = args.model
        if model is None:
            sys.path.insert(0, str(REPO / "tests"))
            from tiny_bert import make_tiny_bert

            sentences = [" ".join(side) for pair in _pairs(args.data, 3000) for side in pair]
            model = str(make_tiny_bert(Path(work) / "bert", sentences, hidden_size=args.hidden,
                                       layers=args.layers, vocab_size=8000 if args.hidden >= 256 else 1500))
            args.layer = min(args.layers, 8) if args.layer is None else args.layer
        elif args.layer is None:
            args.layer = 8
        bench_simalign(args, pairs, model)
    if args.eflomal_pairs:
        bench_eflomal(_pairs(args.data, args.eflomal_pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
