"""An independent reading of docs/method.md's rules with the `conllu` package (not our reader), to
check the build against."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import conllu

DISTANCES = range(6)
PHENOMENA = ("reflexive", "particle", "prep_stranding", "aux_bracket", "subj_verb", "verb_final")


def independent_selection(path: Path) -> tuple[Counter, dict[str, dict[str, list[tuple[int, int, int]]]]]:
    """Sizes per (phenomenon, D) and instances per sent_id, straight from docs/method.md's wording."""
    sizes: Counter = Counter()
    instances: dict[str, dict[str, list[tuple[int, int, int]]]] = {}
    with open(path, encoding="utf-8") as handle:
        for tokenlist in conllu.parse_incr(handle):
            found: dict[str, list[tuple[int, int, int]]] = {name: [] for name in PHENOMENA}
            by_id = {token["id"]: token for token in tokenlist if isinstance(token["id"], int)}
            for token in tokenlist:
                if not isinstance(token["id"], int) or token["head"] in (0, None):
                    continue
                d = abs(token["id"] - token["head"]) - 1
                entry = (token["id"], token["head"], d)
                feats = token["feats"] or {}
                if feats.get("Reflex") == "Yes":
                    found["reflexive"].append(entry)
                if token["deprel"] in ("compound:prt", "prt"):
                    found["particle"].append(entry)
                if token["upos"] == "ADP" and token["deprel"].split(":")[0] == "obl":
                    found["prep_stranding"].append(entry)
                # aux or aux:* / nsubj or nsubj:* in the nominative or no case / SCONJ + mark, each to
                # its head where that is a VERB or a participle, else to the head's copula if it has one
                head = by_id[token["head"]]
                if head["upos"] != "VERB" and (head["feats"] or {}).get("VerbForm") != "Part":
                    head = next((t for t in by_id.values() if t["head"] == head["id"] and t["deprel"] == "cop"), None)
                if head is None:
                    continue
                entry = (token["id"], head["id"], abs(token["id"] - head["id"]) - 1)
                if token["deprel"].split(":")[0] == "aux":
                    found["aux_bracket"].append(entry)
                if token["deprel"].split(":")[0] == "nsubj" and "Nom" in feats.get("Case", "Nom").split(","):
                    found["subj_verb"].append(entry)
                if token["upos"] == "SCONJ" and token["deprel"] == "mark":
                    found["verb_final"].append(entry)
            instances[tokenlist.metadata["sent_id"]] = found
            sizes["baseline", None] += 1
            for phenomenon, entries in found.items():
                for minimum in DISTANCES:
                    if any(d >= minimum for _, _, d in entries):
                        sizes[phenomenon, minimum] += 1
    return sizes, instances
