"""A comparison's result, :class:`Comparison`, and the tables it prints: plain text, Markdown,
LaTeX (booktabs, with its caption and escaping), CSV and JSON.

:class:`Comparison` holds what :func:`~ir_measures_pres.stats.comparison.compare` found (means,
the long table of the pairs, intervals, notes, parameters) and says how the runs were tested
(:meth:`Comparison.description`); each of its table methods is the function of the same name
here (``res.to_latex()`` is ``to_latex(res)``). A table of means marks the best mean of each measure
(LaTeX: every tied best in bold, the second underlined) and the significant pairs: with a
baseline, better/worse than it; without, the runs (by number) a run is significantly better than.
Best and better follow the measure's direction (:meth:`.Comparison.direction`): the smallest mean
is best for a lower-is-better measure, and a measure of neither direction has no best and its
marks say higher; the legend and the caption name the measures that are not higher-is-better.
CSV and JSON hold the long table of the pairs, exactly :data:`COLUMNS`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

import numpy as np

from ..measures.direction import LOWER, NEITHER, orientation
from .significance import tidy

if TYPE_CHECKING:
    import os

TEST_NAMES = {
    "t": "paired two-sided t-test",
    "wilcoxon": "two-sided Wilcoxon signed-rank test",
    "perm": "two-sided sign-flip randomisation test",
    "tukey": "Tukey's HSD on the two-way ANOVA without replication (topics as blocks)",
    "rtukey": "randomised Tukey HSD (runs permuted within topics)",
}
CORRECTION_NAMES = {
    "none": "no correction",
    "holm": "Holm correction",
    "bonferroni": "Bonferroni correction",
    "fdr_bh": "Benjamini-Hochberg correction",
    "fdr_by": "Benjamini-Yekutieli correction",
    "sidak": "Sidak correction",
    "holm-sidak": "Holm-Sidak correction",
}
SIMULTANEOUS = ("tukey", "rtukey")

PathLike = Union[str, "os.PathLike[str]"]

#: the long table's columns, in this order (CSV and JSON)
COLUMNS = (
    "measure",
    "run_a",
    "run_b",
    "n",
    "mean_a",
    "mean_b",
    "delta",
    "delta_pct",
    "ci_low",
    "ci_high",
    "effect",
    "statistic",
    "df",
    "p",
    "p_adj",
    "reject",
    "wins",
    "ties",
    "losses",
)


# --------------------------------------------------------------------------------------------
# result
# --------------------------------------------------------------------------------------------


@dataclass
class Comparison:
    """The outcome of :func:`compare`.

    * ``means``: ``{measure: {run: mean over the topics}}``;
    * ``pairs``: the long table (a pandas DataFrame with :data:`COLUMNS`), one row per pair and
      measure;
    * ``runs``, ``measures``, ``baseline`` (list of run names or None), ``query_ids`` (the topics
      tested), ``missing`` (``{run: [qrels topics the run lacks]}``), ``params``, ``notes``
      (what the reader must know: B raised, topics dropped ...), ``anova`` (Tukey tests:
      ``{measure: {"V_E", "F", "df_runs", "df_error", "p"}}``), ``metadata`` (versions, hashes);
    * ``intervals``: ``{measure: {run: (low, high)}}``, each run's interval of its mean at ``ci``
      (method ``params["run_ci"]``, :func:`~.significance.mean_interval`), in the JSON always,
      in the tables' per-run rows when ``run_ci`` was asked for (``params["run_ci_shown"]``);
    * ``directions``: ``{measure: "higher" | "lower" | "neither"}``, which way it orders runs
      (:func:`~ir_measures_pres.measures.direction.direction_of`; neither when not given).
    """

    runs: List[str]
    measures: List[str]
    query_ids: List[str]
    means: Dict[str, Dict[str, float]]
    pairs: Any
    baseline: Optional[List[str]]
    missing: Dict[str, List[str]]
    params: Dict[str, Any]
    notes: List[str] = field(default_factory=list)
    anova: Dict[str, Dict[str, float]] = field(default_factory=dict)
    metadata: Dict[str, Any] = field(default_factory=dict)
    intervals: Dict[str, Dict[str, Tuple[float, float]]] = field(default_factory=dict)
    directions: Dict[str, str] = field(default_factory=dict)

    def direction(self, measure: str) -> str:
        """Which way ``measure`` orders the runs: ``"higher"``, ``"lower"`` or ``"neither"``."""
        return self.directions.get(measure, NEITHER)

    # -- descriptions ------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.query_ids)

    def family_size(self) -> int:
        return len(self.pairs) // max(1, len(self.measures))

    def description(self) -> str:
        """One sentence saying how the runs were tested (the LaTeX caption's second part)."""
        p = self.params
        test = p["test"]
        parts = [TEST_NAMES[test]]
        m = self.family_size()
        if test in SIMULTANEOUS:
            parts.append(f"simultaneous over all {len(self.runs) * (len(self.runs) - 1) // 2} pairs")
        else:
            corr = p["correction"]
            name = CORRECTION_NAMES.get(corr, f"{corr} correction")
            what = f"the {m} pairs" if m != 1 else "the one pair"
            parts.append(f"{name} over {what} of each measure" if corr != "none" else name)
        parts.append(f"alpha = {p['alpha']:g}")
        if test in ("perm", "rtukey"):
            parts.append(f"B = {p['B']:,}" + (" (exact enumeration)" if p.get("exact") else ""))
            parts.append(f"seed {p['seed']}")
        parts.append(
            f"{100 * p['ci']:g}% intervals" + (" (simultaneous)" if p.get("simultaneous_ci") else "")
        )
        topics = (
            f"{self.n} qrels topics (a run missing a topic scores as an empty ranking there)"
            if p["topics"] == "qrels"
            else f"the {self.n} topics every run retrieved for (trec_eval without -c)"
        )
        return "; ".join(parts) + f"; means over {topics}."

    # -- tables (made by the functions below) --------------------------------------------------

    def to_text(self, places: int = 4) -> str:
        """A plain-text table of means (best marked ``*``) with significance marks, the notes and
        the tested pairs."""
        return to_text(self, places)

    def to_markdown(self, places: int = 4) -> str:
        """A Markdown table of means (best in bold) with significance marks and a legend."""
        return to_markdown(self, places)

    def caption(self) -> str:
        """The LaTeX caption: what is shown and how it was tested."""
        return caption(self)

    def to_latex(self, places: int = 4, label: str = "tab:comparison") -> str:
        """A booktabs table (no vertical rules): every tied best in bold, the second underlined,
        significance marks, and a caption saying how the runs were tested."""
        return to_latex(self, places, label)

    def to_csv(self, path: Optional[PathLike] = None) -> str:
        """The long table (exactly :data:`COLUMNS`) as CSV; written to ``path`` when given."""
        return to_csv(self, path)

    def to_json(self, path: Optional[PathLike] = None) -> str:
        """``{"metadata": {...}, "pairs": [rows with exactly COLUMNS]}``; written to ``path``."""
        return to_json(self, path)

    def plot(self, kind: str = "auto", path: Optional[PathLike] = None, **kwargs: Any) -> Any:
        """A forest plot of delta +- interval (``"forest"``; the default with a baseline) or a
        significance matrix of all pairs (``"matrix"``; the default without). Needs matplotlib
        (the ``meta`` extra). Returns the figure (the first page of a forest plot of many pairs:
        :meth:`plot_pages` has them all); saved to ``path`` when given, every page
        (:func:`~ir_measures_pres.plots.compare.plot_comparison`)."""
        return self.plot_pages(kind, path, **kwargs)[0]

    def plot_pages(self, kind: str = "auto", path: Optional[PathLike] = None, **kwargs: Any) -> List[Any]:
        """Every page of :meth:`plot` (a forest plot has one per baseline, at most 40 pairs each)."""
        from ..plots.compare import plot_comparison

        if kind == "auto":
            kind = "forest" if self.baseline else "matrix"
        return plot_comparison(self, kind, path, **kwargs)

    def save(
        self, directory: PathLike, places: int = 4, plot: Optional[str] = None, prefix: str = "comparison"
    ) -> List[Path]:
        """Write every format into ``directory`` (text, md, tex, csv, json, and the plot)."""
        return save(self, directory, places, plot, prefix)

    def __str__(self) -> str:
        return self.to_text()


# --------------------------------------------------------------------------------------------
# parameters


# --------------------------------------------------------------------------------------------
# the tables
# --------------------------------------------------------------------------------------------


def to_text(res: Comparison, places: int = 4) -> str:
    """A plain-text table of means (best marked ``*``) with significance marks, the notes and
    the tested pairs."""
    header, rows = _cells(res, places, "text")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    out = "\n".join(lines) + "\n\n" + _legend(res).replace("best mean marked", "best mean marked *")
    out += "\n" + _notes_text(res)
    return out + "\n" + _pairs_text(res, places)


def to_markdown(res: Comparison, places: int = 4) -> str:
    """A Markdown table of means (best in bold) with significance marks and a legend."""
    header, rows = _cells(res, places, "md")
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---:", ":---"] + ["---:"] * len(res.measures)) + "|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    notes = "".join(f"\n\nNote: {n}" for n in res.notes)
    return "\n".join(lines) + "\n\n" + _legend(res) + notes + "\n"


def caption(res: Comparison) -> str:
    """The LaTeX caption: what is shown and how it was tested."""
    ms = ", ".join(res.measures)
    if res.baseline:
        sig = (
            f"$\\dagger$/$\\ddagger$: significant gain/loss against the baseline "
            f"{', '.join(_latex_escape(b) for b in res.baseline)}"
        )
    else:
        sig = "superscripts: the runs (by number) a run is significantly better than"
    desc = _latex_escape(res.description()).replace("alpha", "$\\alpha$")
    shown = ""
    if res.params.get("run_ci_shown"):
        shown = f"; in brackets {_latex_escape(_run_ci_words(res))}"
    best = f"best in bold, second underlined{_latex_escape(_directions_words(res))}"
    return f"Mean {_latex_escape(ms)}{shown}; {best}; {sig}. Tested by the {desc}"


def to_latex(res: Comparison, places: int = 4, label: str = "tab:comparison") -> str:
    """A booktabs table (no vertical rules): every tied best in bold, the second underlined,
    significance marks, and a caption saying how the runs were tested."""
    header, rows = _cells(res, places, "latex")
    cols = "r l " + " ".join("r" for _ in res.measures)
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{{caption(res)}}}",
        f"\\label{{{label}}}",
        f"\\begin{{tabular}}{{{cols}}}",
        "\\toprule",
        " & ".join(["\\#", "Run"] + [_latex_escape(m) for m in res.measures]) + " \\\\",
        "\\midrule",
    ]
    lines += [" & ".join(r) + " \\\\" for r in rows]
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"


def to_csv(res: Comparison, path: Optional[PathLike] = None) -> str:
    """The long table (exactly :data:`COLUMNS`) as CSV; written to ``path`` when given."""
    text = res.pairs[list(COLUMNS)].to_csv(index=False, lineterminator="\n", float_format="%.17g")
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def to_json(res: Comparison, path: Optional[PathLike] = None) -> str:
    """``{"metadata": {...}, "pairs": [rows with exactly COLUMNS]}``; written to ``path``."""
    rows = []
    for rec in res.pairs[list(COLUMNS)].to_dict(orient="records"):
        rows.append({k: _json_value(v) for k, v in rec.items()})
    meta = dict(res.metadata)
    meta.update(
        {
            "parameters": res.params,
            "description": res.description(),
            "runs": res.runs,
            "measures": res.measures,
            "baseline": res.baseline,
            "topics": res.n,
            "missing_topics": res.missing,
            "means": res.means,
            # each run's own interval of its mean: {measure: {run: {ci_low, ci_high}}}
            "intervals": {
                m: {r: {"ci_low": lo, "ci_high": hi} for r, (lo, hi) in by_run.items()}
                for m, by_run in res.intervals.items()
            },
            "notes": res.notes,
            "anova": res.anova,
            "directions": {m: res.direction(m) for m in res.measures},
        }
    )
    text = json.dumps({"metadata": _json_clean(meta), "pairs": rows}, indent=1) + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def save(res: Comparison, directory: PathLike, places: int, plot: Optional[str], prefix: str) -> List[Path]:
    """Write every format into ``directory`` (text, md, tex, csv, json, and the plot)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for ext, text in (
        ("txt", to_text(res, places)),
        ("md", to_markdown(res, places)),
        ("tex", to_latex(res, places)),
    ):
        p = d / f"{prefix}.{ext}"
        p.write_text(text, encoding="utf-8")
        written.append(p)
    for ext, fn in (("csv", to_csv), ("json", to_json)):
        p = d / f"{prefix}.{ext}"
        fn(res, p)
        written.append(p)
    if plot and plot != "none":
        from ..plots.compare import page_paths

        p = d / f"{prefix}_{plot}.png"
        pages = res.plot_pages(plot, p)
        import matplotlib.pyplot as plt

        for fig in pages:
            plt.close(fig)
        written.extend(page_paths(p, len(pages)))
    return written


# --------------------------------------------------------------------------------------------
# the table of means, cell by cell, and what goes around it
# --------------------------------------------------------------------------------------------


def _cells(res: Comparison, places: int, style: str) -> Tuple[List[str], List[List[str]]]:
    marks = _marks(res)
    header = ["#", "run"] + list(res.measures)
    rows = []
    ranks = {m: _ranks(res, m) for m in res.measures}
    base = set(res.baseline or [])
    for i, r in enumerate(res.runs):
        name = r + (" (baseline)" if r in base else "")
        cells = [str(i + 1), _latex_escape(name) if style == "latex" else name]
        for m in res.measures:
            v = f"{res.means[m][r]:.{places}f}"
            better, sign = marks.get((m, r), ([], 0))
            rank = ranks[m][r]
            if style == "latex":
                if rank == 1:
                    v = f"\\textbf{{{v}}}"
                elif rank == 2:
                    v = f"\\underline{{{v}}}"
                if res.baseline:
                    v += "$^{\\dagger}$" if sign > 0 else ("$^{\\ddagger}$" if sign < 0 else "")
                elif better:
                    v += "$^{" + ",".join(map(str, better)) + "}$"
            else:
                if rank == 1:
                    v = f"**{v}**" if style == "md" else f"{v}*"
                if res.baseline:
                    v += " ▲" if sign > 0 else (" ▼" if sign < 0 else "")
                elif better:
                    v += " [" + ",".join(map(str, better)) + "]"
            if res.params.get("run_ci_shown") and m in res.intervals:
                v += _interval_cell(res.intervals[m][r], places, style)
            cells.append(v)
        rows.append(cells)
    return header, rows


def _interval_cell(interval: Tuple[float, float], places: int, style: str) -> str:
    """A run's own interval after its mean (``run_ci``): `` (low, high)`` (the brackets are the
    significance marks' there); LaTeX: ``[low, high]`` in a smaller size."""
    low, high = (f"{x:.{places}f}" for x in interval)
    if style == "latex":
        return f" {{\\scriptsize[{low}, {high}]}}"
    return f" ({low}, {high})"


def _marks(res: Comparison) -> Dict[Tuple[str, str], Tuple[List[int], int]]:
    """(measure, run) -> (1-based indices of the runs it is significantly better than,
    +1/-1/0: significantly better / worse than the baseline (the first one it is tested with));
    better as the measure's direction says (higher for a measure of neither)."""
    index = {r: i + 1 for i, r in enumerate(res.runs)}
    better: Dict[Tuple[str, str], List[int]] = {}
    vs_base: Dict[Tuple[str, str], int] = {}
    base = set(res.baseline or [])
    for row in res.pairs.itertuples(index=False):
        if not row.reject or row.delta == 0:
            continue
        gain = row.delta * orientation(res.direction(row.measure)) > 0  # run_b is the better one
        winner, loser = (row.run_b, row.run_a) if gain else (row.run_a, row.run_b)
        better.setdefault((row.measure, winner), []).append(index[loser])
        if row.run_a in base and row.run_b not in base:
            vs_base.setdefault((row.measure, row.run_b), 1 if gain else -1)
    keys = set(better) | set(vs_base)
    return {k: (sorted(better.get(k, [])), vs_base.get(k, 0)) for k in keys}


def _ranks(res: Comparison, measure: str) -> Dict[str, int]:
    """run -> 1 (best, ties included), 2 (second best), 0 (other); means rounded first. The
    best is the largest mean, the smallest for a lower-is-better measure; none has a best for a
    measure of neither direction."""
    vals = {r: float(tidy(np.array([res.means[measure][r]]))[0]) for r in res.runs}
    if res.direction(measure) == NEITHER:
        return dict.fromkeys(vals, 0)
    distinct = sorted(set(vals.values()), reverse=orientation(res.direction(measure)) > 0)
    top = distinct[:2]
    return {r: (top.index(v) + 1 if v in top else 0) for r, v in vals.items()}


def _legend(res: Comparison) -> str:
    if res.baseline:
        sig = "▲/▼: significantly better/worse than the baseline " + ", ".join(res.baseline)
    else:
        sig = "[i,j]: significantly better than runs i and j"
    shown = f"; {_run_ci_words(res)} in parentheses after each mean" if res.params.get("run_ci_shown") else ""
    return f"{sig} ({res.description()[:-1]}){shown}; best mean marked{_directions_words(res)}."


def _directions_words(res: Comparison) -> str:
    """What the legend and the caption say of the measures that are not higher-is-better."""
    lower = [m for m in res.measures if res.direction(m) == LOWER]
    neither = [m for m in res.measures if res.direction(m) == NEITHER]
    words = [f"lower is better for {', '.join(lower)}"] if lower else []
    if neither:
        words.append(f"{', '.join(neither)}: no direction, no best, marks say higher")
    return f" ({'; '.join(words)})" if words else ""


def _run_ci_words(res: Comparison) -> str:
    """What the per-run intervals are, in words."""
    method = {"t": "t", "bootstrap": "BCa bootstrap", "bootstrap-percentile": "percentile bootstrap"}
    return f"each run's {100 * res.params['ci']:g}% {method[res.params['run_ci']]} interval over the topics"


def _notes_text(res: Comparison) -> str:
    lines = [f"note: {n}" for n in res.notes]
    return "\n".join(lines) + ("\n" if lines else "")


def _pairs_text(res: Comparison, places: int) -> str:
    df = res.pairs
    cols = ["measure", "run_a", "run_b", "delta", "ci_low", "ci_high", "effect", "p", "p_adj", "reject"]
    cols += ["wins", "ties", "losses"]
    return df[cols].to_string(index=False, float_format=lambda v: f"{v:.{places}f}") + "\n"


# --------------------------------------------------------------------------------------------
# escaping (LaTeX) and JSON values
# --------------------------------------------------------------------------------------------


def _latex_escape(text: str) -> str:
    out = []
    for ch in str(text):
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append("\\textasciitilde{}")
        elif ch == "^":
            out.append("\\textasciicircum{}")
        elif ch == "\\":
            out.append("\\textbackslash{}")
        else:
            out.append(ch)
    return "".join(out)


def _json_value(v: Any) -> Any:
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else None
    return v


def _json_clean(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _json_clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_json_clean(v) for v in obj]
    return _json_value(obj)
