"""What the figures show and in which colours (evaluation/report/plots.py): the tick rule, the diverging
ramp and a name cut for a figure, against values worked out by hand."""

from __future__ import annotations

import pytest

from auto_challenge_sets.evaluation.report import plots


def test_nice_ticks_are_round_steps_that_cover_the_values():
    # by hand: span 0.74 over 5 bins is 0.148 a bin; 0.1 needs 9 steps, 0.2 covers 0…1 in 5
    assert plots.nice_ticks(0.13, 0.87) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    # span 2 over 5 bins: 0.4, so the step of 0.5 (0.2 would take 10 steps)
    assert plots.nice_ticks(4, 6) == [4.0, 4.5, 5.0, 5.5, 6.0]
    assert plots.nice_ticks(12.3, 38.7) == [10.0, 20.0, 30.0, 40.0]
    assert plots.nice_ticks(20.5, 21.3, bins=4) == [20.5, 20.75, 21.0, 21.25, 21.5]  # the 2.5 step
    # no float noise in a label: 3 × 0.005 is 0.015, not 0.015000000000000001
    assert plots.nice_ticks(-0.004, 0.0123, bins=4) == [-0.005, 0.0, 0.005, 0.01, 0.015]
    with pytest.raises(ValueError):
        plots.nice_ticks(1.0, 1.0)


def test_diverging_runs_red_white_blue_through_its_stops():
    assert plots.diverging(0.0) == "#67001f" and plots.diverging(0.5) == "#f7f7f7" and plots.diverging(1.0) == "#053061"
    assert plots.diverging(0.0, reverse=True) == "#053061"
    assert plots.diverging(-3) == "#67001f" and plots.diverging(7) == "#053061"  # clipped
    # halfway between stop 5 (#f7f7f7) and stop 6 (#d1e5f0): 0.55 → (247+209)/2 = 228 (e4),
    # (247+229)/2 = 238 (ee), (247+240)/2 = 243.5, rounded to the even 244 (f4)
    assert plots.diverging(0.55) == "#e4eef4"


def test_a_long_name_is_cut_for_a_figure_only_past_its_limit():
    assert plots.plot_name("x" * plots.PLOT_NAME) == "x" * plots.PLOT_NAME
    cut = plots.plot_name("y" * 5000)
    assert len(cut) == plots.PLOT_NAME and cut.endswith("…")
