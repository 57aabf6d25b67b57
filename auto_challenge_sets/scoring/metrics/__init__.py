"""The metric registry: a name (``--metrics bleu,ter``) to a metric class, and the options a run
gives its metrics. The interface (:mod:`.base`) is offered here (``__all__``) for plug-ins; the
built-ins, one module each, are registered on import, and installed packages add metrics through the entry-point
group ``auto_challenge_sets.metrics`` (``mine = my_package:MyMetric``; COMET is one), loaded at the
first look-up. :func:`route_options` gives each metric the keys of a run's ``--metric-option``
that it declares; a key none declares is an error naming the ones they do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from auto_challenge_sets.errors import RequestError
from auto_challenge_sets.options import Option, did_you_mean
from auto_challenge_sets.scoring.metrics.base import (
    AveragedMetric,
    Metric,
    PairedTestAdapter,
    References,
    SummedMetric,
    option_values,
)
from auto_challenge_sets.scoring.metrics.bleu import Bleu
from auto_challenge_sets.scoring.metrics.chrf import Chrf
from auto_challenge_sets.scoring.metrics.ribes import Ribes
from auto_challenge_sets.scoring.metrics.ter import Ter

ENTRY_POINT_GROUP = "auto_challenge_sets.metrics"
BUILTINS = (Bleu, Chrf, Ter, Ribes)  # in the registry's order
DEFAULT_METRICS = ("bleu", "chrf", "ribes")
# what a plug-in imports from here: the interface, and the registry's functions
__all__ = ["AveragedMetric", "Metric", "PairedTestAdapter", "References", "SummedMetric", "option_values",
           "ENTRY_POINT_GROUP", "register_metric", "metric_names", "metric_class", "create_metric", "route_options",
           "option_lines"]

_REGISTRY: dict[str, type[Metric]] = {}
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}", re.ASCII)
_entry_points_loaded = False


def register_metric(cls: type[Metric]) -> type[Metric]:
    """Class decorator: make ``cls`` available under ``cls.name``."""
    name = getattr(cls, "name", None)
    # the name becomes part of file names (de-en.{name}.heatmap.png) and a --metrics item: `a/../b`
    # would write outside the report folder
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"a metric needs a lower-case name: ASCII letters, digits, _ and - (starting with a "
                         f"letter, at most 64 characters), got {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Metric)):
        raise TypeError(f"metric {name!r} must be a subclass of auto_challenge_sets.scoring.metrics.Metric")
    declared = getattr(cls, "options", ())
    if not isinstance(declared, tuple) or not all(isinstance(option, Option) for option in declared):
        raise TypeError(f"metric {name!r}: options must be a tuple of auto_challenge_sets.options.Option")
    names = [option.name for option in declared]
    if len(set(names)) != len(names):
        raise ValueError(f"metric {name!r} declares an option twice: {names}")
    _REGISTRY[name] = cls
    return cls


for _builtin in BUILTINS:
    register_metric(_builtin)


def _load_entry_points() -> None:
    """Register the metrics that installed packages declare (once per process)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from auto_challenge_sets.plugins import load_plugins

    def register(entry: Any, cls: Any) -> None:
        if getattr(cls, "name", None) != entry.name:
            raise ValueError(f"its class is named {getattr(cls, 'name', None)!r}")
        register_metric(cls)

    load_plugins(ENTRY_POINT_GROUP, _REGISTRY, register, "metric")


def metric_names() -> list[str]:
    """Every registered metric: the built-ins first, then plug-ins, in registration order."""
    _load_entry_points()
    return list(_REGISTRY)


def metric_class(name: str) -> type[Metric]:
    """The class registered as ``name``; ValueError naming the known ones otherwise."""
    if name not in _REGISTRY:
        _load_entry_points()
    if name not in _REGISTRY:
        raise ValueError(f"unknown metric {name!r} (known: {', '.join(metric_names())})")
    return _REGISTRY[name]


def create_metric(name: str, **options: Any) -> Metric:
    """An instance of the metric registered as ``name``, with its options (each one it declares)."""
    return metric_class(name)(**options)


def route_options(names: Sequence[str], given: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per metric of ``names``, every option it declares: from ``given`` where a key is the option's
    name (a key may go to several: ``tokenize`` to BLEU and RIBES), else its default. A key that
    none of them declares is a :class:`RequestError` of ``metric_options`` naming the options they
    have (and the metric that has it, when another registered metric does)."""
    classes = {name: metric_class(name) for name in names}
    declared = {name: {option.name for option in cls.options} for name, cls in classes.items()}
    for key in given:
        if not any(key in keys for keys in declared.values()):
            known = sorted({option for keys in declared.values() for option in keys})
            owners = [name for name in metric_names() if name not in classes
                      and key in {option.name for option in _REGISTRY[name].options}]
            where = f"; it is an option of {', '.join(owners)}, which is not among the metrics" if owners else ""
            raise RequestError("metric_options", f"no metric of {', '.join(names)} has an option {key!r}"
                               f"{did_you_mean(str(key), known)}{where} (their options: {', '.join(known) or 'none'})")
    return {name: option_values(cls, {key: value for key, value in given.items() if key in declared[name]})
            for name, cls in classes.items()}


def option_lines(names: Sequence[str] | None = None) -> list[str]:
    """``option (type, default X; metrics): help`` for every option of ``names`` (every registered
    metric by default), once for the metrics that share it: what ``acs evaluate --help`` and
    ``acs metric list`` show."""
    owners: dict[str, tuple[Option, list[str]]] = {}
    for name in metric_names() if names is None else names:
        for option in metric_class(name).options:
            owners.setdefault(option.name, (option, []))[1].append(name)
    return [option.describe(", ".join(metrics)) for option, metrics in owners.values()]
