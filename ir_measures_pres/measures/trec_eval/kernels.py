"""trec_eval 10.0's measures over :class:`~.lists.ToolLists`, every query at once.

Each kernel takes the lists and the measure's parameters and returns one value per query (or a
matrix, one column per cutoff). The definitions are trec_eval's (its help text, and its C code
where the code decides a digit: which sums, in which order, which rounding). Sums that the C
code accumulates document by document are accumulated in the same order here
(:func:`~ir_measures_pres.data.arrays.sums_in_order`), so the printed fourth decimal is the C
program's. Where trec_eval guards a division by zero (a query without relevant documents for
``relative_P``) the value is 0; where it does not (``iprec_at_recall`` of an empty list, ``Rndcg``
with no point to average) the value is, for the trec_eval command (``ToolLists.c_nan``), the NaN
that 0 / 0 gives, which its printer writes as the C library does (``-nan``), and 0 for the
registered measures.

The notation: for a query, n retrieved documents, R relevant ones in the qrels (level ``>= -l``),
``rel(i)`` the relevant documents among the top i, r_c the rank of the c-th relevant retrieved.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...data.arrays import offsets_from_counts, running_sums_in_order, sums_in_order
from ...data.topics import PerTopic
from .judgement_aware import rbp_kernel, rbp_resid_kernel, unj_kernel, yaap_kernel, yaap_of_sum
from .lists import JgLists, ToolLists

#: infAP's smoothing (INFAP_EPSILON)
INFAP_EPSILON = 0.00001


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def lround(x: np.ndarray) -> np.ndarray:
    """C's ``lround``: to the nearest integer, halves away from zero (exact: x - trunc(x) is)."""
    t = np.trunc(x)
    return (t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0.0)).astype(np.int64)


# --------------------------------------------------------------------------------------------
# counts and set measures
# --------------------------------------------------------------------------------------------


def num_ret(lists: ToolLists) -> np.ndarray:
    return lists.num_ret.astype(np.float64)


def num_rel(lists: ToolLists) -> np.ndarray:
    return lists.num_rel.astype(np.float64)


def num_rel_ret(lists: ToolLists) -> np.ndarray:
    return lists.num_rel_ret.astype(np.float64)


def num_nonrel_judged_ret(lists: ToolLists) -> np.ndarray:
    return lists.count((lists.rel >= 0) & (lists.rel < lists.relevance_level)).astype(np.float64)


def set_p(lists: ToolLists) -> np.ndarray:
    return _safe_div(lists.num_rel_ret, lists.num_ret)


def set_recall(lists: ToolLists) -> np.ndarray:
    return _safe_div(lists.num_rel_ret, lists.num_rel)


def set_relative_p(lists: ToolLists) -> np.ndarray:
    n, big_r = lists.num_ret, lists.num_rel
    den = np.where((n > 0) & (big_r > 0), np.minimum(n, big_r), 0)
    return _safe_div(lists.num_rel_ret, den)


def set_map(lists: ToolLists) -> np.ndarray:
    rr = lists.num_rel_ret.astype(np.float64)
    return _safe_div(rr * rr, lists.num_ret.astype(np.float64) * lists.num_rel)


def set_f(lists: ToolLists, params: Sequence[float]) -> np.ndarray:
    """(x + 1) P R / (x P + R) with P, R the set precision and recall (0 when nothing relevant
    is retrieved), x the first parameter."""
    x = float(params[0])
    rr = lists.num_rel_ret.astype(np.float64)
    p = _safe_div(rr, lists.num_ret)
    r = _safe_div(rr, lists.num_rel)
    return _safe_div((x + 1.0) * p * r, np.where(rr > 0, x * p + r, 0.0))


def utility(lists: ToolLists, params: Sequence[float], num_docs: int) -> np.ndarray:
    """p1 a + p2 b + p3 c + p4 d over the contingency table (a relevant retrieved, b nonrelevant
    retrieved, c relevant missed, d the rest of the collection of ``-N`` documents)."""
    p = [float(v) for v in params]
    if len(p) != 4:  # the tool's "Can't calculate measure 'utility'": the command stops on it
        return np.zeros(lists.num_queries)
    rr = lists.num_rel_ret.astype(np.float64)
    n = lists.num_ret.astype(np.float64)
    big_r = lists.num_rel.astype(np.float64)
    return p[0] * rr + p[1] * (n - rr) + p[2] * (big_r - rr) + p[3] * (num_docs + rr - n - big_r)


# --------------------------------------------------------------------------------------------
# ranked measures
# --------------------------------------------------------------------------------------------


def _precision_sum(lists: ToolLists, cutoff: int = 0) -> np.ndarray:
    """Per query, Σ rel(r) / r over the relevant documents (of rank <= cutoff when given), added
    in rank order: one running sum over the relevant documents, read at the last one in the top
    cutoff (a prefix of a left-to-right sum is the left-to-right sum of the prefix)."""

    def make() -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        mask = lists.is_rel
        counts = lists.count(mask)
        running = running_sums_in_order(lists.cum_rel[mask] / lists.rank[mask], offsets_from_counts(counts))
        return running, offsets_from_counts(counts)[:-1], counts

    running, first, counts = lists.cached("precision_running", make)
    taken = counts if not cutoff else _rel_in_top(lists, cutoff)
    out = np.zeros(lists.num_queries)
    has = taken > 0
    out[has] = running[first[has] + taken[has] - 1]
    return out


def _rel_in_top(lists: ToolLists, k: int) -> np.ndarray:
    """rel(k) per query (cached: P, recall, relative_P, success and map_cut share it)."""
    return lists.cached(("rel_in_top", int(k)), lambda: lists.rel_in_top(k))  # type: ignore[no-any-return]


def _over_num_rel(lists: ToolLists, total: np.ndarray) -> np.ndarray:
    """``total / num_rel`` where the list holds a value >= -l, else 0: m_map.c's and m_binG.c's
    ``if (rel_so_far) value = sum / num_rel``, unguarded, so that with -l <= -1 a query whose
    qrels judge nothing but whose list counts gives the C division's inf."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(lists.count(lists.is_rel) > 0, total / lists.num_rel, 0.0)


def average_precision(lists: ToolLists) -> np.ndarray:
    # map and gm_map share it
    return lists.cached("ap", lambda: _over_num_rel(lists, _precision_sum(lists)))  # type: ignore[no-any-return]


def map_cut(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    return np.column_stack([_safe_div(_precision_sum(lists, k), lists.num_rel) for k in cutoffs])


def r_prec(lists: ToolLists) -> np.ndarray:
    return _safe_div(lists.rel_in_top(lists.num_rel), lists.num_rel)


def recip_rank(lists: ToolLists) -> np.ndarray:
    first_rank = np.zeros(lists.num_queries)
    queries, first = lists.first(lists.is_rel)
    first_rank[queries] = lists.rank[first]
    return _safe_div(np.ones(lists.num_queries), first_rank)


def precision(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    return np.column_stack([_rel_in_top(lists, k) / float(k) for k in cutoffs])


def recall(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    return np.column_stack([_safe_div(_rel_in_top(lists, k), lists.num_rel) for k in cutoffs])


def relative_precision(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    """rel(k) / min(k, R)."""
    return np.column_stack([_safe_div(_rel_in_top(lists, k), np.minimum(k, lists.num_rel)) for k in cutoffs])


def success(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    return np.column_stack([(_rel_in_top(lists, k) > 0).astype(np.float64) for k in cutoffs])


def rprec_mult(lists: ToolLists, multiples: Sequence[float]) -> np.ndarray:
    """Precision at k = (long)(m R + 0.9) (C's truncation; trec_eval 10 kept it here), 0 for k < 1.

    As m_Rprec_mult.c's backward scan counts: from num_rel_ret (judged documents only) down at
    every list value >= -l, so that with -l <= -1 the unjudged values among those (``shift``)
    are taken off the count at k (never below 0); past the list's end, num_rel_ret / k."""
    shift = lists.count(lists.is_rel) - lists.num_rel_ret
    cols = []
    for m in multiples:
        k = np.trunc(float(m) * lists.num_rel + 0.9).astype(np.int64)
        found = np.maximum(lists.rel_in_top(np.maximum(k, 0)) - shift, 0)
        cols.append(_safe_div(found, np.where(k >= 1, k, 0)))
    return np.column_stack(cols)


def bpref(lists: ToolLists) -> np.ndarray:
    """Σ over the judged relevant retrieved of 1 - min(N_before, R) / min(N, R) (1 when no judged
    nonrelevant document comes before), over R; N the judged nonrelevant of the qrels."""
    return lists.cached("bpref", lambda: _bpref(lists))  # type: ignore[no-any-return]  # and gm_bpref


def _bpref(lists: ToolLists) -> np.ndarray:
    judged = lists.rel >= 0
    nonrel = judged & ~lists.is_rel
    nonrel_before = lists.count_before(nonrel)
    mask = judged & lists.is_rel
    big_r = lists.num_rel[lists.qidx[mask]]
    before = nonrel_before[mask]
    den = np.minimum(lists.num_nonrel[lists.qidx[mask]], big_r).astype(np.float64)
    term = np.where(before > 0, 1.0 - _safe_div(np.minimum(before, big_r).astype(np.float64), den), 1.0)
    return _safe_div(lists.sum_in_order(mask, term), lists.num_rel)


def inf_ap(lists: ToolLists) -> np.ndarray:
    """Yilmaz and Aslam's inferred AP as trec_eval computes it (m_infap.c)."""
    pooled = lists.rel != -1  # judged, or in the pool but unjudged (-2)
    judged = lists.rel >= 0
    nonrel_before = lists.count_before(judged & ~lists.is_rel)
    unjudged_before = lists.count_before(lists.rel == -2)
    mask = pooled & judged & lists.is_rel
    j = (lists.rank - 1)[mask].astype(np.float64)
    # judged relevant up to here (with -l <= -1 the list's other values >= -l are not counted)
    rel_so_far = (lists.count_before(judged & lists.is_rel)[mask] + 1).astype(np.float64)
    nrb = nonrel_before[mask].astype(np.float64)
    ub = unjudged_before[mask].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rel_so_far - 1 + nrb + ub) / j) * (
            (rel_so_far - 1 + INFAP_EPSILON) / (rel_so_far - 1 + nrb + 2 * INFAP_EPSILON)
        )
    term = np.where(j == 0, 1.0, term)
    return _safe_div(lists.sum_in_order(mask, term), lists.num_rel)


def _segmented_max_after(values: np.ndarray, seg: np.ndarray, nseg: int) -> np.ndarray:
    """For every element, the max of it and the elements after it in its segment (segments
    contiguous, increasing). Exact: maxima of integer ranks of the values."""
    if not len(values):
        return values
    uniq, inv = np.unique(values, return_inverse=True)
    width = len(uniq)
    offset = (nseg - 1 - seg[::-1]).astype(np.int64) * width
    acc = np.maximum.accumulate(inv.reshape(-1)[::-1] + offset) - offset
    return uniq[acc[::-1]]


def _interpolated(lists: ToolLists, cutoffs: np.ndarray) -> np.ndarray:
    """trec_eval's interpolated precision at rel-count cutoffs, one column per cutoff (a matrix
    of per-query counts c), as m_iprec_at_recall.c's backward scan assigns it: walking the
    cutoffs from the last, those above num_rel_ret get 0; then each c in 1 .. (the previous one)
    gets max_{k >= c} k / r_k; from the first that does not fit (c < 1, or above the previous
    one: only unsorted parameters do that) on, every cutoff gets the scan's final value
    (max_k k / r_k, or 0 when nothing relevant is retrieved)."""
    nq, ncut = cutoffs.shape
    rr = lists.num_rel_ret
    # the scan counts down from num_rel_ret (judged documents only) at every list value >= -l: with
    # -l <= -1 the unjudged ones among those (``shift``) bring the count to 0 before the top
    shift = lists.count(lists.is_rel) - rr
    counted = lists.cum_rel - shift[lists.qidx]
    mask = lists.is_rel & (counted >= 1)
    prec = counted[mask] / lists.rank[mask]
    ip = _segmented_max_after(prec, lists.qidx[mask], nq)  # per relevant retrieved, in rank order
    first = offsets_from_counts(rr)[:-1]
    # the scan's final value: max_k k / r_k, 0 when nothing relevant is retrieved, and 0 / 0 (the
    # tool's -nan) for an empty list
    with np.errstate(invalid="ignore"):
        empty = np.float64(0.0) / np.zeros(nq) if lists.c_nan else np.zeros(nq)
        ip_end = np.where(lists.num_ret > 0, 0.0, empty)
    has = rr > 0
    ip_end[has] = ip[first[has]]
    out = np.zeros((nq, ncut))
    started = np.zeros(nq, dtype=bool)
    stuck = np.zeros(nq, dtype=bool)
    level = rr.copy()
    for j in range(ncut - 1, -1, -1):
        c = cutoffs[:, j]
        active = started | (c <= rr)
        started |= active
        match = active & ~stuck & (c >= 1) & (c <= level)
        stuck |= active & ~match
        at = np.clip(first + c - 1, 0, max(len(ip) - 1, 0))
        out[match, j] = ip[at[match]]
        out[active & stuck, j] = ip_end[active & stuck]
        level = np.where(match, c, level)
    return out


def iprec_at_recall(lists: ToolLists, levels: Sequence[float]) -> np.ndarray:
    """Interpolated precision at recall levels; a level p is the c = lround(p R)-th relevant
    document (trec_eval 10: 9.x took (long)(p R + 0.9))."""
    cut = lround(np.outer(lists.num_rel.astype(np.float64), np.asarray(levels, dtype=np.float64)))
    return _interpolated(lists, cut.reshape(lists.num_queries, len(levels)))


def eleven_pt_avg(lists: ToolLists, levels: Sequence[float]) -> np.ndarray:
    """The mean of the interpolated precisions at the given recall levels (as given, unsorted),
    added in the order the C code adds them (last level first)."""
    vals = iprec_at_recall(lists, levels)
    total = np.zeros(lists.num_queries)
    for j in range(len(levels) - 1, -1, -1):
        total = total + vals[:, j]
    return total / float(len(levels))


def bin_g(lists: ToolLists) -> np.ndarray:
    """Σ over the relevant retrieved of 1 / log2(2 + nonrelevant before it), over R."""
    mask = lists.is_rel
    term = 1.0 / np.log2((2 + lists.rank[mask] - lists.cum_rel[mask]).astype(np.float64))
    return _over_num_rel(lists, lists.sum_in_order(mask, term))


# --------------------------------------------------------------------------------------------
# gain measures: ndcg, ndcg_rel, Rndcg, G (gains from the levels, or rel_level=gain parameters)
# --------------------------------------------------------------------------------------------


class _Ideal(PerTopic):
    """Per query, the ideal ranking's positive gains (descending), as trec_eval's setup_gains
    orders them, laid out position by position (CSR ``offsets``)."""

    def __init__(self, lists: ToolLists, gains: Dict[int, float], graded_only: bool = False) -> None:
        if any(g != int(g) for g in gains.values()):
            self.entry_q, self.entry_gain, self.entry_count = _c_ideal_entries(lists, gains)
        else:  # whole gains: setup_gains' sort is a true sort, its walk keeps the positive gains
            levels = lists.levels
            counts = lists.level_counts
            gain = levels.astype(np.float64)
            for level, value in gains.items():
                gain[levels == level] = value
            lq = lists.level_qidx
            keep = (gain > 0) & (levels > 0 if graded_only else True)
            lq, gain, counts = lq[keep], gain[keep], counts[keep]
            order = np.lexsort((-gain, lq))
            self.entry_q, self.entry_gain, self.entry_count = lq[order], gain[order], counts[order]
        self.m = np.bincount(self.entry_q, weights=self.entry_count, minlength=lists.num_queries).astype(
            np.int64
        )
        self.offsets = offsets_from_counts(self.m)
        self.gain = np.repeat(self.entry_gain, self.entry_count)
        self.running = running_sums_in_order(self.gain / np.log2(self.within_rank + 1.0), self.offsets)

    def dcg(self, k: np.ndarray, q: Optional[np.ndarray] = None) -> np.ndarray:
        """Ideal DCG of the top k (k <= m of its query; 0 for k = 0), one k per query or, given
        ``q``, one per entry of ``q``."""
        return self.at_rank(self.running, k, q)

    def at(self, lists: ToolLists) -> np.ndarray:
        """The ideal gain at every retrieved position (0 past the ideal ranking's end)."""
        ends = np.cumsum(self.entry_count) - self.offsets[:-1][self.entry_q]  # end within its query
        big = int(max(lists.num_ret.max(initial=0), self.m.max(initial=0))) + 2
        keys = self.entry_q.astype(np.int64) * big + ends
        pos_keys = lists.qidx.astype(np.int64) * big + (lists.rank - 1)
        idx = np.searchsorted(keys, pos_keys, side="right")
        ok = idx < len(keys)
        ok[ok] = self.entry_q[idx[ok]] == lists.qidx[ok]
        out = np.zeros(len(lists.rel))
        out[ok] = self.entry_gain[idx[ok]]
        return out


def _c_sorted(entries: List[Tuple[int, float, int]]) -> List[Tuple[int, float, int]]:
    """glibc's ``qsort`` (a top-down merge sort, stable) of (level, gain, count) entries with
    gain_init.c's ``comp_rel_gain``, which returns the gains' difference as an int (truncated):
    gains less than 1 apart compare equal, so ``ndcg.1=0.5`` keeps level 1 below level 0."""
    if len(entries) <= 1:
        return entries
    half = len(entries) // 2
    left, right = _c_sorted(entries[:half]), _c_sorted(entries[half:])
    out = []
    i = j = 0
    while i < len(left) and j < len(right):
        if int(left[i][1] - right[j][1]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def _c_ideal_entries(lists: ToolLists, gains: Dict[int, float]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ideal ranking's (query, gain, count) entries as setup_gains and the measures' walk make
    them, for gains that are not whole numbers: the parameters' levels first, then the levels
    0 .. top of the qrels not among them (gain = level), sorted by :func:`_c_sorted`; the walk
    starts at the last entry (nothing when its gain is not positive), passes the entries with no
    document and stops at the first one whose gain is not positive."""
    out_q: List[int] = []
    out_gain: List[float] = []
    out_count: List[int] = []
    lo = lists.level_offsets.tolist()
    levels, counts = lists.levels.tolist(), lists.level_counts.tolist()
    for q in range(lists.num_queries):
        at = dict(zip(levels[lo[q] : lo[q + 1]], counts[lo[q] : lo[q + 1]]))
        entries = [(level, float(g), at.get(level, 0) if 0 <= level else 0) for level, g in gains.items()]
        for level in range(max(at, default=-1) + 1):
            if level not in gains:
                entries.append((level, float(level), at.get(level, 0)))
        walk = _c_sorted(entries)[::-1]
        if not walk or walk[0][1] <= 0:
            continue
        for _, g, n in walk:
            if n == 0:
                continue
            if g <= 0:
                break
            out_q.append(q)
            out_gain.append(g)
            out_count.append(n)
    return (
        np.array(out_q, dtype=np.int64),
        np.array(out_gain, dtype=np.float64),
        np.array(out_count, dtype=np.int64),
    )


def _ideal(lists: ToolLists, gains: Dict[int, float], graded_only: bool = False) -> _Ideal:
    key = ("ideal", tuple(sorted(gains.items())), graded_only)
    return lists.cached(key, lambda: _Ideal(lists, gains, graded_only))  # type: ignore[no-any-return]


def _gains_of(lists: ToolLists, gains: Dict[int, float]) -> np.ndarray:
    g = np.where(lists.rel >= 0, lists.rel, 0).astype(np.float64)
    for level, value in gains.items():
        g[lists.rel == level] = value
    return g


def _dcg_running(lists: ToolLists, g: np.ndarray, key: object = None) -> np.ndarray:
    """The running DCG, Σ g / log2(rank + 1) down the list (cached under ``key``)."""

    def make() -> np.ndarray:
        return running_sums_in_order(g / np.log2(lists.rank + 1.0), lists.offsets)

    return make() if key is None else lists.cached(("dcg", key), make)  # type: ignore[no-any-return]


def _dcg_at(lists: ToolLists, running: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Running DCG at rank min(k, n) (0 for k = 0 or an empty list)."""
    return lists.at_rank(running, k)


def ndcg(lists: ToolLists, gains: Dict[int, float]) -> np.ndarray:
    ideal = _ideal(lists, gains)
    running = _dcg_running(lists, _gains_of(lists, gains), tuple(sorted(gains.items())))
    return _safe_div(_dcg_at(lists, running, lists.num_ret), ideal.dcg(ideal.m))


def ndcg_cut(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    """nDCG at k with the qrels levels as gains (levels >= 1; parameters are the cutoffs)."""
    ideal = _ideal(lists, {}, graded_only=True)
    running = _dcg_running(lists, np.where(lists.rel > 0, lists.rel, 0).astype(np.float64), ())
    cols = []
    for k in cutoffs:
        kk = np.full(lists.num_queries, k, dtype=np.int64)
        idcg = ideal.dcg(np.minimum(kk, ideal.m))
        dcg = _dcg_at(lists, running, kk)
        cols.append(np.where(idcg > 0, _safe_div(dcg, idcg), dcg))
    return np.column_stack(cols)


def ndcg_rel(lists: ToolLists, gains: Dict[int, float]) -> np.ndarray:
    """nDCG averaged over the m positive-gain documents of the ideal ranking: at each retrieved
    one, nDCG at its rank; each one not retrieved, nDCG at the end of the list."""
    ideal = _ideal(lists, gains)
    g = _gains_of(lists, gains)
    running = _dcg_running(lists, g, tuple(sorted(gains.items())))
    mask = g > 0
    q = lists.qidx[mask]
    idcg = ideal.dcg(np.minimum(lists.rank[mask], ideal.m[q]), q)
    term = _safe_div(running[mask], idcg)
    total = lists.sum_in_order(mask, term)
    found = lists.count(mask)
    tail = _safe_div((ideal.m - found) * _dcg_at(lists, running, lists.num_ret), ideal.dcg(ideal.m))
    total = total + tail
    return np.where(total > 0, _safe_div(total, ideal.m), 0.0)


def rndcg(lists: ToolLists, gains: Dict[int, float]) -> np.ndarray:
    """nDCG averaged at the ideal ranking's gain changes b, Σ DCG(min(b, n)) / IDCG(b), and, when
    the list is longer than the ideal ranking's m positive gains plus one, at its end,
    DCG(n) / IDCG(m) (m_Rndcg.c's first loop also takes rank m + 1), over the number of points."""
    ideal = _ideal(lists, gains)
    running = _dcg_running(lists, _gains_of(lists, gains), tuple(sorted(gains.items())))
    # the gain changes: after an entry whose next entry (same query) has another gain, or the last
    eq, eg = ideal.entry_q, ideal.entry_gain
    last = np.ones(len(eq), dtype=bool)
    last[:-1] = (eq[1:] != eq[:-1]) | (eg[1:] != eg[:-1])
    ends = np.cumsum(ideal.entry_count) - ideal.offsets[:-1][eq]
    bq, b = eq[last], ends[last]
    n = lists.num_ret
    point = _safe_div(_dcg_points(lists, running, bq, b), ideal.dcg(b, bq))
    extra = (ideal.m + 1 < n) & (ideal.m > 0)  # the C loop's first part also takes rank m + 1
    q_all = np.concatenate([bq, np.flatnonzero(extra)])
    v_all = np.concatenate([point, _safe_div(_dcg_at(lists, running, n)[extra], ideal.dcg(ideal.m)[extra])])
    order = np.argsort(q_all, kind="stable")
    q_all, v_all = q_all[order], v_all[order]
    counts = np.bincount(q_all, minlength=lists.num_queries)
    total = sums_in_order(v_all, offsets_from_counts(counts))
    with np.errstate(invalid="ignore"):  # no point: the tool's 0 / 0, printed -nan
        value = total / counts if lists.c_nan else _safe_div(total, counts)
    return np.where(lists.num_rel > 0, value, 0.0)


def _dcg_points(lists: ToolLists, running: np.ndarray, q: np.ndarray, k: np.ndarray) -> np.ndarray:
    return lists.at_rank(running, k, q)


def g_measure(lists: ToolLists, gains: Dict[int, float]) -> np.ndarray:
    """Buckley's G: Σ g_i / log2(2 + cost(i) - gain(i)) over the total ideal gain, cost(i) the
    running sum of max(ideal gain at i, 1), gain(i) the running sum of the results' gains."""
    ideal = _ideal(lists, gains)
    g = _gains_of(lists, gains)
    cost = np.maximum(ideal.at(lists), 1.0)
    sum_cost = running_sums_in_order(cost, lists.offsets)
    sum_results = running_sums_in_order(g, lists.offsets)
    nz = g != 0
    with np.errstate(invalid="ignore"):  # a gain above the ideal's (LEVEL=GAIN): the C log2's NaN
        term = g[nz] / np.log2(2 + sum_cost[nz] - sum_results[nz])
    results_g = lists.sum_in_order(nz, term)
    total_ideal = np.zeros(lists.num_queries)
    np.add.at(total_ideal, ideal.entry_q, ideal.entry_gain * ideal.entry_count)
    return _safe_div(results_g, total_ideal)


# --------------------------------------------------------------------------------------------
# trec_eval 10's judgement-aware measures (the package's kernels)
# --------------------------------------------------------------------------------------------


def unj(lists: ToolLists, cutoffs: Sequence[int]) -> np.ndarray:
    return np.column_stack([unj_kernel(lists.judged_list(cutoff=k), lists.num_ret, k) for k in cutoffs])


def rbp(lists: ToolLists, p: float) -> np.ndarray:
    return rbp_kernel(lists.judged_list(), lists.top_level(), p)


def rbp_resid(lists: ToolLists, p: float) -> np.ndarray:
    return rbp_resid_kernel(lists.judged_list(), p)


def yaap(lists: ToolLists) -> np.ndarray:
    big_r = lists.num_rel.astype(np.float64)
    if lists.relevance_level < 0:  # m_yaap.c's loop counts every list value >= -l, judged or not
        return yaap_of_sum(_precision_sum(lists), big_r)
    return yaap_kernel(lists.judged_list(), big_r, lists.relevance_level)


# --------------------------------------------------------------------------------------------
# judgement groups (-R qrels_jg): each group's value, averaged over the query's groups
# --------------------------------------------------------------------------------------------


def map_avgjg(lists: JgLists) -> np.ndarray:
    return lists.average(average_precision(lists.pseudo))


def p_avgjg(lists: JgLists, cutoffs: Sequence[int]) -> np.ndarray:
    return lists.average(precision(lists.pseudo, cutoffs))


def rprec_mult_avgjg(lists: JgLists, multiples: Sequence[float]) -> np.ndarray:
    return lists.average(rprec_mult(lists.pseudo, multiples))


def relstring(lists: ToolLists, length: int) -> Tuple[str, ...]:
    """The first ``length`` values as characters: the level 0-9, '>' above 9, '-' not in the
    pool, '.' in the pool but unjudged."""
    chars = np.array(list("0123456789"), dtype=object)
    out = []
    for i in range(lists.num_queries):
        a = int(lists.offsets[i])
        vals = lists.rel[a : a + min(length, int(lists.num_ret[i]))].tolist() if length > 0 else []
        out.append(
            "".join(
                ">" if v > 9 else chars[v] if v >= 0 else "-" if v == -1 else "." if v == -2 else "<"
                for v in vals
            )
        )
    return tuple(out)
