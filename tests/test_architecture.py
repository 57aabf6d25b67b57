"""The house's own rules that no linter checks: modules by concept (none re-exports another's names
to look short), one base name per module, short functions where the logic lives, and floors that exist.

(The floors themselves are import-linter's job: `.importlinter`, run by `make test`.)"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "auto_challenge_sets"
MAX_FUNCTION_LINES = 60
ADAPTERS = ("cli", "dataset", "evaluation", "metrics")


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _used_names(tree: ast.Module) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def _public_api(tree: ast.Module) -> set[str]:
    """A package's ``__all__``: the names it offers its users (``from auto_challenge_sets.evaluation
    import evaluate``; plug-ins' base classes), the one place a name may be imported to be offered."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return {ast.literal_eval(element) for element in node.value.elts}
    return set()


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _reexports(path: Path) -> list[str]:
    """Names a module imports from another of the package's modules and never uses itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = _used_names(tree) | (_public_api(tree) if path.name == "__init__.py" else set())
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("auto_challenge_sets")):
            continue
        for alias in node.names:
            local = alias.asname or alias.name
            if local in used or _is_module(f"{node.module}.{alias.name}"):
                continue  # used here, or a submodule imported for what importing it does
            found.append(f"{path.relative_to(PACKAGE)}: {local} (from {node.module})")
    return found


def test_no_module_reexports_another_modules_names():
    """A name lives in one module and is imported from there: no facade that re-exports names to keep
    a module short (split by concept instead). A package's ``__all__`` is its public API, not a facade."""
    assert [line for path in _sources() for line in _reexports(path)] == []


def test_the_reexport_check_sees_a_reexport(tmp_path):
    module = tmp_path / "facade.py"
    module.write_text("from auto_challenge_sets.errors import AcsError as AcsError\n", encoding="utf-8")
    assert _reexports_at(module) == ["AcsError (from auto_challenge_sets.errors)"]


def _reexports_at(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used = _used_names(tree)
    return [f"{alias.asname or alias.name} (from {node.module})" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for alias in node.names if (alias.asname or alias.name) not in used]


def test_no_two_modules_share_a_base_name():
    names = Counter(p.name for p in _sources() if p.name != "__init__.py")
    assert sorted(name for name, count in names.items() if count > 1) == []


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


def test_every_floor_the_contract_names_is_a_package_or_module():
    """Every floor of the layers contract exists (no layer is silently missing), and there is one
    builder/ folder: the recipes at the top level."""
    contract = (PACKAGE.parent / ".importlinter").read_text(encoding="utf-8")
    block = contract.split("[importlinter:contract:floors]", 1)[1].split("layers =", 1)[1].split("\n[", 1)[0]
    floors = [name.strip() for line in block.splitlines() for name in line.replace("|", ":").split(":") if name.strip()]
    assert "cli" in floors and "formats" in floors
    for floor in floors:
        assert (PACKAGE / floor / "__init__.py").is_file() or (PACKAGE / f"{floor}.py").is_file(), floor
    assert not (PACKAGE / "builder").exists()
    assert (PACKAGE.parent / "builder").is_dir()
