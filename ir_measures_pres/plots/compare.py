"""Plots of a :class:`~ir_measures_pres.stats.comparison.Comparison` (matplotlib, the ``meta`` extra):
a forest plot of delta +- interval against the baseline, a significance matrix of all pairs."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..data.extras import require


def plot_comparison(res: Any, kind: str, path: Optional[Any] = None, **kwargs: Any) -> Any:
    """The figure of ``kind`` ("forest" or "matrix"); saved to ``path`` when given."""
    require("matplotlib")
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    if kind == "forest":
        fig = _forest(res, plt, **kwargs)
    elif kind == "matrix":
        fig = _matrix(res, plt, **kwargs)
    else:
        raise ValueError(f"unknown plot {kind!r}; use forest or matrix")
    if path is not None:
        fig.savefig(path, bbox_inches="tight", dpi=kwargs.get("dpi", 150))
    return fig


def _forest(res: Any, plt: Any, **kwargs: Any) -> Any:
    measures = res.measures
    df = res.pairs
    rows = df[df["measure"] == measures[0]]
    h = max(2.5, 0.35 * len(rows) + 1.2)
    fig, axes = plt.subplots(1, len(measures), figsize=(4.2 * len(measures), h), sharey=True, squeeze=False)
    for ax, m in zip(axes[0], measures):
        sub = df[df["measure"] == m].reset_index(drop=True)
        y = np.arange(len(sub))[::-1]
        labels = [f"{r.run_b} - {r.run_a}" for r in sub.itertuples()]
        colors = [
            "tab:green" if r.reject and r.delta > 0 else "tab:red" if r.reject else "0.4"
            for r in sub.itertuples()
        ]
        ax.hlines(y, sub["ci_low"], sub["ci_high"], colors=colors)
        ax.scatter(sub["delta"], y, c=colors, zorder=3, s=18)
        ax.axvline(0.0, color="0.6", lw=0.8, ls="--")
        ax.set_title(m)
        ax.set_xlabel("delta (run - baseline)" if res.baseline else "delta (b - a)")
        ax.set_yticks(y)
        ax.set_yticklabels(labels, fontsize=7)
    fig.suptitle(res.description(), fontsize=7, wrap=True)
    fig.tight_layout()
    return fig


def _matrix(res: Any, plt: Any, **kwargs: Any) -> Any:
    runs = res.runs
    k = len(runs)
    measures = res.measures
    fig, axes = plt.subplots(
        1, len(measures), figsize=(0.35 * k * len(measures) + 2.5, 0.35 * k + 2), squeeze=False
    )
    index = {r: i for i, r in enumerate(runs)}
    for ax, m in zip(axes[0], measures):
        grid = np.full((k, k), np.nan)
        for r in res.pairs[res.pairs["measure"] == m].itertuples():
            i, j = index[r.run_a], index[r.run_b]
            s = float(np.sign(r.delta)) if r.reject else 0.0
            grid[j, i] = s  # row run_b better than column run_a: +1
            grid[i, j] = -s
        ax.imshow(grid, cmap="RdYlGn", vmin=-1.5, vmax=1.5)
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels([str(i + 1) for i in range(k)], fontsize=7)
        ax.set_yticklabels([f"{i + 1} {r}" for i, r in enumerate(runs)], fontsize=7)
        ax.set_title(f"{m}: row vs column (green: row better)", fontsize=8)
    fig.suptitle(res.description(), fontsize=7, wrap=True)
    fig.tight_layout()
    return fig
