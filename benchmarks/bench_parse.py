"""Parsing speed: sentences/s for each backend that can run here, and trankit's batching ratio.

    python benchmarks/bench_parse.py [--lines 500] [--lang de] [--device cpu] [--trankit-cache DIR]

UDPipe runs with ../shared/models/{german,english}.udpipe when present. trankit runs with the
weights in --trankit-cache (real ones where they exist); without it, a random-weight model of the
real architecture's width (768 hidden, 1 layer) is built in a temporary folder, so the figure
is a lower bound on the work a real 12-layer model does. The batching ratio compares our batched
backend with trankit's own ``Pipeline(line)`` call one line at a time, on the same lines, in one
run (load time excluded from both).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ACS_SHARED_DIR", REPO.parent / "shared"))
LANGS = {"de": ("german", "newstest2013.de"), "en": ("english", "newstest2013.en")}


def _lines(lang: str, count: int) -> list[str]:
    path = SHARED / "data" / "newstest2013" / LANGS[lang][1]
    if not path.exists():
        path = REPO / "auto_challenge_sets" / "demo_data" / f"sample.{lang}"
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return (lines * (count // len(lines) + 1))[:count]


def _rate(name: str, count: int, seconds: float) -> float:
    rate = count / seconds
    print(f"{name:<44} {count:>6} sentences {seconds:>8.1f} s {rate:>9.1f} sentences/s", flush=True)
    return rate


def bench_udpipe(lang: str, lines: list[str]) -> None:
    from auto_challenge_sets.backends.parsers import get_parser

    model = SHARED / "models" / f"{LANGS[lang][0]}.udpipe"
    if not model.exists():
        print(f"udpipe: skipped ({model} absent)")
        return
    parser = get_parser("udpipe", udpipe_model=model)
    parser.parse(lines[:5])  # load
    start = time.perf_counter()
    parser.parse(lines)
    _rate(f"udpipe {model.name} (raw text, 1 process)", len(lines), time.perf_counter() - start)


def bench_trankit(lang: str, lines: list[str], cache: Path | None, device: str, batch_size: int,
                  baseline_lines: int) -> None:
    from auto_challenge_sets.backends.parsers import get_parser

    label = "trankit"
    if cache is None:
        sys.path.insert(0, str(REPO / "tests"))
        from tiny_models import tiny_trankit_cache

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        cache = tiny_trankit_cache(_lines("de", 3000) + _lines("en", 3000))
        label = "trankit (random 1-layer XLM-R)"
    parser = get_parser("trankit", lang=lang, trankit_cache=cache, device=device, batch_size=batch_size)
    start = time.perf_counter()
    pipeline = parser._load()
    print(f"{label}: pipeline loaded in {time.perf_counter() - start:.1f} s on {device}", flush=True)
    parser.parse(lines[:8])  # warm-up
    start = time.perf_counter()
    parser.parse(lines)
    batched = _rate(f"{label}, batched (batch {batch_size})", len(lines), time.perf_counter() - start)
    sample = lines[:baseline_lines]
    start = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        for line in sample:
            pipeline(line)
    single = _rate(f"{label}, Pipeline(line) one at a time", len(sample), time.perf_counter() - start)
    print(f"batching ratio (batched / one at a time): {batched / single:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--baseline-lines", type=int, default=100,
                        help="lines for the one-at-a-time baseline (it is slow)")
    parser.add_argument("--lang", choices=sorted(LANGS), default="de")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--trankit-cache", type=Path)
    parser.add_argument("--skip", nargs="*", default=(), choices=("udpipe", "trankit"))
    args = parser.parse_args()
    lines = _lines(args.lang, args.lines)
    print(f"{len(lines)} {args.lang} lines; torch threads: {_threads()}")
    if "udpipe" not in args.skip:
        bench_udpipe(args.lang, lines)
    if "trankit" not in args.skip:
        with tempfile.TemporaryDirectory():
            bench_trankit(args.lang, lines, args.trankit_cache, args.device, args.batch_size,
                          min(args.baseline_lines, len(lines)))


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    main()
