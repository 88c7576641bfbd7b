"""Sakai's blended-ratio measures: Q-measure, O-measure, P-measure and P+ (P-plus).

Levels L0 (judged non-relevant), L1 .. Lmax with gain g(L) (default g(L) = L: NTCIR's
S/A/B = 3/2/1). R = number of relevant documents (level >= 1; with ``rel=r``, levels below r
count as L0). Over the ranked list,
count(r) = relevant documents in the top r, cg(r) = their cumulative gain, cgI(r) = the
cumulative gain of the ideal list (all relevant documents by level descending), held at
cgI(R) beyond rank R. The blended ratio at rank r is

.. math::

    BR(r) = \\frac{\\beta\\, cg(r) + count(r)}{\\beta\\, cgI(r) + r}

Reference implementation: NTCIREVAL (T. Sakai); its Python port pyNTCIREVAL is a test oracle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.arrays import cumsum_within, offsets_from_counts, running_sums_in_order
from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun
from ..base import JUDGED_ONLY_PARAM, MeasureParameterError, PluginMeasure

_COMMON_PARAMS = {
    "beta": ParamInfo(
        dtype=float, default=1.0, desc="persistence beta of the blended ratio (0 gives AP-like binary values)"
    ),
    "gains": ParamInfo(dtype=dict, desc="gain of each relevance level {level: gain}; default g(L) = L"),
    "judged_only": JUDGED_ONLY_PARAM,
    "rel": ParamInfo(
        dtype=int, default=1, desc="minimum level counted as relevant; lower levels count as L0 (default 1)"
    ),
}

_SAKAI_CITE = """
    Tetsuya Sakai. On the reliability of information retrieval metrics based on graded relevance.
    Information Processing & Management 43(2), 2007.
    Tetsuya Sakai. Give Me Just One Highly Relevant Document: P-measure. SIGIR 2006.

    .. cite.dblp:: journals/ipm/Sakai07
"""


class _QMeasure(PluginMeasure):
    __doc__ = (
        """
    Q-measure: the graded analogue of average precision, the blended ratio averaged over the
    ranks of the relevant documents.

    .. math::

        Q = \\frac{1}{R} \\sum_{r:\\ doc(r)\\ relevant} BR(r), \\qquad
        BR(r) = \\frac{\\beta\\, cg(r) + count(r)}{\\beta\\, cgI(r) + r}

    ``@k`` gives NTCIREVAL's Q@k: only relevant documents in the top k count and the sum is
    divided by min(k, R). beta = 0 gives AP. No relevant document scores 0.
    """
        + _SAKAI_CITE
    )

    __name__ = "QMeasure"
    NAME = __name__
    PRETTY_NAME = "Q-measure"
    SHORT_DESC = "Graded average precision built on the blended ratio (Sakai)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="Q@k: ranks up to k, normalised by min(k, R)"),
        **_COMMON_PARAMS,
    }


class _OMeasure(PluginMeasure):
    __doc__ = (
        """
    O-measure: the blended ratio at the rank r1 of the first relevant document,
    O = BR(r1). With beta = 0 and binary relevance it is the reciprocal rank.
    ``@k`` evaluates the top k only. No relevant document in the list scores 0.
    """
        + _SAKAI_CITE
    )

    __name__ = "OMeasure"
    NAME = __name__
    PRETTY_NAME = "O-measure"
    SHORT_DESC = "Blended ratio at the first relevant document (graded reciprocal rank)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        **_COMMON_PARAMS,
    }


class _PMeasure(PluginMeasure):
    __doc__ = (
        """
    P-measure: the blended ratio at the preferred rank rp, the rank of the first document of
    the highest relevance *level* present in the list, P = BR(rp). It rewards finding one
    highly relevant document early. ``@k`` evaluates the top k only. No relevant document in
    the list scores 0.
    """
        + _SAKAI_CITE
    )

    __name__ = "PMeasure"
    NAME = __name__
    PRETTY_NAME = "P-measure"
    SHORT_DESC = "Blended ratio at the first document of the highest level retrieved (Sakai)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only"),
        **_COMMON_PARAMS,
    }


class _PPlusMeasure(PluginMeasure):
    __doc__ = (
        """
    P+ (P-plus): the blended ratio averaged over the relevant documents down to the preferred
    rank rp, P+ = (1 / count(rp)) sum over relevant r <= rp of BR(r). ``@k`` evaluates the top
    k only. No relevant document in the list scores 0.
    """
        + _SAKAI_CITE
    )

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


def gain_of(labels: np.ndarray, gains: Optional[Dict[int, float]], measure: str, rel: int = 1) -> np.ndarray:
    """Gain of each label: 0 for levels <= 0 (and unjudged), g(L) = L by default, else gains[L]."""
    relevant = labels >= rel
    if gains is None:
        return np.where(relevant, labels, 0).astype(np.float64)
    levels = np.array(sorted(k for k in gains if k >= rel), dtype=np.int64)
    present = np.unique(labels[relevant])
    missing = present[~np.isin(present, levels)]
    if len(missing):
        raise MeasureParameterError(
            f"{measure}: the qrels have relevance level {int(missing[0])} but gains "
            f"{ {k: gains[k] for k in levels.tolist()} } gives it no gain"
        )
    values = np.array([gains[k] for k in levels.tolist()], dtype=np.float64)
    out = np.zeros(len(labels))
    if len(levels):
        out[relevant] = values[np.searchsorted(levels, labels[relevant])]
    return out


def ideal_cumulative_gain(
    qrels: Qrels, gains: Optional[Dict[int, float]], measure: str, rel: int = 1
) -> Tuple[np.ndarray, np.ndarray]:
    """(offsets, cgI): per qrels query, the cumulative gains of its relevant documents by gain
    descending. Depends on the qrels only, so it is cached on them."""
    key = ("ideal", rel, None if gains is None else tuple(sorted(gains.items())))

    def make() -> Tuple[np.ndarray, np.ndarray]:
        relevant = qrels.labels >= rel
        qidx = qrels.qidx[relevant]
        g = gain_of(qrels.labels[relevant], gains, measure, rel)
        order = np.lexsort((-g, qidx))
        g = g[order]
        offsets = offsets_from_counts(np.bincount(qidx, minlength=len(qrels.query_ids)))
        return offsets, cumsum_within(g, offsets)

    return qrels.cached(key, make)  # type: ignore[no-any-return]


@dataclass
class _Blended:
    """BR(r) at every retrieved relevant document (level >= rel) of one list, with what the four
    measures need around it. Shared by Q, O, P and P+ on the same list and parameters."""

    rel: JudgedList  # the retrieved relevant documents only
    br: np.ndarray
    n_rel: np.ndarray  # R per ranked query


def blended_ratio(
    judged: JudgedList,
    qrels: Qrels,
    beta: float,
    gains: Optional[Dict[int, float]],
    measure: str,
    rel: int = 1,
) -> _Blended:
    """BR(r) = (beta cg(r) + count(r)) / (beta cgI(r) + r) at the retrieved relevant documents;
    only they enter any of the four measures, so nothing else is computed."""
    ioffsets, icum = ideal_cumulative_gain(qrels, gains, measure, rel)
    rel_docs = judged.subset(judged.label >= rel)
    gain = gain_of(rel_docs.label, gains, measure, rel)
    return blended_from(
        rel_docs, gain, ioffsets[:-1][judged.qpos], np.diff(ioffsets)[judged.qpos], icum, beta
    )


def blended_from(
    rel_docs: JudgedList,
    gain: np.ndarray,
    istart: np.ndarray,
    n_rel: np.ndarray,
    icum: np.ndarray,
    beta: float,
    in_order: bool = False,
) -> _Blended:
    """BR(r) at the retrieved relevant documents ``rel_docs`` (their gains ``gain``), against
    ideal lists whose cumulative gains are ``icum``: ranked query k's starts at ``istart[k]``
    and has ``n_rel[k]`` entries (cgI held at cgI(R) beyond R). ``in_order``: cg(r) added rank
    by rank from 0, as a tool's loop adds (real-valued gains; integral gains are exact either
    way)."""
    cg = running_sums_in_order(gain, rel_docs.offsets) if in_order else rel_docs.cumsum(gain)
    count = rel_docs.cumsum(np.ones(len(gain)))
    qidx = rel_docs.qidx
    if len(icum):
        ideal_at = istart[qidx] + np.minimum(rel_docs.rank, n_rel[qidx]) - 1
        cgi = icum[ideal_at]
    else:
        cgi = np.zeros(len(gain))
    br = (beta * cg + count) / (beta * cgi + rel_docs.rank)
    return _Blended(rel_docs, br, n_rel)


def q_kernel(b: _Blended, cutoff: Optional[int]) -> np.ndarray:
    """Q-measure (cutoff None) or NTCIREVAL's Q@k (the list already cut at k): sum of BR over the
    relevant documents, divided by R (Q@k: by min(k, R))."""
    total = b.rel.sum(b.br)
    norm = b.n_rel if cutoff is None else np.minimum(b.n_rel, cutoff)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(norm > 0, total / norm, 0.0)


def o_kernel(b: _Blended) -> np.ndarray:
    """O-measure: BR at the first relevant document."""
    out = np.zeros(b.rel.num_queries)
    queries, first = b.rel.first(np.ones(len(b.br), dtype=bool))
    out[queries] = b.br[first]
    return out


def _preferred(rel: JudgedList) -> Tuple[np.ndarray, np.ndarray]:
    """(queries with a relevant document, entry index of their preferred rank rp): the first
    document of the highest relevance level present in the list (by level, not gain)."""
    top_level = np.zeros(rel.num_queries, dtype=np.int64)
    nonempty = np.diff(rel.offsets) > 0
    if nonempty.any():
        top_level[nonempty] = np.maximum.reduceat(rel.label, rel.offsets[:-1][nonempty])
    return rel.first(rel.label == top_level[rel.qidx])


def p_kernel(b: _Blended) -> np.ndarray:
    """P-measure: BR at the preferred rank."""
    out = np.zeros(b.rel.num_queries)
    queries, rp = _preferred(b.rel)
    out[queries] = b.br[rp]
    return out


def pplus_kernel(b: _Blended) -> np.ndarray:
    """P+: BR averaged over the relevant documents down to the preferred rank."""
    queries, rp = _preferred(b.rel)
    rp_rank = np.zeros(b.rel.num_queries, dtype=np.int64)
    rp_rank[queries] = b.rel.rank[rp]
    within = b.rel.rank <= rp_rank[b.rel.qidx]
    total = b.rel.sum(np.where(within, b.br, 0.0))
    count = b.rel.sum(within.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / count, 0.0)


# --------------------------------------------------------------------------------------------
# from a measure's parameters to its kernel (used through the registry's dispatch table)
# --------------------------------------------------------------------------------------------


def _blended(measure: PluginMeasure, ranked: RankedRun) -> _Blended:
    """BR for the measure's list and parameters, cached on the run (Q, O, P, P+ share it)."""
    cutoff = measure.params.get("cutoff")
    gains = measure.params.get("gains")
    beta = float(measure["beta"])
    rel = measure["rel"]
    key = (
        "blended",
        measure["judged_only"],
        cutoff,
        beta,
        rel,
        None if gains is None else tuple(sorted(gains.items())),
    )

    def make() -> Any:
        judged = ranked.judged_list(judged_only=measure["judged_only"], cutoff=cutoff)
        return blended_ratio(judged, ranked.qrels, beta, gains, str(measure), rel)

    return ranked.cached(key, make)  # type: ignore[no-any-return]


def check_gains_cover(measure: PluginMeasure, qrels: Qrels) -> None:
    """Raise if the qrels have a relevant level that the measure's ``gains`` leave out."""
    gains = measure.params.get("gains")
    if gains is not None:
        gain_of(qrels.labels, gains, str(measure), measure["rel"])


def compute_q(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return q_kernel(_blended(measure, ranked), measure.params.get("cutoff"))


def compute_o(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return o_kernel(_blended(measure, ranked))


def compute_p(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return p_kernel(_blended(measure, ranked))


def compute_pplus(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return pplus_kernel(_blended(measure, ranked))
