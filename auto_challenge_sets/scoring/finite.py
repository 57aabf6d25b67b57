"""What a metric hands the engine, checked before any statistic is built on it: a plug-in metric
that fails or returns NaN, ±inf or None is an error naming the metric and where it happened
(NaN passes through numpy quietly, down to a ``null`` score and a results.json that fails its own
schema). Statistics are checked row by row (naming the system's file and line), corpus scores
where they are computed (naming the system and the config).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from auto_challenge_sets.errors import AcsError, InputError
from auto_challenge_sets.formats.corpus import STDIN


class MetricFailure(AcsError):
    """A metric (a plug-in's code) raised while scoring: the message names the metric and system.
    Built from its message alone, so that it crosses from a worker process intact."""


def run_metric(name: str, system: str, compute: Callable[[], Any], where: str | None = None) -> Any:
    """``compute()``, its failure named. The statistics (``where`` None): a ValueError keeps its
    type (the engine names the corpus file for it) with the metric's name in front. A score on
    ``where`` (``config de-en.particle.d3``), and any other error: a :class:`MetricFailure`."""
    try:
        return compute()
    except ValueError as error:
        if where is not None:
            raise MetricFailure(f"metric {name} failed on {where} for system {system}: ValueError: {error}") from None
        text = str(error)
        raise ValueError(text if text.startswith(f"metric {name}") else f"metric {name}: {text}") from None
    except Exception as error:  # noqa: BLE001 - a plug-in's code: any failure is its own, named
        place = f"the output of system {system}" if where is None else f"{where} for system {system}"
        raise MetricFailure(f"metric {name} failed on {place}: {type(error).__name__}: {error}") from None


def corpus_score(metric: Any, system: str, rows: np.ndarray, where: str) -> float:
    """``metric.corpus_score(rows)``: a failure or a non-finite score named by metric, system and ``where``
    (``config de-en.particle.d3``, ``the full corpus``)."""
    value = run_metric(metric.name, system, partial(metric.corpus_score, rows), where)
    if not isinstance(value, int | float | np.number) or not np.isfinite(value):
        raise MetricFailure(f"metric {metric.name} scored system {system} {_shown(value)} on {where}: "
                            "a corpus score must be a finite number")
    return float(value)


def sample_scores(metric: Any, system: str, rows: np.ndarray, index: np.ndarray, where: str) -> np.ndarray:
    """``metric.sample_scores(rows, index)``, the random corpora of ``where``, checked like
    :func:`corpus_score`."""
    found = run_metric(metric.name, system, partial(metric.sample_scores, rows, index), f"a random corpus of {where}")
    array = np.asarray(found, dtype=np.float64)
    bad = array[~np.isfinite(array)]
    if len(bad):
        raise MetricFailure(f"metric {metric.name} scored system {system} {_shown(bad[0])} on a random "
                            f"corpus of {where}: a corpus score must be a finite number")
    return array


def check_statistics(stats: Mapping[str, Mapping[str, Any]], hypotheses: Mapping[str, str | os.PathLike[str]],
                     lines: Sequence[int]) -> None:
    """Every system's statistics per metric are finite numbers; else an InputError naming the
    metric, the system's file and the corpus line of the first bad row (``lines[row]``)."""
    for system, per_metric in stats.items():
        path = STDIN if str(hypotheses[system]) == "-" else hypotheses[system]
        for metric, rows in per_metric.items():
            try:
                array = np.asarray(rows, dtype=np.float64)
            except (TypeError, ValueError):
                raise InputError(f"metric {metric} returned statistics that are not numbers for system "
                                 f"{system}", path) from None
            flat = array.reshape(len(array), -1) if array.ndim else array.reshape(1, 1)
            bad = ~np.isfinite(flat).all(axis=1)
            if bad.any():
                row = int(np.argmax(bad))
                value = flat[row].tolist()
                raise InputError(f"metric {metric} gave the non-finite statistic {value[0] if len(value) == 1 else value} "
                                 f"for system {system} on this line: a metric's statistics must be finite numbers",
                                 path, int(lines[row]))


def _shown(value: object) -> str:
    """A number as Python writes a float (``nan``, ``-inf``, not ``np.float64(nan)``), anything else as its repr."""
    return repr(float(value)) if isinstance(value, int | float | np.number) and not isinstance(value, bool) else repr(value)

