"""Where the time went (pipeline/timings.py): stages recorded only inside a recording, and
a stage run several times (once per config, per metric) as one line that adds them up."""

from __future__ import annotations

from auto_challenge_sets.pipeline.timings import recording, stage


def test_a_stage_run_several_times_is_one_line_adding_its_times_and_counts() -> None:
    with stage("outside", 1, "rows") as timed:
        assert timed is None  # no recording: nothing timed
    with recording() as timings:
        for _ in range(3):
            with stage("random baselines", 1, "configs"):
                sum(range(10_000))
            with stage("paired tests", 2, "configs"):
                pass
        with stage("trends", unit="metrics") as timed:
            timed.count = 4
    merged = timings.merged()
    assert [s.name for s in merged] == ["random baselines", "paired tests", "trends"]  # first use's order
    assert [s.count for s in merged] == [3, 6, 4]
    first = [s for s in timings.stages if s.name == "random baselines"]
    assert merged[0].wall == sum(s.wall for s in first) and merged[0].cpu == sum(s.cpu for s in first)
    lines = timings.lines()
    assert len(lines) == 4 and lines[0].endswith("  3 configs") and lines[-1].startswith("total")
    assert lines[-1].split()[1] == f"{sum(s.wall for s in merged):.2f}"
