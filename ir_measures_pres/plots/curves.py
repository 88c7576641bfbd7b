"""Plots of the textbook's figures (:class:`~ir_measures_pres.stats.curves.Curves`; matplotlib, the
``meta`` extra): every run's curve on one axes, or the precision histogram of two runs.

* curves: recall on x for ``pr11`` (the 11 levels as ticks), rank for the gain curves; one line
  with markers per run (markers and line styles cycle, so the runs stay apart in print), the
  legend outside the axes below them, in columns;
* histogram: one bar per query, sorted by difference, a zero line, the x axis labelled with the
  query ids (rotated, thinned out when there are many) and the y axis naming the measure and the
  two runs; green where run A is better, red where it is worse, as the measure's direction says
  (:func:`~ir_measures_pres.measures.direction.direction_of_name`: below 0 for a lower-is-better
  measure; a measure of neither direction is coloured by its values, green = A higher).

The figure is saved to ``path`` by its suffix (png, svg, pdf).
"""

from __future__ import annotations

import itertools
import textwrap
from typing import Any, Optional

import numpy as np

from ..data.extras import require
from ..measures.direction import LOWER, NEITHER, direction_of_name, orientation

#: figure width, inches (fits a column and a half of a paper; text stays 7-9 pt)
WIDTH = 6.0
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
STYLES = ("-", "--", "-.", ":")
#: query labels shown at most on a histogram's x axis
MAX_QUERY_LABELS = 60


def plot_curves(res: Any, path: Optional[Any] = None, **kwargs: Any) -> Any:
    """The figure of ``res`` (a :class:`~ir_measures_pres.stats.curves.Curves`); written to
    ``path`` (png, svg or pdf by suffix) when given. Returns the figure."""
    require("matplotlib")
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig = _histogram(res, plt) if res.kind == "histogram" else _curves(res, plt)
    if path is not None:
        fig.savefig(path, dpi=kwargs.get("dpi", 150))
    return fig


def _title(fig: Any, text: str) -> None:
    fig.suptitle(textwrap.fill(text, 90), fontsize=8)


def _curves(res: Any, plt: Any) -> Any:
    frame = res.frame
    runs = list(res.runs)
    columns = max(1, min(3, len(runs)))
    rows_of_legend = -(-len(runs) // columns)
    fig, ax = plt.subplots(figsize=(WIDTH, 3.6 + 0.18 * rows_of_legend), layout="constrained")
    styles = itertools.cycle(itertools.product(STYLES, MARKERS))
    for run in runs:
        line = frame[frame["run"] == run]
        style, marker = next(styles)
        ax.plot(
            line["x"].to_numpy(dtype=float),
            line["value"].to_numpy(dtype=float),
            linestyle=style,
            marker=marker,
            markersize=3.5,
            linewidth=1.2,
            label=run,
        )
    ax.set_xlabel(res.x_label, fontsize=9)
    ax.set_ylabel(res.y_label, fontsize=9)
    if res.kind == "pr11":
        ax.set_xticks(np.linspace(0.0, 1.0, 11))
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(0.0, 1.02)
    else:
        xs = frame["x"].to_numpy()
        ax.set_xlim(0.5, float(xs.max()) + 0.5 if len(xs) else 1.5)
        if len(xs) and xs.max() <= 20:
            ax.set_xticks(np.arange(1, int(xs.max()) + 1))
        ax.set_ylim(bottom=0.0)
    ax.tick_params(labelsize=8)
    ax.grid(True, linewidth=0.4, alpha=0.5)
    fig.legend(loc="outside lower center", ncols=columns, fontsize=7, frameon=False)
    _title(fig, res.title())
    return fig


def _histogram(res: Any, plt: Any) -> Any:
    frame = res.frame.sort_values("difference", ascending=False, kind="stable")
    undefined = int(frame["difference"].isna().sum())  # the measure is undefined there: no bar
    frame = frame[frame["difference"].notna()]
    queries = [str(q) for q in frame["query"].tolist()]
    diff = frame["difference"].to_numpy(dtype=float)
    n = len(queries)
    width = min(12.0, max(WIDTH, 0.12 * n + 2.0))
    fig, ax = plt.subplots(figsize=(width, 3.8), layout="constrained")
    x = np.arange(n)
    direction = direction_of_name(str(res.measure))
    better = diff * orientation(direction)  # > 0: run A is the better one (higher for neither)
    colours = np.where(better > 0, "tab:green", np.where(better < 0, "tab:red", "0.5"))
    ax.bar(x, diff, color=colours, width=0.8)
    ax.axhline(0.0, color="black", linewidth=0.8)
    finite = diff[np.isfinite(diff)]
    low = min(0.0, float(finite.min())) if len(finite) else 0.0
    high = max(0.0, float(finite.max())) if len(finite) else 0.0
    pad = 0.08 * (high - low) or 0.05
    ax.set_ylim(low - pad, high + pad)  # the zero line always inside, never on the frame
    a, b = res.runs
    ax.set_ylabel(f"{res.measure}: {a} - {b}", fontsize=8)
    ax.set_xlabel("query (sorted by difference)", fontsize=9)
    step = max(1, -(-n // MAX_QUERY_LABELS))
    ax.set_xticks(x[::step])
    ax.set_xticklabels(queries[::step], rotation=90 if n > 10 else 0, fontsize=7)
    ax.set_xlim(-0.7, n - 0.3)
    ax.tick_params(axis="y", labelsize=8)
    ax.grid(True, axis="y", linewidth=0.4, alpha=0.5)
    left_out = f" ({undefined} queries where the measure is undefined left out)" if undefined else ""
    reading = {LOWER: f"below 0, {a} is better", NEITHER: f"above 0, {a} is higher"}
    _title(fig, f"{res.title()}: {reading.get(direction, f'above 0, {a} is better')}{left_out}")
    return fig
