"""Whether the reordering measures separate distant target languages from a close one: the same
1,000 English PUD sentences (../shared/data/pud, gold UD words) aligned with eflomal (seed 1,
grow-diag-final-and, no priors: what `acs build --pair en-XX --aligner eflomal` does) to each of
the eight other PUD languages, the target cut into the build's own tokens
(auto_challenge_sets/formats/target_languages.py: white space; characters in Chinese). English→Spanish
keeps English word order far more than English→Chinese (relative clauses and many modifiers before
the noun) and English→Hindi (verb-final), so a measure worth having ranks en→zh and en→hi above
en→es. Chinese is measured on its gold UD words too, to tell how much the characters add.

    python studies/reorder_targets.py [--shared ../shared] [--write | --check]

``--write`` stores the table of seed 1 in its block of docs/method.md, with the spread of its
figures over eflomal seeds 1–5 (studies/stored_table.py); ``--check`` exits 1 when a fresh
measurement (seed 1) differs by more than that spread allows. Each "selected" count is the row count of the build's
``en-XX.<measure>.d<D>`` config on the machine at hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reorder_measures import scores, selected
from stored_table import SEEDS, block_main, measured_spread, spread_sentence

from auto_challenge_sets.backends.aligners.eflomal import EflomalAligner
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.formats.target_languages import target_tokens, tokenization
from auto_challenge_sets.phenomena.registry import PHENOMENA, alignment_phenomena

TARGETS = ("cs", "de", "es", "fr", "hi", "is", "ru", "zh")
DISTANT, CLOSE = ("zh", "hi"), "es"
GOLD_WORDS = "zh (gold words)"  # Chinese on its treebank's words instead of the build's characters
NAME, SCRIPT = "reorder-targets", "reorder_targets.py"


def english_pairs(shared: Path, target: str, gold_words: bool = False) -> list[tuple[list[str], list[str]]]:
    """(English gold words, target tokens) of the 1,000 PUD sentences, matched by sentence id, in
    the English treebank's order (Icelandic PUD orders half of them otherwise; eflomal's links
    depend on the order, and a build pairs the files line by line)."""
    folder = shared / "data" / "pud"
    found = {s.sent_id: s.forms if gold_words else target_tokens(s.text, target)
             for s in read_conllu(folder / f"{target}_pud-ud-test.conllu")}
    return [(s.forms, found[s.sent_id]) for s in read_conllu(folder / "en_pud-ud-test.conllu")]


def measure(shared: Path, seed: int = SEEDS[0]) -> dict[str, dict[str, tuple[int, float, int]]]:
    """Per target column: per measure, (pairs selected at the default D, mean score, pairs)."""
    found = {}
    for column in (*TARGETS, GOLD_WORDS):
        target = column.split()[0]
        pairs = english_pairs(shared, target, gold_words=column == GOLD_WORDS)
        links = EflomalAligner(seed=seed).align(pairs)
        found[column] = {m: (len(selected(m, pairs, links)), sum(scores(m, pairs, links)) / len(pairs), len(pairs))
                         for m in alignment_phenomena()}
    return found


def separates(found: dict[str, dict[str, tuple[int, float, int]]], name: str) -> bool:
    """Whether ``name`` ranks every distant pair above the close one, by the share selected and the mean."""
    close = found[CLOSE][name]
    return all(found[t][name][0] > close[0] and found[t][name][1] > close[1] for t in DISTANT)


def figures(found: dict[str, dict[str, tuple[int, float, int]]]) -> list[tuple[float, float]]:
    """Every (share selected in points, mean) of the table, in its order."""
    return [(100 * n / total, mean) for by_measure in found.values() for n, mean, total in by_measure.values()]


def render(found: dict[str, dict[str, tuple[int, float, int]]], spread: tuple[float, float]) -> str:
    measures = alignment_phenomena()
    lines = ["| pair | target tokens | " + " | ".join(f"`{m}` ≥ {PHENOMENA[m].distances[0]} | `{m}` mean"
                                                      for m in measures) + " |",
             "|---|---|" + "---:|" * (2 * len(measures))]
    for column, by_measure in found.items():
        target = column.split()[0]
        tokens = "gold UD words" if column == GOLD_WORDS else tokenization(target)
        cells = [f"{100 * n / total:.1f}% | {mean:.2f}" for n, mean, total in (by_measure[m] for m in measures)]
        lines.append(f"| en→{column} | {tokens} | " + " | ".join(cells) + " |")
    verdicts = [f"`{m}`: {'yes' if separates(found, m) else '**no**'}" for m in measures]
    lines += ["", f"Ranks en→zh and en→hi above en→es (share selected and mean): {'; '.join(verdicts)}.",
              "", spread_sentence(spread)]
    return "\n".join(lines) + "\n"


def measure_seeds(shared: Path) -> str:
    runs = [measure(shared, seed) for seed in SEEDS]
    return render(runs[0], measured_spread([figures(run) for run in runs]))


def main() -> int:
    return block_main(__doc__, measure_seeds, NAME, SCRIPT, lambda shared, spread: render(measure(shared), spread))


if __name__ == "__main__":
    sys.exit(main())
