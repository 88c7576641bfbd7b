"""Discriminative power (Sakai 2006) and stability (Buckley & Voorhees 2000; Voorhees & Buckley 2002).

**Discriminative power: Sakai's paired bootstrap test.** For each pair of runs X, Y with per-topic
differences z over the n topics: t(z) = mean(z) / (sd(z)/sqrt(n)) (sd with n - 1); the shifted
sample w = z - mean(z) obeys the null hypothesis; B bootstrap samples of the topics (drawn with
replacement, the same B samples for every pair and measure, from
``numpy.random.default_rng(seed)``) give replicates w*b and the achieved significance level
ASL = #{b : |t(w*b)| >= |t(z)|} / B. Discriminative power = share of run pairs with ASL < alpha.
The estimated difference required for significance at alpha is, per pair, |mean(w*b)| (=
|mean(z*b) - mean(z)|) of the replicate whose |t(w*b)| is the ceil(alpha B)-th largest, and the
maximum over the pairs (Sakai, SIGIR 2006, Figure 5; likewise Ferro & Silvello's MATTERS).
Read without the shift, it is |mean(z*b)| of that replicate, which adds mean(z) back; that
reading is not Sakai's and is reported only on request (``unshifted=True``:
``diff_required_unshifted`` / ``estimated_diff_unshifted``).
Zero-variance samples: identical runs (z = 0) have t = 0 and ASL = 1; a constant non-zero
difference has |t| = inf and ASL = 0.

T. Sakai. Evaluating Evaluation Metrics based on the Bootstrap. SIGIR 2006.

**Stability: the split-half error rate.** ``splits`` times, the topics are shuffled and cut into
two disjoint halves of floor(n/2) topics (n odd: one topic sits out). In each half every run
gets its mean score; for each pair of runs the half's difference d = mean(X) - mean(Y).

* Buckley & Voorhees (SIGIR 2000) error rate at a fuzziness f: in a half the pair is a *tie*
  when |d| < f * max(mean(X), mean(Y)) (or d = 0), otherwise X or Y wins. Over the 2 x splits
  halves each pair has GT wins of X, LT wins of Y and EQ ties; error rate =
  sum over pairs of min(GT, LT) / sum of (GT + LT + EQ), proportion of ties = sum EQ / the same
  total. Computed for a grid of fuzziness values (default 0 to 0.2 in steps of 0.01) to draw
  error rate against proportion of ties; the summary reports the chosen f (default 0.05).
  Lower error at the same proportion of ties is better.

  Values equal in exact arithmetic compare equal (spec 3.5), with the rounding to 12 places
  (:func:`.stats.tidy`) applied once, to the quantity compared, on the unrounded half-set means
  mX, mY: d = tidy(mX - mY) decides the sign and the zero test, and the pair ties when
  d = 0 or tidy(|mX - mY| - f * max(mX, mY)) < 0. Rounding the means first and then their
  difference and the threshold again adds up to one unit of the 12th place per rounding: a
  difference equal to the threshold in exact arithmetic (means 49/150 and 1/3, f = 0.02:
  |d| = 1/150 = 0.02 * 1/3) came out one unit below it and was counted as a tie.
* Voorhees & Buckley (SIGIR 2002) swap rate by difference: each (split, pair) gives two
  comparisons, one per half: the half's |d| falls in a bucket of width ``bucket_width``
  (default 0.01; bucket k = [k w, (k+1) w), binned as the swap method bins,
  :func:`.stats.swap_bins`) and the comparison is a *swap* when the two halves' differences
  have opposite signs (both non-zero). Swap rate per bucket = swaps / comparisons.

C. Buckley and E. M. Voorhees. Evaluating Evaluation Measure Stability. SIGIR 2000.
E. M. Voorhees and C. Buckley. The Effect of Topic Set Size on Retrieval Experiment Error. SIGIR 2002.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

import numpy as np

from ..runtime.progress import progress_bar
from ..stats.meta_tests import bootstrap_counts, bootstrap_test, swap_bins
from ..stats.significance import require, tidy
from ._core import Core, MeasureSpec, Scores, iter_pairs
from ._output import PaperTable, SavedResult, best
from .sampling import new_seed, repeat_rng

DEFAULT_FUZZINESS_GRID = tuple(round(0.01 * i, 2) for i in range(21))


@dataclass
class DiscriminativePowerResult(SavedResult):
    """Tables of Sakai's bootstrap experiment.

    * ``summary``: per measure ``pairs``, ``significant`` (ASL < alpha), ``discriminative_power``
      (their share), ``estimated_diff`` (difference required at alpha), ``alpha``, ``B``,
      ``repeats``; with several repetitions these are means and ``discriminative_power_sd`` /
      ``estimated_diff_sd`` their sd (ddof 1; NaN for one repetition);
    * ``repeats_table``: the same figures for each repetition;
    * ``pairs``: per run pair and measure ``run_a``, ``run_b``, ``measure``, ``mean_diff``
      (mean of a - b), ``t``, ``asl``, ``significant``, ``diff_required`` (and, only with
      ``unshifted=True``, ``diff_required_unshifted``: |mean(z*b)| of the same replicate;
      ``estimated_diff_unshifted`` is its maximum).
    """

    TABLES = ("summary", "pairs", "repeats_table")
    PREFIX = "discriminative_power"

    summary: Any
    pairs: Any
    alpha: float
    B: int
    seed: int
    measures: List[str] = field(default_factory=list)
    repeats_table: Any = None
    repeats: int = 1

    def paper_table(self) -> PaperTable:
        """Sakai's form: per measure the discriminative power (per cent of the run pairs, ASL <
        alpha) and the estimated difference required (2 places; with repetitions mean ± sd, 3
        places); the highest power and the smallest difference in bold."""
        require("pandas")
        import pandas as pd

        s = self.summary.set_index("measure").reindex(self.measures)
        multi = self.repeats > 1
        power = 100 * s["discriminative_power"].to_numpy(dtype=np.float64)
        diff = s["estimated_diff"].to_numpy(dtype=np.float64)
        if multi:
            psd = 100 * s["discriminative_power_sd"].to_numpy(dtype=np.float64)
            dsd = s["estimated_diff_sd"].to_numpy(dtype=np.float64)
            pcol = [f"{p:.1f}% ± {q:.1f}" for p, q in zip(power, psd)]
            dcol = [f"{d:.3f} ± {e:.3f}" for d, e in zip(diff, dsd)]
            rounded = np.column_stack([np.round(power, 1), np.round(diff, 3)])
        else:
            pcol = [f"{p:.1f}%" for p in power]
            dcol = [f"{d:.2f}" for d in diff]
            rounded = np.column_stack([np.round(power, 1), np.round(diff, 2)])
        cells = pd.DataFrame(
            {"discriminative power": pcol, "estimated diff.": dcol},
            index=pd.Index(self.measures, name="measure"),
        )
        pairs = int(s["pairs"].iloc[0]) if len(s) else 0
        caption = (
            f"Discriminative power at alpha = {self.alpha:g} (paired bootstrap, B = {self.B}, "
            f"{pairs} run pairs" + (f", mean ± sd over {self.repeats} repetitions" if multi else "") + ")."
        )
        return PaperTable(cells, best(rounded, [True, False], axis=0), caption, "measure")

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:
        """Sakai's ASL curves (:func:`.plots.plot_asl`)."""
        from ..plots.meta import plot_asl

        return plot_asl(self, path, **kwargs)


@dataclass
class StabilityResult(SavedResult):
    """Tables of the split-half stability experiment.

    * ``summary``: per measure, at the chosen ``fuzziness``: ``error_rate``, ``tie_rate``,
      ``topics_per_half``, ``splits``;
    * ``error_ties``: the same for every fuzziness of the grid (the curve);
    * ``buckets``: per measure and bucket of |difference|: ``bucket_lo``, ``bucket_hi``,
      ``comparisons``, ``swaps``, ``swap_rate``.
    """

    TABLES = ("summary", "error_ties", "buckets")
    PREFIX = "stability"

    summary: Any
    error_ties: Any
    buckets: Any
    fuzziness: float
    splits: int
    seed: int
    measures: List[str] = field(default_factory=list)

    def paper_table(self) -> PaperTable:
        """Buckley & Voorhees' form: per measure the error rate and the proportion of ties (per
        cent, 1 place) at the chosen fuzziness; the lowest error rate in bold."""
        require("pandas")
        import pandas as pd

        s = self.summary.set_index("measure").reindex(self.measures)
        err = np.round(100 * s["error_rate"].to_numpy(dtype=np.float64), 1)
        ties = np.round(100 * s["tie_rate"].to_numpy(dtype=np.float64), 1)
        cells = pd.DataFrame(
            {"error rate": [f"{e:.1f}%" for e in err], "ties": [f"{t:.1f}%" for t in ties]},
            index=pd.Index(self.measures, name="measure"),
        )
        bold = best(np.column_stack([err, ties]), [False], axis=0)
        caption = (
            f"Split-half error rate and proportion of ties at fuzziness {100 * self.fuzziness:g}% "
            f"({self.splits} splits)."
        )
        return PaperTable(cells, bold, caption, "measure")

    def plot(self, path: Optional[str] = None, **kwargs: Any) -> Any:
        """Error rate against proportion of ties (:func:`.plots.plot_stability`)."""
        from ..plots.meta import plot_stability

        return plot_stability(self, path, **kwargs)


def discriminative_power(
    qrels: Any = None,
    runs: Any = None,
    measures: Optional[MeasureSpec] = None,
    B: int = 1000,
    alpha: float = 0.05,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    core: Optional[Core] = None,
    unshifted: bool = False,
    repeats: int = 1,
) -> DiscriminativePowerResult:
    """Sakai's paired bootstrap test on every pair of runs, per measure.

    >>> res = discriminative_power("qrels.txt", "runs/", "QMeasure AP PMeasure", B=1000)  # doctest: +SKIP
    >>> res.summary[["measure", "discriminative_power", "estimated_diff"]]  # doctest: +SKIP
    """
    if core is None:
        if qrels is None or runs is None or measures is None:
            raise ValueError("give qrels, runs and measures (or an evaluation core: core=Core(...))")
        core = Core(qrels, runs, measures, progress=progress, command="discriminative-power")
    return discriminative_power_from_scores(
        core.scores(), B, alpha, seed, progress, unshifted=unshifted, repeats=repeats
    )


def discriminative_power_from_scores(
    scores: Scores,
    B: int = 1000,
    alpha: float = 0.05,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    bootstrap_index: Optional[np.ndarray] = None,
    unshifted: bool = False,
    repeats: int = 1,
) -> DiscriminativePowerResult:
    """:func:`discriminative_power` on per-query scores. ``bootstrap_index`` (B, n) fixes the
    bootstrap samples (topic indices) instead of drawing them from ``seed``. ``unshifted=True``
    adds the unshifted reading of the difference required (``diff_required_unshifted``,
    ``estimated_diff_unshifted``: |mean(z*b)| of the same replicate); by default only Sakai's
    shifted figure is reported (spec 3.1). ``repeats`` > 1 repeats the experiment with fresh
    bootstrap samples (repetition r draws from :func:`.sampling.repeat_rng`; repetition 0 is the
    single run's draw) and reports the mean and sd over the repetitions (spec 3.4); the
    ``pairs`` table holds repetition 0."""
    require("pandas")
    import pandas as pd

    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    values = scores.values
    n = values.shape[2]
    if n < 2:
        raise ValueError("the bootstrap test needs at least 2 topics")
    seed = new_seed(seed)
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    if bootstrap_index is None:
        if B < 1:
            raise ValueError(f"B must be >= 1, got {B}")
        draws: List[Optional[np.ndarray]] = [None] * repeats
    else:
        idx = np.asarray(bootstrap_index, dtype=np.int64)
        B = idx.shape[0]
        counts = np.zeros((B, n))
        np.add.at(counts, (np.repeat(np.arange(B), idx.shape[1]), idx.reshape(-1)), 1.0)
        draws = [counts]
        repeats = 1
    pairs = list(iter_pairs(len(scores.runs)))
    a_idx = np.array([i for i, _ in pairs], dtype=np.int64)
    b_idx = np.array([j for _, j in pairs], dtype=np.int64)
    rows = []
    rep_rows = []
    total = len(scores.measures) * repeats
    with progress_bar(total, "bootstrap", progress) as bar:
        for r, fixed in enumerate(draws):
            counts = fixed if fixed is not None else bootstrap_counts(n, B, repeat_rng(seed, r))[1]
            for m, name in enumerate(scores.measures):
                z = values[m, a_idx] - values[m, b_idx]
                t_obs, asl, diff, diff_z = bootstrap_test(z, counts, alpha, unshifted=True)
                significant = asl < alpha
                if r == 0:
                    for k, (i, j) in enumerate(pairs):
                        rows.append(
                            (
                                scores.runs[i],
                                scores.runs[j],
                                name,
                                float(z[k].mean()),
                                float(t_obs[k]),
                                float(asl[k]),
                                bool(significant[k]),
                                float(diff[k]),
                                float(diff_z[k]),
                            )
                        )
                rep_rows.append(
                    (
                        name,
                        r,
                        int(significant.sum()),
                        float(significant.mean()) if len(pairs) else float("nan"),
                        float(diff.max()) if len(pairs) else float("nan"),
                        float(diff_z.max()) if len(pairs) else float("nan"),
                    )
                )
                bar.update()
    reps_df = pd.DataFrame(
        rep_rows,
        columns=[
            "measure",
            "repeat",
            "significant",
            "discriminative_power",
            "estimated_diff",
            "estimated_diff_unshifted",
        ],
    )
    g = reps_df.groupby("measure", sort=False)
    names = list(scores.measures)
    summary_df = pd.DataFrame(
        {
            "measure": names,
            "pairs": len(pairs),
            "significant": g["significant"].mean().reindex(names).to_numpy(),
            "discriminative_power": g["discriminative_power"].mean().reindex(names).to_numpy(),
            "discriminative_power_sd": g["discriminative_power"].std(ddof=1).reindex(names).to_numpy(),
            "estimated_diff": g["estimated_diff"].mean().reindex(names).to_numpy(),
            "estimated_diff_sd": g["estimated_diff"].std(ddof=1).reindex(names).to_numpy(),
            "estimated_diff_unshifted": g["estimated_diff_unshifted"].mean().reindex(names).to_numpy(),
            "alpha": alpha,
            "B": B,
            "repeats": repeats,
        }
    )
    if repeats == 1:
        summary_df["significant"] = summary_df["significant"].astype(int)
    pairs_df = pd.DataFrame(
        rows,
        columns=[
            "run_a",
            "run_b",
            "measure",
            "mean_diff",
            "t",
            "asl",
            "significant",
            "diff_required",
            "diff_required_unshifted",
        ],
    )
    if not unshifted:
        pairs_df = pairs_df.drop(columns=["diff_required_unshifted"])
        summary_df = summary_df.drop(columns=["estimated_diff_unshifted"])
        reps_df = reps_df.drop(columns=["estimated_diff_unshifted"])
    return DiscriminativePowerResult(
        summary_df, pairs_df, alpha, B, seed, list(scores.measures), reps_df, repeats
    )


def stability(
    qrels: Any = None,
    runs: Any = None,
    measures: Optional[MeasureSpec] = None,
    splits: int = 100,
    fuzziness: float = 0.05,
    fuzziness_grid: Sequence[float] = DEFAULT_FUZZINESS_GRID,
    bucket_width: float = 0.01,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    core: Optional[Core] = None,
) -> StabilityResult:
    """Buckley-Voorhees split-half error rate and Voorhees-Buckley swap rates, per measure."""
    if core is None:
        if qrels is None or runs is None or measures is None:
            raise ValueError("give qrels, runs and measures (or an evaluation core: core=Core(...))")
        core = Core(qrels, runs, measures, progress=progress, command="discriminative-power")
    return stability_from_scores(
        core.scores(), splits, fuzziness, fuzziness_grid, bucket_width, seed, progress
    )


def _tie(ma: np.ndarray, mb: np.ndarray, d: np.ndarray, f: float) -> np.ndarray:
    """Ties at fuzziness ``f`` of the half-set means ``ma``, ``mb`` (unrounded) whose rounded
    difference is ``d`` = tidy(ma - mb):

        tie = (d == 0) | (tidy(|ma - mb| - f * max(ma, mb)) < 0)

    Rounding (12 places, spec 3.5) is applied once, to the quantity compared with 0, so that a
    difference equal to the threshold in exact arithmetic is not a tie (the rule is strict:
    |d| < f * max) whatever the ulps of the means, and a difference of 0 is always a tie.
    Rounding the means, their difference and the threshold one by one instead lets the
    rounding errors add up: means 49/150 and 1/3 at f = 0.02 (|d| = 1/150 = 0.02 * 1/3
    exactly) gave |d| = 0.006666666666 against a threshold of 0.006666666667, a false tie."""
    return (d == 0) | (tidy(np.abs(ma - mb) - f * np.maximum(ma, mb)) < 0)


def stability_from_scores(
    scores: Scores,
    splits: int = 100,
    fuzziness: float = 0.05,
    fuzziness_grid: Sequence[float] = DEFAULT_FUZZINESS_GRID,
    bucket_width: float = 0.01,
    seed: Optional[int] = 0,
    progress: Optional[bool] = None,
    halves: Optional[Sequence[Any]] = None,
) -> StabilityResult:
    """:func:`stability` on per-query scores. ``halves`` (a list of (topics A, topics B) index
    pairs) fixes the splits instead of drawing them from ``seed``."""
    require("pandas")
    import pandas as pd

    values = scores.values
    n = values.shape[2]
    seed = new_seed(seed)
    if halves is None:
        if n < 2:
            raise ValueError("split-half stability needs at least 2 topics")
        if splits < 1:
            raise ValueError(f"splits must be >= 1, got {splits}")
        rng = np.random.default_rng(seed)
        half = n // 2
        halves = []
        for _ in range(splits):
            perm = rng.permutation(n)
            halves.append((perm[:half], perm[half : 2 * half]))
    halves = [(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)) for a, b in halves]
    splits = len(halves)
    grid = sorted(set(float(f) for f in fuzziness_grid) | {float(fuzziness)})
    pairs = list(iter_pairs(len(scores.runs)))
    ai = np.array([i for i, _ in pairs], dtype=np.int64)
    bi = np.array([j for _, j in pairs], dtype=np.int64)
    err_rows, bucket_rows = [], []
    with progress_bar(len(scores.measures), "split halves", progress) as bar:
        for m, name in enumerate(scores.measures):
            # means[s, h, r]: mean of run r over half h of split s
            means = np.stack(
                [np.stack([values[m][:, a].mean(axis=1), values[m][:, b].mean(axis=1)]) for a, b in halves]
            )
            # the means stay unrounded: each compared quantity is rounded once (section 3.5),
            # the difference here (its sign, zero test, bucket, swap), the distance to the tie
            # threshold in _tie
            ma, mb = means[:, :, ai], means[:, :, bi]  # (splits, 2, pairs)
            d = tidy(ma - mb)
            total = d.size  # 2 * splits * pairs half-set outcomes
            for f in grid:
                tie = _tie(ma, mb, d, f)
                gt = ((d > 0) & ~tie).sum(axis=(0, 1))
                lt = ((d < 0) & ~tie).sum(axis=(0, 1))
                eq = tie.sum()
                err_rows.append(
                    (
                        name,
                        f,
                        float(np.minimum(gt, lt).sum() / total) if total else float("nan"),
                        float(eq / total) if total else float("nan"),
                        splits,
                        len(halves[0][0]),
                    )
                )
            # both halves: two comparisons per (split, pair), each binned by its own |d| and a
            # swap when the other half's d has the opposite sign; the swap method's bins
            # (stats.swap_bins: d rounded once, a |d| equal to a bucket edge starts that bucket)
            comp, swaps = swap_bins(ma - mb, (ma - mb)[:, ::-1], bucket_width)
            for k in range(len(comp)):
                if comp[k]:
                    bucket_rows.append(
                        (
                            name,
                            round(k * bucket_width, 10),
                            round((k + 1) * bucket_width, 10),
                            int(comp[k]),
                            int(swaps[k]),
                            float(swaps[k] / comp[k]),
                        )
                    )
            bar.update()
    error_ties = pd.DataFrame(
        err_rows, columns=["measure", "fuzziness", "error_rate", "tie_rate", "splits", "topics_per_half"]
    )
    summary = error_ties[np.isclose(error_ties["fuzziness"], fuzziness)].reset_index(drop=True)
    buckets = pd.DataFrame(
        bucket_rows, columns=["measure", "bucket_lo", "bucket_hi", "comparisons", "swaps", "swap_rate"]
    )
    return StabilityResult(
        summary, error_ties, buckets, float(fuzziness), splits, seed, list(scores.measures)
    )
