"""Plots of a :class:`~ir_measures_pres.stats.comparison.Comparison` (matplotlib, the ``meta`` extra):
a forest plot of delta +- interval per pair, and a significance matrix of all pairs.

Both stay readable at any number of runs:

* the forest plot has one page per baseline (without a baseline, per first run of the pairs),
  a page holding at most :data:`ROWS_PER_PAGE` pairs, so 17 runs' 136 pairs are 16 pages of a
  few inches, not one strip of 7,000 pixels;
* the matrix lays its measures out in rows of at most three panels of fixed size, so panel
  titles cannot run into each other, with the run names once on the left;
* both have a legend of their colours and the description of the comparison as a caption above
  the panels, laid out by matplotlib's constrained layout (nothing drawn over a panel).

Green is better and red worse as each measure's direction says (``res.direction``): for a
lower-is-better measure a delta below 0 is green; a measure of neither direction is coloured by
its values (green = higher). Such panels say so in their title (:func:`_title`).
"""

from __future__ import annotations

import textwrap
from typing import Any, List, Optional

import numpy as np

from ..data.extras import require
from ..measures.direction import LOWER, NEITHER, orientation

#: pairs on one page of the forest plot
ROWS_PER_PAGE = 40
#: width of a matrix or forest panel, inches; panels per row of the matrix
PANEL_WIDTH, PANELS_PER_ROW = 3.4, 3

BETTER, WORSE, NEUTRAL = "tab:green", "tab:red", "0.45"


def plot_comparison(res: Any, kind: str, path: Optional[Any] = None, **kwargs: Any) -> List[Any]:
    """The pages of the figure of ``kind`` ("forest" or "matrix": one page); saved to ``path``
    when given: a PDF holds every page, a PNG or SVG path is page 1 and ``<stem>_2.<ext>``...
    the others. Returns the figures."""
    require("matplotlib")
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    if kind == "forest":
        pages = _forest(res, plt, **kwargs)
    elif kind == "matrix":
        pages = [_matrix(res, plt, **kwargs)]
    else:
        raise ValueError(f"unknown plot {kind!r}; use forest or matrix")
    if path is not None:
        save_pages(pages, path, dpi=kwargs.get("dpi", 150))
    return pages


def page_paths(path: Any, pages: int) -> List[Any]:
    """Where each page goes: ``path`` itself for page 1 (and for all of them in a PDF)."""
    from pathlib import Path

    p = Path(path)
    if p.suffix.lower() == ".pdf":
        return [p]
    return [p] + [p.with_name(f"{p.stem}_{i}{p.suffix}") for i in range(2, pages + 1)]


def save_pages(pages: List[Any], path: Any, dpi: int = 150) -> List[Any]:
    """Write the pages (:func:`page_paths`); returns the paths written."""
    paths = page_paths(path, len(pages))
    if len(paths) == 1 and len(pages) > 1:  # a PDF of several pages
        from matplotlib.backends.backend_pdf import PdfPages

        with PdfPages(paths[0]) as pdf:
            for fig in pages:
                pdf.savefig(fig)
        return paths
    for fig, p in zip(pages, paths):
        fig.savefig(p, dpi=dpi)
    return paths


def _caption(fig: Any, res: Any, width: float, page: str = "") -> None:
    """The comparison's description above the panels (and which page this is), wrapped to the
    figure's width."""
    text = textwrap.fill(res.description() + page, width=max(40, int(width * 15)))
    fig.suptitle(text, fontsize=7, ha="left", x=0.01)


def _title(res: Any, measure: str) -> str:
    """A panel's title: the measure, and its direction unless higher is better."""
    direction = res.direction(measure)
    if direction == LOWER:
        return f"{measure} (lower is better)"
    return f"{measure} (no direction: green = higher)" if direction == NEITHER else measure


def _legend(fig: Any, entries: List[Any], columns: int) -> None:
    fig.legend(handles=entries, loc="outside lower center", ncols=columns, fontsize=7, frameon=False)


def _forest(res: Any, plt: Any, **kwargs: Any) -> List[Any]:
    from matplotlib.lines import Line2D

    measures = res.measures
    df = res.pairs
    first = df[df["measure"] == measures[0]].reset_index(drop=True)
    # pages: the pairs of one baseline (run_a) together, at most ROWS_PER_PAGE a page
    groups: List[List[int]] = []
    for _, idx in first.groupby("run_a", sort=False).groups.items():
        rows = list(idx)
        groups.extend(rows[i : i + ROWS_PER_PAGE] for i in range(0, len(rows), ROWS_PER_PAGE))
    pages = []
    legend = [
        Line2D([], [], color=BETTER, marker="o", label="significantly better"),
        Line2D([], [], color=WORSE, marker="o", label="significantly worse"),
        Line2D([], [], color=NEUTRAL, marker="o", label="not significant"),
    ]
    width = PANEL_WIDTH * len(measures) + 1.6
    for number, rows in enumerate(groups, 1):
        height = 0.28 * len(rows) + 2.4
        fig, axes = plt.subplots(
            1, len(measures), figsize=(width, height), sharey=True, squeeze=False, layout="constrained"
        )
        for ax, m in zip(axes[0], measures):
            sub = df[df["measure"] == m].reset_index(drop=True).iloc[rows]
            y = np.arange(len(sub))[::-1]
            sign = orientation(res.direction(m))
            colors = [
                BETTER if r.reject and sign * r.delta > 0 else WORSE if r.reject else NEUTRAL
                for r in sub.itertuples()
            ]
            ax.hlines(y, sub["ci_low"], sub["ci_high"], colors=colors)
            ax.scatter(sub["delta"], y, c=colors, zorder=3, s=18)
            ax.axvline(0.0, color="0.6", lw=0.8, ls="--")
            ax.set_title(_title(res, m), fontsize=8)
            ax.set_xlabel("delta (run - baseline)" if res.baseline else "delta (b - a)", fontsize=7)
            ax.set_yticks(y)
            ax.set_yticklabels([f"{r.run_b} - {r.run_a}" for r in sub.itertuples()], fontsize=7)
            ax.tick_params(axis="x", labelsize=7)
        page = (
            f" Page {number} of {len(groups)}: the pairs of {first['run_a'][rows[0]]}."
            if len(groups) > 1
            else ""
        )
        _caption(fig, res, width, page)
        _legend(fig, legend, 3)
        pages.append(fig)
    return pages


def _matrix(res: Any, plt: Any, **kwargs: Any) -> Any:
    from matplotlib.patches import Patch

    runs = res.runs
    k = len(runs)
    measures = res.measures
    columns = min(PANELS_PER_ROW, len(measures))
    rows = -(-len(measures) // columns)
    side = max(PANEL_WIDTH, 0.22 * k + 1.0)
    label = max(len(f"{k} {r}") for r in runs) * 0.06  # room for the run names on the left
    fig, axes = plt.subplots(
        rows,
        columns,
        figsize=(side * columns + label, side * rows + 1.6),
        squeeze=False,
        sharey=True,
        layout="constrained",
    )
    index = {r: i for i, r in enumerate(runs)}
    cmap = plt.get_cmap("RdYlGn")
    for n, ax in enumerate(axes.flat):
        if n >= len(measures):
            ax.set_axis_off()
            continue
        m = measures[n]
        grid = np.full((k, k), np.nan)
        for r in res.pairs[res.pairs["measure"] == m].itertuples():
            i, j = index[r.run_a], index[r.run_b]
            s = float(np.sign(r.delta) * orientation(res.direction(m))) if r.reject else 0.0
            grid[j, i] = s  # row run_b better than column run_a: +1
            grid[i, j] = -s
        ax.imshow(grid, cmap=cmap, vmin=-1.5, vmax=1.5)
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels([str(i + 1) for i in range(k)], fontsize=7)
        ax.set_yticklabels([f"{i + 1} {r}" for i, r in enumerate(runs)], fontsize=7)
        ax.set_title(_title(res, m), fontsize=8)
    _caption(fig, res, side * columns + label)
    legend = [
        Patch(color=cmap(0.5 + 1 / 3), label="row significantly better than column"),
        Patch(color=cmap(0.5), label="no significant difference"),
        Patch(color=cmap(0.5 - 1 / 3), label="row significantly worse"),
        Patch(facecolor="white", edgecolor="0.6", label="not compared"),
    ]
    _legend(fig, legend, 2)
    return fig
