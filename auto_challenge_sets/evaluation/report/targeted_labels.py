"""What every rendering of targeted accuracy says beside its numbers (the terminal, report.md and
index.html alike): what the measure is, how far its judge was measured on a second human
translation, and how its random-pair control was matched on part of speech."""

from __future__ import annotations

from auto_challenge_sets.evaluation.results import ControlMatching, Evaluation, TargetedRun

DIAGNOSTIC = ("targeted accuracy is a diagnostic of reference-word recall, not a ranking measure: it credits "
              "the words of the dataset's reference, and a correct translation in other words fails")


def judge_line(targeted: TargetedRun) -> str:
    """The judge's pass rate on a second human translation, or that it is unmeasured and why."""
    judge = targeted.judge
    if judge is None or judge.pass_rate is None:
        reason = "no instance judged" if judge is None or judge.status == "measured" else judge.reason
        return f"this judge is unmeasured ({reason})"
    return (f"this judge passes {100 * judge.pass_rate:.0f}% of a second human translation "
            f"({judge.judged:,} instances judged; {judge.reason})")


def control_matching(evaluation: Evaluation) -> ControlMatching | None:
    """The control's matching summed over each phenomenon's smallest-D config (which holds every
    instance of its larger-D configs: each instance counted once); None without the control."""
    targeted = evaluation.targeted
    if targeted is None or not targeted.control:
        return None
    names = [summary.config for summary in targeted.by_distance.values() if summary.config in targeted.control]
    found = [targeted.control[name] for name in names]
    return ControlMatching(*(sum(getattr(m, key) for m in found)
                             for key in ("instances", "matched", "head_only", "unmatched", "itself")))


def control_line(evaluation: Evaluation) -> str | None:
    """How the random-pair control drew its pairs, in shares of instances; None without it."""
    found = control_matching(evaluation)
    if found is None:
        return None
    if not evaluation.targeted.control_upos:
        return ("random-pair control: not matched on part of speech (the dataset has no source_upos column; "
                "rebuild it with this acs to match)")
    if not found.instances:
        return "random-pair control: no instance drawn"

    def share(count: int) -> str:
        return f"{100 * count / found.instances:.0f}%"

    return (f"random-pair control: pairs with the instance's head and dependent UPOS for {share(found.matched)} of "
            f"{found.instances:,} instances, with the head's UPOS only for {share(found.head_only)}, with neither "
            f"(no such pair in the sentence) for {share(found.unmatched)}"
            + (f", the instance itself (no other pair fits) for {share(found.itself)}" if found.itself else ""))


def matched_share(matching: ControlMatching | None) -> float | None:
    """The share of a config's instances whose control pairs have both UPOS (None: no control)."""
    if matching is None or not matching.instances:
        return None
    return matching.matched / matching.instances
