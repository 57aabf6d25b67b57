"""An independent reading of docs/method.md's rules with the `conllu` package (not our reader), to
check the build against."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import conllu

DISTANCES = range(6)
# docs/method.md, *Function words*
FUNCTION_UPOS = ("ADP", "AUX", "CCONJ", "DET", "PART", "PRON", "PUNCT", "SCONJ")
FUNCTION_RELATIONS = ("aux", "case", "cc", "cop", "det", "expl", "mark", "punct")


def _content(by_id: dict, i: int, h: int) -> int:
    """The words strictly between i and h that are no function word."""
    between = [by_id[k] for k in range(min(i, h) + 1, max(i, h))]
    return sum(t["upos"] not in FUNCTION_UPOS and t["deprel"].split(":")[0] not in FUNCTION_RELATIONS
               and not (t["upos"] == "ADV" and (t["feats"] or {}).get("Polarity") == "Neg") for t in between)


def independent_selection(path: Path, source: str) -> tuple[Counter, dict[str, dict[str, list[tuple[int, ...]]]]]:
    """Sizes per (phenomenon, D) and instances per sent_id, (dependent, head, distance, content
    distance), straight from docs/method.md's wording, for a build from ``source``."""
    clause = "verb_final" if source in ("de", "hi") else "subordinator_verb"
    phenomena = ("reflexive", "particle", "prep_stranding", "aux_bracket", "subj_verb", clause)
    sizes: Counter = Counter()
    instances: dict[str, dict[str, list[tuple[int, ...]]]] = {}
    with open(path, encoding="utf-8") as handle:
        for tokenlist in conllu.parse_incr(handle):
            found: dict[str, list[tuple[int, ...]]] = {name: [] for name in phenomena}
            by_id = {token["id"]: token for token in tokenlist if isinstance(token["id"], int)}
            for token in tokenlist:
                if not isinstance(token["id"], int) or token["head"] in (0, None):
                    continue
                d = abs(token["id"] - token["head"]) - 1
                entry = (token["id"], token["head"], d, _content(by_id, token["id"], token["head"]))
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
                entry = (token["id"], head["id"], abs(token["id"] - head["id"]) - 1, _content(by_id, token["id"], head["id"]))
                if token["deprel"].split(":")[0] == "aux":
                    found["aux_bracket"].append(entry)
                if token["deprel"].split(":")[0] == "nsubj" and "Nom" in feats.get("Case", "Nom").split(","):
                    found["subj_verb"].append(entry)
                if token["upos"] == "SCONJ" and token["deprel"] == "mark":
                    found[clause].append(entry)
            instances[tokenlist.metadata["sent_id"]] = found
            sizes["baseline", None] += 1
            for phenomenon, entries in found.items():
                for minimum in DISTANCES:
                    if any(entry[2] >= minimum for entry in entries):
                        sizes[phenomenon, minimum] += 1
    return sizes, instances
