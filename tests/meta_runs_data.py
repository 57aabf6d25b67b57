"""Two hand-written results.json runs for acs meta-evaluate's tests (test_meta_runs.py,
test_cmd_meta_evaluate.py): only the fields it reads, every expected number countable by hand."""

from __future__ import annotations

import json
from pathlib import Path

from auto_challenge_sets.evaluation.stats.meta_runs import FULL

# run 1: humans a > b > c > d; run 2: humans p > q > r (other systems, another scale)
HUMAN_1 = {"a": 0.9, "b": 0.5, "c": 0.1, "d": -0.3}
HUMAN_2 = {"p": 80.0, "q": 75.0, "r": 60.0}


def results(human: dict, full_bleu: dict, configs: dict, *, ter: dict | None = None, flags: dict | None = None,
            targeted: dict | None = None) -> dict:
    """A results.json with the fields acs meta-evaluate reads: ``configs`` is config -> system -> BLEU;
    ``ter`` config -> system -> TER (lower is better)."""
    metrics = ["bleu"] + (["ter"] if ter else [])
    full = {s: {"bleu": v, **({"ter": ter[FULL][s]} if ter else {})} for s, v in full_bleu.items()}
    document = {"schema": "acs-evaluation/2", "pair": "de-en", "split": "hand", "metrics": metrics,
                "higher_is_better": {"bleu": True, "ter": False}, "full": full, "human_scores": human, "configs": {}}
    for name, scores in configs.items():
        systems = {}
        for s, v in scores.items():
            entry = {"scores": {"bleu": {"score": v}}, "targeted": None}
            if ter:
                entry["scores"]["ter"] = {"score": ter[name][s]}
            if targeted and name in targeted:
                entry["targeted"] = {"accuracy": targeted[name][s]}
            systems[s] = entry
        document["configs"][name] = {"small": False, "same_rows_as": None, "degenerate_baseline": False,
                                     "systems": systems, **(flags or {}).get(name, {})}
    return document


RUN_1 = results(HUMAN_1, {"a": 30.0, "b": 31.0, "c": 20.0, "d": 10.0},
                {"de-en.particle.d1": {"a": 9.0, "b": 8.0, "c": 2.0, "d": 5.0},
                 "de-en.particle.d2": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                 "de-en.particle.d3": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                 "de-en.reflexive.d1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}},
                ter={FULL: {"a": 50.0, "b": 55.0, "c": 60.0, "d": 70.0},
                     "de-en.particle.d1": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                     "de-en.particle.d2": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                     "de-en.particle.d3": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0},
                     "de-en.reflexive.d1": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}},
                flags={"de-en.particle.d2": {"small": True},
                       "de-en.particle.d3": {"small": True, "same_rows_as": "de-en.particle.d2"}},
                targeted={"de-en.particle.d1": {"a": 0.7, "b": 0.6, "c": 0.65, "d": 0.2}})
RUN_2 = results(HUMAN_2, {"p": 25.0, "q": 20.0, "r": 22.0},
                {"de-en.particle.d1": {"p": 3.0, "q": 2.0, "r": 1.0},
                 "de-en.particle.d2": {"p": 3.0, "q": 2.0, "r": 1.0},
                 "de-en.particle.d3": {"p": 3.0, "q": 2.0, "r": 1.0},
                 "de-en.prep_stranding.d1": {"p": 3.0, "q": 2.0, "r": 1.0}},
                ter={FULL: {"p": 40.0, "q": 41.0, "r": 42.0},
                     "de-en.particle.d1": {"p": 1.0, "q": 1.0, "r": 2.0},
                     "de-en.particle.d2": {"p": 1.0, "q": 1.0, "r": 2.0},
                     "de-en.particle.d3": {"p": 1.0, "q": 1.0, "r": 2.0},
                     "de-en.prep_stranding.d1": {"p": 1.0, "q": 1.0, "r": 2.0}},
                flags={"de-en.particle.d3": {"same_rows_as": "de-en.particle.d2"}},
                targeted={"de-en.particle.d1": {"p": 0.9, "q": 0.8, "r": 0.7}})


def write_runs(folder: Path) -> list[str]:
    """RUN_1 and RUN_2 as run1.json and run2.json in ``folder``."""
    paths = []
    for k, document in enumerate((RUN_1, RUN_2), start=1):
        path = folder / f"run{k}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(str(path))
    return paths
