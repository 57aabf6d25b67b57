"""``make mutate``: mutmut 3.8.1 on some modules (default: every one of ``only_mutate``), each
mutant against the derived test selection (``mutation/test_selection.json``, written by
``mutation/select_tests.py``).

    python mutation/mutate.py [MODULE ...]     # e.g. evaluation.stats.human dataset.card
    python mutation/mutate.py --survivors MODULE ...   # again only the mutants the last run left alive

mutmut reads one test selection from pyproject.toml for the whole run; this sets it to the test
files that execute the given modules before mutmut starts, so that its stats run (every selected
test once, to learn which tests call which function) runs those files only. mutmut's workers are
forked from this process and inherit the setting.
"""

from __future__ import annotations

import dataclasses
import json
import sys

from select_tests import PACKAGE, SELECTION, mutated_modules

# Modules whose tests start a Ray cluster: `ray.init` waits forever for its GCS server in a worker
# forked straight from mutmut's main process (whose stats run left gRPC threads in it), so every
# mutant would end at its time-out, counted as killed. mutmut's fork server, which has run no test,
# forks workers in which Ray starts.
FORK_SERVER = {"pipeline.executors"}


def test_files(modules: list[str]) -> tuple[list[str], str]:
    """The union of the modules' test files, and the marker expression they were chosen under."""
    if not SELECTION.exists():
        raise SystemExit(f"mutate: no {SELECTION.name}: run `python mutation/select_tests.py` first")
    document = json.loads(SELECTION.read_text(encoding="utf-8"))
    unknown = [m for m in modules if m not in document["modules"]]
    if unknown:
        raise SystemExit(f"mutate: {', '.join(unknown)}: not in {SELECTION.name} (run mutation/select_tests.py "
                         f"after changing only_mutate; modules: {', '.join(document['modules'])})")
    files = sorted({f for m in modules for f in document["modules"][m]})
    if not files:
        raise SystemExit(f"mutate: no fast test executes {', '.join(modules)}")
    return files, document["markers"]


def survivors(modules: list[str]) -> list[str]:
    """The mutants of ``modules`` that the last run in mutants/ did not kill (or never ran): after
    tests were added for them, rerunning these alone takes minutes instead of the module's hour."""
    from score import KILLED, equivalents, module_of, results

    listed = equivalents()  # they survive by design: each would run its whole selection for nothing
    return sorted(name for name, status in results().items()
                  if module_of(name) in modules and status not in KILLED and name not in listed)


def main(argv: list[str]) -> int:
    from mutmut import configuration
    from mutmut.__main__ import cli

    again = "--survivors" in argv
    argv = [a for a in argv if a != "--survivors"]
    modules = argv or list(mutated_modules())
    files, markers = test_files(modules)
    names = survivors(modules) if again else [f"{PACKAGE}.{m}.*" for m in argv]
    if again and not names:
        print("mutate: no survivors to run again", flush=True)
        return 0
    settings = {"pytest_add_cli_args_test_selection": [*files, "-m", markers]}
    if any(m in FORK_SERVER for m in modules):
        from mutmut.configuration import ProcessIsolation

        settings["process_isolation"] = ProcessIsolation.FORKSERVER
    configuration._config = dataclasses.replace(configuration.config(), **settings)
    print(f"mutate: {len(modules)} module(s) against {len(files)} test file(s)"
          + (f", {len(names)} surviving mutants again" if again else ""), flush=True)
    return int(cli(["run", *names], standalone_mode=False) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
