"""How well each lexical phenomenon is extracted from a parser's trees: the sentences selected at
each D from UDPipe 1 parses of raw PUD text (../shared/models), against those selected from PUD's
gold trees (../shared/data/pud), for German and English.

    python studies/extraction_quality.py [--shared ../shared] [--write | --check]

Selection is compared per sentence, as a config selects: precision = |parsed ∩ gold| / |parsed|,
recall = |parsed ∩ gold| / |gold|, for every phenomenon and D. ``--write`` stores the table in
auto_challenge_sets/dataset/extraction_quality.md, which every dataset card includes; ``--check``
exits 1 when that file differs from a fresh measurement (the test suite runs it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stored_table import store_or_check

from auto_challenge_sets.backends.parsers import get_parser
from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.profiles import source_phenomena
from auto_challenge_sets.phenomena.registry import find_instances, phenomenon_for

REPO = Path(__file__).resolve().parent.parent
TABLE = REPO / "auto_challenge_sets" / "dataset" / "extraction_quality.md"
LANGUAGES = {"de": "german.udpipe", "en": "english.udpipe"}
DISTANCES = (0, 1, 3, 5)


def selected(sentences: list, lang: str) -> dict[tuple[str, int], set[int]]:
    """``(phenomenon, D) -> indices of the sentences selected``, for the phenomena of the language's
    profile (auto_challenge_sets/phenomena/profiles.py)."""
    phenomena = [phenomenon_for(name, lang) for name in source_phenomena(lang)]
    chosen: dict[tuple[str, int], set[int]] = {(p.name, d): set() for p in phenomena for d in DISTANCES}
    for index, sentence in enumerate(sentences):
        for phenomenon in phenomena:
            top = max((i.distance for i in find_instances(sentence, phenomenon)), default=None)
            for d in DISTANCES:
                if top is not None and top >= d:
                    chosen[phenomenon.name, d].add(index)
    return chosen


def measure(shared: Path) -> list[dict]:
    rows = []
    for lang, model in LANGUAGES.items():
        gold = list(read_conllu(shared / "data" / "pud" / f"{lang}_pud-ud-test.conllu"))
        parser = get_parser("udpipe", lang=lang, udpipe_model=shared / "models" / model)
        parsed = parser.parse([sentence.text for sentence in gold])
        parser.close()
        truth, found = selected(gold, lang), selected(parsed, lang)
        for (phenomenon, d), wanted in truth.items():
            got = found[phenomenon, d]
            hit = len(wanted & got)
            rows.append({"lang": lang, "phenomenon": phenomenon, "d": d, "gold": len(wanted), "parsed": len(got),
                         "precision": hit / len(got) if got else None,
                         "recall": hit / len(wanted) if wanted else None})
    return rows


def render(rows: list[dict]) -> str:
    def pct(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}"

    lines = ["| lang | phenomenon | D | gold | UDPipe | precision | recall |", "|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['lang']} | {r['phenomenon']} | {r['d']} | {r['gold']} | {r['parsed']} | {pct(r['precision'])} "
              f"| {pct(r['recall'])} |" for r in rows]
    return ("Sentences selected from UDPipe 1 parses of raw PUD text (1,000 sentences per language; models "
            "trained without PUD) against those selected from PUD's gold trees, per phenomenon and minimum "
            "distance D; precision and recall in %, – where nothing was selected "
            "(`studies/extraction_quality.py`).\n\n" + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help=f"store the table in {TABLE.relative_to(REPO)}")
    action.add_argument("--check", action="store_true", help="exit 1 if the stored table differs")
    args = parser.parse_args()
    return store_or_check(render(measure(args.shared)), TABLE, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
