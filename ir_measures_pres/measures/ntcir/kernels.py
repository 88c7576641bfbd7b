"""Kernels of the NTCIREVAL families (:mod:`.measures`), vectorised over per-topic offsets.

Every kernel works on the *retrieved relevant* documents of the list a measure sees (a
non-relevant or unjudged document adds nothing to any of these sums; it only takes a rank), in
rank order within each topic. Running sums and products that NTCIREVAL accumulates rank by rank
are accumulated here in the same order (:func:`running_in_topics`: one row per topic, accumulated along
the row), so that the values are NTCIREVAL's to the last bit wherever the arithmetic allows,
and its 4-decimal output is reproduced byte for byte.

Topics the run lacks are filled in by the caller with the measure's default, 0, which is also
every measure's value on an empty list.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from ...data.arrays import offsets_from_counts
from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun
from ...data.topics import PerTopic
from ..base import PluginMeasure
from .blended_ratio import blended_ratio, gain_of

Gains = Optional[Dict[int, float]]

#: cells of one padded grid of :func:`running_in_topics` (8 bytes each)
_GRID_CELLS = 1 << 22


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def running_in_topics(
    values: np.ndarray, offsets: np.ndarray, ufunc: Any = np.add, exclusive: bool = False
) -> np.ndarray:
    """Running sum (or product) of ``values`` within each segment of ``offsets``, accumulated
    left to right as a loop over the ranks would (one padded row per segment); ``exclusive``:
    the value before each entry (0, or 1 for a product, at the first)."""
    counts = np.diff(offsets)
    out = np.zeros(len(values))
    if not len(values):
        return out
    shift = 1 if exclusive else 0
    identity = 1.0 if ufunc is np.multiply else 0.0
    # segments by length, in groups of at most _GRID_CELLS cells (one long topic does not make
    # every row as wide as itself)
    order = np.argsort(counts, kind="stable")
    widths = counts[order] + shift
    start = 0
    while start < len(order):
        rows_fit = (np.arange(1, len(order) - start + 1) * widths[start:]) <= _GRID_CELLS
        stop = start + max(1, int(np.count_nonzero(rows_fit)))
        group = order[start:stop]
        sizes = counts[group]
        if sizes.sum():
            grid = np.full((len(group), int(widths[stop - 1])), identity)
            rows = np.repeat(np.arange(len(group)), sizes)
            within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
            index = np.repeat(offsets[group], sizes) + within
            grid[rows, within + shift] = values[index]
            ufunc.accumulate(grid, axis=1, out=grid)
            out[index] = grid[rows, within]
        start = stop
    return out


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0 where den is 0."""
    out = np.zeros(len(num))
    np.divide(num, den, out=out, where=den != 0)
    return out


def _gains_key(gains: Gains) -> Any:
    return None if gains is None else tuple(sorted(gains.items()))


def max_gain(qrels: Qrels, gains: Gains) -> float:
    """g_max: the highest gain of ``gains``, or by default (g(L) = L) the qrels' highest level."""
    if gains is not None:
        positive = [g for k, g in gains.items() if k >= 1]
        return float(max(positive)) if positive else 0.0
    return float(max(int(qrels.labels.max()), 0)) if len(qrels.labels) else 0.0


@dataclass
class Found:
    """The retrieved relevant documents of one list: per entry its topic row, rank, level,
    gain and count(r); per ranked topic the list length, R and N; g_max: the qrels' one value
    (a float) or one per ranked topic (an array: the diversity measures' H, the largest global
    gain of each topic, :mod:`..diversity`)."""

    rel: JudgedList
    q: np.ndarray
    rank: np.ndarray
    level: np.ndarray
    gain: np.ndarray
    count: np.ndarray
    syslen: np.ndarray
    n_rel: np.ndarray
    n_nonrel: np.ndarray
    gmax: Any
    judged: JudgedList

    def gmax_at(self) -> Any:
        """g_max at every entry (a float, or one value per entry)."""
        return self.gmax[self.q] if isinstance(self.gmax, np.ndarray) else self.gmax


def found(ranked: RankedRun, judged_only: bool, cutoff: Optional[int], gains: Gains, name: str) -> Found:
    """:class:`Found` for the list a measure sees, cached on the run."""
    key = ("ntcir-found", judged_only, cutoff, _gains_key(gains))
    return ranked.cached(key, lambda: _found(ranked, judged_only, cutoff, gains, name))  # type: ignore[no-any-return]


def _found(ranked: RankedRun, judged_only: bool, cutoff: Optional[int], gains: Gains, name: str) -> Found:
    judged = ranked.judged_list(judged_only=judged_only, cutoff=cutoff)
    rel = judged.subset(judged.label >= 1)
    q = rel.qidx
    count = rel.within_rank.astype(np.float64)
    qrels = ranked.qrels
    return Found(
        rel=rel,
        q=q,
        rank=rel.rank.astype(np.float64),
        level=rel.label.astype(np.int64),
        gain=gain_of(rel.label, gains, name),
        count=count,
        syslen=judged.lengths.astype(np.int64),
        n_rel=qrels.count(lo=1)[judged.qpos],
        n_nonrel=qrels.count(lo=0, hi=1)[judged.qpos],  # a value < 0 is unjudged (conventions)
        gmax=max_gain(qrels, gains),
        judged=judged,
    )


@dataclass
class Ideal(PerTopic):
    """Per qrels topic, its relevant documents by level descending (the ideal list): offsets,
    levels and gains, and running sums over them."""

    offsets: np.ndarray
    level: np.ndarray
    gain: np.ndarray

    def ranks(self) -> np.ndarray:
        """The 1-based rank of every entry in its topic's ideal list."""
        return self.within_rank.astype(np.float64)

    def at(self, qpos: np.ndarray, k: np.ndarray, running: np.ndarray) -> np.ndarray:
        """``running`` (one value per ideal entry) at rank k of each topic's ideal list (0 at
        k = 0); k is clipped to the topic's R."""
        return self.at_rank(running, k, qpos)


def ideal(qrels: Qrels, gains: Gains, name: str) -> Ideal:
    def make() -> Ideal:
        relevant = qrels.labels >= 1
        qidx = qrels.qidx[relevant]
        level = qrels.labels[relevant].astype(np.int64)
        order = np.lexsort((-level, qidx))
        level = level[order]
        offsets = offsets_from_counts(np.bincount(qidx, minlength=len(qrels.query_ids)))
        return Ideal(offsets, level, gain_of(level, gains, name))

    return qrels.cached(("ntcir-ideal", _gains_key(gains)), make)  # type: ignore[no-any-return]


def _ideal_running(
    qrels: Qrels, gains: Gains, name: str, what: str, values: Callable[[Ideal], np.ndarray]
) -> np.ndarray:
    ide = ideal(qrels, gains, name)
    return qrels.cached(  # type: ignore[no-any-return]
        ("ntcir-ideal-run", what, _gains_key(gains)), lambda: running_in_topics(values(ide), ide.offsets)
    )


def _depth(f: Found, cutoff: Optional[int]) -> np.ndarray:
    """The ideal rank a normalisation looks at: min(l, R) (R without a cutoff)."""
    return f.n_rel if cutoff is None else np.minimum(f.n_rel, cutoff)


# --------------------------------------------------------------------------------------------
# the kernels (one value per ranked topic)
# --------------------------------------------------------------------------------------------


def _stopping_probability(f: Found) -> Tuple[np.ndarray, np.ndarray]:
    """(pi(r), prod_{j<r} (1 - pi(j))) at every retrieved relevant document, pi = g / (g_max + 1)."""
    pi = f.gain / (f.gmax_at() + 1)
    return pi, running_in_topics(1 - pi, f.rel.offsets, np.multiply, exclusive=True)


def err_kernel(f: Found) -> np.ndarray:
    """ERR = sum_r (dsat(r-1) / r) * g(r) / (g_max + 1)."""
    _, dsat = _stopping_probability(f)
    return np.bincount(
        f.q, weights=(dsat / f.rank) * (f.gain / (f.gmax_at() + 1)), minlength=f.rel.num_queries
    )


def ideal_err_running(ide: Ideal, gmax: Any) -> np.ndarray:
    """ERR of the ideal list at every rank (running), per topic of ``ide``; ``gmax`` a float
    or one value per ideal entry."""
    pi = ide.gain / (gmax + 1)
    dsat = running_in_topics(1 - pi, ide.offsets, np.multiply, exclusive=True)
    return running_in_topics((dsat / ide.ranks()) * pi, ide.offsets)


def ideal_err(qrels: Qrels, gains: Gains, name: str, gmax: float) -> np.ndarray:
    """ERR of the ideal list at every rank (running), per qrels topic."""
    ide = ideal(qrels, gains, name)
    return qrels.cached(  # type: ignore[no-any-return]
        ("ntcir-ideal-err", _gains_key(gains), gmax), lambda: ideal_err_running(ide, gmax)
    )


def nerr_from(f: Found, ide: Ideal, running_ideal_err: np.ndarray, cutoff: Optional[int]) -> np.ndarray:
    """nERR@l = ERR@l / ERR_ideal@min(l, R), the ideal list ``ide`` (its ERR ``running_ideal_err``)."""
    best = ide.at(f.rel.qpos, _depth(f, cutoff), running_ideal_err)
    return _ratio(err_kernel(f), best)


def nerr_kernel(f: Found, qrels: Qrels, gains: Gains, name: str, cutoff: Optional[int]) -> np.ndarray:
    """nERR@l = ERR@l / ERR_ideal@min(l, R)."""
    return nerr_from(f, ideal(qrels, gains, name), ideal_err(qrels, gains, name, f.gmax), cutoff)


def ebr_kernel(f: Found, br: np.ndarray) -> np.ndarray:
    """EBR = sum_r BR(r) * dsat(r-1) * g(r) / (g_max + 1)."""
    _, dsat = _stopping_probability(f)
    return np.bincount(f.q, weights=br * dsat * f.gain / (f.gmax_at() + 1), minlength=f.rel.num_queries)


def irbu_kernel(f: Found, p: float) -> np.ndarray:
    """iRBU = sum_r p^r * dsat(r-1) * g(r) / (g_max + 1)."""
    _, dsat = _stopping_probability(f)
    return np.bincount(
        f.q, weights=np.power(p, f.rank) * dsat * f.gain / (f.gmax_at() + 1), minlength=f.rel.num_queries
    )


def _powers(p: float, upto: int) -> np.ndarray:
    """[1, p, p*p, ...] (``upto`` values), each the previous times p, as a loop makes them."""
    out = np.full(max(upto, 1), p)
    out[0] = 1.0
    return np.multiply.accumulate(out)  # type: ignore[no-any-return]


def rbp_kernel(f: Found, p: float) -> np.ndarray:
    """RBP = (1 - p) * sum_r g(r) p^(r-1) / g_max (0 where g_max is 0)."""
    per_topic = isinstance(f.gmax, np.ndarray)
    if not per_topic and f.gmax == 0:
        return np.zeros(f.rel.num_queries)
    upto = int(f.rank.max()) if len(f.rank) else 1
    power = _powers(p, upto)[f.rank.astype(np.int64) - 1]
    total = np.bincount(f.q, weights=f.gain * power, minlength=f.rel.num_queries)
    if per_topic:
        return _ratio((1 - p) * total, f.gmax)
    return (1 - p) * total / f.gmax  # type: ignore[no-any-return]


def orig_dcg_discount(rank: np.ndarray, logb: float) -> np.ndarray:
    """Järvelin and Kekäläinen's discount: 1 up to rank b (and at rank 1), log_b(r) after
    (natural log for b = 0)."""
    out = np.ones(len(rank))
    late = (rank > 1) & (rank > logb)
    logs = np.log(rank[late])
    out[late] = logs if logb == 0 else logs / np.log(logb)
    return out


def ndcg_kernel(
    f: Found, qrels: Qrels, gains: Gains, name: str, cutoff: Optional[int], logb: Optional[float]
) -> np.ndarray:
    """DCG@l / DCG_ideal@min(l, R); ``logb`` None: the MS form (log(r + 1) at every rank)."""
    running = _ideal_running(qrels, gains, name, f"dcg-{logb}", lambda ide: ideal_dcg_terms(ide, logb))
    return ndcg_from(f, ideal(qrels, gains, name), running, cutoff, logb)


def dcg_discount(rank: np.ndarray, logb: Optional[float]) -> np.ndarray:
    """The discount at ``rank``: log(r + 1) (``logb`` None: the MS form) or
    :func:`orig_dcg_discount`."""
    return np.log(rank + 1) if logb is None else orig_dcg_discount(rank, logb)


def ideal_dcg_terms(ide: Ideal, logb: Optional[float]) -> np.ndarray:
    """g / discount at every entry of the ideal list (run through :func:`running_in_topics` for DCG_ideal)."""
    return ide.gain / dcg_discount(ide.ranks(), logb)  # type: ignore[no-any-return]


def ndcg_from(
    f: Found, ide: Ideal, running_ideal_dcg: np.ndarray, cutoff: Optional[int], logb: Optional[float]
) -> np.ndarray:
    """DCG@l / DCG_ideal@min(l, R) against the ideal list ``ide`` (its running DCG given)."""
    dcg = np.bincount(f.q, weights=f.gain / dcg_discount(f.rank, logb), minlength=f.rel.num_queries)
    best = ide.at(f.rel.qpos, _depth(f, cutoff), running_ideal_dcg)
    return _ratio(dcg, best)


def gap_kernel(f: Found, qrels: Qrels, cutoff: Optional[int]) -> np.ndarray:
    """GAP = sum_r (1/r) sum_{j<=r} m(m+1) / sum_ideal L(L+1), m = min(L(r), L(j)), over levels.

    sum_{j<=r} m(m+1) = sum_{v=1}^{L(r)} 2v * #{j <= r: L(j) >= v}: one running count per level."""
    inner = np.zeros(len(f.level))
    top = int(f.level.max()) if len(f.level) else 0
    for v in range(1, top + 1):
        at_least = running_in_topics((f.level >= v).astype(np.float64), f.rel.offsets)
        inner += np.where(f.level >= v, 2.0 * v * at_least, 0.0)
    total = np.bincount(f.q, weights=inner / f.rank, minlength=f.rel.num_queries)
    running = _ideal_running(
        qrels, None, "GAP", "gap", lambda ide: (ide.level * (ide.level + 1)).astype(np.float64)
    )
    best = ideal(qrels, None, "GAP").at(f.rel.qpos, _depth(f, cutoff), running)
    return _ratio(total, best)


def ncu_kernel(
    f: Found, br: np.ndarray, stopping: str, gamma: float, stops: Gains, qrels: Qrels, name: str
) -> np.ndarray:
    """NCU = sum_r P_S(r) BR(r): graded-uniform P_S = s(r) / sum_L X_L s(L), rank-biased
    P_S = gamma^(count(r)-1) / sum_{k=1}^R gamma^(k-1)."""
    if stopping == "gu":
        s = gain_of(f.rel.label, stops, name)
        numerator = np.bincount(f.q, weights=br * s, minlength=f.rel.num_queries)
        levels = np.arange(1, max(int(qrels.labels.max()) if len(qrels.labels) else 0, 0) + 1)
        denom = np.zeros(f.rel.num_queries)
        if len(levels):
            values = gain_of(levels, stops, name)
            for level, value in zip(levels.tolist(), values.tolist()):
                denom = denom + qrels.count(lo=level, hi=level + 1)[f.rel.qpos] * value
        return _ratio(numerator, denom)
    upto = max(int(f.n_rel.max()) if len(f.n_rel) else 0, int(f.count.max()) if len(f.count) else 0)
    power = _pow_table(gamma, upto)
    numerator = np.bincount(
        f.q, weights=br * power[f.count.astype(np.int64) - 1], minlength=f.rel.num_queries
    )
    sums = np.concatenate([[0.0], np.cumsum(power)])
    return _ratio(numerator, sums[f.n_rel])


def _pow_table(base: float, upto: int) -> np.ndarray:
    """[base^0, ..., base^(upto-1)], each by C's ``pow`` (the tool's): numpy's ``power`` can
    differ from it in the last bit, which moves 17-decimal values (one entry per rank, not per
    document)."""
    return np.array([math.pow(base, k) for k in range(upto)], dtype=np.float64)


def bpref_kernel(f: Found, variant: str) -> np.ndarray:
    """The bpref family on the condensed list, summed over the retrieved relevant and divided by R."""
    r = f.n_rel[f.q].astype(np.float64)
    n = f.n_nonrel[f.q].astype(np.float64)
    above = f.rank - f.count
    if variant in ("bpref", "R"):
        mini = np.minimum(r, above)
        den = np.where(r > n, n, r) if variant == "bpref" else r
        terms = 1 - mini / den
    elif variant == "N":
        terms = 1 - above / n
    else:
        terms = np.where(f.rank > 1, 1 - above / np.maximum(f.rank - 1, 1), 0.0)
    total = np.bincount(f.q, weights=terms, minlength=f.rel.num_queries)
    ok = f.n_nonrel > 0
    return np.where(ok, _ratio(total, f.n_rel.astype(np.float64)), 0.0)


def rpref_kernel(f: Found, variant: str, qrels: Qrels, gains: Gains, name: str) -> np.ndarray:
    """The rpref family on the condensed list (see :class:`.measures._RPREF`)."""
    penalty = f.rank - f.count  # each non-relevant document above: (g - 0) / g = 1
    levels = np.unique(f.level)
    for level in levels.tolist():
        g = gain_of(np.array([level]), gains, name)[0]
        before = running_in_topics((f.level == level).astype(np.float64), f.rel.offsets, exclusive=True)
        penalty = penalty + np.where(f.gain > g, before * (f.gain - g) / f.gain, 0.0)
    ide = ideal(qrels, gains, name)
    cg_ideal = ide.at(f.rel.qpos, f.n_rel, _ideal_running(qrels, gains, name, "cg", lambda i: i.gain))
    if variant == "N":
        den = (f.n_rel + f.n_nonrel - cg_ideal / f.gmax)[f.q] if f.gmax else np.ones(len(f.q))
        ratio = 1 - penalty / den
    elif variant == "relative":
        ratio = np.where(f.rank > 1, 1 - penalty / np.maximum(f.rank - 1, 1), 0.0)
    else:
        ratio = 1 - penalty / f.rank
    total = np.bincount(f.q, weights=f.gain * ratio, minlength=f.rel.num_queries)
    return np.where(f.n_nonrel > 0, _ratio(total, cg_ideal), 0.0)


# --------------------------------------------------------------------------------------------
# adapters: a measure's parameters -> its kernel
# --------------------------------------------------------------------------------------------


def _found_for(measure: PluginMeasure, ranked: RankedRun, judged_only: Optional[bool] = None) -> Found:
    jo = measure.params.get("judged_only", False) if judged_only is None else judged_only
    return found(ranked, bool(jo), measure.params.get("cutoff"), measure.params.get("gains"), str(measure))


def _br(measure: PluginMeasure, ranked: RankedRun, f: Found) -> np.ndarray:
    """BR(r) at the retrieved relevant documents, in :class:`Found`'s order."""
    gains = measure.params.get("gains")
    beta = float(measure["beta"])
    b = blended_ratio(f.judged, ranked.qrels, beta, gains, str(measure))
    return b.br


def compute_ncu(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked)
    stops = measure.params.get("stops", measure.params.get("gains"))
    return ncu_kernel(
        f,
        _br(measure, ranked, f),
        measure["stopping"],
        float(measure["gamma"]),
        stops,
        ranked.qrels,
        str(measure),
    )


def compute_gap(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return gap_kernel(_found_for(measure, ranked), ranked.qrels, measure.params.get("cutoff"))


def compute_rbp(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return rbp_kernel(_found_for(measure, ranked), float(measure["p"]))


def compute_err(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return err_kernel(_found_for(measure, ranked))


def compute_nerr(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked)
    return nerr_kernel(
        f, ranked.qrels, measure.params.get("gains"), str(measure), measure.params.get("cutoff")
    )


def compute_ebr(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked)
    return ebr_kernel(f, _br(measure, ranked, f))


def compute_irbu(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return irbu_kernel(_found_for(measure, ranked), float(measure["p"]))


def compute_ndcg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked)
    gains = measure.params.get("gains")
    return ndcg_kernel(
        f, ranked.qrels, gains, str(measure), measure.params.get("cutoff"), float(measure["logb"])
    )


def compute_msndcg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked)
    gains = measure.params.get("gains")
    return ndcg_kernel(f, ranked.qrels, gains, str(measure), measure.params.get("cutoff"), None)


def compute_bpref(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):  # N = 0: the topic scores 0
        return bpref_kernel(_found_for(measure, ranked, judged_only=True), measure["variant"])


def compute_rpref(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    f = _found_for(measure, ranked, judged_only=True)
    with np.errstate(divide="ignore", invalid="ignore"):  # N = 0: the topic scores 0
        return rpref_kernel(f, measure["variant"], ranked.qrels, measure.params.get("gains"), str(measure))


def check_levels(measure: PluginMeasure, qrels: Qrels) -> None:
    """Raise if the qrels have a relevant level that ``gains`` (or ``stops``) leave out."""
    for param in ("gains", "stops"):
        values = measure.params.get(param)
        if values is not None:
            gain_of(qrels.labels, values, str(measure))
