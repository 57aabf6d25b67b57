"""The house's own rules that no linter checks: small files, short functions where the logic lives.

(The floors themselves are import-linter's job: `.importlinter`, run by `make test`.)"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "auto_challenge_sets"
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
ADAPTERS = ("cli", "dataset", "evaluation")


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_source_file_is_over_400_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES}
    assert not long


def test_no_function_over_60_lines_in_the_core_backends_and_pipeline():
    long = {}
    for path in _sources():
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in ADAPTERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{relative}:{node.lineno} {node.name}"] = length
    assert not long


def test_the_floors_are_where_the_contract_says():
    """Every floor the contract names exists as a package (no layer is silently missing)."""
    contract = (PACKAGE.parent / ".importlinter").read_text(encoding="utf-8")
    for floor in ("builder/backends", "builder/pipeline", "cli", "dataset", "evaluation", "scoring"):
        assert (PACKAGE / floor / "__init__.py").is_file()
        assert "auto_challenge_sets." + floor.replace("/", ".") in contract or floor.split("/")[-1] in contract
