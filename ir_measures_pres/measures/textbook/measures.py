"""The measures of *Modern Information Retrieval*'s retrieval-evaluation chapter that no other
package computes: precision averaged at the relevant documents seen, the harmonic mean F and
van Rijsbergen's E at a rank, the user-oriented measures (coverage, novelty, relative recall,
recall effort) and Järvelin & Kekäläinen's cumulated gain CG and discounted cumulated gain DCG.

R = the relevant documents (qrels level >= ``rel``), A_k = the top k of the ranking (the
package's one ranking rule), r(j) = |R ∩ A_j| / |R| and P(j) = |R ∩ A_j| / j. The user-oriented
measures also read K, the documents the user already knows, from a qrels-format file
(``known=FILE``: only its query and document columns matter). The contract, with the choices
made where the chapter contradicts itself, is docs/textbook.md.

R. Baeza-Yates and B. Ribeiro-Neto. Modern Information Retrieval. Addison-Wesley, 1999
(chapter 3, Retrieval Evaluation; chapter 4 of the 2nd edition, 2011).
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Dict, Optional, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.arrays import offsets_from_counts, ranks_within, segment_ids
from ...data.known import known_relevant
from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun, document_labels
from ..base import REL_PARAM, MeasureParameterError, PluginMeasure
from ..ntcir.blended_ratio import gain_of

_MIR_CITE = """
    R. Baeza-Yates and B. Ribeiro-Neto. Modern Information Retrieval. Addison-Wesley, 1999,
    chapter 3 (2nd edition 2011, chapter 4).
"""
_JK_CITE = """
    K. Järvelin and J. Kekäläinen. IR evaluation methods for retrieving highly relevant
    documents. SIGIR 2000. Cumulated gain-based evaluation of IR techniques. ACM TOIS 20(4), 2002.
    (Both as presented in Baeza-Yates and Ribeiro-Neto, Modern Information Retrieval, 2nd ed. 2011.)
"""

_CUTOFF = ParamInfo(dtype=int, required=False, desc="evaluate the top k documents only (A_k)")
_KNOWN = ParamInfo(
    dtype=str,
    required=True,
    desc="qrels-format file of the documents the user knows (K; query and doc columns)",
)
_BETA = ParamInfo(dtype=float, default=1.0, desc="relative weight b of recall against precision (default 1)")
_GAINS = ParamInfo(dtype=dict, desc="gain of each relevance level {level: gain}; default G = the level")


class _Undefinable(PluginMeasure):
    """A measure some queries leave undefined (value NaN, K ∩ R empty; the compute function warns,
    naming them): they are left out of its mean (the catalogue's :data:`~.base.MEAN` rule,
    :class:`~.base.DefinedMean`)."""


# --------------------------------------------------------------------------------------------
# measures
# --------------------------------------------------------------------------------------------


class _APSeen(PluginMeasure):
    __doc__ = (
        """
    Average precision at seen relevant documents: the mean of the precisions at the ranks of the
    relevant documents retrieved,

    .. math::

        APSeen = \\frac{1}{|R \\cap A|} \\sum_{j:\\ doc(j) \\in R} P(j)

    It divides by the relevant documents *seen*, not by |R| as AP does, so it favours systems
    that find a few relevant documents early. ``@k``: the top k only. No relevant document
    retrieved scores 0.
    """
        + _MIR_CITE
    )

    __name__ = "APSeen"
    NAME = __name__
    PRETTY_NAME = "Average precision at seen relevant documents"
    SHORT_DESC = (
        "Mean precision at the ranks of the relevant documents retrieved (Baeza-Yates & Ribeiro-Neto)."
    )
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "rel": REL_PARAM}


class _F(PluginMeasure):
    __doc__ = (
        """
    The harmonic mean of recall and precision at rank k (the chapter's F(j) at b = 1, and its
    b-weighted form),

    .. math::

        F_b(k) = \\frac{1 + b^2}{\\frac{b^2}{r(k)} + \\frac{1}{P(k)}}
               = \\frac{(1 + b^2)\\, |R \\cap A_k|}{b^2 |R| + k}

    0 when r(k) or P(k) is 0. P(k) divides by k even when the ranking is shorter (as trec_eval's
    P@k); without ``@k``, k is the length of the ranking.
    """
        + _MIR_CITE
    )

    __name__ = "F"
    NAME = __name__
    PRETTY_NAME = "Harmonic mean F"
    SHORT_DESC = "Weighted harmonic mean of recall and precision at rank k (Baeza-Yates & Ribeiro-Neto)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "beta": _BETA, "rel": REL_PARAM}


class _E(PluginMeasure):
    __doc__ = (
        """
    Van Rijsbergen's E measure at rank k, as the chapter's formula writes it:

    .. math::

        E_b(k) = 1 - \\frac{1 + b^2}{\\frac{b^2}{r(k)} + \\frac{1}{P(k)}} = 1 - F_b(k)

    Lower is better. With this formula b > 1 weights *recall* more (the chapter's sentence says
    the opposite; the formula is followed, docs/textbook.md). 1 when no relevant document is
    retrieved, and for a query the run lacks.

    C. J. van Rijsbergen. Information Retrieval, 2nd ed. Butterworths, 1979.
    """
        + _MIR_CITE
    )

    __name__ = "E"
    NAME = __name__
    PRETTY_NAME = "E measure"
    SHORT_DESC = "Van Rijsbergen's E = 1 - F at rank k, lower is better (Baeza-Yates & Ribeiro-Neto)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "beta": _BETA, "rel": REL_PARAM}
    DEFAULT = 1.0


class _Coverage(_Undefinable):
    __doc__ = (
        """
    Coverage: the share of the relevant documents the user knows that the answer contains,

    .. math::

        coverage = \\frac{|K \\cap R \\cap A_k|}{|K \\cap R|}

    K is read from ``known`` (qrels format). ``@k``: the top k only (default: the whole
    ranking). Undefined when K ∩ R is empty: the query is left out of the mean, with a warning.
    """
        + _MIR_CITE
    )

    __name__ = "Coverage"
    NAME = __name__
    PRETTY_NAME = "Coverage"
    SHORT_DESC = (
        "Share of the known relevant documents that the answer contains (Baeza-Yates & Ribeiro-Neto)."
    )
    SUPPORTED_PARAMS = {"known": _KNOWN, "cutoff": _CUTOFF, "rel": REL_PARAM}

    def _example(self, param: str) -> str:
        return "Coverage(known='known.qrels')@10"


class _Novelty(PluginMeasure):
    __doc__ = (
        """
    Novelty: the share of the relevant documents retrieved that the user did not know,

    .. math::

        novelty = \\frac{|(R \\cap A_k) - K|}{|R \\cap A_k|}

    0 when no relevant document is retrieved. ``@k``: the top k only.
    """
        + _MIR_CITE
    )

    __name__ = "Novelty"
    NAME = __name__
    PRETTY_NAME = "Novelty"
    SHORT_DESC = (
        "Share of the relevant documents retrieved that the user did not know (Baeza-Yates & Ribeiro-Neto)."
    )
    SUPPORTED_PARAMS = {"known": _KNOWN, "cutoff": _CUTOFF, "rel": REL_PARAM}

    def _example(self, param: str) -> str:
        return "Novelty(known='known.qrels')@10"


class _RelativeRecall(_Undefinable):
    __doc__ = (
        """
    Relative recall: relevant documents found over the relevant documents the user expected
    to find,

    .. math::

        relative\\ recall = \\frac{|R \\cap A_k|}{|K \\cap R|}

    It may exceed 1. Undefined when K ∩ R is empty: the query is left out of the mean, with a
    warning.
    """
        + _MIR_CITE
    )

    __name__ = "RelativeRecall"
    NAME = __name__
    PRETTY_NAME = "Relative recall"
    SHORT_DESC = "Relevant documents found over the known relevant ones (Baeza-Yates & Ribeiro-Neto)."
    SUPPORTED_PARAMS = {"known": _KNOWN, "cutoff": _CUTOFF, "rel": REL_PARAM}

    def _example(self, param: str) -> str:
        return "RelativeRecall(known='known.qrels')@10"


class _RecallEffort(_Undefinable):
    __doc__ = (
        """
    Recall effort: the relevant documents the user expected to find over the documents examined
    to find them,

    .. math::

        recall\\ effort = \\frac{|K \\cap R|}{\\text{rank of the last document of } K \\cap R}

    the denominator being the length of the ranking when a document of K ∩ R is not retrieved.
    Undefined when K ∩ R is empty: the query is left out of the mean, with a warning.
    """
        + _MIR_CITE
    )

    __name__ = "RecallEffort"
    NAME = __name__
    PRETTY_NAME = "Recall effort"
    SHORT_DESC = (
        "Known relevant documents over the documents examined to find them (Baeza-Yates & Ribeiro-Neto)."
    )
    SUPPORTED_PARAMS = {"known": _KNOWN, "rel": REL_PARAM}

    def _example(self, param: str) -> str:
        return "RecallEffort(known='known.qrels')"


class _CG(PluginMeasure):
    __doc__ = (
        """
    Cumulated gain at rank k: the sum of the gains of the top k documents,

    .. math::

        CG[k] = \\sum_{i=1}^{k} G[i]

    G[i] is the qrels level of the document at rank i (0 below ``rel`` and when unjudged), or
    ``gains[level]``. Without ``@k``: the whole ranking.
    """
        + _JK_CITE
    )

    __name__ = "CG"
    NAME = __name__
    PRETTY_NAME = "Cumulated gain"
    SHORT_DESC = "Sum of the graded gains of the top k documents (Järvelin & Kekäläinen)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "gains": _GAINS, "rel": REL_PARAM}


class _DCG(PluginMeasure):
    __doc__ = (
        """
    Discounted cumulated gain at rank k with Järvelin & Kekäläinen's original discount: no
    discount while i < b, then the gain divided by log_b i,

    .. math::

        DCG[k] = \\sum_{i=1}^{k} \\frac{G[i]}{\\max(1, \\log_b i)}

    G as for :data:`CG`; ``logb`` is b (default 2, > 1). Without ``@k``: the whole ranking.
    (ir_measures' nDCG uses log2(i + 1) at every rank: another discount.)
    """
        + _JK_CITE
    )

    __name__ = "DCG"
    NAME = __name__
    PRETTY_NAME = "Discounted cumulated gain"
    SHORT_DESC = "Gains discounted by max(1, log_b rank), summed over the top k (Järvelin & Kekäläinen)."
    SUPPORTED_PARAMS = {
        "cutoff": _CUTOFF,
        "logb": ParamInfo(dtype=float, default=2.0, desc="base b of the logarithmic discount (> 1)"),
        "gains": _GAINS,
        "rel": REL_PARAM,
    }

    def _check_combination(self) -> None:
        logb = self.params.get("logb", 2.0)
        if not logb > 1:
            raise MeasureParameterError(f"DCG: parameter 'logb' must be greater than 1, got {logb!r}")


APSeen = _APSeen()
F = _F()
E = _E()
Coverage = _Coverage()
Novelty = _Novelty()
RelativeRecall = _RelativeRecall()
RecallEffort = _RecallEffort()
CG = _CG()
DCG = _DCG()


# --------------------------------------------------------------------------------------------
# kernels: judged documents in, one value per ranked query out
# --------------------------------------------------------------------------------------------


def apseen_kernel(judged: JudgedList, rel: int) -> np.ndarray:
    """Mean of P(j) = (relevant in the top j) / j over the ranks j of the relevant documents."""
    found = judged.subset(judged.label >= rel)
    ones = np.ones(len(found.rank))
    precision = found.cumsum(ones) / found.rank
    count = found.sum(ones)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, found.sum(precision) / count, 0.0)


def f_value(found: np.ndarray, n_relevant: np.ndarray, k: np.ndarray, beta: float) -> np.ndarray:
    """F_b from |R ∩ A_k|, |R| and k (0 where nothing relevant is found)."""
    b2 = beta * beta
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (1.0 + b2) * found / (b2 * n_relevant + k)
    return np.where((found > 0) & (n_relevant > 0), value, 0.0)


def discounted_gain(gain: np.ndarray, rank: np.ndarray, logb: Optional[float]) -> np.ndarray:
    """G[i] / max(1, log_b i) (``logb`` None: G[i], cumulated gain). The one kernel of CG@k,
    DCG@k and of the cg/dcg/ncg/ndcg curves of ``ir_measures_pres curves``."""
    if logb is None:
        return gain
    return gain / np.maximum(1.0, np.log(rank) / math.log(logb))


def gain_curve(qidx: np.ndarray, rank: np.ndarray, value: np.ndarray, rows: int, depth: int) -> np.ndarray:
    """(rows, depth) running sums: entry (q, i - 1) is the sum of ``value`` over the entries of
    row q with rank <= i."""
    out = np.zeros((rows, depth))
    keep = rank <= depth
    np.add.at(out, (qidx[keep], rank[keep] - 1), value[keep])
    return np.cumsum(out, axis=1)


def ideal_gains(
    qrels: Qrels, gains: Optional[Dict[int, float]], rel: int, measure: str
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(query index, rank, gain) of the ideal ranking of every qrels query: its relevant
    documents by gain descending."""
    relevant = qrels.labels >= rel
    qidx = qrels.qidx[relevant]
    g = gain_of(qrels.labels[relevant], gains, measure, rel)
    order = np.lexsort((-g, qidx))
    qidx, g = qidx[order], g[order]
    offsets = offsets_from_counts(np.bincount(qidx, minlength=len(qrels.query_ids)))
    rank = ranks_within(offsets, qidx)
    return qidx, rank, g


def ideal_curve(
    qrels: Qrels, depth: int, logb: Optional[float], gains: Optional[Dict[int, float]] = None, rel: int = 1
) -> np.ndarray:
    """(qrels queries, depth): ICG[i] (``logb`` None) or IDCG[i] per qrels query."""
    qidx, rank, g = ideal_gains(qrels, gains, rel, "ideal gain")
    return gain_curve(
        qidx, rank, discounted_gain(g, rank.astype(np.float64), logb), len(qrels.query_ids), depth
    )


def known_counts(
    labels: np.ndarray,
    rank: np.ndarray,
    qidx: np.ndarray,
    known: np.ndarray,
    rel: int,
    nq: int,
    cutoff: Optional[int],
) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per ranked query: (|R ∩ A_k|, |K ∩ R ∩ A_k|, rank of the last document of K ∩ R found)
    from the relevant positions of a ranked list (``known``: whether each is in K)."""
    within = np.ones(len(rank), dtype=bool) if cutoff is None else rank <= cutoff
    is_rel = (labels >= rel) & within
    found = np.bincount(qidx[is_rel], minlength=nq).astype(np.float64)
    known_found = np.bincount(qidx[is_rel & known], minlength=nq).astype(np.float64)
    last = np.zeros(nq)
    sel = is_rel & known
    np.maximum.at(last, qidx[sel], rank[sel].astype(np.float64))
    return found, known_found, last


# --------------------------------------------------------------------------------------------
# from a measure's parameters to its kernel (the catalogue's dispatch table)
# --------------------------------------------------------------------------------------------


def compute_apseen(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    judged = ranked.judged_list(cutoff=measure.params.get("cutoff"))
    return apseen_kernel(judged, measure["rel"])


def _f(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    cutoff = measure.params.get("cutoff")
    judged = ranked.judged_list(cutoff=cutoff)
    found = judged.sum((judged.label >= rel).astype(np.float64))
    n = ranked.qrels_stat(ranked.qrels.count(lo=rel)).astype(np.float64)
    k = ranked.lengths.astype(np.float64) if cutoff is None else np.full(ranked.num_queries, float(cutoff))
    return f_value(found, n, k, float(measure["beta"]))


def compute_f(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _f(measure, ranked)


def compute_e(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return 1.0 - _f(measure, ranked)


def _discounted(
    ranked: RankedRun,
    cutoff: Optional[int],
    logb: Optional[float],
    gains: Optional[Dict[int, float]],
    rel: int,
) -> Tuple[JudgedList, np.ndarray]:
    """The judged documents of the top ``cutoff`` and G[i] / max(1, log_b i) of each: what CG@k
    and DCG@k sum and the curves accumulate."""
    judged = ranked.judged_list(cutoff=cutoff)
    gain = gain_of(judged.label, gains, "CG" if logb is None else "DCG", rel)
    return judged, discounted_gain(gain, judged.rank.astype(np.float64), logb)


def _gain_sum(measure: PluginMeasure, ranked: RankedRun, logb: Optional[float]) -> np.ndarray:
    judged, value = _discounted(
        ranked, measure.params.get("cutoff"), logb, measure.params.get("gains"), measure["rel"]
    )
    return judged.sum(value)


def run_gain_curve(
    ranked: RankedRun,
    depth: int,
    logb: Optional[float],
    gains: Optional[Dict[int, float]] = None,
    rel: int = 1,
) -> np.ndarray:
    """(qrels queries, depth): CG[i] (``logb`` None) or DCG[i] of every qrels query for i = 1 ..
    depth, 0 for a query the run lacks. Entry i - 1 equals ``CG@i`` / ``DCG(logb=b)@i``: the same
    per-document values, summed up to rank i (tests/test_curves.py checks it)."""
    judged, value = _discounted(ranked, depth, logb, gains, rel)
    curve = gain_curve(judged.qidx, judged.rank, value, ranked.num_queries, depth)
    out = np.zeros((len(ranked.qrels.query_ids), depth))
    out[ranked.qpos] = curve
    return out


def compute_cg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _gain_sum(measure, ranked, None)


def compute_dcg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _gain_sum(measure, ranked, float(measure["logb"]))


# -- the user-oriented measures: K from a file -------------------------------------------------


def check_known(measure: PluginMeasure, qrels: Qrels) -> None:
    """Read ``known`` before any run is scored (an unreadable file fails at once), and warn once,
    naming them, of the queries where K ∩ R is empty: Coverage, RelativeRecall and RecallEffort
    are undefined there and leave them out of their mean (this depends on the qrels and K only,
    so it is said once per evaluation, not once per run)."""
    path = measure["known"]
    kq = known_relevant(qrels, path, measure["rel"])
    empty = [q for q, n in zip(kq.query_ids, kq.count(lo=1).tolist()) if n == 0]
    if empty and measure.NAME != "Novelty":
        shown = ", ".join(empty[:10]) + (f" and {len(empty) - 10} more" if len(empty) > 10 else "")
        warnings.warn(
            f"{measure.NAME}: K ∩ R is empty (no relevant document is in {path}) for "
            f"{len(empty)} {'query' if len(empty) == 1 else 'queries'}, left out of its mean as "
            f"undefined: {shown}",
            stacklevel=3,
        )


def _known_state(measure: PluginMeasure, ranked: RankedRun) -> Tuple[Any, ...]:
    """(|R ∩ A_k|, |K ∩ R ∩ A_k|, last rank of K ∩ R found, |K ∩ R|) per ranked query (the
    queries where K ∩ R is empty are warned of by :func:`check_known`)."""
    rel = measure["rel"]
    path = measure["known"]
    kq = known_relevant(ranked.qrels, path, rel)

    def make() -> Tuple[np.ndarray, np.ndarray]:
        docs = ranked.docs
        if docs is None:
            raise ValueError(f"{measure}: this ranked run keeps no document ids, which K needs")
        pos = np.flatnonzero(ranked.labels >= rel)
        sub = ranked.kept_offsets(pos)
        return pos, document_labels(kq, ranked.qpos, sub, docs[pos]) == 1

    pos, known = ranked.cached(("known", path, rel), make)
    kr_all = kq.count(lo=1)
    found, known_found, last = known_counts(
        ranked.labels[pos],
        ranked.rank[pos],
        segment_ids(ranked.offsets)[pos],
        known,
        rel,
        ranked.num_queries,
        measure.params.get("cutoff"),
    )
    return found, known_found, last, ranked.qrels_stat(kr_all).astype(np.float64)


def compute_coverage(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    _, known_found, _, kr = _known_state(measure, ranked)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(kr > 0, known_found / kr, np.nan)


def compute_novelty(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    found, known_found, _, _ = _known_state(measure, ranked)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(found > 0, (found - known_found) / found, 0.0)


def compute_relative_recall(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    found, _, _, kr = _known_state(measure, ranked)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(kr > 0, found / kr, np.nan)


def compute_recall_effort(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    _, known_found, last, kr = _known_state(measure, ranked)
    examined = np.where(known_found >= kr, last, ranked.lengths.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(examined > 0, kr / examined, 0.0)
    return np.where(kr > 0, value, np.nan)
