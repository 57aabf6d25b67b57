"""How precisely each phenomenon of each source language's profile is extracted from gold trees:
counts per D on the nine gold PUD treebanks (../shared/data/pud), and precision judged by a reader
on a sample of instances.

    python studies/language_precision.py --draw     # the sample drawn now, with every verdict given
    python studies/language_precision.py [--write | --check]

The sample: for every language and phenomenon of its profile (auto_challenge_sets/phenomena/profiles.py),
the instances at D >= 1 in four strata of D (:data:`STRATA`), about :data:`TARGET` drawn from each
(:func:`draw`). They are kept, one a line, in auto_challenge_sets/dataset/extraction_precision.tsv
with the reader's verdict (``ok``, ``wrong``, empty while unjudged) and, for a wrong one, the reason,
judged by the criterion of docs/method.md (*Language profiles*). ``--draw`` rewrites that file as
the sample the rules draw now, keeping every verdict given. The table (counts of sentences selected
per D, the precision of d1, d2 and d5 with its interval, :func:`precision`) is
auto_challenge_sets/dataset/extraction_precision.md; a dataset card shows its source languages'
rows; ``--check`` exits 1 when that file differs from a fresh count or the verdicts file from a
fresh draw (the test suite runs it).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections import Counter, defaultdict
from functools import cache
from pathlib import Path
from statistics import NormalDist

from stored_table import store_or_check

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.profiles import PROFILES, source_phenomena
from auto_challenge_sets.phenomena.registry import iter_instances, phenomenon_for

REPO = Path(__file__).resolve().parent.parent
VERDICTS = REPO / "auto_challenge_sets" / "dataset" / "extraction_precision.tsv"
TABLE = REPO / "auto_challenge_sets" / "dataset" / "extraction_precision.md"
LANGUAGES = tuple(language for language in PROFILES if language != "*")
COUNTED = (0, 1, 2, 3, 5)  # the D of the count columns
STRATA = (1, 2, 3, 5)  # the lowest D of each stratum of the sample: 1, 2, 3-4, 5 or more
TARGET = 10  # instances drawn per stratum, on average (all of a smaller one)
COLUMNS = ("lang", "sent_id", "phenomenon", "D", "dependent", "head", "forms", "verdict", "reason")


@cache
def instances(shared: Path, language: str) -> dict[str, list[tuple[str, object, object]]]:
    """phenomenon -> (sent_id, sentence, instance) of every instance in the language's gold PUD."""
    names = source_phenomena(language)
    found: dict[str, list] = defaultdict(list)
    path = shared / "data" / "pud" / f"{language}_pud-ud-test.conllu"
    for sentence, by_name in iter_instances(read_conllu(path), [phenomenon_for(n, language) for n in names]):
        for name, matches in by_name.items():
            found[name] += [(sentence.sent_id, sentence, instance) for instance in matches]
    return {name: found[name] for name in names}


def marked(sentence, instance) -> str:
    """The sentence with the dependent in [[ ]] and the head in << >>."""
    words = []
    for word in sentence.words:
        form = word.form
        if word.id == instance.dependent:
            form = f"[[{form}]]"
        elif word.id == instance.head:
            form = f"<<{form}>>"
        words.append(form)
    return " ".join(words)


def draw(shared: Path, kept: list[dict]) -> list[dict]:
    """The sample at D >= 1: an instance is drawn when the hash of its words (:func:`_share`) falls
    under its stratum's rate, TARGET / the stratum's instances, or when a reader judged its words
    before, in any phenomenon (two that find the same pair, as aux_bracket and ba_bei a passive 被,
    share its verdict); a drawn instance keeps that verdict. The hash is not keyed on the phenomenon's
    name (a renamed one keeps its sample), and a rule that drops instances raises the rates, so the
    sample keeps its rows and only adds some. Judged rows stay while they are instances, so after a
    rule adds instances the sample favours the old ones slightly (each stratum was uniform when drawn)."""
    given = {_words(row): row for row in kept if row["verdict"]}
    rows = []
    for language in LANGUAGES:
        for name, found in instances(shared, language).items():
            population = Counter(_stratum(f[2].distance) for f in found)
            for f in sorted(found, key=lambda f: (f[2].distance, f[0], f[2].dependent)):
                row = _row(language, name, *f)
                stratum = _stratum(f[2].distance)
                if stratum and (_words(row) in given or _share(row) < TARGET / population[stratum]):
                    old = given.get(_words(row), {})
                    rows.append(row | {"verdict": old.get("verdict", ""), "reason": old.get("reason", "")})
    return rows


def _stratum(distance: int) -> int:
    """The stratum of an instance at this D: the lowest D of its band of STRATA, 0 below D = 1."""
    return max((low for low in STRATA if distance >= low), default=0)


def _words(row: dict) -> tuple:
    return row["lang"], row["sent_id"], row["dependent"], row["head"]


def _share(row: dict) -> float:
    """A fixed number in [0, 1) for the instance's words."""
    return int.from_bytes(hashlib.sha256("\t".join(_words(row)).encode()).digest()[:8], "big") / 2**64


def _row(language: str, name: str, sent_id: str, sentence, instance) -> dict:
    return {"lang": language, "sent_id": sent_id, "phenomenon": name, "D": str(instance.distance),
            "dependent": str(instance.dependent), "head": str(instance.head),
            "forms": marked(sentence, instance), "verdict": "", "reason": ""}


def _key(row: dict) -> tuple:
    return row["lang"], row["sent_id"], row["phenomenon"], row["dependent"], row["head"]


def read_verdicts(path: Path = VERDICTS) -> list[dict]:
    if not path.exists():
        return []
    # plain tab-separated lines rather than the csv module: forms hold quotes, which a reader edits by hand
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]


def write_verdicts(rows: list[dict], path: Path = VERDICTS) -> None:
    text = ["\t".join(COLUMNS)] + ["\t".join(row.get(column, "").replace("\t", " ") for column in COLUMNS)
                                    for row in rows]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")


def counts(shared: Path) -> dict[tuple[str, str], Counter]:
    """(language, phenomenon) -> D -> sentences with an instance at distance >= D, and "fw" -> the
    share (%) of its instances at D >= 1 whose gap holds only function words (content_distance 0)."""
    table = {}
    for language in LANGUAGES:
        for name, found in instances(shared, language).items():
            top: dict[str, int] = {}
            for sent_id, _, instance in found:
                top[sent_id] = max(top.get(sent_id, -1), instance.distance)
            table[language, name] = Counter({d: sum(1 for t in top.values() if t >= d) for d in COUNTED})
            long = [instance.content_distance == 0 for _, _, instance in found if instance.distance >= 1]
            table[language, name]["fw"] = f"{100 * sum(long) / len(long):.0f}" if long else "–"
    return table


def populations(shared: Path) -> dict[tuple[str, str], Counter]:
    """(language, phenomenon) -> stratum -> its instances."""
    return {(language, name): Counter(_stratum(f[2].distance) for f in found)
            for language in LANGUAGES for name, found in instances(shared, language).items()}


def precision(rows: list[dict], population: Counter, low: int) -> tuple[float, float, float] | None:
    """The precision of the instances at D >= low and its 95 % interval: each stratum's judged rows
    weighted by its instances; None where there is no instance, or a stratum with some has no judged row."""
    strata = [s for s in STRATA if s >= low and population[s]]
    if not strata:
        return None
    total, estimate, spread, least, most = sum(population[s] for s in strata), 0.0, 0.0, 0.0, 0.0
    for s in strata:
        verdicts = [row["verdict"] for row in rows if _stratum(int(row["D"])) == s and row["verdict"]]
        if not verdicts:
            return None
        weight, n, ok = population[s] / total, len(verdicts), verdicts.count("ok")
        estimate += weight * ok / n
        spread += weight**2 * (1 - n / population[s]) / n
        least, most = least + weight * ok / population[s], most + weight * (ok + population[s] - n) / population[s]
    # Wilson's score interval at the effective size 1 / spread (Kish's, with each stratum's finite-
    # population correction): the normal interval of a stratified proportion shrinks to a point when
    # every judged row is ok, as in most cells, Wilson's does not; a stratum read in full adds nothing,
    # and the interval keeps within what the unjudged instances can make of the precision
    z2 = NormalDist().inv_cdf(0.975) ** 2
    half = math.sqrt(z2 * (estimate * (1 - estimate) * spread + z2 * spread**2 / 4))
    centre = estimate + z2 * spread / 2
    return estimate, max(least, (centre - half) / (1 + z2 * spread)), min(most, (centre + half) / (1 + z2 * spread))


def render(table: dict[tuple[str, str], Counter], verdicts: list[dict], population: dict) -> str:
    sampled: dict[tuple[str, str], list] = defaultdict(list)
    for row in verdicts:
        sampled[row["lang"], row["phenomenon"]].append(row)
    lines = ["| lang | phenomenon | " + " | ".join(f"D≥{d}" for d in COUNTED) + " | fw-only | judged | precision d1 | d2 | d5 |",
             "|---|---|" + "---:|" * (len(COUNTED) + 5)]
    for (language, name), by_d in table.items():
        rows = sampled[language, name]
        judged = sum(1 for row in rows if row["verdict"])
        cells = [f"{judged}" + (f" of {len(rows)}" if judged < len(rows) else "")]
        for low in (1, 2, 5):
            found = precision(rows, population[language, name], low)
            cells.append(f"{100 * found[0]:.1f} ({100 * found[1]:.1f}–{100 * found[2]:.1f})" if found else "–")
        lines.append(f"| {language} | {name} | " + " | ".join(str(by_d[d]) for d in COUNTED) + f" | {by_d['fw']} | "
                     + " | ".join(cells) + " |")
    return ("Phenomena of each source language's profile on its gold PUD treebank (1,000 sentences): sentences "
            "with an instance at distance ≥ D; the share (%) of the instances at D ≥ 1 whose gap holds only "
            "function words (fw-only: `content_distance` 0, a distance grammar fixes); the instances a reader "
            "judged at D ≥ 1 (of those drawn); and "
            "the precision (%) of the instances at D ≥ 1, 2 and 5 (what configs d1, d2 and d5 select), with its "
            "95 % interval, from a sample drawn per stratum of D (1, 2, 3–4, ≥ 5) and weighted by the "
            "stratum's instances (– where there are none, or none is judged yet). The instances, verdicts and "
            "reasons: `auto_challenge_sets/dataset/extraction_precision.tsv` (`studies/language_precision.py`).\n\n"
            + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--draw", action="store_true", help=f"rewrite {VERDICTS.relative_to(REPO)} as the sample drawn now")
    action.add_argument("--write", action="store_true", help=f"store the table in {TABLE.relative_to(REPO)}")
    action.add_argument("--check", action="store_true", help="exit 1 if the stored table differs")
    args = parser.parse_args()
    if args.draw:
        write_verdicts(draw(args.shared, read_verdicts()))
        return 0
    kept = read_verdicts()
    if args.check and [_key(row) for row in draw(args.shared, kept)] != [_key(row) for row in kept]:
        # a rule or profile changed since the sample was judged: its instances are no longer the draw
        print(f"{VERDICTS} is not the sample the rules draw now: run with --draw and judge the new rows",
              file=sys.stderr)
        return 1
    table = render(counts(args.shared), kept, populations(args.shared))
    return store_or_check(table, TABLE, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
