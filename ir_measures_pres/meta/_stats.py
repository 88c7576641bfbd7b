"""Statistics of the meta-evaluation: Kendall's tau, the Wilcoxon signed-rank test, Sakai's
paired bootstrap test. scipy is imported only here, lazily."""

from __future__ import annotations

import warnings
from typing import Tuple

import numpy as np


def require(module: str) -> None:
    """Raise an ImportError that names the extra when an optional dependency is missing."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"the meta-evaluation needs {module}; install it with: pip install '.[meta]' in a clone of "
            "ir_measures_pres (or: pip install scipy pandas matplotlib)"
        ) from exc


def kendall_tau(x: np.ndarray, y: np.ndarray) -> Tuple[float, float]:
    """Kendall's tau-b of two score vectors over the same systems, and its two-sided p-value.

    ``scipy.stats.kendalltau`` (variant 'b'): tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2)) with C/D
    the concordant/discordant pairs, n0 = n(n-1)/2 and n1, n2 the pairs tied in x, in y. A pair
    tied in one ranking counts neither as concordant nor as discordant; the denominator shrinks
    accordingly. Ranking by mean score or by the score itself gives the same tau. NaN when one
    of the rankings puts every system level; exactly 1.0 when the two score vectors are equal.
    """
    from scipy.stats import kendalltau

    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan"), float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = kendalltau(x, y)
    # identical scores: exactly 1 (scipy's floating point can give 0.9999999999999999)
    return (1.0 if np.array_equal(x, y) else float(res[0])), float(res[1])


#: zero differences: discarded before ranking (Wilcoxon's original procedure, R's wilcox.test).
ZERO_METHOD = "wilcox"


def wilcoxon(
    x: np.ndarray, y: np.ndarray, zero_method: str = ZERO_METHOD, method: str = "auto"
) -> Tuple[float, float, float]:
    """Paired two-sided Wilcoxon signed-rank test of x against y over topics.

    Returns (statistic, p-value, direction): ``scipy.stats.wilcoxon(x, y, zero_method=...,
    alternative='two-sided', method=...)``; scipy's default ``method='auto'`` takes the exact
    distribution for up to 50 topics without ties or zero differences, an exhaustive (exact,
    but slow: 2^n sign patterns) permutation test for up to 13 topics with ties or zeros, and
    the normal approximation otherwise; ``'asymptotic'`` always takes the latter. And
    direction = sign(R+ - R-), the sums of the ranks of |d| (average ranks for ties) over the
    positive and the negative differences d = x - y (zero differences dropped): +1 when x is
    better. When every difference is zero the runs are indistinguishable: (0, 1.0, 0), no
    scipy call (scipy would return NaN).
    """
    from scipy.stats import rankdata
    from scipy.stats import wilcoxon as sp_wilcoxon

    d = np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)
    nonzero = d[d != 0]
    if len(nonzero) == 0:
        return 0.0, 1.0, 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sp_wilcoxon(x, y, zero_method=zero_method, alternative="two-sided", method=method)
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


def bootstrap_counts(n_topics: int, b: int, rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray]:
    """B bootstrap samples of the topics (drawn with replacement): the (B, n) index matrix and
    the (B, n) matrix of how often each topic is drawn in each sample."""
    idx = rng.integers(0, n_topics, size=(b, n_topics))
    counts = np.zeros((b, n_topics), dtype=np.float64)
    np.add.at(counts, (np.repeat(np.arange(b), n_topics), idx.reshape(-1)), 1.0)
    return idx, counts


def bootstrap_test(
    z: np.ndarray, counts: np.ndarray, alpha: float, unshifted: bool = False
) -> Tuple[np.ndarray, ...]:
    """Sakai's paired bootstrap test for many pairs at once.

    ``z`` (pairs, n) holds per-topic differences, ``counts`` (B, n) the bootstrap samples.
    For each pair: t(z) = mean(z) / (sd(z)/sqrt(n)); w = z - mean(z); for each sample b the
    shifted replicate w*b; ASL = #{b : |t(w*b)| >= |t(z)|} / B. The estimated difference
    required at alpha is |mean(w*b)| = |mean(z*b) - mean(z)| of the replicate whose |t(w*b)| is
    the ceil(alpha * B)-th largest (the first such replicate when several tie), as in Sakai's
    SIGIR 2006 Figure 5.

    Returns (t(z), ASL, difference required), one value per pair; with ``unshifted=True`` also
    |mean(z*b)| of that same replicate (the unshifted reading, which adds mean(z) back: reported
    beside Sakai's value so either reading can be checked).
    """
    z = np.asarray(z, dtype=np.float64)
    p, n = z.shape
    b = counts.shape[0]
    t_obs = t_statistic(z.sum(axis=1), (z * z).sum(axis=1), n)
    w = z - z.mean(axis=1, keepdims=True)
    s1 = w @ counts.T  # (pairs, B) sums of the replicates
    s2 = (w * w) @ counts.T
    t_star = np.abs(t_statistic(s1, s2, n))
    asl = (t_star >= np.abs(t_obs)[:, None]).sum(axis=1) / b
    k = max(1, int(np.ceil(alpha * b)))
    kth = -np.sort(-t_star, axis=1)[:, k - 1]
    first = np.argmax(t_star == kth[:, None], axis=1)
    shifted_mean = s1[np.arange(p), first] / n
    diff = np.abs(shifted_mean)
    if unshifted:
        return t_obs, asl, diff, np.abs(shifted_mean + z.mean(axis=1))
    return t_obs, asl, diff
