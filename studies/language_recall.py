"""How much of each phenomenon of each source language's profile the rules find on gold trees:
recall at D >= 1 on the nine gold PUD treebanks (../shared/data/pud), from a reader's verdicts on the
instances a broader query finds and the rule does not.

    python studies/language_recall.py --draw     # add newly drawn candidates to the verdicts file
    python studies/language_recall.py [--write | --check]

Recall is relative to what the broad query can find: an instance neither finds is not counted. The
broad query of each phenomenon (:data:`BROAD`) is looser than any language's rule: every reflexive
pronoun or clitic by feature, lemma, form or relation, whatever its head; every particle-like adverb
or adposition of a verb; every auxiliary or copula with its head of any part of speech; every
subject (clausal ones too, any case); every ``mark`` with its clause's head; every ``acl``; every
*ne*; every compound of a verb; every 把, 被 and 將. A candidate is a pair of the broad query at
D >= 1 whose dependent the rule does not find in that sentence (with any head: a rule that pairs the
word with its copula has found it). Where a cell has more than :data:`PER_CELL` candidates, a
sample drawn with a fixed seed is read, and its genuine share scaled to all of them. The verdict
(``missed``: a genuine instance as docs/method.md and the rule's description define the phenomenon,
also where the gold tree attaches the word to another word than the one it forms the phenomenon
with, a predicative or a postposition, for the phenomenon is in the sentence and the rule misses it;
``not``, with the reason) is kept in auto_challenge_sets/dataset/extraction_recall.tsv, in the
columns of extraction_precision.tsv; ``--draw`` adds the candidates that file lacks and keeps every
verdict given, also one given under a phenomenon's former name (a phenomenon renamed keeps its
verdicts; its broad query is listed under the new name).

    recall = N p / (N p + C g)

with N the rule's instances at D >= 1, p their precision (the ``ok`` share of the precision verdicts
in extraction_precision.tsv in each stratum of D, :data:`STRATA`, weighted by the rule's instances
there; read here so that it follows a new judgement), C the candidates and g the genuine share of
those judged. Its 95 % interval: the 2.5 and 97.5 percentiles
of the formula over draws of p and g from their Jeffreys posteriors, Beta(k + 1/2, n - k + 1/2),
g exact where every candidate is judged. A bootstrap over the verdicts would give no interval at all
to a cell where every judged row agrees (0 genuine of 25), the common case here; the Jeffreys
draws do, and their percentile interval has near-nominal coverage for a binomial share. The table
is auto_challenge_sets/dataset/extraction_recall.md; a dataset card shows its source languages'
rows beside the precision table; ``--check`` exits 1 when it differs from a fresh count or the
verdicts file from a fresh draw (the slow tier runs it).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from language_precision import LANGUAGES, instances, marked, read_verdicts, write_verdicts
from language_precision import VERDICTS as PRECISION
from stored_table import store_or_check

from auto_challenge_sets.formats.conllu import read_conllu
from auto_challenge_sets.formats.ud import Token
from auto_challenge_sets.phenomena.registry import Instance, _instance

REPO = Path(__file__).resolve().parent.parent
VERDICTS = REPO / "auto_challenge_sets" / "dataset" / "extraction_recall.tsv"
TABLE = REPO / "auto_challenge_sets" / "dataset" / "extraction_recall.md"
PER_CELL = 25
DRAWS = 4000
SEED = 13
STRATA = (1, 2, 3, 5)  # the lowest D of each stratum the precision is weighted over: 1, 2, 3-4, 5 or more

REFLEXIVE_WORDS = {"se", "si", "sebe", "sobě", "sebou", "sich", "себя", "sig", "sér", "sín", "myself", "yourself",
                   "himself", "herself", "itself", "ourselves", "yourselves", "themselves", "oneself"}
PERSONAL_CLITICS = {"me", "m'", "te", "t'", "nos", "os", "nous", "vous", "mich", "dich", "uns", "euch", "mir", "dir"}
PARTICLES = {  # adverbs and adpositions that can be a verb's particle
    "de": {"ab", "an", "auf", "aus", "bei", "dar", "ein", "fest", "fort", "her", "hin", "los", "mit", "nach",
           "teil", "vor", "vorbei", "weg", "weiter", "zu", "zurück", "zusammen", "heraus", "hinaus", "voran"},
    "en": {"about", "along", "apart", "around", "aside", "away", "back", "down", "forward", "in", "off", "on",
           "out", "over", "through", "up"},
    "is": {"aftur", "af", "burt", "eftir", "frá", "fram", "inn", "niður", "saman", "til", "um", "upp", "út",
           "við", "yfir", "á", "í", "að", "undan", "fyrir"},
}


def _children(word: Token, words: list[Token]) -> list[Token]:
    return [other for other in words if other.head == word.id and other.upos != "PUNCT"]


def _reflexive(word: Token, words: list[Token], language: str) -> bool:
    return ("Reflex=Yes" in word.feats or word.upos == "PRON" and REFLEXIVE_WORDS & {word.lemma, word.form.lower()}
            or word.deprel.startswith(("expl:pv", "expl:pass")) or language == "es" and word.deprel == "compound:prt"
            or word.form.lower() in PERSONAL_CLITICS and word.deprel.startswith(("obj", "iobj", "expl", "obl:arg")))


def _particle(word: Token, words: list[Token], language: str) -> bool:
    return word.deprel in ("compound:prt", "prt") or (
        word.upos in ("ADP", "ADV", "PART") and word.lemma.lower() in PARTICLES.get(language, ())
        and words[word.head - 1].upos == "VERB" and word.deprel not in ("case", "mark", "fixed")
        and not _children(word, words))


def _stranded(word: Token, words: list[Token], language: str) -> bool:
    return (word.upos == "ADP" and word.deprel not in ("fixed", "compound:prt", "goeswith")
            and not _children(word, words) and (word.head < word.id or word.deprel_base == "obl"))


BROAD: dict[str, Callable[[Token, list[Token], str], bool]] = {
    "reflexive": _reflexive,
    "particle": _particle,
    "prep_stranding": _stranded,
    "aux_bracket": lambda word, words, language: word.deprel_base in ("aux", "cop"),
    "subj_verb": lambda word, words, language: word.deprel_base in ("nsubj", "csubj"),
    "verb_final": lambda word, words, language: word.deprel_base == "mark" or word.upos == "SCONJ",
    "subordinator_verb": lambda word, words, language: word.deprel_base == "mark" or word.upos == "SCONJ",
    "relative_clause": lambda word, words, language: word.deprel_base == "acl",
    "ne_pas": lambda word, words, language: word.lemma == "ne" or word.form.lower() in ("ne", "n'"),
    "light_verb_compound": lambda word, words, language: word.deprel_base == "compound" and (
        word.deprel == "compound:lvc" or words[word.head - 1].upos in ("VERB", "AUX")),
    "ba_bei": lambda word, words, language: word.form in ("把", "被", "將", "将"),
}


def candidates(shared: Path, language: str) -> dict[str, list[tuple[str, object, object]]]:
    """phenomenon -> (sent_id, sentence, pair) of every broad-query pair at D >= 1 whose dependent
    the rule does not find in that sentence."""
    found = {name: {(sent_id, instance.dependent) for sent_id, _, instance in rows}
             for name, rows in instances(shared, language).items()}
    if set(found) - set(BROAD):
        raise SystemExit(f"no broad query for {', '.join(sorted(set(found) - set(BROAD)))}: add one to BROAD in {__file__}")
    missed: dict[str, list] = {name: [] for name in found}
    for sentence in read_conllu(shared / "data" / "pud" / f"{language}_pud-ud-test.conllu"):
        for word in sentence.words:
            if not word.head or abs(word.id - word.head) < 2:
                continue
            for name in found:
                if BROAD[name](word, sentence.words, language) and (sentence.sent_id, word.id) not in found[name]:
                    pair = _instance(word, sentence.words[word.head - 1], sentence.words, None)
                    missed[name].append((sentence.sent_id, sentence, pair))
    return missed


def draw(shared: Path) -> list[dict]:
    """Of each cell's candidates, the PER_CELL whose words hash lowest: a uniform sample that a rule
    change adding or dropping a few candidates leaves mostly as it was, and a renamed phenomenon
    keeps (the hash does not read the name)."""
    rows = []
    for language in LANGUAGES:
        for name, found in candidates(shared, language).items():
            chosen = sorted(found, key=lambda f: _hash(language, f[0], f[2]))[:PER_CELL]
            rows += [_row(language, name, *f) for f in sorted(chosen, key=lambda f: (f[0], f[2].dependent))]
    return rows


def _hash(language: str, sent_id: str, pair: Instance) -> bytes:
    return hashlib.sha256(f"{SEED}:{language}:{sent_id}:{pair.dependent}:{pair.head}".encode()).digest()


def _row(language: str, name: str, sent_id: str, sentence, pair) -> dict:
    return {"lang": language, "sent_id": sent_id, "phenomenon": name, "D": str(pair.distance),
            "dependent": str(pair.dependent), "head": str(pair.head), "forms": marked(sentence, pair),
            "verdict": "", "reason": ""}


def _key(row: dict) -> tuple:
    return row["lang"], row["sent_id"], row["phenomenon"], row["dependent"], row["head"]


def merge(drawn: list[dict], kept: list[dict]) -> list[dict]:
    """The drawn rows with every verdict already given, also one given to the same pair under a
    phenomenon's name that the language no longer draws (a renamed phenomenon)."""
    names = {(row["lang"], row["phenomenon"]) for row in drawn}
    given = {_key(row): row for row in kept}
    renamed = {_pair(row): row for row in kept if (row["lang"], row["phenomenon"]) not in names}
    return [given.get(_key(row)) or {**renamed.get(_pair(row), row), "phenomenon": row["phenomenon"]} for row in drawn]


def _pair(row: dict) -> tuple:
    return row["lang"], row["sent_id"], row["dependent"], row["head"]


def recall(strata: list[tuple[int, int, int]], c: int, genuine: int, judged_c: int,
           draws: int = DRAWS) -> tuple[float, float, float] | None:
    """(recall, low, high) in % from the rule's instances at D >= 1, one (instances, ok, judged)
    per stratum of D, and C candidates with genuine of judged_c genuine (None where neither side
    has an instance or a side is not judged). The precision is each stratum's weighted by its
    instances, the pooled one's where a stratum has no verdict (the precision sample is drawn per
    stratum, so a plain share of its verdicts would over-weight the long distances)."""
    shares = _shares(strata)
    if shares is None and any(size for size, _, _ in strata) or c and judged_c == 0:
        return None
    point = _formula(shares or [], c, genuine / judged_c if c else 0.0)
    if point is None:
        return None
    rng = random.Random(SEED)

    def posterior(k: int, of: int) -> float:
        return rng.betavariate(k + 0.5, of - k + 0.5)

    values = []
    for _ in range(draws):
        drawn = _shares(strata, posterior) or []
        value = _formula(drawn, c, posterior(genuine, judged_c) if judged_c < c else genuine / max(judged_c, 1))
        values += [] if value is None else [value]
    values.sort()
    # where every verdict agrees the estimate is at a bound no draw reaches: the interval is stretched
    # to it, as Brown, Cai and DasGupta (2001) set the Jeffreys interval's bound to 0 or 1 at x = 0 or n
    return point, min(point, values[int(0.025 * len(values))]), max(point, values[int(0.975 * len(values)) - 1])


def _shares(strata: list[tuple[int, int, int]],
            share: Callable[[int, int], float] = lambda k, of: k / of) -> list[tuple[int, float]] | None:
    """(instances, precision) of each stratum with instances: its verdicts' share, or the pooled
    verdicts' where it has none (None where no verdict is given at D >= 1)."""
    ok, judged = sum(k for _, k, _ in strata), sum(of for _, _, of in strata)
    if not judged:
        return None
    pooled = share(ok, judged)
    return [(size, share(k, of) if of else pooled) for size, k, of in strata if size]


def _formula(shares: list[tuple[int, float]], c: int, g: float) -> float | None:
    found, missed = sum(size * p for size, p in shares), c * g
    return 100 * found / (found + missed) if found + missed else None


def _stratum(distance: int) -> int:
    return max(low for low in STRATA if distance >= low)


def table(shared: Path, verdicts: list[dict], precision: list[dict]) -> str:
    judged_p: dict[tuple[str, str, int], Counter] = defaultdict(Counter)
    for row in precision:
        if row["verdict"] in ("ok", "wrong") and int(row["D"]) >= 1:
            judged_p[row["lang"], row["phenomenon"], _stratum(int(row["D"]))][row["verdict"]] += 1
    judged_c: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for row in verdicts:
        if row["verdict"] in ("missed", "not"):
            judged_c[row["lang"], row["phenomenon"]][row["verdict"]] += 1
    lines = ["| lang | phenomenon | instances D≥1 | precision D≥1 | candidates | judged | genuine missed | recall (95 % interval) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for language in LANGUAGES:
        missed = candidates(shared, language)
        for name, found in instances(shared, language).items():
            sizes = Counter(_stratum(instance.distance) for _, _, instance in found if instance.distance >= 1)
            strata = [(sizes[low], judged_p[language, name, low]["ok"], sum(judged_p[language, name, low].values()))
                      for low in STRATA]
            n, c = sum(sizes.values()), judged_c[language, name]
            k = c["missed"] + c["not"]
            estimate = recall(strata, len(missed[name]), c["missed"], k)
            shown = "–" if estimate is None else f"{estimate[0]:.1f} ({estimate[1]:.1f}–{estimate[2]:.1f})"
            precise = _shares(strata)
            precise = "–" if precise is None else f"{100 * sum(size * p for size, p in precise) / n:.1f}"
            lines.append(f"| {language} | {name} | {n} | {precise} | {len(missed[name])} | {k} | {c['missed']} | {shown} |")
    return ("Recall (%) at D ≥ 1 of each phenomenon of each source language's profile on its gold PUD treebank, "
            "relative to what a broader query finds: the rule's instances (word pairs) at D ≥ 1 times their judged "
            "precision at D ≥ 1, against those plus the genuine instances among the broad query's pairs the rule "
            "misses (candidates; up to 25 a cell read, the share scaled to all; the interval from Jeffreys draws of "
            "both shares). The candidates, verdicts and reasons: "
            "`auto_challenge_sets/dataset/extraction_recall.tsv` (`studies/language_recall.py`).\n\n"
            + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--draw", action="store_true", help=f"add newly drawn candidates to {VERDICTS.relative_to(REPO)}")
    action.add_argument("--write", action="store_true", help=f"store the table in {TABLE.relative_to(REPO)}")
    action.add_argument("--check", action="store_true", help="exit 1 if the stored table differs")
    args = parser.parse_args()
    kept = read_verdicts(VERDICTS)
    if args.draw:
        write_verdicts(merge(draw(args.shared), kept), VERDICTS)
        return 0
    if args.check and [_key(row) for row in draw(args.shared)] != [_key(row) for row in kept]:
        print(f"{VERDICTS} is not the sample the rules draw now: run with --draw and judge the new rows", file=sys.stderr)
        return 1
    return store_or_check(table(args.shared, kept, read_verdicts(PRECISION)), TABLE, write=args.write, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
