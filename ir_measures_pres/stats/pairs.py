"""The tests of every pair of runs: what :func:`~.comparison.compare` and
:func:`~.comparison.compare_scores` do once the per-topic values are in one array.

:func:`compare_values` takes the values (measures x runs x topics), drops the topics the
``topics`` rule leaves out (and those where a measure is undefined), makes the pairs (each
baseline against every other run, or all k(k-1)/2 pairs), and for each measure computes the
means, each run's interval, the deltas, wins/ties/losses, the effect sizes, the test of the pairs
(:mod:`.significance`), the correction and the intervals of delta, as the module docstring of
:mod:`.comparison` states them; the result is a :class:`~.tables.Comparison`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import stats
from ..engine.lacking import lacking_topics
from ..measures.summary import SUM, summary_of_name
from .tables import COLUMNS, SIMULTANEOUS, Comparison

# --------------------------------------------------------------------------------------------
# the computation
# --------------------------------------------------------------------------------------------


def _baseline_indices(baseline: Any, runs: List[str]) -> Optional[List[int]]:
    if baseline is None:
        return None
    items = [baseline] if isinstance(baseline, (str, int, np.integer)) else list(baseline)
    out: List[int] = []
    for b in items:
        if isinstance(b, (int, np.integer)) and not isinstance(b, bool):
            if not 0 <= int(b) < len(runs):
                raise ValueError(f"baseline index {b} out of range for {len(runs)} runs")
            i = int(b)
        elif str(b) in runs:
            i = runs.index(str(b))
        else:
            hits = [k for k, r in enumerate(runs) if r.endswith("." + str(b))]
            if len(hits) != 1:
                raise ValueError(f"baseline {b!r} is not one of the runs: {', '.join(runs)}")
            i = hits[0]
        if i not in out:
            out.append(i)
    if not out:
        raise ValueError("an empty baseline list")
    return out


def _design(k: int, base: Optional[List[int]]) -> List[Tuple[int, int]]:
    if base is None:
        return [(i, j) for i in range(k) for j in range(i + 1, k)]
    seen = set()
    out = []
    for b in base:
        for j in range(k):
            if j == b or frozenset((b, j)) in seen:
                continue
            seen.add(frozenset((b, j)))
            out.append((b, j))
    return out


def _anova_row(av: Any) -> Dict[str, float]:
    """The ANOVA of one measure as :attr:`Comparison.anova` holds it."""
    return {"V_E": av.V_E, "F": av.F, "df_runs": av.df_runs, "df_error": av.df_error, "p": av.p}


def compare_values(
    runs: List[str],
    measures: List[str],
    query_ids: List[str],
    values: np.ndarray,
    missing: Dict[str, List[str]],
    baseline: Any,
    test: str,
    correction: str,
    alpha: float,
    B: int,
    seed: int,
    ci: float,
    topics: str,
    metadata: Dict[str, Any],
    missing_rule: str,
    run_ci: Optional[str] = None,
) -> Comparison:
    import pandas as pd

    notes: List[str] = []
    k = len(runs)
    resamples = B  # the bootstrap of each run's interval: B as asked (the tests may raise theirs)
    short = {r: q for r, q in missing.items() if q}
    if topics == "intersection":
        drop = set(q for qs in missing.values() for q in qs)
        keep = np.array([q not in drop for q in query_ids], dtype=bool)
        if drop:
            msg = (
                f"topics=intersection: {len(drop)} topic(s) some run lacks are left out "
                f"(trec_eval without -c); every qrels topic counts by default"
            )
            warnings.warn(msg, stacklevel=3)
            notes.append(msg)
        values = values[:, :, keep]
        query_ids = [q for q, ok in zip(query_ids, keep) if ok]
    elif short:
        for r, qs in short.items():
            notes.append(lacking_topics(r, qs, len(query_ids), missing_rule))
            warnings.warn(notes[-1], stacklevel=3)
    undefined = np.isnan(values).any(axis=(0, 1))
    if undefined.any():  # a measure undefined there (Coverage with K ∩ R empty): not paired
        gone = [q for q, bad in zip(query_ids, undefined.tolist()) if bad]
        which = [m for i, m in enumerate(measures) if np.isnan(values[i]).any()]
        msg = (
            f"{len(gone)} topic(s) where {', '.join(which)} {'is' if len(which) == 1 else 'are'} "
            f"undefined are left out of the "
            f"comparison of every measure: {', '.join(gone[:10])}{' ...' if len(gone) > 10 else ''}"
        )
        warnings.warn(msg, stacklevel=3)
        notes.append(msg)
        values = values[:, :, ~undefined]
        query_ids = [q for q, bad in zip(query_ids, undefined.tolist()) if not bad]
    n = len(query_ids)
    if n < 2:
        raise ValueError(f"a comparison needs at least 2 topics, got {n}")
    base = _baseline_indices(baseline, runs)
    design = _design(k, base)
    a = np.array([i for i, _ in design], dtype=np.int64)
    b = np.array([j for _, j in design], dtype=np.int64)
    m = len(design)
    params: Dict[str, Any] = {
        "test": test,
        "correction": "none" if test in SIMULTANEOUS else correction,
        "alpha": alpha,
        "B": None,
        "seed": seed,
        "ci": ci,
        "topics": topics,
        "design": "baseline" if base is not None else "all pairs",
        "family": f"the {m} pairs of one measure",
        "run_ci": run_ci or "t",
        "run_ci_shown": run_ci is not None,
    }
    if test in SIMULTANEOUS and correction not in ("none", "holm"):
        notes.append(f"{test}: the test is simultaneous over all pairs; correction {correction} not applied")
    rng = np.random.default_rng(seed)
    signs: Optional[np.ndarray] = None
    exact = False
    if test == "perm":
        need = alpha / m if correction != "none" else alpha
        if 1.0 / (B + 1.0) > need and 2 ** min(n, 63) > B:
            newB = int(math.ceil(10 * (m if correction != "none" else 1) / alpha))
            notes.append(
                f"B raised from {B:,} to {newB:,}: the smallest p, 1/(B+1), must be able to survive "
                f"the correction of {m} tests at alpha {alpha:g}"
            )
            B = newB
        signs, exact = stats.sign_flips(n, B, rng)
        params["B"] = len(signs) if exact else B
        if exact and 2.0 / len(signs) > need:
            notes.append(
                f"with {n} topics the exact sign-flip test's smallest p is 2/2^{n} = "
                f"{2.0 / len(signs):.4g}: no pair can be significant at this level"
            )
    perms = None
    ranges = np.zeros(0)
    if test == "rtukey":
        if 1.0 / (B + 1.0) > alpha and math.factorial(k) ** n > B:
            newB = int(math.ceil(10 / alpha))
            notes.append(f"B raised from {B:,} to {newB:,}: the smallest p, 1/(B+1), must be below alpha")
            B = newB
        perms, exact = stats.topic_permutations(k, n, B, rng)
        params["B"] = len(perms) if exact else B
    params["exact"] = exact
    params["simultaneous_ci"] = test in SIMULTANEOUS or (correction != "none" and m > 1)
    frames = []
    anova: Dict[str, Dict[str, float]] = {}
    means: Dict[str, Dict[str, float]] = {}
    intervals: Dict[str, Dict[str, Tuple[float, float]]] = {}
    # each run's interval is made on its values in query-id order (stats.intervals.TOPIC_ORDER)
    by_id = np.array(sorted(range(n), key=query_ids.__getitem__), dtype=np.int64)
    for mi, mname in enumerate(measures):
        X = values[mi]
        mean = X.mean(axis=1)
        means[mname] = {r: float(v) for r, v in zip(runs, mean)}
        # each run's own interval over the same topics (not corrected: it is not a test of pairs)
        intervals[mname] = {
            r: stats.mean_interval(X[j, by_id], ci, params["run_ci"], resamples, seed)
            for j, r in enumerate(runs)
        }
        d = X[b] - X[a]
        delta = stats.tidy(mean[b] - mean[a])
        # delta itself unrounded but exactly 0 when it rounds to 0 (identical runs)
        delta = np.where(delta == 0, 0.0, mean[b] - mean[a])
        td = stats.tidy(d)
        wins = (td > 0).sum(axis=1)
        losses = (td < 0).sum(axis=1)
        ties = n - wins - losses
        sd = d.std(axis=1, ddof=1)
        zero = (td == 0).all(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            dz = np.where(zero, 0.0, d.mean(axis=1) / np.where(stats.tidy(sd) == 0, 0.0, sd))
        effect = dz
        if test == "t":
            res = stats.paired_t(d)
        elif test == "wilcoxon":
            res = stats.paired_wilcoxon(d)
        elif test == "perm":
            assert signs is not None
            res = stats.sign_flip(d, signs, exact)
        elif test == "tukey":
            res, av = stats.tukey_hsd(X, a, b)
            anova[mname] = _anova_row(av)
            with np.errstate(divide="ignore", invalid="ignore"):
                effect = np.where(delta == 0, 0.0, delta / math.sqrt(av.V_E))
        else:
            assert perms is not None
            # runs in name order, so that the draws do not depend on the order the runs came in
            ranges = stats.max_range(X[np.argsort(np.array(runs, dtype=object), kind="stable")], perms)
            res = stats.randomised_tukey(X, a, b, ranges, exact)
            av = stats.anova_two_way(X)
            anova[mname] = _anova_row(av)
            with np.errstate(divide="ignore", invalid="ignore"):
                effect = np.where(delta == 0, 0.0, delta / math.sqrt(av.V_E))
        if test in SIMULTANEOUS:
            p_adj, reject = res.p.copy(), res.p <= alpha
            if test == "tukey":
                half = stats.tukey_half_width(stats.anova_two_way(X), k, n, ci)
            else:
                half = float(np.quantile(ranges, ci, method="higher"))
            lo = np.where(delta == 0, 0.0, delta - half)
            hi = np.where(delta == 0, 0.0, delta + half)
        else:
            p_adj, reject = stats.correct(res.p, alpha, correction)
            level = stats.interval_level(ci, correction, m, int(reject.sum()))
            lo, hi = stats.t_interval(d, level)
        with np.errstate(divide="ignore", invalid="ignore"):
            pct = np.where(mean[a] != 0, 100.0 * delta / mean[a], np.nan)
        if summary_of_name(mname) == SUM:  # a count: its one number is the sum over the topics
            mean, delta, lo, hi = mean * n, delta * n, lo * n, hi * n
            means[mname] = {r: v * n for r, v in means[mname].items()}
            intervals[mname] = {r: (u * n, v * n) for r, (u, v) in intervals[mname].items()}
            notes.append(
                f"{mname} is a count: its values, differences and intervals are sums over the {n} topics"
            )
        frames.append(
            pd.DataFrame(
                {
                    "measure": mname,
                    "run_a": [runs[i] for i in a],
                    "run_b": [runs[j] for j in b],
                    "n": n,
                    "mean_a": mean[a],
                    "mean_b": mean[b],
                    "delta": delta,
                    "delta_pct": pct,
                    "ci_low": lo,
                    "ci_high": hi,
                    "effect": effect,
                    "statistic": res.statistic,
                    "df": res.df,
                    "p": res.p,
                    "p_adj": p_adj,
                    "reject": reject.astype(bool),
                    "wins": wins.astype(np.int64),
                    "ties": ties.astype(np.int64),
                    "losses": losses.astype(np.int64),
                }
            )
        )
    pairs = pd.concat(frames, ignore_index=True)[list(COLUMNS)]
    return Comparison(
        runs=runs,
        measures=measures,
        query_ids=query_ids,
        means=means,
        pairs=pairs,
        baseline=[runs[i] for i in base] if base is not None else None,
        missing=missing,
        params=params,
        notes=notes,
        anova=anova,
        metadata=metadata,
        intervals=intervals,
    )
