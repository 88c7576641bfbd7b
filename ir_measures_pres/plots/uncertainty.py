"""Every mean with its uncertainty (docs/uncertainty.md): a few runs' means of one
measure, each with its interval over the topics and, when given, the range its score could take
if the unjudged documents were judged (bounds over unjudged documents), drawn as a second,
lighter and wider bar behind the interval. matplotlib, the ``meta`` extra.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ..data.extras import require

#: colours: the mean and its interval; the range of the bounds, behind it
INTERVAL_COLOUR, BOUNDS_COLOUR = "tab:blue", "tab:orange"


def plot_intervals(
    runs: Sequence[str],
    means: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    lo: Optional[Sequence[float]] = None,
    hi: Optional[Sequence[float]] = None,
    measure: str = "",
    level: Optional[float] = None,
    path: Optional[Any] = None,
    ax: Optional[Any] = None,
) -> Any:
    """A horizontal dot plot of the runs (top to bottom in the order given): each run's mean (a
    dot) and its interval [``low``, ``high``] (a line); with ``lo`` and ``hi`` (one per run, the
    means of the per-topic bounds over unjudged documents) a lighter, thicker bar from ``lo`` to
    ``hi`` behind it. ``measure`` labels the axis, ``level`` the legend (``0.95``: "95%
    interval over topics"). Drawn on ``ax`` when given, else on a new figure; saved to ``path``
    when given. Returns the figure. A NaN bound is not drawn.

    >>> ivs = calc_intervals("AP", "qrels.txt", "run.txt")  # doctest: +SKIP
    """
    require("matplotlib")
    import matplotlib

    if path is not None and ax is None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    k = len(runs)
    arrays = [np.asarray(a, dtype=np.float64) for a in (means, low, high)]
    if any(len(a) != k for a in arrays):
        raise ValueError(
            f"plot_intervals: {k} runs, but means/low/high have {[len(a) for a in arrays]} values"
        )
    if (lo is None) != (hi is None):
        raise ValueError(
            "plot_intervals: give both lo and hi (the bounds over unjudged documents), or neither"
        )
    mean, lower, upper = arrays
    if ax is None:
        fig, ax = plt.subplots(figsize=(5.0, 0.35 * k + 1.3), layout="constrained")
    else:
        fig = ax.figure
    y = np.arange(k)[::-1].astype(np.float64)
    handles = []
    if lo is not None and hi is not None:
        b_lo, b_hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
        if len(b_lo) != k or len(b_hi) != k:
            raise ValueError(f"plot_intervals: {k} runs, but lo/hi have {len(b_lo)}/{len(b_hi)} values")
        ax.hlines(y, b_lo, b_hi, colors=BOUNDS_COLOUR, lw=7, alpha=0.35, zorder=1)
        handles.append(
            Line2D([], [], color=BOUNDS_COLOUR, lw=7, alpha=0.35, label="bounds over unjudged documents")
        )
    ax.hlines(y, lower, upper, colors=INTERVAL_COLOUR, lw=1.6, zorder=2)
    ax.scatter(mean, y, color=INTERVAL_COLOUR, s=22, zorder=3)
    what = "interval over topics" if level is None else f"{100 * level:g}% interval over topics"
    handles.insert(0, Line2D([], [], color=INTERVAL_COLOUR, marker="o", lw=1.6, label=f"mean, {what}"))
    ax.set_yticks(y)
    ax.set_yticklabels(list(runs), fontsize=8)
    ax.set_xlabel(f"mean {measure}".strip(), fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", color="0.9", lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(
        handles=handles, fontsize=7, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=2
    )
    if path is not None:
        fig.savefig(path, dpi=150)
    return fig
