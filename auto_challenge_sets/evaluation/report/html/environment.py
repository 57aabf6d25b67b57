"""The one Jinja2 environment of the report (``templates/``), autoescaped, with the filters that write
a number, a share, an exact ``data-value`` and a user's name as a bidi isolate."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from auto_challenge_sets.evaluation.report.plots import is_finite


def _number(value: float | None, digits: int = 2, signed: bool = False) -> str:
    return "–" if not is_finite(value) else f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _raw(value: float | None) -> str:
    return "" if not is_finite(value) else repr(float(value))  # repr round-trips a float


def _bdi(name: str) -> Any:
    """A user's name as its own bidi isolate, escaped: it cannot reorder the names after it."""
    return Markup("<bdi>{}</bdi>").format(name)


def environment() -> Any:
    import jinja2

    # every template escapes, the SVG and the sidecar scripts too (a system name must never run as script)
    env = jinja2.Environment(loader=jinja2.PackageLoader("auto_challenge_sets.evaluation.report.html", "templates"),
                             autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    # compact JSON for the inline data and the sidecars; tojson still escapes <, >, & and '
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":"), "ensure_ascii": False, "sort_keys": False}
    env.filters.update(number=_number, percent=_percent, raw=_raw, bdi=_bdi)
    return env
