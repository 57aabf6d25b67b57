"""The scope of an expensive shared fixture: the module's in a normal run, each test's under mutmut.

mutmut's stats run credits a mutated function to the test during which it ran, and then runs a
mutant against those tests only. A module fixture runs once, in the set-up of the file's first
test: the evaluation it computes is credited to that test alone, and a mutant of the engine runs
only it, while the tests that check the numbers never run (a hand-made mutant those tests kill
survives ``make mutate``). mutmut sets ``MUTANT_UNDER_TEST`` in every process it runs tests in.
"""

from __future__ import annotations

import os


def per_test_under_mutmut(fixture_name: str, config: object) -> str:
    """A pytest dynamic scope: ``@pytest.fixture(scope=per_test_under_mutmut)``."""
    return "function" if os.environ.get("MUTANT_UNDER_TEST") else "module"
