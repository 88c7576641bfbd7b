"""The tests the meta-evaluation runs on a measure, built on :mod:`.significance`'s t
statistic and rounding: Sakai's paired bootstrap test of many run pairs at once (the
discriminative power, Sakai SIGIR 2006) and the swap method's topic samples, bins and
sensitivity (Voorhees & Buckley SIGIR 2002; Sakai's bootstrap variant).

As everywhere in :mod:`ir_measures_pres.stats`, values equal mathematically compare equal:
differences are rounded to :data:`~.significance.DECIMALS` places before they are tested, binned
or counted as swaps (see :mod:`.significance`).
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from .significance import T_TOLERANCE, t_statistic, tidy

# --------------------------------------------------------------------------------------------
# Sakai's paired bootstrap test (discriminative power)
# --------------------------------------------------------------------------------------------


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
    |mean(z*b)| of that same replicate (the unshifted reading, which
    adds mean(z) back: reported beside Sakai's value so either reading can be checked).
    """
    # differences equal to 0 in exact arithmetic are 0 (section 3.5): two runs that are the same
    # up to an ulp per topic have t = 0 and ASL = 1, not a t built from rounding noise
    z = tidy(z)
    p, n = z.shape
    b = counts.shape[0]
    t_obs = t_statistic(z.sum(axis=1), (z * z).sum(axis=1), n)
    w = z - z.mean(axis=1, keepdims=True)
    s1 = w @ counts.T  # (pairs, B) sums of the replicates
    s2 = (w * w) @ counts.T
    t_star = np.abs(t_statistic(s1, s2, n))
    # |t| equal in exact arithmetic counts as "at least as extreme" (section 3.5: tolerance 1e-9)
    asl = (t_star >= np.abs(t_obs)[:, None] - T_TOLERANCE).sum(axis=1) / b
    k = max(1, int(np.ceil(alpha * b)))
    kth = -np.sort(-t_star, axis=1)[:, k - 1]
    first = np.argmax(t_star == kth[:, None], axis=1)
    shifted_mean = s1[np.arange(p), first] / n
    diff = np.abs(shifted_mean)
    if unshifted:
        return t_obs, asl, diff, np.abs(shifted_mean + z.mean(axis=1))
    return t_obs, asl, diff


# --------------------------------------------------------------------------------------------
# the swap method (Voorhees & Buckley 2002; Sakai's bootstrap variant): sensitivity
# --------------------------------------------------------------------------------------------

#: how the two topic samples of the swap method are drawn
SWAP_SAMPLING = ("bootstrap", "disjoint")


def swap_samples(
    n: int, B: int, rng: np.random.Generator, sampling: str = "bootstrap", size: Optional[int] = None
) -> Tuple[np.ndarray, np.ndarray, int]:
    """The B pairs of topic samples of the swap method, as two (B, n) matrices of how often each
    topic is drawn, and the sample size c.

    ``sampling='bootstrap'`` (Sakai's variant, the default): both samples of each pair drawn with
    replacement, independently, c = ``size`` or n topics each. ``'disjoint'`` (Voorhees &
    Buckley): one permutation of the topics per pair; the first c topics form the first sample,
    the next c the second (c = ``size`` or floor(n/2); c <= n/2 so that they are disjoint).
    """
    if sampling not in SWAP_SAMPLING:
        raise ValueError(f"unknown sampling {sampling!r}; choose one of {', '.join(SWAP_SAMPLING)}")
    if B < 1:
        raise ValueError(f"B must be >= 1, got {B}")
    if sampling == "bootstrap":
        c = n if size is None else int(size)
        if c < 1:
            raise ValueError(f"the sample size must be >= 1, got {c}")
        rows = (np.arange(B, dtype=np.int64) * n)[:, None]
        out = []
        for _ in range(2):
            idx = rng.integers(0, n, size=(B, c)) + rows
            out.append(np.bincount(idx.reshape(-1), minlength=B * n).reshape(B, n).astype(np.float64))
        return out[0], out[1], c
    c = n // 2 if size is None else int(size)
    if not 1 <= c <= n // 2:
        raise ValueError(f"disjoint samples need a size from 1 to n/2 = {n // 2} topics, got {c}")
    perm = np.argsort(rng.random((B, n)), axis=1)
    first = np.zeros((B, n))
    second = np.zeros((B, n))
    np.put_along_axis(first, perm[:, :c], 1.0, axis=1)
    np.put_along_axis(second, perm[:, c : 2 * c], 1.0, axis=1)
    return first, second, c


def swap_bins(d1: np.ndarray, d2: np.ndarray, width: float) -> Tuple[np.ndarray, np.ndarray]:
    """Observations and swaps per bin of |d1| (bin k = [k width, (k+1) width)).

    ``d1``, ``d2``: mean differences of the same run pairs on the first and second sample of each
    draw (any matching shapes). Both are rounded to :data:`DECIMALS` places first (section 3.5),
    and so is |d1| / width before it is floored, so a difference equal to a bin edge in exact
    arithmetic falls in the bin that starts there. A swap is d1 * d2 < 0: a difference of 0 in
    either sample is never a swap. Returns (observations, swaps), integer arrays over bins
    0..max.
    """
    d1 = tidy(d1).reshape(-1)
    d2 = tidy(d2).reshape(-1)
    if width <= 0:
        raise ValueError(f"the bin width must be > 0, got {width}")
    bins = np.floor(tidy(np.abs(d1) / width)).astype(np.int64)
    swap = (d1 * d2) < 0
    nb = int(bins.max()) + 1 if len(bins) else 0
    obs = np.bincount(bins, minlength=nb)
    swaps = np.bincount(bins[swap], minlength=nb)
    return obs, swaps


def swap_sensitivity(
    observations: np.ndarray, swaps: np.ndarray, width: float, max_rate: float = 0.05
) -> Tuple[float, float]:
    """(difference required, sensitivity) from the bins of :func:`swap_bins`.

    The difference required is the smallest bin edge k * width from which every bin with
    observations has a swap rate <= ``max_rate`` (rates compared after rounding to
    :data:`DECIMALS` places: 1/20 is 0.05); the sensitivity is the share of all observations in
    those bins, |d1| >= the difference required. No observation: (NaN, NaN).
    """
    obs = np.asarray(observations, dtype=np.int64)
    sw = np.asarray(swaps, dtype=np.int64)
    total = int(obs.sum())
    if total == 0:
        return float("nan"), float("nan")
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(obs > 0, sw / np.maximum(obs, 1), 0.0)
    bad = np.nonzero((obs > 0) & (tidy(rate) > tidy(np.array([max_rate]))[0]))[0]
    k = int(bad.max()) + 1 if len(bad) else 0
    return float(np.round(k * width, 10)), float(obs[k:].sum() / total)
