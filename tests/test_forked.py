"""scoring/forked.py: the fork pool that the statistics and the engine hand their state to."""

from __future__ import annotations

import os

import pytest

from auto_challenge_sets.scoring.forked import can_fork, forked_pool

_STATE: dict[str, object] = {}


def _read(key: str) -> tuple[object, int]:
    return _STATE[key], os.getpid()


def _apply(key: str, x: int) -> int:
    return _STATE[key](x)


def _state_keys(_: int) -> list[str]:
    return sorted(_STATE)


def _can_fork_in_worker(_: int) -> bool:
    return can_fork()


def test_workers_read_the_state_from_the_parents_memory():
    unpicklable = lambda x: x + 1  # noqa: E731 - a lambda cannot be pickled: it reaches the workers by fork
    with forked_pool(2, _STATE, {"jobs": 7, "inherited": "a key named like a parameter", "f": unpicklable}) as pool:
        (jobs, pid), (text, _) = pool.map(_read, ["jobs", "inherited"])
        assert list(pool.map(_apply, ["f", "f"], [1, 41])) == [2, 42]
    assert (jobs, text) == (7, "a key named like a parameter")
    assert pid != os.getpid()


def test_the_state_replaces_what_the_dict_held_before():
    _STATE.update(stale=1)
    with forked_pool(1, _STATE, {"fresh": 2}) as pool:
        assert list(pool.map(_state_keys, [0])) == [["fresh"]]


def test_the_state_is_emptied_when_the_pool_closes():
    with forked_pool(1, _STATE, {"rows": [1, 2, 3]}) as pool:
        assert _STATE == {"rows": [1, 2, 3]}
        list(pool.map(_state_keys, [0]))
    assert _STATE == {}


def test_the_state_is_emptied_after_a_workers_error():
    with pytest.raises(KeyError, match="missing"), forked_pool(1, _STATE, {"rows": [1]}) as pool:
        list(pool.map(_read, ["missing"]))
    assert _STATE == {}


def test_a_worker_does_not_fork_again_and_this_process_may():
    assert can_fork()  # Linux, the test's own process
    with forked_pool(1, _STATE, {}) as pool:
        assert list(pool.map(_can_fork_in_worker, [0])) == [False]
