"""One meaning per config name: a user's rule (``--rule``, an entry point) as the build record
keeps it, per (pair, corpus) build, under ``user_rules``.

A config ``{pair}.{name}.d{D}`` gathers the splits of every build of that pair: a rule of a name
that differs from the one another split of the pair records would mix two selections under one
name. Such a build is refused, naming both definitions, unless it replaces the rule
(``replace_rules``): then that phenomenon's configs lose the other splits and those builds'
records forget it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.dataset.integrity import FILES
from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import AcsError

USER_RULES = "user_rules"  # a build's key in the record: {phenomenon: its description}


@dataclass(frozen=True)
class RuleConflict:
    """Rule ``name`` of a new build defined otherwise than split ``corpus`` of ``pair`` records."""

    pair: str
    corpus: str
    name: str
    recorded: str
    new: str


def rule_conflicts(record: dict, pair: str, corpus: str, rules: dict[str, str]) -> list[RuleConflict]:
    """Each of ``rules`` (name: description) that another split of ``pair`` records otherwise. A
    rebuild of the same split replaces its own record, so it is no conflict."""
    conflicts = []
    for build in record["builds"]:
        if build["pair"] != pair or build["corpus"] == corpus:
            continue
        for name, recorded in sorted(build.get(USER_RULES, {}).items()):
            if name in rules and rules[name] != recorded:
                conflicts.append(RuleConflict(pair, build["corpus"], name, recorded, rules[name]))
    return conflicts


def check_rule_definitions(record: dict, pair: str, corpus: str, rules: dict[str, str],
                           replace: tuple[str, ...]) -> list[RuleConflict]:
    """The conflicts to replace; one that ``replace`` does not name is an error naming the rule and
    both definitions."""
    conflicts = rule_conflicts(record, pair, corpus, rules)
    for conflict in conflicts:
        if conflict.name not in replace:
            raise AcsError(
                f"rule {conflict.name!r} means {conflict.new!r} in this build but {conflict.recorded!r} in split "
                f"{conflict.corpus!r} of the folder ({BUILD_RECORD}): config {pair}.{conflict.name} would mean "
                f"both; give this rule another name, or replace the recorded one: replace_rules {conflict.name}",
                field="replace_rules")
    return conflicts


def forget_replaced(record: dict, conflicts: list[RuleConflict]) -> dict:
    """The record without the replaced rules in the builds that recorded them: not in their
    ``user_rules``, ``empty_configs`` nor ``files`` (whose data files the caller removes)."""
    dropped = {(c.pair, c.corpus, c.name) for c in conflicts}

    def kept(build: dict, config: str) -> bool:
        return (build["pair"], build["corpus"], parse_config_name(config).phenomenon) not in dropped

    builds = []
    for build in record["builds"]:
        names = {name for pair, corpus, name in dropped if (pair, corpus) == (build["pair"], build["corpus"])}
        if names:
            build = dict(build)
            rules = {name: text for name, text in build.get(USER_RULES, {}).items() if name not in names}
            build.pop(USER_RULES, None)
            if rules:
                build[USER_RULES] = rules
            build["empty_configs"] = [name for name in build.get("empty_configs", []) if kept(build, name)]
            build[FILES] = {path: entry for path, entry in build[FILES].items()
                            if kept(build, PurePosixPath(path).parts[1])}
        builds.append(build)
    return {**record, "builds": builds}
