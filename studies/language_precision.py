"""How precisely each phenomenon of each source language's profile is extracted from gold trees:
counts per D on the nine gold PUD treebanks (../shared/data/pud), and precision judged by a reader
on a sample of instances.

    python studies/language_precision.py --draw     # add newly drawn instances to the verdicts file
    python studies/language_precision.py [--write | --check]

The sample: for every language and phenomenon of its profile (auto_challenge_sets/phenomena/profiles.py),
up to 10 instances at each of D = 1, 2 and >= 5 (all where fewer), drawn with a fixed seed: the
paper's Appendix A read its samples at D 1, 2 and 5. They are kept, one a line, in
auto_challenge_sets/dataset/extraction_precision.tsv with the reader's verdict (``ok``, ``wrong``,
empty while unjudged) and, for a wrong one, the reason. ``--draw`` adds the instances of the sample
that file lacks and keeps every verdict given. The table (counts of sentences selected per D,
precision of the judged instances) is auto_challenge_sets/dataset/extraction_precision.md; a dataset
card shows its source languages' rows; ``--check`` exits 1 when that file differs from a fresh count
or the verdicts file from a fresh draw (the test suite runs it).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

from stored_table import store_or_check

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.phenomena.profiles import PROFILES, source_phenomena
from auto_challenge_sets.phenomena.registry import iter_instances, phenomenon_for

REPO = Path(__file__).resolve().parent.parent
VERDICTS = REPO / "auto_challenge_sets" / "dataset" / "extraction_precision.tsv"
TABLE = REPO / "auto_challenge_sets" / "dataset" / "extraction_precision.md"
LANGUAGES = tuple(language for language in PROFILES if language != "*")
COUNTED = (0, 1, 2, 3, 5)  # the D of the count columns
SAMPLED = ((1, 1), (2, 2), (5, None))  # (D, up to): exactly 1, exactly 2, 5 or more
PER_BAND = 10
SEED = 13
COLUMNS = ("lang", "sent_id", "phenomenon", "D", "dependent", "head", "forms", "verdict", "reason")


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


def draw(shared: Path) -> list[dict]:
    rows = []
    for language in LANGUAGES:
        for name, found in instances(shared, language).items():
            rows += [_row(language, name, *f) for f in sample(found, random.Random(f"{SEED}:{language}:{name}"))]
    return rows


def sample(found: list, rng: random.Random) -> list:
    """Up to PER_BAND instances of each band of D; where a band has fewer, the sample is filled up to
    PER_BAND x bands from the other instances, those at D >= 1 first (all where fewer)."""
    chosen = []
    for low, high in SAMPLED:
        band = [f for f in found if f[2].distance >= low and (high is None or f[2].distance <= high)]
        chosen += rng.sample(band, min(PER_BAND, len(band)))
    wanted = PER_BAND * len(SAMPLED) - len(chosen)
    for rest in ([f for f in found if f[2].distance >= 1 and f not in chosen], [f for f in found if f[2].distance == 0]):
        if wanted > 0:
            extra = rng.sample(rest, min(wanted, len(rest)))
            chosen, wanted = chosen + extra, wanted - len(extra)
    return sorted(chosen, key=lambda f: (f[2].distance, f[0], f[2].dependent))


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


def merge(drawn: list[dict], kept: list[dict]) -> list[dict]:
    """The drawn sample with every verdict already given (a row no longer drawn is dropped)."""
    given = {_key(row): row for row in kept}
    return [given.get(_key(row), row) for row in drawn]


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


def render(table: dict[tuple[str, str], Counter], verdicts: list[dict]) -> str:
    judged: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for row in verdicts:
        if row["verdict"] in ("ok", "wrong"):
            judged[row["lang"], row["phenomenon"]][row["verdict"]] += 1
    lines = ["| lang | phenomenon | " + " | ".join(f"D≥{d}" for d in COUNTED) + " | fw-only | judged | precision |",
             "|---|---|" + "---:|" * (len(COUNTED) + 3)]
    for (language, name), by_d in table.items():
        seen = judged[language, name]
        n = seen["ok"] + seen["wrong"]
        precision = f"{100 * seen['ok'] / n:.1f}" if n else "–"
        lines.append(f"| {language} | {name} | " + " | ".join(str(by_d[d]) for d in COUNTED)
                     + f" | {by_d['fw']} | {n} | {precision} |")
    return ("Phenomena of each source language's profile on its gold PUD treebank (1,000 sentences): sentences "
            "with an instance at distance ≥ D; the share (%) of the instances at D ≥ 1 whose gap holds only "
            "function words (fw-only: `content_distance` 0, a distance grammar fixes); and the precision (%) "
            "of the instances a reader judged (up to 10 "
            "each at D = 1, 2 and ≥ 5; – where none is judged yet). The instances, verdicts and reasons: "
            "`auto_challenge_sets/dataset/extraction_precision.tsv` (`studies/language_precision.py`).\n\n"
            + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--draw", action="store_true", help=f"add newly drawn instances to {VERDICTS.relative_to(REPO)}")
    action.add_argument("--write", action="store_true", help=f"store the table in {TABLE.relative_to(REPO)}")
    action.add_argument("--check", action="store_true", help="exit 1 if the stored table differs")
    args = parser.parse_args()
    if args.draw:
        write_verdicts(merge(draw(args.shared), read_verdicts()))
        return 0
    if args.check and [_key(row) for row in draw(args.shared)] != [_key(row) for row in read_verdicts()]:
        # a rule or profile changed since the sample was judged: its instances are no longer the draw
        print(f"{VERDICTS} is not the sample the rules draw now: run with --draw and judge the new rows",
              file=sys.stderr)
        return 1
    return store_or_check(render(counts(args.shared), read_verdicts()), TABLE, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
