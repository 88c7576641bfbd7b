"""Sampled judgements: the estimators of NIST's ``sample_eval.pl`` (xinfAP, infNDCG, inferred
precision), as registered measures and as the kernels of the ``sampled`` command.

A collection judged by **stratified sampling** (TREC Million Query, Medical Records, Clinical
Decision Support, Precision Medicine, TRECVID's ad hoc video search) pools the runs' documents,
cuts the pool into strata (usually by the best rank a document reached) and judges a random
sample of each stratum. The qrels then have five columns, ``topic iter docno stratum rel``:
``rel >= 0`` a sampled (judged) document, ``rel < 0`` a pool document left unsampled; a
document absent from the file is outside the pool. The estimators below infer, per topic, what
complete judgements of the pool would have given.

Notation, per topic: stratum c holds N_c pool documents, n_c of them sampled, r_c sampled
relevant, s_{c,g} sampled of grade g. At rank k of the run (cut at ``depth``), counted over the
ranks **above** k: D pool documents, D_c of stratum c, S_c sampled of stratum c, Q_c sampled
relevant of stratum c. Strata are visited in the string order of their names, as the tool does
(it matters for the last bits of the sums, which the tool's 4 decimals sometimes show).

* R̂ = Σ_{c: n_c > 0} r_c N_c / n_c (``inum_rel``).
* At a sampled relevant document at rank k of stratum c:
  prec_k = 1/k + (D/k) Σ_{c': D_c' > 0} (D_c'/D) (Q_c' + 1e-5) / (S_c' + 3e-5) (1/k when D = 0);
  SAP_c = Σ prec_k over them; G_c = Σ rel / log2(k + 1) over them.
* xinfAP = Σ_{c: n_c > 0} (r_c N_c / n_c) / R̂ · SAP_c / r_c (0 when R̂ = 0; a stratum with
  r_c = 0 adds 0). ``variant='trecvid'``: multiplied by R̂ / depth when R̂ > depth (the TV16
  adjustment: a run cannot retrieve more than ``depth`` documents).
* infNDCG = D [Σ_{c: S_c > 0} (D_c / D) G_c / S_c] / IDCG with D, D_c, S_c over the whole list
  (top ``depth``); the ideal DCG from the estimated count of each grade E_g = Σ_c s_{c,g} N_c / n_c,
  the grades taken in descending *string* order (``"2"`` before ``"10"``), the ranks filled with
  g / log2(r + 1) up to ``depth`` (after the cap every later grade still adds one term, as the
  tool's loop does). ``cds``: E_g rounded, int(E_g + 0.5); ``trecvid``: E_g as it is, fractional
  loop bounds and offsets included.
* est(k) = Σ_c D_c (Q_c + 1e-5) / (S_c + 3e-5), the counters *including* rank k: the estimated
  relevant documents in the top k. infP@k = est(k) / k (a list shorter than k: est(last) / k);
  ``inum_rel_ret`` = est(last). A stratum with pool documents but none sampled adds D_c / 3, so
  inum_rel_ret can exceed inum_rel, as in the tool.
* iprec@rec x (the summary's 11 points): interpolated maxima of est(k) / k at the cut-offs x·R̂,
  walking the ranks upwards from the last and consuming at most one cut-off per rank (so
  iprec@rec1.00 is 0 even for a perfect run, as in the tool).

xinfAP is infAP (Yilmaz and Aslam, CIKM 2006) extended to strata sampled at different rates;
ir_measures' ``infAP`` is trec_eval's infAP of the unstratified case, with 2e-5 where this has
3e-5 in the denominator (docs/judgements.md shows both on one topic).

Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method for
Estimating AP and NDCG. SIGIR 2008. Emine Yilmaz and Javed A. Aslam. Estimating Average
Precision with Incomplete and Imperfect Judgments. CIKM 2006.

The logarithms are C's ``log`` (Python's :mod:`math`), as the Perl tool's, through a table per
rank: numpy's vectorised ``log`` differs from it in the last bit for some arguments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

from ...data.arrays import offsets_from_counts, segment_ids, sum_in_order
from ...data.inputs import InputError
from ...data.qrels import ABSENT, Qrels
from ...data.ranking import RankedRun
from ..base import PluginMeasure

__all__ = [
    "VARIANTS",
    "DEFAULT_DEPTH",
    "PRECISION_RANKS",
    "RECALL_LEVELS",
    "NO_STRATA",
    "Strata",
    "Walk",
    "strata_of",
    "ideal_dcg",
    "walk_lines",
    "walk_of",
    "inf_ap",
    "inf_ndcg",
    "inf_precision",
    "iprec_at_recall",
    "inum_rel_ret_of",
    "check_strata",
]

#: sample_eval.pl's variants: the Medical Records / CDS copy and the TRECVID (TV16) copy
VARIANTS = ("cds", "trecvid")
#: ``$maxResultSize`` of both public copies
DEFAULT_DEPTH = 1000
#: ``@precisionranks`` of each variant, the depth last (``None`` stands for the depth)
PRECISION_RANKS: Dict[str, Tuple[Optional[int], ...]] = {
    "cds": (10, 50, None),
    "trecvid": (5, 10, 15, 20, 30, 100, 200, 500, None),
}
#: the summary's recall levels (``iprec@rec0.00`` ... ``iprec@rec1.00``)
RECALL_LEVELS = tuple(i / 10 for i in range(11))
#: smoothing of the stratum precisions: (Q + 1e-5) / (S + 3e-5)
_NUM, _DEN = 0.00001, 0.00003

#: what to do when the qrels carry no strata
NO_STRATA = (
    "the sampled-judgement measures (xinfAP, infNDCG, infP, inum_rel, inum_rel_ret) need the "
    "qrels' strata: read a 5-column file (qid iter docno stratum relevance) with "
    "ir_measures_pres.data.readers.read_qrels, or give a DataFrame with a 'stratum' column; a dict of dicts "
    "has no place for them"
)


# --------------------------------------------------------------------------------------------
# the qrels side: strata counts, R̂, ideal DCG
# --------------------------------------------------------------------------------------------


@dataclass
class Strata:
    """Per qrels query, its strata in string order of their names (local codes 0 .. K-1).

    ``N``, ``n``, ``r`` are ``(queries, K)`` arrays (pool documents, sampled, sampled relevant);
    ``line_code`` the local stratum code of every qrels entry (in the order of ``qrels.labels``);
    ``R_hat`` the estimated relevant documents per query; ``grades`` the positive levels and
    ``s`` the sampled documents per (query, stratum, grade)."""

    line_code: np.ndarray
    K: int
    N: np.ndarray
    n: np.ndarray
    r: np.ndarray
    R_hat: np.ndarray
    grades: List[int]
    s: np.ndarray


def strata_of(qrels: Qrels) -> Strata:
    """The strata of sampled qrels (cached on the qrels); an :class:`InputError` without them."""
    if qrels.strata is None:
        raise InputError(NO_STRATA)
    return qrels.cached(("sampled", "strata"), lambda: _make_strata(qrels))  # type: ignore[no-any-return]


def _make_strata(qrels: Qrels) -> Strata:
    nq = len(qrels.query_ids)
    assert qrels.strata is not None
    names, gcode = np.unique(qrels.strata, return_inverse=True)  # str order = the tool's sort
    gcode = gcode.reshape(-1).astype(np.int64)
    qidx = qrels.qidx
    key = qidx * len(names) + gcode
    pairs, pair_of = np.unique(key, return_inverse=True)
    pair_q = pairs // max(len(names), 1)
    counts = np.bincount(pair_q, minlength=nq)
    first = offsets_from_counts(counts)[:-1]
    local = np.arange(len(pairs)) - first[pair_q]
    K = int(counts.max()) if len(counts) else 0
    line_code = local[pair_of.reshape(-1)]
    labels = qrels.labels
    flat = qidx * K + line_code
    size = nq * K

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(flat[mask], minlength=size).reshape(nq, K).astype(np.float64)

    N = count(np.ones(len(labels), dtype=bool))
    n = count(labels >= 0)
    r = count(labels > 0)
    grades = sorted({int(g) for g in np.unique(labels[labels > 0]).tolist()})
    s = np.zeros((nq, K, len(grades)))
    for j, g in enumerate(grades):
        s[:, :, j] = count(labels == g)
    R_hat = np.zeros(nq)
    for k in range(K):  # sequential over the strata in name order, as the tool sums
        with np.errstate(divide="ignore", invalid="ignore"):
            R_hat = R_hat + np.where(n[:, k] != 0, r[:, k] * N[:, k] / n[:, k], 0.0)
    return Strata(line_code, K, N, n, r, R_hat, grades, s)


_LOG2: List[float] = [0.0]


def log2_table(upto: int) -> np.ndarray:
    """``log(k + 1) / log(2)`` for k = 0 .. upto with C's ``log``, as the tool computes it."""
    if len(_LOG2) <= upto:
        _LOG2.extend(math.log(k + 1) / math.log(2) for k in range(len(_LOG2), upto + 1))
    return np.asarray(_LOG2[: upto + 1])


def ideal_dcg(qrels: Qrels, variant: str, depth: int) -> np.ndarray:
    """The ideal DCG per qrels query (cached per variant and depth)."""
    return qrels.cached(  # type: ignore[no-any-return]
        ("sampled", "idcg", variant, depth), lambda: _make_ideal(strata_of(qrels), variant, depth)
    )


def _make_ideal(st: Strata, variant: str, depth: int) -> np.ndarray:
    nq = len(st.R_hat)
    G = len(st.grades)
    E = np.zeros((nq, G))
    for k in range(st.K):  # sequential over the strata, only where a grade was sampled
        with np.errstate(divide="ignore", invalid="ignore"):
            E = E + np.where(st.s[:, k, :] > 0, st.s[:, k, :] * st.N[:, k, None] / st.n[:, k, None], 0.0)
    present = np.zeros((nq, G), dtype=bool)
    for k in range(st.K):
        present |= st.s[:, k, :] > 0
    # the grades in descending string order, as the tool's `reverse sort keys`
    order = sorted(range(G), key=lambda j: str(st.grades[j]), reverse=True)
    table = log2_table(depth + 2)
    out = np.zeros(nq)
    for q in np.flatnonzero(present.any(axis=1)).tolist():  # a loop over topics and grades
        start = 0.0
        total = 0.0
        for j in order:
            if not present[q, j]:
                continue
            e = float(E[q, j])
            if variant == "cds":
                e = float(int(e + 0.5))
            g = float(st.grades[j])
            bound = start + e
            m = int(min(max(e, 0.0), depth + 1.0)) + 2
            steps = np.ones(m)
            steps[0] = start + 1.0
            ranks = np.add.accumulate(steps)  # start+1, +1, +1 ... as the tool's $r++
            ok = ranks <= bound
            capped = np.flatnonzero(ranks >= depth)
            if len(capped):
                ok[capped[0] + 1 :] = False
            ranks = ranks[ok]
            if len(ranks):
                whole = ranks == np.floor(ranks)
                if whole.all() and ranks[-1] < len(table):
                    discounts = table[ranks.astype(np.int64)]
                else:
                    discounts = np.array([math.log(x + 1) / math.log(2) for x in ranks.tolist()])
                terms = g / discounts
                total = sum_in_order(np.concatenate(([total], terms)))
            start += e
        out[q] = total
    return out


# --------------------------------------------------------------------------------------------
# the run side: one walk down each ranked list
# --------------------------------------------------------------------------------------------


@dataclass
class Walk:
    """What one walk down the top ``depth`` of every ranked list gives (per ranked query ``i``,
    qrels query ``qpos[i]``): ``est`` per position (the estimated relevant documents in the top
    k, counters including k), the list ``offsets`` after the cut, and per (query, stratum) the
    sums SAP and G, the pool and sampled counts of the whole list, D per query."""

    qpos: np.ndarray
    offsets: np.ndarray
    est: np.ndarray
    SAP: np.ndarray
    G: np.ndarray
    D_end: np.ndarray
    S_end: np.ndarray
    D: np.ndarray

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


def _line_qrels(qrels: Qrels) -> Qrels:
    """A copy of the qrels whose labels are the entries' positions (cached): a run ranked or
    relabelled against it says which qrels entry (stratum, label) each document is."""

    def make() -> Qrels:
        return qrels.with_labels(np.arange(len(qrels.labels), dtype=np.int64))

    return qrels.cached(("sampled", "lines"), make)  # type: ignore[no-any-return]


def _entries_of(ranked: RankedRun) -> np.ndarray:
    """The qrels entry (position in ``qrels.labels``) of every ranked document, ABSENT when it is
    outside the pool (cached on the ranked run)."""

    def make() -> np.ndarray:
        strata_of(ranked.qrels)  # no strata: say so before anything else
        if ranked.docs is None:
            raise InputError("the sampled-judgement measures need the run's document ids")
        return ranked.relabel(_line_qrels(ranked.qrels)).labels

    return ranked.cached("sampled_entries", make)  # type: ignore[no-any-return]


def walk_of(ranked: RankedRun, depth: int) -> Walk:
    """The walk of a ranked run (cached on it per depth)."""
    return ranked.cached(  # type: ignore[no-any-return]
        ("sampled_walk", depth),
        lambda: walk_lines(ranked.qrels, ranked.qpos, ranked.offsets, _entries_of(ranked), depth),
    )


def walk_lines(qrels: Qrels, qpos: np.ndarray, offsets: np.ndarray, entries: np.ndarray, depth: int) -> Walk:
    """Walk the ranked lists (``entries``: each document's qrels entry or ABSENT, per ranked query
    the segment of ``offsets``), cut at ``depth``; vectorised over all queries, a loop over the
    strata only."""
    st = strata_of(qrels)
    K = st.K
    lengths = np.diff(offsets)
    if (lengths > depth).any():
        rank_all = np.arange(len(entries)) - segment_ids(offsets, offsets[:-1])
        entries = entries[rank_all < depth]
        lengths = np.minimum(lengths, depth)
        offsets = offsets_from_counts(lengths)
    nq = len(lengths)
    qidx = segment_ids(offsets)
    starts = offsets[:-1]
    rank = np.arange(1, len(entries) + 1) - starts[qidx]
    pool = entries != ABSENT
    at = np.where(pool, entries, 0)
    code = np.where(pool, st.line_code[at], -1)
    rel = np.where(pool, qrels.labels[at], 0)
    sampled = pool & (rel >= 0)
    relevant = pool & (rel > 0)

    def running(mask: np.ndarray) -> np.ndarray:  # inclusive count within each list
        c = np.cumsum(mask, dtype=np.int64)
        base = np.concatenate(([0], c))[starts]
        return c - base[qidx]

    D_inc = running(pool)
    hit = np.flatnonzero(relevant)
    kr, D_above = rank[hit].astype(np.float64), (D_inc - pool)[hit].astype(np.float64)
    prec_above = np.zeros(len(hit))
    est = np.zeros(len(entries))
    for k in range(K):  # strata in name order, as the tool's sums
        in_k = code == k
        Dk, Sk, Qk = running(in_k), running(in_k & sampled), running(in_k & relevant)
        est = est + Dk * (Qk + _NUM) / (Sk + _DEN)
        dk = (Dk - in_k)[hit]
        sk = (Sk - (in_k & sampled))[hit]
        qk = (Qk - (in_k & relevant))[hit]
        prob = np.divide(dk, D_above, out=np.zeros(len(hit)), where=D_above > 0)
        prec_above = prec_above + np.where(D_above > 0, prob * (qk + _NUM) / (sk + _DEN), 0.0)
    prec = 1.0 / kr + (D_above / kr) * prec_above
    cell = qidx * K + code
    size = nq * K
    SAP = np.bincount(cell[hit], weights=prec, minlength=size).reshape(nq, K)
    table = log2_table(depth + 1)
    G = np.bincount(cell[hit], weights=rel[hit] / table[rank[hit]], minlength=size).reshape(nq, K)
    D_end = np.bincount(cell[pool], minlength=size).reshape(nq, K).astype(np.float64)
    S_end = np.bincount(cell[sampled], minlength=size).reshape(nq, K).astype(np.float64)
    D = np.bincount(qidx[pool], minlength=nq).astype(np.float64)
    return Walk(np.asarray(qpos), offsets, est, SAP, G, D_end, S_end, D)


# --------------------------------------------------------------------------------------------
# the estimators, per ranked query
# --------------------------------------------------------------------------------------------


def inf_ap(walk: Walk, st: Strata, variant: str, depth: int) -> np.ndarray:
    """xinfAP per ranked query."""
    q = walk.qpos
    R = st.R_hat[q]
    ap = np.zeros(len(q))
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(st.K):
            n, r, N = st.n[q, k], st.r[q, k], st.N[q, k]
            prob = (r * N / n) / R
            within = np.where(r != 0, walk.SAP[:, k] / r, 0.0)
            ap = ap + np.where((n != 0) & (R != 0), prob * within, 0.0)
    if variant == "trecvid":
        ap = np.where(R > depth, ap * R / depth, ap)
    return ap


def inf_ndcg(walk: Walk, idcg: np.ndarray) -> np.ndarray:
    """infNDCG per ranked query (``idcg`` per qrels query, :func:`ideal_dcg`)."""
    dcg = np.zeros(len(walk.qpos))
    D = walk.D
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(walk.SAP.shape[1]):
            S = walk.S_end[:, k]
            prob = walk.D_end[:, k] / D
            dcg = dcg + np.where((D != 0) & (S != 0), prob * walk.G[:, k] / S, 0.0)
        ideal = idcg[walk.qpos]
        return np.where(ideal != 0, D * dcg / ideal, 0.0)


def inf_precision(walk: Walk, k: int) -> np.ndarray:
    """est(min(k, length)) / k per ranked query (0 for an empty list)."""
    L = walk.lengths
    at = walk.offsets[:-1] + np.minimum(L, k) - 1
    return np.where(L > 0, walk.est[np.maximum(at, 0)] if len(walk.est) else 0.0, 0.0) / k


def inum_rel_ret_of(walk: Walk) -> np.ndarray:
    """est at the last rank of each list (0 for an empty list)."""
    L = walk.lengths
    at = np.maximum(walk.offsets[1:] - 1, 0)
    return np.where(L > 0, walk.est[at] if len(walk.est) else 0.0, 0.0)


def iprec_at_recall(walk: Walk, st: Strata) -> np.ndarray:
    """The tool's interpolated precision at the 11 recall levels, ``(queries, 11)``: the ranks
    walked from the last upwards, the running maximum of est(k)/k consumed by the cut-offs
    x·R̂ (largest first) at the first rank below each, one per rank. Vectorised over the
    concatenated lists, a loop over the 11 levels only; memory linear in the documents ranked
    (no queries × depth array: the running maximum is asked only where a level takes it)."""
    L = walk.lengths
    nq = len(L)
    out = np.zeros((nq, len(RECALL_LEVELS)))
    if nq == 0 or not len(walk.est):
        return out
    starts, ends = walk.offsets[:-1], walk.offsets[1:]
    rank = np.arange(1, len(walk.est) + 1, dtype=np.float64)
    rank -= np.repeat(starts, L)
    prec = np.append(walk.est / rank, -np.inf)  # one more: a list's end may be the array's
    del rank
    last = inum_rel_ret_of(walk)
    cuts = np.asarray(RECALL_LEVELS)[None, :] * st.R_hat[walk.qpos][:, None]
    # the first cut-off the walk can consume: the largest one not above est(last)
    current = np.full(nq, len(RECALL_LEVELS) - 1)
    still = L > 0
    for j in range(len(RECALL_LEVELS) - 1, -1, -1):
        still &= cuts[:, j] > last
        current[still] = j - 1
    current[L == 0] = -1
    limit = ends.copy()  # the walk goes on above this position (the previous consumption)
    for j in range(len(RECALL_LEVELS) - 1, -1, -1):
        active = np.flatnonzero(current >= j)
        if not len(active):
            continue
        # the first rank below the cut-off walking upwards: the last such position of the list
        # above the previous consumption
        below = np.flatnonzero(walk.est < np.repeat(cuts[:, j], L))
        at = np.searchsorted(below, limit[active]) - 1
        candidate = below[np.maximum(at, 0)] if len(below) else starts[active]
        found = (at >= 0) & (candidate >= starts[active])
        # the running maximum at the position taken (from it to the last rank); the list's
        # maximum where none is below: the walk reached the top rank
        frm = np.where(found, candidate, starts[active])
        out[active, j] = _range_max(prec, frm, ends[active])
        limit[active] = frm
    return out


def _range_max(values: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``max(values[starts[i]:ends[i]])`` for every i (each range non-empty, ends within
    ``values`` minus its last element, the ranges in increasing order, not overlapping)."""
    bounds = np.empty(2 * len(starts), dtype=np.int64)
    bounds[0::2], bounds[1::2] = starts, ends
    return np.maximum.reduceat(values, bounds)[0::2]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# the check the catalogue makes before any run is scored
# --------------------------------------------------------------------------------------------


def check_strata(measure: PluginMeasure, qrels: Qrels) -> None:
    """The qrels must carry strata (before any run is scored)."""
    strata_of(qrels)
