"""The one Jinja2 environment of the report: ``templates/`` (the page, its CSS and JavaScript, the
sentence sidecars and the SVG of every figure), autoescaped, with the filters that write a number,
a share, an exact value for ``data-value`` and a user's name as a bidi isolate. The page
(:mod:`.html_report`) and the figures (:mod:`..figures`) both render with it."""

from __future__ import annotations

import math
from typing import Any


def _number(value: float | None, digits: int = 2, signed: bool = False) -> str:
    """A number as the page shows it (a dash for none); the full value goes in ``data-value``."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _raw(value: float | None) -> str:
    """The exact value for ``data-value`` (repr round-trips a float), empty for none."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    return repr(float(value))


def _bdi(name: str) -> Any:
    """A user's name in the page's text as its own bidi isolate, escaped: a right-to-left name or
    one holding U+202E cannot reorder the names after it."""
    from markupsafe import Markup

    return Markup("<bdi>{}</bdi>").format(name)


def environment() -> Any:
    import jinja2

    # every template escapes, the SVG macros and the sidecar scripts too: a template selected by
    # its file name once left charts.svg.j2 unescaped, and a system name ran as script in the page
    env = jinja2.Environment(loader=jinja2.PackageLoader("auto_challenge_sets.evaluation.report.html", "templates"),
                             autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    # compact JSON for the inline data and the sidecars; tojson still escapes <, >, & and '
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":"), "ensure_ascii": False, "sort_keys": False}
    env.filters.update(number=_number, percent=_percent, raw=_raw, bdi=_bdi)
    return env
