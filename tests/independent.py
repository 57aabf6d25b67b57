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
                head_is_verb = by_id[token["head"]]["upos"] == "VERB"
                if (token["feats"] or {}).get("Reflex") == "Yes":
                    found["reflexive"].append(entry)
                if token["deprel"] in ("compound:prt", "prt"):
                    found["particle"].append(entry)
                if token["upos"] == "ADP" and token["deprel"].split(":")[0] == "obl":
                    found["prep_stranding"].append(entry)
                # the wording: aux or aux:* / nsubj or nsubj:* / SCONJ + mark, each under a VERB
                if token["deprel"].split(":")[0] == "aux" and head_is_verb:
                    found["aux_bracket"].append(entry)
                if token["deprel"].split(":")[0] == "nsubj" and head_is_verb:
                    found["subj_verb"].append(entry)
                if token["upos"] == "SCONJ" and token["deprel"] == "mark" and head_is_verb:
                    found["verb_final"].append(entry)
            instances[tokenlist.metadata["sent_id"]] = found
            sizes["baseline", None] += 1
            for phenomenon, entries in found.items():
                for minimum in DISTANCES:
                    if any(d >= minimum for _, _, d in entries):
                        sizes[phenomenon, minimum] += 1
    return sizes, instances
