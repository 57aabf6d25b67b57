"""The scope of an expensive shared fixture: the module's in a normal run, each test's under mutmut.

mutmut's stats run credits a mutated function to the test during which it ran, and then runs a
mutant against those tests only. A module fixture runs once, in the set-up of the file's first
test: the evaluation it computes is credited to that test alone, and a mutant of the engine runs
only it, while the tests that check the numbers never run (a hand-made mutant those tests kill
survives ``make mutate``). mutmut sets ``MUTANT_UNDER_TEST`` in every process it runs tests in,
to ``stats`` in the stats run.
"""

from __future__ import annotations

import os


def per_test_under_mutmut(fixture_name: str, config: object) -> str:
    """A pytest dynamic scope: ``@pytest.fixture(scope=per_test_under_mutmut)``. Per test in the
    stats run only: a mutant's run already knows its tests, and one evaluation per file halves
    the time a surviving mutant costs."""
    return "function" if os.environ.get("MUTANT_UNDER_TEST") == "stats" else "module"


# mutmut's own names for the runs that are not a mutant's (its __main__.py).
_NOT_A_MUTANT = {"", "stats", "fail", "list_all_tests", "mutant_generation"}
WALL_TIMES = "mutation-wall-times.json"


def mutant_run() -> bool:
    return os.environ.get("MUTANT_UNDER_TEST", "") not in _NOT_A_MUTANT


class WallTimes:
    """A pytest plugin for mutmut's stats run: each test's wall time with its fixtures' set-up.

    mutmut times only a test's call, so a file whose module fixture builds a dataset for a minute
    looks as cheap as its assertions; the order below needs what a file really costs."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._start = 0.0

    def pytest_runtest_logstart(self, nodeid: str, location: object) -> None:
        import time

        self._start = time.perf_counter()

    def pytest_runtest_logfinish(self, nodeid: str, location: object) -> None:
        import time

        self.seconds[nodeid.removeprefix("mutants/")] = time.perf_counter() - self._start

    def pytest_sessionfinish(self, session: object, exitstatus: int) -> None:
        import json

        with open(WALL_TIMES, "w", encoding="utf-8") as out:
            json.dump(self.seconds, out)


def own_progress_lock() -> None:
    """A process-local lock for tqdm's bars, in each mutant's process. tqdm's default lock holds a
    multiprocessing RLock, a semaphore that every process forked from mutmut's shares: a mutant
    killed at its time-out while a bar held it left it taken, and every later mutant whose tests
    draw a bar waited on it until its own time-out (counted as a kill). Its monitor thread goes
    too: a thread holding the lock when mutmut forks would leave it taken in the child."""
    import threading

    from tqdm import tqdm
    from tqdm.auto import tqdm as auto_tqdm

    for bar in {tqdm, auto_tqdm}:  # a subclass keeps the lock it was first given as its own
        bar.monitor_interval = 0
        bar.set_lock(threading.RLock())


def cheapest_first(items: list) -> None:
    """Under mutmut, run a mutant's tests cheapest file first, and in a file fastest test first.

    mutmut passes a mutant's tests in set order and stops at the first failure (``-x``): a mutant
    the first cheap test kills need not wait for the expensive files. A file stays together, so its
    module fixtures are set up once. Costs come from the stats run (``WallTimes``), else mutmut's
    call times; unknown tests go last, in their collected order."""
    import json

    try:
        with open(WALL_TIMES, encoding="utf-8") as wall:
            seconds: dict[str, float] = json.load(wall)
    except (OSError, ValueError):
        seconds = {}
    try:
        with open("mutmut-stats.json", encoding="utf-8") as stats:
            calls: dict[str, float] = json.load(stats).get("duration_by_test", {})
    except (OSError, ValueError):
        calls = {}
    unknown = float("inf")

    def cost(item) -> float:
        return seconds.get(item.nodeid, calls.get(item.nodeid, unknown))

    file_cost: dict[str, float] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        file_cost[path] = file_cost.get(path, 0.0) + cost(item)
    # list.sort is stable: equal costs keep their collected order
    items.sort(key=lambda item: (file_cost[item.nodeid.split("::")[0]], item.nodeid.split("::")[0], cost(item)))
