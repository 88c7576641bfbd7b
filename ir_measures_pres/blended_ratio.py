"""Sakai's blended-ratio measures: Q-measure, O-measure, P-measure and P+ (P-plus).

Levels L0 (judged non-relevant), L1 .. Lmax with gain g(L) (default g(L) = L: NTCIR's
S/A/B = 3/2/1). R = number of relevant documents (level >= 1). Over the ranked list,
count(r) = relevant documents in the top r, cg(r) = their cumulative gain, cgI(r) = the
cumulative gain of the ideal list (all relevant documents by level descending), held at
cgI(R) beyond rank R. The blended ratio at rank r is

.. math::

    BR(r) = \\frac{\\beta\\, cg(r) + count(r)}{\\beta\\, cgI(r) + r}

Reference implementation: NTCIREVAL (T. Sakai); its Python port pyNTCIREVAL is a test oracle.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ._base import MeasureParameterError, PluginMeasure
from ._ranking import Qrels, RankedRun

_COMMON_PARAMS = {
    "beta": ParamInfo(dtype=float, default=1.0,
                      desc="persistence beta of the blended ratio (0 gives AP-like binary values)"),
    "gains": ParamInfo(dtype=dict, desc="gain of each relevance level {level: gain}; default g(L) = L"),
    "judged_only": ParamInfo(dtype=bool, default=False,
                             desc="drop unjudged documents before ranking (condensed list)"),
}

_SAKAI_CITE = """
    Tetsuya Sakai. On the reliability of information retrieval metrics based on graded relevance.
    Information Processing & Management 43(2), 2007.
    Tetsuya Sakai. Give Me Just One Highly Relevant Document: P-measure. SIGIR 2006.

    .. cite.dblp:: journals/ipm/Sakai07
"""


class _QMeasure(PluginMeasure):
    __doc__ = """
    Q-measure: the graded analogue of average precision, the blended ratio averaged over the
    ranks of the relevant documents.

    .. math::

        Q = \\frac{1}{R} \\sum_{r:\\ doc(r)\\ relevant} BR(r), \\qquad
        BR(r) = \\frac{\\beta\\, cg(r) + count(r)}{\\beta\\, cgI(r) + r}

    ``@k`` gives NTCIREVAL's Q@k: only relevant documents in the top k count and the sum is
    divided by min(k, R). beta = 0 gives AP. No relevant document scores 0.
    """ + _SAKAI_CITE

    __name__ = "QMeasure"
    NAME = __name__
    PRETTY_NAME = "Q-measure"
    SHORT_DESC = "Graded average precision built on the blended ratio (Sakai)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False,
                            desc="Q@k: ranks up to k, normalised by min(k, R)"),
        **_COMMON_PARAMS,
    }


class _OMeasure(PluginMeasure):
    __doc__ = """
    O-measure: the blended ratio at the rank r1 of the first relevant document,
    O = BR(r1). With beta = 0 and binary relevance it is the reciprocal rank.
    ``@k`` evaluates the top k only. No relevant document in the list scores 0.
    """ + _SAKAI_CITE

    __name__ = "OMeasure"
    NAME = __name__
    PRETTY_NAME = "O-measure"
    SHORT_DESC = "Blended ratio at the first relevant document (graded reciprocal rank)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        **_COMMON_PARAMS,
    }


class _PMeasure(PluginMeasure):
    __doc__ = """
    P-measure: the blended ratio at the preferred rank rp, the rank of the first document of
    the highest relevance *level* present in the list, P = BR(rp). It rewards finding one
    highly relevant document early. ``@k`` evaluates the top k only. No relevant document in
    the list scores 0.
    """ + _SAKAI_CITE

    __name__ = "PMeasure"
    NAME = __name__
    PRETTY_NAME = "P-measure"
    SHORT_DESC = "Blended ratio at the first document of the highest level retrieved (Sakai)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        **_COMMON_PARAMS,
    }


class _PPlusMeasure(PluginMeasure):
    __doc__ = """
    P+ (P-plus): the blended ratio averaged over the relevant documents down to the preferred
    rank rp, P+ = (1 / count(rp)) sum over relevant r <= rp of BR(r). ``@k`` evaluates the top
    k only. No relevant document in the list scores 0.
    """ + _SAKAI_CITE

    __name__ = "PPlusMeasure"
    NAME = __name__
    PRETTY_NAME = "P+ (P-plus)"
    SHORT_DESC = "Blended ratio averaged over relevant documents down to the preferred rank (Sakai)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        **_COMMON_PARAMS,
    }


QMeasure = _QMeasure()
OMeasure = _OMeasure()
PMeasure = _PMeasure()
PPlusMeasure = _PPlusMeasure()


# --------------------------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------------------------


def gain_of(labels: np.ndarray, gains: Optional[Dict[int, float]], measure: str) -> np.ndarray:
    """Gain of each label: 0 for levels <= 0 (and unjudged), g(L) = L by default, else gains[L]."""
    relevant = labels >= 1
    if gains is None:
        return np.where(relevant, labels, 0).astype(np.float64)
    levels = np.array(sorted(k for k in gains if k >= 1), dtype=np.int64)
    present = np.unique(labels[relevant])
    missing = present[~np.isin(present, levels)]
    if len(missing):
        raise MeasureParameterError(
            f"{measure}: the qrels have relevance level {int(missing[0])} but gains "
            f"{ {k: gains[k] for k in levels.tolist()} } gives it no gain")
    values = np.array([gains[k] for k in levels.tolist()], dtype=np.float64)
    out = np.zeros(len(labels))
    if len(levels):
        out[relevant] = values[np.searchsorted(levels, labels[relevant])]
    return out


def ideal_cumulative_gain(qrels: Qrels, gains: Optional[Dict[int, float]],
                          measure: str) -> Tuple[np.ndarray, np.ndarray]:
    """(offsets, cgI): per qrels query, the cumulative gains of its relevant documents by gain
    descending. Depends on the qrels only, so it is cached on them."""
    key = ("ideal", None if gains is None else tuple(sorted(gains.items())))

    def make() -> Tuple[np.ndarray, np.ndarray]:
        relevant = qrels.labels >= 1
        qidx = qrels.qidx[relevant]
        g = gain_of(qrels.labels[relevant], gains, measure)
        order = np.lexsort((-g, qidx))
        g = g[order]
        offsets = np.zeros(len(qrels.query_ids) + 1, dtype=np.int64)
        np.cumsum(np.bincount(qidx, minlength=len(qrels.query_ids)), out=offsets[1:])
        cum = np.cumsum(g)
        starts = offsets[:-1][qidx[order]]
        cum = cum - (cum[starts] - g[starts]) if len(cum) else cum
        return offsets, cum

    return qrels.cached(key, make)  # type: ignore[no-any-return]


def blended_ratio(ranked: RankedRun, beta: float, gains: Optional[Dict[int, float]],
                  measure: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(BR(r), is_relevant, R per ranked query) at every position of ``ranked``."""
    ioffsets, icum = ideal_cumulative_gain(ranked.qrels, gains, measure)
    n_rel = ranked.qrels_stat(np.diff(ioffsets))
    is_rel = ranked.labels >= 1
    gain = gain_of(ranked.labels, gains, measure)
    start = ranked.offsets[:-1][ranked.qidx]
    cg = np.cumsum(gain)
    count = np.cumsum(is_rel)
    if len(cg):
        cg = cg - (cg[start] - gain[start])
        count = count - (count[start] - is_rel[start])
    r_q = n_rel[ranked.qidx]
    cgi = np.zeros(len(gain))
    has = r_q > 0
    first_ideal = ioffsets[:-1][ranked.qpos][ranked.qidx[has]]
    cgi[has] = icum[first_ideal + np.minimum(ranked.rank[has], r_q[has]) - 1]
    br = (beta * cg + count) / (beta * cgi + ranked.rank)
    return br, is_rel, n_rel


def q_kernel(ranked: RankedRun, beta: float, gains: Optional[Dict[int, float]],
             cutoff: Optional[int], measure: str) -> np.ndarray:
    """Q-measure (cutoff None) or NTCIREVAL's Q@k over ``ranked`` (already cut at k)."""
    br, is_rel, n_rel = blended_ratio(ranked, beta, gains, measure)
    total = ranked.per_query(np.where(is_rel, br, 0.0))
    norm = n_rel if cutoff is None else np.minimum(n_rel, cutoff)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norm > 0, total / norm, 0.0)


def _first(ranked: RankedRun, mask: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(ranked query indices that have a position in ``mask``, global position of the first)."""
    pos = np.flatnonzero(mask)
    queries, first = np.unique(ranked.qidx[pos], return_index=True)
    return queries, pos[first]


def o_kernel(ranked: RankedRun, beta: float, gains: Optional[Dict[int, float]],
             measure: str) -> np.ndarray:
    """O-measure: BR at the first relevant document."""
    br, is_rel, _ = blended_ratio(ranked, beta, gains, measure)
    out = np.zeros(ranked.num_queries)
    queries, first = _first(ranked, is_rel)
    out[queries] = br[first]
    return out


def _preferred(ranked: RankedRun) -> Tuple[np.ndarray, np.ndarray]:
    """(queries with a relevant document, global position of their preferred rank rp)."""
    level = np.where(ranked.labels >= 1, ranked.labels, 0)
    top_level = np.zeros(ranked.num_queries, dtype=np.int64)
    nonempty = ranked.lengths > 0
    if nonempty.any():
        top_level[nonempty] = np.maximum.reduceat(level, ranked.offsets[:-1][nonempty])
    at_top = (level >= 1) & (level == top_level[ranked.qidx])
    return _first(ranked, at_top)


def p_kernel(ranked: RankedRun, beta: float, gains: Optional[Dict[int, float]],
             measure: str) -> np.ndarray:
    """P-measure: BR at the preferred rank."""
    br, _, _ = blended_ratio(ranked, beta, gains, measure)
    out = np.zeros(ranked.num_queries)
    queries, rp = _preferred(ranked)
    out[queries] = br[rp]
    return out


def pplus_kernel(ranked: RankedRun, beta: float, gains: Optional[Dict[int, float]],
                 measure: str) -> np.ndarray:
    """P+: BR averaged over the relevant documents down to the preferred rank."""
    br, is_rel, _ = blended_ratio(ranked, beta, gains, measure)
    queries, rp = _preferred(ranked)
    rp_rank = np.full(ranked.num_queries, 0, dtype=np.int64)
    rp_rank[queries] = ranked.rank[rp]
    within = is_rel & (ranked.rank <= rp_rank[ranked.qidx])
    total = ranked.per_query(np.where(within, br, 0.0))
    count = ranked.per_query(within.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / count, 0.0)


# --------------------------------------------------------------------------------------------
# from a measure's parameters to its kernel (used through the registry's dispatch table)
# --------------------------------------------------------------------------------------------


def _setup(measure: PluginMeasure, ranked: RankedRun) -> Tuple[RankedRun, float, Optional[Dict[int, float]]]:
    view = ranked.view(judged_only=measure["judged_only"], cutoff=measure.params.get("cutoff"))
    return view, float(measure["beta"]), measure.params.get("gains")


def check_gains_cover(measure: PluginMeasure, qrels: Qrels) -> None:
    """Raise if the qrels have a relevant level that the measure's ``gains`` leave out."""
    gains = measure.params.get("gains")
    if gains is not None:
        gain_of(qrels.labels, gains, str(measure))


def compute_q(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    view, beta, gains = _setup(measure, ranked)
    return q_kernel(view, beta, gains, measure.params.get("cutoff"), str(measure))


def compute_o(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    view, beta, gains = _setup(measure, ranked)
    return o_kernel(view, beta, gains, str(measure))


def compute_p(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    view, beta, gains = _setup(measure, ranked)
    return p_kernel(view, beta, gains, str(measure))


def compute_pplus(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    view, beta, gains = _setup(measure, ranked)
    return pplus_kernel(view, beta, gains, str(measure))
