"""plot_intervals (issue #30; docs/uncertainty.md) draws what it is given: checked on the figure's
artists (the segments' ends, the dots' positions, the legend) and the file, not on pixels."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402

from ir_measures_pres.plots.uncertainty import plot_intervals  # noqa: E402

RUNS = ["bm25", "dense", "hybrid"]
MEANS = [0.30, 0.25, 0.35]
LOW = [0.26, 0.20, 0.31]
HIGH = [0.34, 0.30, 0.39]


def _segments(ax):
    """Each LineCollection's segments as (y, x0, x1) rows, in drawing order."""
    out = []
    for c in ax.collections:
        if isinstance(c, LineCollection):
            out.append(sorted((s[0][1], s[0][0], s[1][0]) for s in c.get_segments()))
    return out


def test_draws_means_and_intervals(tmp_path):
    path = tmp_path / "intervals.png"
    fig = plot_intervals(RUNS, MEANS, LOW, HIGH, measure="AP", level=0.95, path=path)
    (ax,) = fig.axes
    # the first run at the top: y = 2, 1, 0
    assert _segments(ax) == [sorted(zip([2.0, 1.0, 0.0], LOW, HIGH))]
    (dots,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert np.allclose(dots.get_offsets(), np.column_stack([MEANS, [2.0, 1.0, 0.0]]))
    assert [t.get_text() for t in ax.get_yticklabels()] == RUNS
    assert ax.get_xlabel() == "mean AP"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mean, 95% interval over topics"]
    assert path.stat().st_size > 1000
    plt.close(fig)


def test_bounds_are_a_second_lighter_range():
    lo, hi = [0.29, 0.22, 0.34], [0.40, 0.45, 0.41]
    fig = plot_intervals(RUNS, MEANS, LOW, HIGH, lo=lo, hi=hi)
    (ax,) = fig.axes
    bounds, interval = _segments(ax)
    assert bounds == sorted(zip([2.0, 1.0, 0.0], lo, hi))
    assert interval == sorted(zip([2.0, 1.0, 0.0], LOW, HIGH))
    back, front = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert back.get_alpha() < 1 and back.get_linewidth()[0] > front.get_linewidth()[0]
    assert back.get_zorder() < front.get_zorder()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["mean, interval over topics", "bounds over unjudged documents"]
    plt.close(fig)


def test_draws_on_a_given_axis_and_refuses_mismatched_inputs():
    fig, ax = plt.subplots()
    assert plot_intervals(RUNS, MEANS, LOW, HIGH, ax=ax) is fig
    with pytest.raises(ValueError, match="3 runs"):
        plot_intervals(RUNS, MEANS[:2], LOW, HIGH)
    with pytest.raises(ValueError, match="both lo and hi"):
        plot_intervals(RUNS, MEANS, LOW, HIGH, lo=LOW)
    with pytest.raises(ValueError, match="lo/hi"):
        plot_intervals(RUNS, MEANS, LOW, HIGH, lo=LOW[:1], hi=HIGH[:1])
    plt.close("all")
