"""What the three reordering measures (reorder, reorder_norm, crossing) say, and how stable they are,
with eflomal alignments:

1. **Parallel PUD** (../shared/data/pud): the same 1,000 sentences in German, French and Russian,
   each aligned to the English side (gold UD words on both sides). French–English is far more
   monotone than German–English, so a measure worth having ranks de→en above fr→en: the share
   of sentences selected at the measure's default D and the mean score.
2. **Stability** on newstest2013 de-en (../shared/data/newstest2013; Moses-tokenized with
   sacremoses): the Jaccard overlap of the pairs selected at the default D between two eflomal
   seeds, and between grow-diag-final-and and intersection symmetrization; then the same two seeds
   with eflomal priors learned from every German–English text at hand (newstest2013 and WMT21
   de-en and en-de, ../shared/data/wmt21, reference A).

    python studies/reorder_measures.py [--shared ../shared] [--write | --check]

``--write`` stores the tables in auto_challenge_sets/dataset/reorder_quality.md, which every dataset
card includes, and the pairs `reorder` selects at each D (seed 1, grow-diag-final-and) in its block
of docs/method.md; ``--check`` exits 1 when either differs from a fresh measurement (``--check-pud``:
the PUD table only, what the test suite runs). eflomal runs with fixed seeds, so the figures
repeat on one machine; the PUD table is seed 1's, stated with the spread of its figures over seeds
1–5, which ``--check-pud`` allows for (studies/stored_table.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stored_table import (
    SEEDS,
    measured_spread,
    spread_sentence,
    stated_spread,
    store_block_or_check,
    store_or_check,
    within_spread,
)

from auto_challenge_sets.backends.aligners.eflomal import EflomalAligner, make_priors
from auto_challenge_sets.backends.aligners.symmetrize import symmetrize
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.registry import PHENOMENA, alignment_phenomena

REPO = Path(__file__).resolve().parent.parent
TABLE = REPO / "auto_challenge_sets" / "dataset" / "reorder_quality.md"
PUD_LANGUAGES = ("de", "fr", "ru")
NAME, SCRIPT = "reorder-counts", "reorder_measures.py"


def scores(measure: str, pairs: list[tuple[list[str], list[str]]], alignments: list[list]) -> list[int]:
    """Each pair's score under a measure (no links, or no word links: 0)."""
    function = PHENOMENA[measure].measure
    return [function(links, src, tgt)[0] or 0 for (src, tgt), links in zip(pairs, alignments)]


def selected(measure: str, pairs: list, alignments: list[list]) -> set[int]:
    d = PHENOMENA[measure].distances[0]
    return {k for k, score in enumerate(scores(measure, pairs, alignments)) if score >= d}


def pud_pairs(shared: Path, lang: str) -> list[tuple[list[str], list[str]]]:
    english = {s.sent_id: s.forms for s in read_conllu(shared / "data" / "pud" / "en_pud-ud-test.conllu")}
    return [(s.forms, english[s.sent_id]) for s in read_conllu(shared / "data" / "pud" / f"{lang}_pud-ud-test.conllu")]


def _moses(german: Path, english: Path) -> list[tuple[list[str], list[str]]]:
    from sacremoses import MosesTokenizer

    de, en = MosesTokenizer(lang="de"), MosesTokenizer(lang="en")
    sources = german.read_text(encoding="utf-8").splitlines()
    targets = english.read_text(encoding="utf-8").splitlines()
    return [(de.tokenize(s, escape=False), en.tokenize(t, escape=False)) for s, t in zip(sources, targets)]


def newstest_pairs(shared: Path) -> list[tuple[list[str], list[str]]]:
    folder = shared / "data" / "newstest2013"
    return _moses(folder / "newstest2013.de", folder / "newstest2013.en")


def german_english_at_hand(shared: Path) -> list[tuple[list[str], list[str]]]:
    """Every German–English pair in ../shared/data, German first: newstest2013, WMT21 both ways."""
    wmt = shared / "data" / "wmt21"
    return (newstest_pairs(shared)
            + _moses(wmt / "sources" / "newstest2021.de-en.src.de", wmt / "references" / "newstest2021.de-en.ref.A.en")
            + _moses(wmt / "references" / "newstest2021.en-de.ref.A.de", wmt / "sources" / "newstest2021.en-de.src.en"))


def jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def pud_measure(shared: Path, seed: int = SEEDS[0]) -> dict[str, dict[str, tuple[float, float]]]:
    """Per language, per measure: (share selected at the default D, mean score)."""
    results = {}
    for lang in PUD_LANGUAGES:
        pairs = pud_pairs(shared, lang)
        links = EflomalAligner(seed=seed).align(pairs)
        results[lang] = {m: (len(selected(m, pairs, links)) / len(pairs),
                             sum(scores(m, pairs, links)) / len(pairs)) for m in alignment_phenomena()}
    return results


def pud_spread(shared: Path) -> tuple[dict[str, dict[str, tuple[float, float]]], tuple[float, float]]:
    """Seed 1's results and the spread of the table's figures over :data:`SEEDS`."""
    runs = [pud_measure(shared, seed) for seed in SEEDS]
    return runs[0], measured_spread([[(100 * share, mean) for by_measure in run.values()
                                      for share, mean in by_measure.values()] for run in runs])


def pud_table(results: dict[str, dict[str, tuple[float, float]]], spread: tuple[float, float]) -> list[str]:
    measures = alignment_phenomena()
    lines = ["| measure | default D | " + " | ".join(f"{lang}→en selected | {lang}→en mean" for lang in PUD_LANGUAGES)
             + " | de→en above fr→en |",
             "|---|---:|" + "---:|" * (2 * len(PUD_LANGUAGES)) + "---|"]
    for m in measures:
        cells = [f"{100 * results[lang][m][0]:.1f}% | {results[lang][m][1]:.2f}" for lang in PUD_LANGUAGES]
        both = results["de"][m][0] > results["fr"][m][0] and results["de"][m][1] > results["fr"][m][1]
        verdict = "yes, on both" if both else "**no**: it does not separate them with eflomal on 1,000 pairs"
        lines.append(f"| `{m}` | {PHENOMENA[m].distances[0]} | " + " | ".join(cells) + f" | {verdict} |")
    return [*lines, "", spread_sentence(spread)]


def reorder_counts(pairs: list, alignments: list[list]) -> str:
    """docs/method.md's table: the pairs with some link |i − j| ≥ D, for each of `reorder`'s D."""
    distances = PHENOMENA["reorder"].distances
    top = scores("reorder", pairs, alignments)
    return "\n".join([
        "| D | " + " | ".join(map(str, distances)) + " |", "|---" * (len(distances) + 1) + "|",
        f"| pairs with some `\\|i − j\\| ≥ D` (of {len(pairs):,}) | "
        + " | ".join(f"{sum(s >= d for s in top):,}" for d in distances) + " |"]) + "\n"


def stability_table(shared: Path, counts: list[str] | None = None) -> list[str]:
    """The stability table; ``counts`` gets ``reorder_counts`` of seed 1, gdfa (one alignment for both)."""
    import tempfile

    pairs = newstest_pairs(shared)
    runs = {seed: EflomalAligner(seed=seed).align_directions(pairs) for seed in (1, 2)}
    gdfa = {seed: [symmetrize(f, r) for f, r in zip(*runs[seed])] for seed in runs}
    inter = [symmetrize(f, r, "intersection") for f, r in zip(*runs[1])]
    if counts is not None:
        counts.append(reorder_counts(pairs, gdfa[1]))
    with tempfile.TemporaryDirectory() as work:
        priors = Path(work) / "de-en.priors"
        learned = make_priors(german_english_at_hand(shared), priors)
        helped = {seed: EflomalAligner(seed=seed, priors=priors).align(pairs) for seed in (1, 2)}
    lines = ["| measure | selected (seed 1, gdfa) | Jaccard seed 1 vs 2 | Jaccard gdfa vs intersection "
             f"| selected with priors ({learned:,} pairs) | Jaccard seed 1 vs 2 with priors |",
             "|---|---:|---:|---:|---:|---:|"]
    for m in alignment_phenomena():
        one, two, cut = selected(m, pairs, gdfa[1]), selected(m, pairs, gdfa[2]), selected(m, pairs, inter)
        p1, p2 = selected(m, pairs, helped[1]), selected(m, pairs, helped[2])
        lines.append(f"| `{m}` | {len(one):,} of {len(pairs):,} | {jaccard(one, two):.3f} | {jaccard(one, cut):.3f} "
                     f"| {len(p1):,} | {jaccard(p1, p2):.3f} |")
    return lines


def render(shared: Path, counts: list[str] | None = None) -> str:
    return "\n".join([
        "Measured with eflomal (seeded, grow-diag-final-and unless said) by `studies/reorder_measures.py`.",
        "",
        "Parallel PUD, 1,000 sentences aligned to English on gold UD words: the share selected at each "
        "measure's default D and the mean score. French–English reorders far less than German–English, "
        "so a measure that means something ranks de→en above fr→en.",
        "",
        *pud_table(*pud_spread(shared)),
        "",
        "Stability on newstest2013 de-en (3,000 pairs, Moses tokens): the overlap (Jaccard) of the pairs "
        "selected at the default D between two eflomal seeds, between two symmetrizations, and between two "
        "seeds with eflomal priors learned from every German–English text at hand (newstest2013 and WMT21 "
        "both ways; `acs align --make-priors`).",
        "",
        *stability_table(shared, counts),
        "",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help=f"store the tables in {TABLE.relative_to(REPO)}")
    action.add_argument("--check", action="store_true", help="exit 1 if the stored tables differ")
    action.add_argument("--check-pud", action="store_true",
                        help="measure parallel PUD only (half a minute) and exit 1 if its stored table differs")
    args = parser.parse_args()
    if args.check_pud:
        stored = TABLE.read_text(encoding="utf-8")
        spread = stated_spread(stored)
        lines = pud_table(pud_measure(args.shared), spread)
        print("\n".join(lines))
        kept = stored[stored.find(lines[0]):].splitlines()[:len(lines)]
        if not within_spread("\n".join(kept), "\n".join(lines), spread):
            print(f"the PUD table of {TABLE} differs from a fresh measurement by more than the spread it states: "
                  "run with --write", file=sys.stderr)
            return 1
        return 0
    counts: list[str] = []
    card = store_or_check(render(args.shared, counts), TABLE, write=args.write, check=args.check)
    block = store_block_or_check(counts[0], NAME, SCRIPT, write=args.write, check=args.check)
    return card or block  # both compared: a failure names each table that moved


if __name__ == "__main__":
    sys.exit(main())
