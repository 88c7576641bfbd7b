"""Plots of the meta-evaluation (matplotlib, object API: no pyplot state, no backend switch).

Each function returns the matplotlib ``Figure`` and, given a path, saves it (PNG or SVG by the
file's suffix).
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from ..data.extras import require


def _figure(width: float, height: float) -> Any:
    require("matplotlib")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: Any, path: Optional[str]) -> Any:
    if path is not None:
        fig.savefig(path, dpi=200)
    return fig


_MARKERS = "osD^vP*Xh<>p"
_LINESTYLES = ("-", "--", "-.", ":")


def line_style(k: int) -> Any:
    """Colour, marker and line style of the k-th curve: 10 colours x 12 markers x 4 line styles,
    so that 20 curves differ in more than colour (and print in grey)."""
    return f"C{k % 10}", _MARKERS[k % len(_MARKERS)], _LINESTYLES[(k // 10) % len(_LINESTYLES)]


def plot_robustness(
    result: Any,
    path: Optional[str] = None,
    statistic: str = "min_tau",
    by_cutoff: bool = True,
    title: Optional[str] = None,
    errorbars: bool = True,
) -> Any:
    """Lowest (or mean: ``statistic="mean_tau"``) Kendall's tau against the fraction of the
    qrels, one line per measure, with Voorhees' 0.9 (equivalent) and 0.8 (noticeably different)
    lines labelled: Magdy & Jones' Figures 3-4. The full qrels (f = 100 %, tau = 1) is the last
    point of every curve. ``by_cutoff`` puts each cutoff in its own panel, stacked, so the figure
    fits one column (3.4 in = 8.6 cm wide, each panel 3.4 x 2.3 in); curves differ in colour,
    marker and line style (:func:`line_style`). Error bars show the spread over the samples of
    each fraction (spec 3.4): min to max around the lowest tau, +- sd around the mean."""
    summary = result.summary
    if by_cutoff:
        cutoffs: List[Any] = sorted({c for c in summary["cutoff"].dropna().tolist()})
        if summary["cutoff"].isna().any():
            cutoffs.append(None)
    else:
        cutoffs = ["all"]
    style_col = "base" if by_cutoff else "measure"
    names = list(dict.fromkeys(summary[style_col].tolist()))
    legend_rows = (len(names) + 2) // 3
    fig = _figure(3.4, 2.3 * len(cutoffs) + 0.16 * legend_rows + 0.3)
    axes = fig.subplots(len(cutoffs), 1, sharex=True, squeeze=False)[:, 0]
    low = float(np.nanmin(summary[statistic].to_numpy())) if len(summary) else 0.8
    styles = {n: line_style(k) for k, n in enumerate(names)}
    handles: dict = {}
    for ax, cutoff in zip(axes, cutoffs):
        if cutoff == "all":
            part, label_col = summary, "measure"
            panel = title or ""
        elif cutoff is None:
            part, label_col = summary[summary["cutoff"].isna()], "base"
            panel = "no cutoff"
        else:
            part, label_col = summary[summary["cutoff"] == cutoff], "base"
            panel = f"cut-off {cutoff}"
        if panel:
            ax.set_title(panel, fontsize="small")
        for name, rows in part.groupby(label_col, sort=False):
            rows = rows.sort_values("fraction")
            x = np.append(rows["fraction"].to_numpy() * 100, 100.0)
            y = np.append(rows[statistic].to_numpy(), 1.0)
            color, marker, ls = styles[name]
            if errorbars and statistic == "min_tau" and "max_tau" in rows:
                err = np.vstack([np.zeros(len(y)), np.append(rows["max_tau"].to_numpy(), 1.0) - y])
            elif errorbars and statistic == "mean_tau" and "sd_tau" in rows:
                sd = np.append(np.nan_to_num(rows["sd_tau"].to_numpy()), 0.0)
                err = np.vstack([sd, sd])
            else:
                err = None
            h = ax.errorbar(
                x,
                y,
                yerr=err,
                color=color,
                marker=marker,
                linestyle=ls,
                markersize=3.5,
                linewidth=1.0,
                elinewidth=0.6,
                capsize=1.5,
                label=str(name),
            )
            handles.setdefault(str(name), h)
        for level, text in ((0.9, "0.9: equivalent"), (0.8, "0.8: noticeably different")):
            ax.axhline(level, color="grey", linestyle="--" if level == 0.9 else ":", linewidth=0.8)
            ax.annotate(
                text,
                (0.01, level),
                xycoords=("axes fraction", "data"),
                ha="left",
                va="bottom",
                fontsize="x-small",
                color="dimgrey",
            )
        ax.set_ylim(min(0.75, low - 0.05), 1.01)
        ax.set_xlim(0, 102)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize="small")
        ax.set_ylabel(
            {"min_tau": "lowest Kendall's τ", "mean_tau": "mean Kendall's τ"}.get(statistic, statistic),
            fontsize="small",
        )
    axes[-1].set_xlabel("% of relevant documents kept", fontsize="small")
    fig.legend(
        list(handles.values()),
        list(handles.keys()),
        loc="outside lower center",
        ncol=3,
        fontsize="x-small",
        frameon=False,
    )
    if title and by_cutoff:
        fig.suptitle(title, fontsize="small")
    return _save(fig, path)


def plot_tau_matrix(result: Any, path: Optional[str] = None, title: Optional[str] = None) -> Any:
    """Kendall's tau between the system rankings of each pair of measures, as a heat map."""
    names = result.measures
    n = len(names)
    mat = np.eye(n)
    index = {m: i for i, m in enumerate(names)}
    for row in result.tau.itertuples():
        i, j = index[row.measure_a], index[row.measure_b]
        mat[i, j] = mat[j, i] = row.tau
    fig = _figure(1.0 + 0.7 * n, 0.6 + 0.6 * n)
    ax = fig.subplots()
    im = ax.imshow(mat, vmin=min(0.0, float(np.nanmin(mat))), vmax=1.0, cmap="viridis")
    ax.set_xticks(range(n), names, rotation=45, ha="right", fontsize="small")
    ax.set_yticks(range(n), names, fontsize="small")
    for i in range(n):
        for j in range(n):
            ax.text(
                j,
                i,
                f"{mat[i, j]:.2f}",
                ha="center",
                va="center",
                fontsize="x-small",
                color="white" if mat[i, j] < 0.6 else "black",
            )
    fig.colorbar(im, ax=ax, shrink=0.8, label="Kendall's τ")
    if title:
        ax.set_title(title)
    return _save(fig, path)


def plot_asl(result: Any, path: Optional[str] = None, title: Optional[str] = None) -> Any:
    """Sakai's ASL curves: each measure's ASLs sorted ascending against the run pairs, with the
    alpha line; a curve that stays low longer discriminates more pairs."""
    pairs = result.pairs
    fig = _figure(3.4, 2.6)
    ax = fig.subplots()
    for k, (name, rows) in enumerate(pairs.groupby("measure", sort=False)):
        asl = np.sort(rows["asl"].to_numpy())
        color, marker, ls = line_style(k)
        ax.plot(
            np.arange(1, len(asl) + 1),
            asl,
            label=str(name),
            linewidth=1.0,
            color=color,
            linestyle=ls,
            marker=marker,
            markersize=3,
            markevery=max(1, len(asl) // 8),
        )
    ax.axhline(result.alpha, color="grey", linestyle="--", linewidth=0.8)
    ax.annotate(
        f"α = {result.alpha:g}",
        (1.0, result.alpha),
        xycoords=("axes fraction", "data"),
        ha="right",
        va="bottom",
        fontsize="x-small",
        color="dimgrey",
    )
    ax.set_xlabel("run pairs sorted by ASL")
    ax.set_ylabel("achieved significance level")
    ax.set_ylim(0, min(1.0, max(0.2, 4 * result.alpha)))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", loc="upper left", ncol=2 if pairs["measure"].nunique() > 6 else 1)
    if title:
        ax.set_title(title)
    return _save(fig, path)


def plot_stability(result: Any, path: Optional[str] = None, title: Optional[str] = None) -> Any:
    """Buckley-Voorhees error rate against the proportion of ties, one curve per measure over the
    fuzziness values; the chosen fuzziness is marked. Lower and further left is better."""
    table = result.error_ties
    fig = _figure(3.4, 2.6)
    ax = fig.subplots()
    for k, (name, rows) in enumerate(table.groupby("measure", sort=False)):
        rows = rows.sort_values("fuzziness")
        color, marker, ls = line_style(k)
        (line,) = ax.plot(
            rows["tie_rate"],
            rows["error_rate"],
            color=color,
            linestyle=ls,
            marker=marker,
            markersize=3,
            linewidth=1.0,
            label=str(name),
        )
        chosen = rows[np.isclose(rows["fuzziness"], result.fuzziness)]
        ax.plot(
            chosen["tie_rate"],
            chosen["error_rate"],
            marker="o",
            markersize=8,
            fillstyle="none",
            color=line.get_color(),
            linestyle="none",
        )
    ax.set_xlabel("proportion of ties")
    ax.set_ylabel("error rate")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    if title:
        ax.set_title(title)
    return _save(fig, path)


def plot_swap_rates(result: Any, path: Optional[str] = None, title: Optional[str] = None) -> Any:
    """Swap rate against |d1| (the bins of the swap method), one curve per measure: the mean
    over the repetitions of each bin's swap rate, with ± sd error bars when there are several
    (spec 3.4); the maximum swap rate as a labelled line. The difference required is where a
    curve last rises above it."""
    bins = result.bins
    fig = _figure(3.4, 2.6)
    ax = fig.subplots()
    for k, name in enumerate(result.measures):
        g = bins[bins["measure"] == name].groupby("bin_lo")["swap_rate"]
        mean, sd = g.mean(), g.std(ddof=1).fillna(0.0)
        color, marker, ls = line_style(k)
        ax.errorbar(
            mean.index.to_numpy(),
            mean.to_numpy(),
            yerr=sd.to_numpy() if bins["repeat"].nunique() > 1 else None,
            color=color,
            marker=marker,
            linestyle=ls,
            markersize=3,
            linewidth=1.0,
            elinewidth=0.6,
            capsize=1.5,
            label=str(name),
        )
    ax.axhline(result.max_swap_rate, color="grey", linestyle="--", linewidth=0.8)
    ax.annotate(
        f"{100 * result.max_swap_rate:g}% swaps",
        (1.0, result.max_swap_rate),
        xycoords=("axes fraction", "data"),
        ha="right",
        va="bottom",
        fontsize="x-small",
        color="grey",
    )
    ax.set_xlabel("|difference| on the first sample")
    ax.set_ylabel("swap rate")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", ncol=2 if len(result.measures) > 6 else 1)
    if title:
        ax.set_title(title)
    return _save(fig, path)
