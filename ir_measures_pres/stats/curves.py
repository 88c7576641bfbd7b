"""The figures of *Modern Information Retrieval*'s retrieval-evaluation chapter as tables: the
11-point interpolated precision-recall curve, Järvelin & Kekäläinen's averaged CG, DCG, NCG and
NDCG curves, and the precision histogram of two runs (docs/textbook.md).

Every run is ranked once by the engine (:class:`~ir_measures_pres.engine.scores.Core`, the package's
one rule) and every number comes from a measure's kernel, never from a loop of its own:

* ``pr11``: ``IPrec@0.0`` ... ``IPrec@1.0``, trec_eval's ``iprec_at_recall`` (the maximum
  precision at any recall >= the level) through ir_measures' backend (pytrec_eval), averaged over
  the qrels topics (a topic the run lacks counts 0);
* ``cg``, ``dcg``: ``CG@i`` / ``DCG(logb=b)@i`` for i = 1 .. depth, the measures' own kernel
  (:func:`~ir_measures_pres.measures.textbook.measures.discounted_gain`, accumulated over the ranks once
  by :func:`~ir_measures_pres.measures.textbook.measures.run_gain_curve`), averaged over the qrels topics;
* ``ncg``, ``ndcg``: those averaged curves divided by the averaged ideal curves
  (:func:`~ir_measures_pres.measures.textbook.measures.ideal_curve`, the same kernel on each topic's
  relevant documents by gain descending): CG̅[i] / ICG̅[i], the chapter's definition, not a mean
  of per-topic ratios;
* ``histogram``: per topic, MEASURE(run A) - MEASURE(run B), any measure of the catalogue (the
  chapter's example is R-precision).

R. Baeza-Yates and B. Ribeiro-Neto. Modern Information Retrieval, 1999 (ch. 3); 2nd ed. 2011 (ch. 4).
K. Järvelin and J. Kekäläinen. Cumulated gain-based evaluation of IR techniques. ACM TOIS 20(4), 2002.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Union

import numpy as np

PathLike = Union[str, "Path"]

#: the kinds of figure
KINDS = ("pr11", "cg", "dcg", "ncg", "ndcg", "histogram")
#: the 11 standard recall levels
RECALL_LEVELS = tuple(round(i / 10, 1) for i in range(11))
#: columns of the CSV, per kind of figure
CURVE_COLUMNS = ("kind", "run", "x", "value")
HISTOGRAM_COLUMNS = ("kind", "query", "run_a", "run_b", "value_a", "value_b", "difference")
#: what each curve's axes show
X_LABELS = {"pr11": "recall", "cg": "rank", "dcg": "rank", "ncg": "rank", "ndcg": "rank"}
Y_LABELS = {
    "pr11": "interpolated precision",
    "cg": "cumulated gain (CG)",
    "dcg": "discounted cumulated gain (DCG)",
    "ncg": "normalised CG (CG / ICG)",
    "ndcg": "normalised DCG (DCG / IDCG)",
}


@dataclass
class Curves:
    """The outcome of :func:`curves`: ``frame`` (a pandas DataFrame with :data:`CURVE_COLUMNS`,
    or :data:`HISTOGRAM_COLUMNS` for a histogram), ``kind``, the runs, and the histogram's
    ``measure`` (None for a curve); ``depth`` and ``logb`` of the gain curves."""

    kind: str
    frame: Any
    runs: List[str]
    measure: Optional[str] = None
    depth: int = 10
    logb: float = 2.0

    @property
    def columns(self) -> List[str]:
        return list(HISTOGRAM_COLUMNS if self.kind == "histogram" else CURVE_COLUMNS)

    def wide(self) -> Any:
        """A curve as one row per x and one column per run (the printed tables); a histogram as
        its frame."""
        if self.kind == "histogram":
            return self.frame
        table = self.frame.pivot(index="x", columns="run", values="value")
        return table[self.runs]

    def to_csv(self, path: Optional[PathLike] = None) -> str:
        """The long table as CSV (exactly :attr:`columns`); written to ``path`` when given."""
        text: str = self.frame.to_csv(index=False, float_format=_full)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_text(self, places: int = 4) -> str:
        return _grid(self._rows(places), "text")

    def to_markdown(self, places: int = 4) -> str:
        return _grid(self._rows(places), "md")

    def to_latex(self, places: int = 4) -> str:
        return _grid(self._rows(places), "latex")

    def _rows(self, places: int) -> List[List[str]]:
        def num(v: float) -> str:
            return "nan" if v != v else f"{v:.{places}f}"

        if self.kind == "histogram":
            header = ["query", self.runs[0], self.runs[1], "difference"]
            return [header] + [
                [str(q), num(a), num(b), num(d)]
                for q, a, b, d in zip(
                    self.frame["query"],
                    self.frame["value_a"],
                    self.frame["value_b"],
                    self.frame["difference"],
                )
            ]
        wide = self.wide()
        x_name = X_LABELS[self.kind]
        rows = [[x_name, *self.runs]]
        for x, line in zip(wide.index.tolist(), wide.to_numpy().tolist()):
            shown = f"{x:.1f}" if self.kind == "pr11" else str(int(x))
            rows.append([shown, *(num(v) for v in line)])
        return rows

    @property
    def x_label(self) -> str:
        return "query" if self.kind == "histogram" else X_LABELS[self.kind]

    @property
    def y_label(self) -> str:
        if self.kind == "histogram":
            return f"{self.measure}: {self.runs[0]} - {self.runs[1]}"
        return Y_LABELS[self.kind]

    def title(self) -> str:
        """What the figure shows, in words (the plot's title, the tables' caption)."""
        if self.kind == "histogram":
            return f"{self.measure}: {self.runs[0]} - {self.runs[1]} per query"
        if self.kind == "pr11":
            return "11-point interpolated precision-recall curve (mean over the qrels queries)"
        gain = "discounted " if "dcg" in self.kind else ""
        base = f", log base {self.logb:g}" if "dcg" in self.kind else ""
        norm = "normalised " if self.kind.startswith("n") else ""
        return f"{norm}{gain}cumulated gain by rank, averaged over the qrels queries{base}".capitalize()

    def plot(self, path: Optional[PathLike] = None, **kwargs: Any) -> Any:
        """The figure (matplotlib, the ``meta`` extra): every run's curve on one axes, or the
        histogram's bars per query sorted by difference; saved to ``path`` (png, svg or pdf by
        its suffix) when given (:func:`~ir_measures_pres.plots.curves.plot_curves`)."""
        from ..plots.curves import plot_curves

        return plot_curves(self, path, **kwargs)


def _full(value: float) -> str:
    return repr(float(value))


def _grid(rows: List[List[str]], fmt: str) -> str:
    if fmt == "md":
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "|".join("---:" for _ in rows[0]) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        esc = [[c.replace("_", "\\_").replace("%", "\\%").replace("&", "\\&") for c in r] for r in rows]
        lines = ["\\begin{tabular}{l" + "r" * (len(rows[0]) - 1) + "}", "\\toprule"]
        lines.append(" & ".join(esc[0]) + " \\\\")
        lines.append("\\midrule")
        lines += [" & ".join(r) + " \\\\" for r in esc[1:]]
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return (
        "\n".join(
            "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
            for r in rows
        )
        + "\n"
    )


def curve_measures(kind: str, depth: int = 10, logb: float = 2.0) -> List[Any]:
    """The measures whose means make the curve of ``kind``."""
    import ir_measures

    from ..measures.textbook.measures import CG, DCG

    if kind == "pr11":
        return [ir_measures.IPrec @ level for level in RECALL_LEVELS]
    if kind in ("cg", "ncg"):
        return [CG @ i for i in range(1, depth + 1)]
    if kind in ("dcg", "ndcg"):
        return [DCG(logb=float(logb)) @ i for i in range(1, depth + 1)]
    raise ValueError(f"unknown kind of curve {kind!r}; use one of {', '.join(KINDS)}")


def curves(
    qrels: Any,
    runs: Any,
    kind: str = "pr11",
    depth: int = 10,
    logb: float = 2.0,
    measure: Any = None,
    progress: Optional[bool] = None,
) -> Curves:
    """The chapter's figure ``kind`` (:data:`KINDS`) for ``runs`` (paths, a folder, or what
    :func:`~ir_measures_pres.engine.scores.resolve_runs` takes) against ``qrels`` (a path or a
    qrels object). ``depth``: the last rank of the gain curves; ``logb``: the DCG's log base;
    ``measure``: the histogram's measure (exactly two runs: A then B). Needs pandas (the
    ``meta`` extra): the curves are a DataFrame."""
    from ..data.extras import require

    require("pandas")
    import pandas as pd

    from ..engine.scores import Core

    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; use one of {', '.join(KINDS)}")
    if not (isinstance(depth, int) and depth >= 1):
        raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
    if not (isinstance(logb, (int, float)) and math.isfinite(logb) and logb > 1):
        raise ValueError(f"logb must be a number greater than 1, got {logb!r}")
    if kind == "histogram":
        if measure is None:
            raise ValueError("a histogram needs a measure (e.g. measure='Rprec')")
        core = Core(qrels, runs, measure, progress=progress, min_runs=2, allow_undefined=True)
        if len(core.run_names) != 2:
            raise ValueError(f"a histogram compares two runs (A - B), got {len(core.run_names)}")
        if len(core.measures) != 1:
            raise ValueError(f"a histogram shows one measure, got {len(core.measures)}")
        values = core.evaluate()[0]
        a, b = core.run_names
        frame = pd.DataFrame(
            {
                "kind": "histogram",
                "query": core.query_ids,
                "run_a": a,
                "run_b": b,
                "value_a": values[0],
                "value_b": values[1],
                "difference": values[0] - values[1],
            },
            columns=list(HISTOGRAM_COLUMNS),
        )
        return Curves(kind, frame, [a, b], core.measure_labels[0])
    if measure is not None:
        raise ValueError(f"a measure is for --kind histogram; a {kind} curve has its own")
    if kind == "pr11":
        core = Core(qrels, runs, curve_measures(kind), progress=progress, min_runs=1)
        means = core.evaluate().mean(axis=2)  # (levels, runs): over every qrels topic
    else:
        from ..measures.textbook.measures import ideal_curve, run_gain_curve

        base = None if kind in ("cg", "ncg") else float(logb)
        # the engine ranks the runs (checking the measure of the deepest point); the curve is the
        # CG@i / DCG@i kernel accumulated once per run instead of depth measures scored apart
        deepest = curve_measures(kind, 1, logb)[0](cutoff=depth)
        core = Core(qrels, runs, [deepest], progress=progress, min_runs=1)
        means = np.stack([run_gain_curve(r, depth, base).mean(axis=0) for r in core.ranked], axis=1)
    if kind in ("ncg", "ndcg"):
        ideal = ideal_curve(core.qrels, depth, None if kind == "ncg" else float(logb)).mean(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            means = np.where(ideal[:, None] > 0, means / ideal[:, None], np.nan)
    xs: List[float] = list(RECALL_LEVELS) if kind == "pr11" else list(range(1, depth + 1))
    runs_ = core.run_names
    frame = pd.DataFrame(
        {
            "kind": kind,
            "run": np.repeat(np.array(runs_, dtype=object), len(xs)),
            "x": np.tile(np.array(xs), len(runs_)),
            "value": means.T.reshape(-1),
        },
        columns=list(CURVE_COLUMNS),
    )
    if kind != "pr11":
        frame["x"] = frame["x"].astype(int)
    return Curves(kind, frame, list(runs_), None, depth, float(logb))
