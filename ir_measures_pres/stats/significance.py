"""The statistics behind ``compare`` and the meta-evaluation: the tests, corrections and intervals.

Everything that decides whether two runs differ lives here, once (Student's t quantile is
:mod:`.student`'s): the paired t-test, the
Wilcoxon signed-rank test, the sign-flip randomisation test, the two-way ANOVA without
replication with Tukey's HSD (blocked by topic) and its randomised version, multiple-testing
corrections (statsmodels), Kendall's tau and the interval of one run's mean; the tests the
meta-evaluation runs on a measure (Sakai's paired bootstrap test, the swap method) are in
:mod:`.meta_tests`, built on these. scipy and statsmodels are imported lazily, inside the
functions.

**Values equal mathematically compare equal.** Per-topic differences and means that are equal
in exact arithmetic can differ by an ulp in floating point (0.3 - 0.2 != 0.4 - 0.3).
Differences and means are therefore rounded to :data:`DECIMALS` (12) decimal places before they
are ranked (Wilcoxon), tested for zero or counted as ties (wins / ties / losses, identical
runs), and statistics compared with a count threshold carry a relative tolerance
(:func:`at_least`). Without it the Wilcoxon p of X = [.3 .2 .4 .1 .8 .5 .7 .2],
Y = [.2 .1 .3 0 .7 .4 .6 .3] is 0.0391 instead of 0.0703. A comparison of two quantities
computed from means (a range against a difference, a difference against a threshold) rounds
once, the quantity compared (tidy(R_b - |delta|) >= 0), on unrounded operands: rounding each
operand and then their difference again lets the roundings add up to a unit of the 12th place.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any, Optional, Tuple

import numpy as np

from ..data.extras import require  # noqa: F401  (ir_measures_pres.stats.require)
from .student import t_quantile  # ir_measures_pres.stats.t_quantile too

#: decimal places kept before ranking, zero tests and tie counts
DECIMALS = 12

#: relative tolerance of "at least as extreme" in the randomised tests: gamma = 100 eps T
TOLERANCE = 100 * np.finfo(np.float64).eps

#: absolute tolerance of |t| comparisons in the bootstrap count (section 3.5)
T_TOLERANCE = 1e-9

#: zero differences: discarded before ranking (Wilcoxon's original procedure, R's wilcox.test).
ZERO_METHOD = "wilcox"


def tidy(values: np.ndarray) -> np.ndarray:
    """``values`` rounded to :data:`DECIMALS` places, -0.0 made 0.0 (section 3.5)."""
    return np.round(np.asarray(values, dtype=np.float64), DECIMALS) + 0.0


def at_least(stat: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """``stat >= observed`` up to a relative tolerance: replicates equal to the observed value in
    exact arithmetic count as "at least as extreme" (gamma = 100 eps |observed|)."""
    observed = np.asarray(observed, dtype=np.float64)
    return np.asarray(stat) >= observed - TOLERANCE * np.abs(observed)


# --------------------------------------------------------------------------------------------
# rank correlation
# --------------------------------------------------------------------------------------------


def kendall_tau(x: np.ndarray, y: np.ndarray) -> Tuple[float, float]:
    """Kendall's tau-b of two score vectors over the same systems, and its two-sided p-value.

    ``scipy.stats.kendalltau`` (variant 'b'): tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2)) with C/D
    the concordant/discordant pairs, n0 = n(n-1)/2 and n1, n2 the pairs tied in x, in y. A pair
    tied in one ranking counts neither as concordant nor as discordant; the denominator shrinks
    accordingly. Ranking by mean score or by the score itself gives the same tau. Both vectors
    are rounded to :data:`DECIMALS` places first (:func:`tidy`), so that means equal in exact
    arithmetic tie instead of being ordered by an ulp. NaN when one
    of the rankings puts every system level; exactly 1.0 when the two score vectors are equal.
    """
    from scipy.stats import kendalltau

    # means equal in exact arithmetic tie (section 3.5): systems whose mean scores differ by an
    # ulp are not ordered by the noise (tau-b 0.816 instead of 1.0 in the minimal case)
    x = tidy(x)
    y = tidy(y)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan"), float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = kendalltau(x, y)
    # identical scores: exactly 1 (scipy's floating point can give 0.9999999999999999)
    return (1.0 if np.array_equal(x, y) else float(res[0])), float(res[1])


# --------------------------------------------------------------------------------------------
# paired tests of one pair
# --------------------------------------------------------------------------------------------


def wilcoxon(
    x: np.ndarray,
    y: np.ndarray,
    zero_method: str = ZERO_METHOD,
    method: str = "auto",
    decimals: Optional[int] = None,
) -> Tuple[float, float, float]:
    """Paired two-sided Wilcoxon signed-rank test of x against y over topics.

    Returns (statistic, p-value, direction): ``scipy.stats.wilcoxon(x, y, zero_method=...,
    alternative='two-sided', method=...)``; scipy's default ``method='auto'`` takes the exact
    distribution for up to 50 topics without ties or zero differences, an exhaustive (exact,
    but slow: 2^n sign patterns) permutation test for up to 13 topics with ties or zeros, and
    the normal approximation otherwise; ``'asymptotic'`` always takes the latter. And
    direction = sign(R+ - R-), the sums of the ranks of |d| (average ranks for ties) over the
    positive and the negative differences d = x - y (zero differences dropped): +1 when x is
    the higher (the better for a higher-is-better measure: callers orient it by the measure's
    direction, :mod:`ir_measures_pres.measures.direction`). With ``decimals`` (``compare``
    passes :data:`DECIMALS`) the differences are rounded first (section 3.5), so that
    differences equal in exact arithmetic tie in the ranking and zero differences are dropped
    (``compare`` and the meta-evaluation's agreement experiment pass it); ``None`` takes them
    as they are. When every difference is zero the runs are indistinguishable: (0, 1.0, 0), no
    scipy call (scipy would return NaN).
    """
    from scipy.stats import rankdata
    from scipy.stats import wilcoxon as sp_wilcoxon

    d = np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)
    if decimals is not None:
        d = np.round(d, decimals) + 0.0
    nonzero = d[d != 0]
    if len(nonzero) == 0:
        return 0.0, 1.0, 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sp_wilcoxon(d, zero_method=zero_method, alternative="two-sided", method=method)
    ranks = rankdata(np.abs(nonzero))
    r_plus = float(ranks[nonzero > 0].sum())
    r_minus = float(ranks[nonzero < 0].sum())
    p = float(res.pvalue)
    if np.isnan(p):  # pragma: no cover - defensive: scipy gives NaN only for all-zero input
        p = 1.0
    return float(res.statistic), p, float(np.sign(r_plus - r_minus))


def t_statistic(total: np.ndarray, total_sq: np.ndarray, n: int) -> np.ndarray:
    """t = mean / (sd / sqrt(n)) from the sums of the values and of their squares (sd with n - 1).

    A sample whose values are all equal (sd = 0) has t = 0 when its mean is 0 and +-inf
    otherwise: identical runs are never significant, a constant non-zero difference always is.
    """
    mean = total / n
    var = (total_sq - total * mean) / (n - 1)
    # var is exactly 0 for equal values; cancellation leaves a few ulps, treat those as 0
    tiny = 1e-12 * np.maximum(total_sq / n, 1e-300)
    var = np.where(var <= tiny, 0.0, var)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(var / n)
        return np.where(var > 0, t, np.where(mean == 0, 0.0, np.sign(mean) * np.inf))


# --------------------------------------------------------------------------------------------
# many pairs at once: d[pair, topic] = X_b - X_a
# --------------------------------------------------------------------------------------------


@dataclass
class PairedTest:
    """One test over many pairs: ``statistic``, ``df`` (NaN when the test has none) and two-sided
    ``p`` per pair."""

    statistic: np.ndarray
    df: np.ndarray
    p: np.ndarray


def paired_t(d: np.ndarray) -> PairedTest:
    """Paired two-sided t-test of every row of ``d`` (pairs, n): t = mean(d) / (s_d / sqrt(n)),
    s_d with ddof 1, df = n - 1, p = 2 P(T_{n-1} >= |t|); equal to ``scipy.stats.ttest_rel``.
    Rows whose rounded differences are all 0 (identical runs): t = 0, p = 1; a constant non-zero
    difference: t = +-inf, p = 0."""
    from scipy.stats import t as t_dist

    d = np.asarray(d, dtype=np.float64)
    n = d.shape[1]
    mean = d.mean(axis=1)
    sd = d.std(axis=1, ddof=1)
    zero = (tidy(d) == 0).all(axis=1)
    constant = ~zero & (tidy(d - d[:, :1]) == 0).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / math.sqrt(n))
        t = np.where(zero, 0.0, np.where(constant, np.sign(mean) * np.inf, t))
    p = np.minimum(1.0, 2.0 * t_dist.sf(np.abs(t), n - 1))
    return PairedTest(t, np.full(len(t), float(n - 1)), p)


def paired_wilcoxon(d: np.ndarray) -> PairedTest:
    """Two-sided Wilcoxon signed-rank test of every row of ``d`` (pairs, n) on the rounded
    differences (:func:`tidy`; zero differences dropped, ``zero_method='wilcox'``): scipy's
    statistic (the smaller signed-rank sum) and p; all differences 0: statistic 0, p = 1."""
    d = np.asarray(d, dtype=np.float64)
    zeros = np.zeros(d.shape[1])
    stat = np.zeros(len(d))
    p = np.ones(len(d))
    for i, row in enumerate(d):
        stat[i], p[i], _ = wilcoxon(row, zeros, decimals=DECIMALS)
    return PairedTest(stat, np.full(len(d), np.nan), p)


def sign_flips(n: int, B: int, rng: Optional[np.random.Generator]) -> Tuple[np.ndarray, bool]:
    """The sign vectors of the sign-flip test: (B, n) of +-1 drawn uniformly from ``rng``, or
    all 2^n vectors when 2^n <= B (exact test). Returns (signs, exact)."""
    if n <= 30 and 2**n <= B:
        signs = np.array(list(product((1.0, -1.0), repeat=n)), dtype=np.float64).reshape(2**n, n)
        return signs, True
    if rng is None:
        raise ValueError("a random generator is needed when 2^n > B")
    return rng.integers(0, 2, size=(B, n), dtype=np.int8).astype(np.float64) * 2.0 - 1.0, False


def sign_flip(d: np.ndarray, signs: np.ndarray, exact: bool) -> PairedTest:
    """Sign-flip randomisation test of every row of ``d`` (pairs, n) with the given sign vectors.

    T = |mean(d)|, T_b = |sum_t s_bt d_t| / n; Monte Carlo: p = (1 + #{T_b >= T - gamma}) / (B + 1)
    (Phipson & Smyth 2010: never 0); exact (all 2^n vectors): p = #{T_b >= T - gamma} / 2^n.
    gamma = 100 eps T (:func:`at_least`). Identical runs (rounded d all 0): p = 1.
    """
    d = np.asarray(d, dtype=np.float64)
    n = d.shape[1]
    obs = np.abs(d.mean(axis=1))
    count = np.zeros(len(d), dtype=np.int64)
    chunk = max(1, 2_000_000 // max(1, len(d)))
    for a in range(0, len(signs), chunk):
        tb = np.abs(signs[a : a + chunk] @ d.T) / n  # (chunk, pairs)
        count += at_least(tb, obs[None, :]).sum(axis=0)
    total = len(signs)
    p = count / total if exact else (1.0 + count) / (total + 1.0)
    zero = (tidy(d) == 0).all(axis=1)
    p = np.where(zero, 1.0, np.minimum(p, 1.0))
    return PairedTest(np.where(zero, 0.0, obs), np.full(len(d), np.nan), p)


# --------------------------------------------------------------------------------------------
# k runs over n topics: two-way ANOVA without replication, Tukey's HSD
# --------------------------------------------------------------------------------------------


@dataclass
class Anova:
    """Two-way ANOVA without replication (runs x topics, topics as blocks).

    ``V_E`` = sum_it (X_it - xbar_i. - xbar_.t + xbar)^2 / ((k-1)(n-1)) is the residual mean
    square, ``F`` = (n sum_i (xbar_i. - xbar)^2 / (k-1)) / V_E the runs' F statistic with
    ``df_runs`` = k - 1 and ``df_error`` = (k-1)(n-1), ``p`` its p-value."""

    V_E: float
    F: float
    df_runs: int
    df_error: int
    p: float


def anova_two_way(X: np.ndarray) -> Anova:
    """:class:`Anova` of the scores ``X`` (k runs, n topics)."""
    from scipy.stats import f as f_dist

    X = np.asarray(X, dtype=np.float64)
    k, n = X.shape
    if k < 2 or n < 2:
        raise ValueError(f"the two-way ANOVA needs at least 2 runs and 2 topics, got {k} x {n}")
    grand = X.mean()
    runs = X.mean(axis=1, keepdims=True)
    topics = X.mean(axis=0, keepdims=True)
    df_e = (k - 1) * (n - 1)
    ve = float(((X - runs - topics + grand) ** 2).sum() / df_e)
    ms_runs = float(n * ((runs - grand) ** 2).sum() / (k - 1))
    if tidy(np.array([ve]))[0] == 0:
        F = 0.0 if tidy(np.array([ms_runs]))[0] == 0 else math.inf
        ve = 0.0
    else:
        F = ms_runs / ve
    return Anova(ve, F, k - 1, df_e, float(f_dist.sf(F, k - 1, df_e)) if math.isfinite(F) else 0.0)


def tukey_hsd(X: np.ndarray, a: np.ndarray, b: np.ndarray) -> Tuple[PairedTest, Anova]:
    """Tukey's HSD on the two-way ANOVA without replication (topics as blocks) for the pairs
    (a[i], b[i]) of the k runs of ``X``: q = |xbar_b - xbar_a| / sqrt(V_E / n),
    p = ``scipy.stats.studentized_range.sf(q, k, (k-1)(n-1))``; simultaneous over all k(k-1)/2
    pairs. Not ``scipy.stats.tukey_hsd`` nor statsmodels' ``pairwise_tukeyhsd``: both treat the
    runs as independent groups and ignore the pairing by topic."""
    from scipy.stats import studentized_range

    X = np.asarray(X, dtype=np.float64)
    k, n = X.shape
    anova = anova_two_way(X)
    diff = tidy(X[b].mean(axis=1) - X[a].mean(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(diff) / math.sqrt(anova.V_E / n)
    q = np.where(diff == 0, 0.0, q)
    p = np.where(q == 0, 1.0, studentized_range.sf(np.where(np.isfinite(q), q, 0.0), k, anova.df_error))
    p = np.where(np.isinf(q), 0.0, np.clip(p, 0.0, 1.0))
    return PairedTest(q, np.full(len(q), float(anova.df_error)), p), anova


def tukey_half_width(anova: Anova, k: int, n: int, level: float) -> float:
    """Half-width of Tukey's simultaneous intervals: q_{level; k, (k-1)(n-1)} sqrt(V_E / n)."""
    from scipy.stats import studentized_range

    return float(studentized_range.ppf(level, k, anova.df_error) * math.sqrt(anova.V_E / n))


def topic_permutations(k: int, n: int, B: int, rng: Optional[np.random.Generator]) -> Tuple[np.ndarray, bool]:
    """The draws of the randomised Tukey test: (B, n, k) permutations of the k runs within each
    topic, from ``rng``; or all (k!)^n of them when that is <= B (exact). Returns (perms, exact)."""
    if math.factorial(k) ** n <= B:
        each = np.array(list(permutations(range(k))), dtype=np.int64)
        idx = np.array(list(product(range(len(each)), repeat=n)), dtype=np.int64).reshape(-1, n)
        return each[idx], True
    if rng is None:
        raise ValueError("a random generator is needed when (k!)^n > B")
    # drawn in chunks (the same stream as one call) and kept as small integers: B = 10^4 draws of
    # 17 runs x 100 topics hold 17 MB instead of 136 MB of float64 plus as much of int64
    out = np.empty((B, n, k), dtype=np.uint8 if k <= 255 else np.int64)
    step = max(1, 1_000_000 // max(1, n * k))
    for a in range(0, B, step):
        m = min(step, B - a)
        out[a : a + m] = np.argsort(rng.random((m, n, k)), axis=2)
    return out, False


def max_range(X: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """R_b = max_i xbar*_i - min_i xbar*_i for each draw b of ``perms`` (B, n, k): run i gets
    topic t's score of run perms[b, t, i]."""
    X = np.asarray(X, dtype=np.float64)
    k, n = X.shape
    xt = X.T  # (n, k)
    out = np.empty(len(perms))
    chunk = max(1, 4_000_000 // max(1, n * k))
    cols = np.arange(n)[None, :, None]
    for a in range(0, len(perms), chunk):
        p = perms[a : a + chunk]
        means = xt[cols, p].mean(axis=1)  # (chunk, k)
        out[a : a + chunk] = means.max(axis=1) - means.min(axis=1)
    return out


def randomised_tukey(
    X: np.ndarray, a: np.ndarray, b: np.ndarray, ranges: np.ndarray, exact: bool
) -> PairedTest:
    """Randomised Tukey HSD (Carterette, TOIS 2012) for the pairs (a[i], b[i]) given the range
    distribution ``ranges`` (:func:`max_range`): p = (1 + #{R_b >= |xbar_b - xbar_a|}) / (B + 1),
    or the exact share when ``ranges`` holds every permutation.

    A range equal to the observed difference in exact arithmetic counts (section 3.5), with the
    rounding to :data:`DECIMALS` places applied once, to the quantity compared, on the unrounded
    means: R_b counts when tidy(R_b - |xbar_b - xbar_a|) >= 0. Rounding |xbar_b - xbar_a| first
    and comparing it again moved it by up to half a unit of the 12th place, far beyond the ulps
    a tolerance of 100 eps covers: two runs (0, 0, 0) and (0.41, 0, 0) have |delta| = 41/300
    = R_b for every permutation, p = 1, but 0.13666666666666666 rounds up to 0.136666666667 and
    p came out 0. The statistic reported is the rounded |delta|."""
    X = np.asarray(X, dtype=np.float64)
    raw = X[b].mean(axis=1) - X[a].mean(axis=1)
    diff = tidy(raw)
    obs = np.abs(raw)
    count = np.zeros(len(obs), dtype=np.int64)
    chunk = max(1, 2_000_000 // max(1, len(obs)))
    for s in range(0, len(ranges), chunk):
        count += (tidy(ranges[s : s + chunk, None] - obs[None, :]) >= 0).sum(axis=0)
    total = len(ranges)
    p = count / total if exact else (1.0 + count) / (total + 1.0)
    p = np.where(diff == 0, 1.0, np.minimum(p, 1.0))
    return PairedTest(np.abs(diff), np.full(len(obs), np.nan), p)


# --------------------------------------------------------------------------------------------
# multiple testing, intervals
# --------------------------------------------------------------------------------------------

#: corrections that control the family-wise error rate (simultaneous intervals: Bonferroni / Sidak)
FWER_METHODS = (
    "bonferroni",
    "holm",
    "holm-sidak",
    "sidak",
    "simes-hochberg",
    "hommel",
    "b",
    "h",
    "hs",
    "s",
    "sh",
    "ho",
)
#: corrections that control the false discovery rate (intervals: Benjamini & Yekutieli's FCR)
FDR_METHODS = ("fdr_bh", "fdr_by", "fdr_tsbh", "fdr_tsbky", "fdr_i", "fdr_n", "fdr_twostage")


def correct(p: np.ndarray, alpha: float, method: str) -> Tuple[np.ndarray, np.ndarray]:
    """(adjusted p, reject) of one family: ``statsmodels.stats.multitest.multipletests(p, alpha,
    method)``; ``method='none'``: p itself, reject when p <= alpha."""
    p = np.asarray(p, dtype=np.float64)
    if method == "none" or len(p) == 0:
        return p.copy(), p <= alpha
    require("statsmodels")
    import gc

    from statsmodels.stats.multitest import multipletests

    # statsmodels' Holm branch calls gc.collect(), a full collection that costs ~50 ms per family
    # with pandas and scipy loaded; freezing the live objects first makes it a no-op scan
    gc.freeze()
    try:
        reject, p_adj, _, _ = multipletests(p, alpha=alpha, method=method)
    finally:
        gc.unfreeze()
    return np.asarray(p_adj, dtype=np.float64), np.asarray(reject, dtype=bool)


def check_correction(method: str) -> str:
    """``method`` if statsmodels' multipletests knows it (or 'none'), else a ValueError."""
    if method == "none":
        return method
    known = set(FWER_METHODS) | set(FDR_METHODS)
    if method not in known:
        raise ValueError(
            f"unknown correction {method!r}; use none, holm, bonferroni, fdr_bh, or another "
            "statsmodels multipletests method: " + ", ".join(sorted(known))
        )
    return method


def interval_level(ci: float, method: str, m: int, rejected: int) -> float:
    """Confidence level of each of m intervals so that they hold together as the correction does:
    'none' -> ci; a family-wise correction -> 1 - (1 - ci)/m (Bonferroni; ``sidak`` /
    ``holm-sidak``: ci^(1/m)); a false-discovery-rate correction -> 1 - R (1 - ci)/m with R the
    number of rejections, at least 1 (Benjamini & Yekutieli's false-coverage-rate intervals, JASA
    2005)."""
    if method == "none" or m <= 1:
        return ci
    if method in ("sidak", "holm-sidak", "s", "hs"):
        return ci ** (1.0 / m)
    if method in FDR_METHODS:
        return 1.0 - max(1, rejected) * (1.0 - ci) / m
    return 1.0 - (1.0 - ci) / m


def t_interval(d: np.ndarray, level: float) -> Tuple[np.ndarray, np.ndarray]:
    """The t-interval of mean(d) for each row of ``d`` at ``level``: mean +- t_{(1+level)/2, n-1}
    s_d / sqrt(n); equal to ``scipy.stats.ttest_rel(...).confidence_interval(level)``. Identical
    runs: [0, 0]."""
    from scipy.stats import t as t_dist

    d = np.asarray(d, dtype=np.float64)
    n = d.shape[1]
    mean = d.mean(axis=1)
    se = d.std(axis=1, ddof=1) / math.sqrt(n)
    half = t_dist.ppf(0.5 + level / 2.0, n - 1) * se
    zero = (tidy(d) == 0).all(axis=1)
    return np.where(zero, 0.0, mean - half), np.where(zero, 0.0, mean + half)


# --------------------------------------------------------------------------------------------
# the interval of one run's mean over topics (the main command's --ci, calc_intervals, compare)
# --------------------------------------------------------------------------------------------

#: methods of :func:`mean_interval`
INTERVAL_METHODS = ("t", "bootstrap", "bootstrap-percentile")

#: resamples of the bootstrap intervals when none are asked for (scipy.stats.bootstrap's default)
DEFAULT_RESAMPLES = 9999
#: the fewest resamples a bootstrap interval is made from: with fewer its ends are a handful of
#: resample means (with 1, both ends are that one mean, which need not be near the run's mean;
#: BCa's bias correction divides by zero), so fewer is refused rather than printed
MIN_RESAMPLES = 100


def check_interval(
    level: Any, method: str = "t", n_resamples: Any = DEFAULT_RESAMPLES, seed: Any = None
) -> None:
    """ValueError for a parameter of :func:`mean_interval` out of range: ``level`` must be a
    number in (0, 1), ``method`` one of :data:`INTERVAL_METHODS`, ``n_resamples`` a positive
    integer (for a bootstrap at least :data:`MIN_RESAMPLES`), ``seed`` None or a non-negative
    integer."""
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0.0 < level < 1.0:
        raise ValueError(f"the confidence level must be a number in (0, 1) (0.95 for 95 %), got {level!r}")
    if method not in INTERVAL_METHODS:
        raise ValueError(f"unknown interval method {method!r}; use one of {', '.join(INTERVAL_METHODS)}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"the number of bootstrap resamples must be a positive integer, got {n_resamples!r}")
    if method != "t" and n_resamples < MIN_RESAMPLES:
        raise ValueError(
            f"a bootstrap interval needs at least {MIN_RESAMPLES} resamples, got {n_resamples!r}"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"the seed must be a non-negative integer, got {seed!r}")


def mean_interval(
    values: Any,
    level: float = 0.95,
    method: str = "t",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Optional[int] = None,
) -> Tuple[float, float]:
    """(low, high): the two-sided interval at ``level`` of the mean of ``values`` (one run's
    per-topic scores of one measure), the topics taken as a sample of the topics that could
    have been chosen.

    * ``"t"``: Student's interval, mean +- t_{(1+level)/2, n-1} s / sqrt(n) with s the standard
      deviation with n - 1 (:func:`t_quantile`); what ``scipy.stats.t.interval(level, n - 1,
      loc=mean, scale=scipy.stats.sem(values))`` gives.
    * ``"bootstrap"``: Efron's bias-corrected and accelerated (BCa) interval, exactly
      ``scipy.stats.bootstrap((values,), np.mean, confidence_level=level,
      n_resamples=n_resamples, method='BCa', rng=np.random.default_rng(seed))`` (scipy before
      1.15 spells ``rng`` ``random_state``; both give the same draws). A fresh generator per
      call: the interval of a run and measure does not depend on which others were asked for.
    * ``"bootstrap-percentile"``: the same with ``method='percentile'``.

    Defined behaviour where the formulas are not: fewer than 2 values (one topic says nothing
    about how topics vary) or a NaN among them: (nan, nan). Every value the same (rounded to
    :data:`DECIMALS` places, section 3.5): (mean, mean) for every method -- zero spread, and
    every resample has that mean (the t formula gives it; scipy's BCa would return nan with a
    DegenerateDataWarning, as its acceleration is 0/0). A BCa interval scipy cannot compute for
    another reason comes back as scipy returns it (nan), with its warning.
    """
    check_interval(level, method, n_resamples, seed)
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    n = len(x)
    if n < 2 or np.isnan(x).any():
        return math.nan, math.nan
    mean = float(x.mean())
    rounded = tidy(x)
    if (rounded == rounded[0]).all():
        return mean, mean
    if method == "t":
        half = t_quantile(float(level), n) * float(x.std(ddof=1)) / math.sqrt(n)
        return mean - half, mean + half
    from scipy.stats import bootstrap

    kind = "BCa" if method == "bootstrap" else "percentile"
    import inspect

    # scipy >= 1.15 takes the generator as rng; before, as random_state (the same draws)
    spelling = "rng" if "rng" in inspect.signature(bootstrap).parameters else "random_state"
    res = bootstrap(
        (x,),
        np.mean,
        confidence_level=level,
        n_resamples=n_resamples,
        method=kind,
        **{spelling: np.random.default_rng(seed)},
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)
