"""The test selection of ``make mutate``, derived from coverage instead of listed by hand.

    python mutation/select_tests.py                       # the fast tests, every mutated module
    python mutation/select_tests.py tests/test_human.py   # some test files only (merged into the file)

Runs the tests once in this process under coverage, one coverage context per test (its node id),
and writes ``mutation/test_selection.json``: for each module of ``[tool.mutmut] only_mutate``
(named as in ``make mutate MODULES=...``), the test files with a test that executes a line of it.
A hand-kept list misses tests: a test file nobody thought of (``test_block_reading.py`` for
``corpus``) lets a mutant live that it kills.

Left out, and listed in the file with the reason: test files slower than ``--max-file-seconds``
in all (mutmut runs a mutant's tests file fixtures and all, once per mutant: one 150 s WMT21
build per mutant would take days), and tests outside ``--markers`` (by default the tests a fresh
clone runs: no ``shared`` data, no model weights, no browser). Code run in a subprocess (the
``acs`` tests that start a process) is not seen; the test that runs the same code in-process is.
``mutation/mutate.py`` hands the selection to mutmut.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SELECTION = HERE / "test_selection.json"
PACKAGE = "auto_challenge_sets"
FAST = "not shared and not models and not browser"


def mutated_modules() -> dict[str, Path]:
    """``only_mutate``'s files by module name (``evaluation.human`` for ``auto_challenge_sets/evaluation/stats/human.py``),
    as mutmut reads them from pyproject.toml (run from the repository's root)."""
    from mutmut.configuration import config

    patterns = config().only_mutate
    files = sorted({path for pattern in patterns for path in ROOT.glob(pattern) if path.suffix == ".py"})
    return {module_name(path): path.resolve() for path in files}


def module_name(path: Path) -> str:
    parts = path.resolve().relative_to(ROOT / PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class _PerTest:
    """A pytest plugin: each test runs in its own coverage context; seconds per test file."""

    def __init__(self, cov) -> None:
        self.cov = cov
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_protocol(self, item, nextitem):  # noqa: ANN001 - pytest's hook signature
        self.cov.switch_context(item.nodeid)
        self._start = time.perf_counter()

    def pytest_runtest_logfinish(self, nodeid, location):  # noqa: ANN001
        self.seconds[nodeid.split("::")[0]] += time.perf_counter() - self._start
        self.cov.switch_context("")


def measure(pytest_args: list[str], markers: str) -> tuple[dict[str, set[str]], dict[str, float], int]:
    """Per measured source file, the test node ids that executed it; seconds per test file; pytest's exit code."""
    import coverage
    import pytest

    with tempfile.TemporaryDirectory() as tmp:
        cov = coverage.Coverage(data_file=str(Path(tmp) / ".coverage"), source=[str(ROOT / PACKAGE)])
        plugin = _PerTest(cov)
        cov.start()
        try:
            code = pytest.main(["-q", "-p", "no:cacheprovider", "-m", markers, *pytest_args], plugins=[plugin])
        finally:
            cov.stop()
        data = cov.get_data()
        covered: dict[str, set[str]] = {}
        for path in data.measured_files():
            tests: set[str] = set()
            for contexts in data.contexts_by_lineno(path).values():
                tests.update(c for c in contexts if c)
            covered[str(Path(path).resolve())] = tests
    return covered, dict(plugin.seconds), int(code)


def select(covered: dict[str, set[str]], seconds: dict[str, float], modules: dict[str, Path],
           max_file_seconds: float) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Per module the test files that execute it, without the files slower than the limit."""
    slow = {name: round(s, 1) for name, s in seconds.items() if s > max_file_seconds}
    chosen = {}
    for module, path in modules.items():
        files = {nodeid.split("::")[0] for nodeid in covered.get(str(path), set())}
        chosen[module] = sorted(files - set(slow))
    return chosen, slow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pytest_args", nargs="*", help="test files or pytest options (default: tests/)")
    parser.add_argument("--markers", default=FAST, help=f"pytest -m expression of the candidates (default: {FAST!r})")
    parser.add_argument("--max-file-seconds", type=float, default=60.0,
                        help="leave out test files slower than this in all (default: 60)")
    args = parser.parse_args(argv)
    modules = mutated_modules()
    sys.path.insert(0, str(ROOT))  # the working tree's package, whatever the venv installed
    covered, seconds, code = measure(args.pytest_args or ["tests/"], args.markers)
    if code not in (0, 1, 5):  # 1: a test failed (its lines still count), 5: nothing collected
        print(f"select_tests: pytest exited {code}: no selection written", file=sys.stderr)
        return 2
    chosen, slow = select(covered, seconds, modules, args.max_file_seconds)
    previous = json.loads(SELECTION.read_text(encoding="utf-8")) if SELECTION.exists() and args.pytest_args else {}
    if previous:  # some test files measured again: keep what the others were found to cover
        measured = set(seconds)
        for module, files in chosen.items():
            kept = [f for f in previous.get("modules", {}).get(module, []) if f not in measured]
            chosen[module] = sorted({*files, *kept})
        slow = {**{k: v for k, v in previous.get("slow", {}).items() if k not in measured}, **slow}
    document = {"markers": args.markers, "max_file_seconds": args.max_file_seconds, "slow": dict(sorted(slow.items())),
                "modules": chosen}
    SELECTION.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    for module, files in chosen.items():
        print(f"{module}: {len(files)} test files" + ("" if files else "  <- no fast test executes it"))
    print(f"wrote {SELECTION.relative_to(ROOT)}; left out as slow: {', '.join(slow) or 'none'}")
    if code == 1:
        print("select_tests: some tests failed: a failing test may stop before the code it covers", file=sys.stderr)
    return 0 if code != 1 else 1


if __name__ == "__main__":
    sys.exit(main())
