"""results.schema.json allows no field the code never writes: every property the schema declares
(read from the file, so fields added by others are checked too) appears in the results.json of a
rich toy run (--human, --human-seg, --targeted with its control, a second reference, small and
same-rows configs), save an explicit allow-list of fields a toy cannot produce."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from auto_challenge_sets.evaluation.results import SCHEMA_PATH

from toy_dataset import N, make

# (the schema object's JSON pointer, property): written only where a toy run cannot reach; each
# with the reason. Keep it short: a field listed here is a field no test sees written.
_NO_RECORD = ("the toy folder has no build record, so its provenance is 'not recorded'; "
              "test_evaluation_provenance.py validates results.json of real builds (demo, UDPipe, eflomal with "
              "and without priors) that write these fields")
UNREACHABLE: dict[tuple[str, str], str] = {
    **{("#/$defs/parser_provenance", key): _NO_RECORD
       for key in ("backend", "file", "model", "options", "package", "sha256", "version")},
    **{("#/$defs/aligner_provenance", key): _NO_RECORD
       for key in ("backend", "file", "model", "options", "package", "pairs", "priors", "priors_used", "sha256",
                   "symmetrization", "version")},
    **{("#/$defs/aligner_provenance/properties/priors/oneOf/1", key): _NO_RECORD for key in ("file", "sha256")},
}


def _rich_run(tmp_path) -> dict:
    from auto_challenge_sets.evaluation.engine import evaluate
    from auto_challenge_sets.evaluation.output_alignment import TargetedRequest
    from auto_challenge_sets.evaluation.request import EvaluationRequest
    from auto_challenge_sets.evaluation.stats.human import read_human
    from auto_challenge_sets.evaluation.stats.segments import read_human_seg

    toy = make(tmp_path)
    systems = list(toy["hyps"])
    seg = tmp_path / "seg.txt"
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{s} {line} 70 {0.1 * k + 0.05 * (line % 5)} 1"
                                           for k, s in enumerate(systems) for line in range(1, N + 1)]
    seg.write_text("\n".join(rows) + "\n", encoding="utf-8")
    # min_rows 13: reorder.d5 (12 rows) is small; particle.d4 and d5 hold the same rows
    request = EvaluationRequest(toy["root"], toy["hyps"], metrics=("bleu", "ter", "chrf"), n_samples=20,
                                paired_samples=20, min_rows=13, references=(toy["hyps"]["better"],),
                                targeted=TargetedRequest("present", random_pairs=20))
    evaluation = evaluate(request, read_human(toy["human"], systems), human_seg=read_human_seg(seg, systems))
    return json.loads(json.dumps(evaluation.to_json()))


class _Walk:
    """Marks each (schema object, property) that the document fills, following $ref and the
    branches of anyOf/oneOf/allOf that the value matches."""

    def __init__(self, schema: dict) -> None:
        self.schema = schema
        self.validator = jsonschema.Draft202012Validator(schema)
        self.seen: set[tuple[str, str]] = set()

    def node(self, pointer: str) -> Any:
        found: Any = self.schema
        for part in pointer.lstrip("#/").split("/") if pointer != "#" else []:
            found = found[int(part)] if isinstance(found, list) else found[part]
        return found

    def visit(self, value: Any, pointer: str) -> None:
        schema = self.node(pointer)
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            self.visit(value, schema["$ref"])
        for key in ("anyOf", "oneOf", "allOf"):
            for k, sub in enumerate(schema.get(key, ())):
                # the branch alone, with the definitions its $refs point into
                if self.validator.evolve(schema={"$defs": self.schema.get("$defs", {}), **sub}).is_valid(value):
                    self.visit(value, f"{pointer}/{key}/{k}")
        if isinstance(value, dict):
            properties = schema.get("properties", {})
            for name, item in value.items():
                if name in properties:
                    self.seen.add((pointer, name))
                    self.visit(item, f"{pointer}/properties/{name}")
                elif isinstance(schema.get("additionalProperties"), dict):
                    self.visit(item, f"{pointer}/additionalProperties")
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            for item in value:
                self.visit(item, f"{pointer}/items")

    def declared(self) -> set[tuple[str, str]]:
        found = set()

        def walk(node: Any, pointer: str) -> None:
            if isinstance(node, dict):
                for name in node.get("properties", {}) if isinstance(node.get("properties"), dict) else ():
                    found.add((pointer, name))
                for key, sub in node.items():
                    walk(sub, f"{pointer}/{key}")
            elif isinstance(node, list):
                for k, sub in enumerate(node):
                    walk(sub, f"{pointer}/{k}")

        walk(self.schema, "#")
        return found


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> dict:
    return _rich_run(tmp_path_factory.mktemp("rich"))


def test_every_property_the_schema_allows_is_written_by_a_rich_toy_run(document):
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    walk = _Walk(schema)
    walk.visit(document, "#")
    never = sorted(walk.declared() - walk.seen - set(UNREACHABLE))
    assert never == [], "schema properties no run writes (remove them, or list them in UNREACHABLE with why): " \
        + ", ".join(f"{p}: {n}" for p, n in never)
    stale = sorted(set(UNREACHABLE) - walk.declared())
    assert stale == [], f"UNREACHABLE lists properties the schema no longer has: {stale}"


def test_the_rich_document_reads_back_into_the_result_that_wrote_it(document):
    """Evaluation.from_json (acs report's reader): every field of the rich run, decoded and written
    again, is the same document; the typed parts come back typed (tuples, nested dataclasses)."""
    from auto_challenge_sets.evaluation.results import Evaluation, HumanCorrelation, TargetedRun

    found = Evaluation.from_json(document)
    assert found.to_json() == document
    assert type(found.systems) is tuple and isinstance(found.targeted, TargetedRun)
    config = next(c for c in found.configs.values() if c.human is not None)
    correlation = next(h for h in config.human.values() if h is not None and h.ci is not None)
    assert isinstance(correlation, HumanCorrelation) and type(correlation.ci) is tuple
    assert found.metric_info["ter"].label == "TER" and found.higher_is_better["ter"] is False
