"""Sensitivity by the swap method (Voorhees & Buckley, SIGIR 2002; Sakai's bootstrap variant).

For b = 1..B two topic samples of the same size are drawn (:func:`ir_measures_pres.stats.swap_samples`):
Sakai's variant (the default) draws both with replacement, n topics each; Voorhees & Buckley's
draws two disjoint sets of c <= n/2 topics (``sampling='disjoint'``, ``size=c``). For every pair
of runs the mean differences d1 (first sample) and d2 (second) are computed; the observations are
binned by |d1| (``bin_width``, default 0.01), a *swap* is d1 * d2 < 0, and the swap rate of a bin
is swaps / observations (:func:`ir_measures_pres.stats.swap_bins`, values rounded to 12 places).

* **difference required**: the smallest bin edge from which every bin with observations has a
  swap rate <= ``max_swap_rate`` (default 0.05);
* **sensitivity**: the share of all observations (pairs x B) whose |d1| is at least the
  difference required.

Monte Carlo error (spec 3.4): the experiment is repeated ``repeats`` times (default 3), repetition
r drawing from :func:`.sampling.repeat_rng` (repetition 0: ``default_rng(seed)``; r >= 1:
``SeedSequence(seed, spawn_key=(r,))``); the summary gives the mean and the standard
deviation (ddof 1) over the repetitions, ``repeats`` table each repetition.

All B means of all runs are two matrix products (runs x topics) @ (topics x B); the pairs'
differences follow by indexing, so the cost grows with runs x topics x B, not with pairs x topics.

E. M. Voorhees and C. Buckley. The Effect of Topic Set Size on Retrieval Experiment Error. SIGIR 2002.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional

import numpy as np

from ..runtime.progress import progress_bar
from ..stats.meta_tests import swap_bins, swap_samples, swap_sensitivity
from ..stats.significance import require
from ._core import Core, MeasureSpec, Scores, iter_pairs
from ._output import PaperTable, SavedResult, best
from .sampling import new_seed, repeat_rng

ROW_DIFF = "absolute diff. required"
ROW_SENSITIVITY = "sensitivity"


@dataclass
class SensitivityResult(SavedResult):
    """Tables of the swap-method experiment.

    * ``summary``: per measure ``diff_required`` and ``sensitivity`` (means over the
      repetitions), ``diff_required_sd``, ``sensitivity_sd`` (sd over the repetitions, ddof 1;
      NaN for one repetition), ``diff_required_min``/``_max``, ``sensitivity_min``/``_max``,
      ``pairs``, ``B``, ``repeats``, ``sampling``, ``sample_size``, ``bin_width``,
      ``max_swap_rate``;
    * ``repeats``: per measure and repetition ``diff_required``, ``sensitivity``,
      ``observations``, ``swaps``;
    * ``bins``: per measure, repetition and bin of |d1|: ``bin_lo``, ``bin_hi``,
      ``observations``, ``swaps``, ``swap_rate``.
    """

    TABLES = ("summary", "repeats", "bins")
    PREFIX = "sensitivity"

    summary: Any
    repeats: Any
    bins: Any
    B: int
    sampling: str
    sample_size: int
    bin_width: float
    max_swap_rate: float
    seed: int
    measures: List[str] = field(default_factory=list)

    def table(self) -> Any:
        """The form of Voorhees & Buckley's / Sakai's sensitivity tables: rows ``absolute diff.
        required`` and ``sensitivity``, one column per measure; numbers as a paper prints them
        (difference to 2 places, sensitivity in per cent to 1 place; with several repetitions
        ``mean ± sd``, the difference to 3 places)."""
        require("pandas")
        import pandas as pd

        s = self.summary.set_index("measure")
        multi = int(s["repeats"].iloc[0]) > 1 if len(s) else False
        cols = {}
        for m in self.measures:
            row = s.loc[m]
            if multi:
                diff = f"{row['diff_required']:.3f} ± {row['diff_required_sd']:.3f}"
                sens = f"{100 * row['sensitivity']:.1f}% ± {100 * row['sensitivity_sd']:.1f}"
            else:
                diff = f"{row['diff_required']:.2f}"
                sens = f"{100 * row['sensitivity']:.1f}%"
            cols[m] = [diff, sens]
        return pd.DataFrame(cols, index=pd.Index([ROW_DIFF, ROW_SENSITIVITY], name=""))

    def paper_table(self) -> PaperTable:
        """:meth:`table` with the smallest difference required and the highest sensitivity in
        bold (compared as printed)."""
        cells = self.table()
        s = self.summary.set_index("measure").reindex(self.measures)
        multi = int(s["repeats"].iloc[0]) > 1 if len(s) else False
        diff = np.round(s["diff_required"].to_numpy(dtype=np.float64), 3 if multi else 2)
        sens = np.round(100 * s["sensitivity"].to_numpy(dtype=np.float64), 1)
        bold = best(np.vstack([diff, sens]), [False, True], axis=1)
        how = "Sakai's bootstrap samples" if self.sampling == "bootstrap" else "disjoint topic sets"
        caption = (
            f"Swap-method sensitivity ({how} of {self.sample_size} topics, B = {self.B}, swap rate "
            f"<= {100 * self.max_swap_rate:g}%"
            + (f", mean ± sd over {int(s['repeats'].iloc[0])} repetitions" if multi else "")
            + ")."
        )
        return PaperTable(cells, bold, caption)

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:
        """Swap rate against |d1| per measure (:func:`.plots.plot_swap_rates`)."""
        from ..plots.meta import plot_swap_rates

        return plot_swap_rates(self, path, **kwargs)


def sensitivity(
    qrels: Any = None,
    runs: Any = None,
    measures: Optional[MeasureSpec] = None,
    B: int = 1000,
    sampling: str = "bootstrap",
    size: Optional[int] = None,
    bin_width: float = 0.01,
    max_swap_rate: float = 0.05,
    repeats: int = 3,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    core: Optional[Core] = None,
) -> SensitivityResult:
    """Difference required and sensitivity of each measure by the swap method.

    >>> res = sensitivity("qrels.txt", "runs/", "QMeasure AP PMeasure", B=1000)  # doctest: +SKIP
    >>> res.table()  # doctest: +SKIP
    """
    if core is None:
        if qrels is None or runs is None or measures is None:
            raise ValueError("give qrels, runs and measures (or an evaluation core: core=Core(...))")
        core = Core(qrels, runs, measures, progress=progress, command="sensitivity")
    return sensitivity_from_scores(
        core.scores(), B, sampling, size, bin_width, max_swap_rate, repeats, seed, progress
    )


def sensitivity_from_scores(
    scores: Scores,
    B: int = 1000,
    sampling: str = "bootstrap",
    size: Optional[int] = None,
    bin_width: float = 0.01,
    max_swap_rate: float = 0.05,
    repeats: int = 3,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    samples: Optional[Any] = None,
) -> SensitivityResult:
    """:func:`sensitivity` on per-query scores. ``samples`` fixes the draws instead: a list (one
    per repetition) of (first, second) (B, n) matrices of topic counts (0/1 for sets), both of
    sample size c (the row sums)."""
    require("pandas")
    import pandas as pd

    if not bin_width > 0:
        raise ValueError(f"the bin width must be > 0, got {bin_width}")
    if not 0.0 <= max_swap_rate < 1.0:
        raise ValueError(f"the swap rate must be in [0, 1), got {max_swap_rate}")
    values = scores.values
    n = values.shape[2]
    if n < 2:
        raise ValueError("the swap method needs at least 2 topics")
    seed = new_seed(seed)
    draws: List[Any]
    if samples is None:
        if repeats < 1:
            raise ValueError(f"repeats must be >= 1, got {repeats}")
        draws = [None] * repeats
    else:
        draws = list(samples)
        repeats = len(draws)
    pairs = list(iter_pairs(len(scores.runs)))
    a_idx = np.array([i for i, _ in pairs], dtype=np.int64)
    b_idx = np.array([j for _, j in pairs], dtype=np.int64)
    rep_rows, bin_rows = [], []
    c = 0
    with progress_bar(repeats, "swap method", progress) as bar:
        for r, fixed in enumerate(draws):
            if fixed is None:
                first, second, c = swap_samples(n, B, repeat_rng(seed, r), sampling, size)
            else:
                first = np.asarray(fixed[0], dtype=np.float64)
                second = np.asarray(fixed[1], dtype=np.float64)
                c = int(first[0].sum())
                B = first.shape[0]
            for m, name in enumerate(scores.measures):
                # means of every run on every sample: (runs, B), two matrix products
                m1 = values[m] @ first.T / c
                m2 = values[m] @ second.T / c
                d1 = m1[a_idx] - m1[b_idx]
                d2 = m2[a_idx] - m2[b_idx]
                obs, sw = swap_bins(d1, d2, bin_width)
                required, sens = swap_sensitivity(obs, sw, bin_width, max_swap_rate)
                rep_rows.append((name, r, required, sens, int(obs.sum()), int(sw.sum())))
                for k in np.nonzero(obs)[0]:
                    bin_rows.append(
                        (
                            name,
                            r,
                            round(k * bin_width, 10),
                            round((k + 1) * bin_width, 10),
                            int(obs[k]),
                            int(sw[k]),
                            float(sw[k] / obs[k]),
                        )
                    )
            bar.update()
    reps = pd.DataFrame(
        rep_rows, columns=["measure", "repeat", "diff_required", "sensitivity", "observations", "swaps"]
    )
    bins = pd.DataFrame(
        bin_rows,
        columns=["measure", "repeat", "bin_lo", "bin_hi", "observations", "swaps", "swap_rate"],
    )
    g = reps.groupby("measure", sort=False)
    summary = pd.DataFrame(
        {
            "measure": list(scores.measures),
            "diff_required": g["diff_required"].mean().reindex(scores.measures).to_numpy(),
            "diff_required_sd": g["diff_required"].std(ddof=1).reindex(scores.measures).to_numpy(),
            "diff_required_min": g["diff_required"].min().reindex(scores.measures).to_numpy(),
            "diff_required_max": g["diff_required"].max().reindex(scores.measures).to_numpy(),
            "sensitivity": g["sensitivity"].mean().reindex(scores.measures).to_numpy(),
            "sensitivity_sd": g["sensitivity"].std(ddof=1).reindex(scores.measures).to_numpy(),
            "sensitivity_min": g["sensitivity"].min().reindex(scores.measures).to_numpy(),
            "sensitivity_max": g["sensitivity"].max().reindex(scores.measures).to_numpy(),
        }
    )
    summary["pairs"] = len(pairs)
    summary["B"] = B
    summary["repeats"] = repeats
    summary["sampling"] = sampling if samples is None else "given"
    summary["sample_size"] = c
    summary["bin_width"] = bin_width
    summary["max_swap_rate"] = max_swap_rate
    return SensitivityResult(
        summary,
        reps,
        bins,
        B,
        sampling if samples is None else "given",
        c,
        float(bin_width),
        float(max_swap_rate),
        seed,
        list(scores.measures),
    )
