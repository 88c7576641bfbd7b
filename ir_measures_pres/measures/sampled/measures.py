"""The sampled-judgement measures as the catalogue registers them: xinfAP, infNDCG, infP@k,
inum_rel, inum_rel_ret and infIPrec@x (NIST's ``sample_eval.pl``), their parameters (the tool's
``variant`` and ``depth``) and the compute functions the catalogue calls, each one walk of the
ranked run and one estimator of :mod:`.estimators` (where the formulas and the notation are).
"""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.ranking import RankedRun
from ..base import MeasureParameterError, PluginMeasure
from .estimators import (
    DEFAULT_DEPTH,
    RECALL_LEVELS,
    VARIANTS,
    ideal_dcg,
    inf_ap,
    inf_ndcg,
    inf_precision,
    inum_rel_ret_of,
    iprec_at_recall,
    strata_of,
    walk_of,
)

__all__ = ["xinfAP", "infNDCG", "infP", "inum_rel", "inum_rel_ret", "infIPrec"]


# --------------------------------------------------------------------------------------------
# measures
# --------------------------------------------------------------------------------------------

_VARIANT = ParamInfo(
    dtype=str,
    choices=list(VARIANTS),
    default="cds",
    desc="sample_eval.pl's copy: 'cds' (rounded ideal counts) or 'trecvid' (fractional ideal, "
    "AP scaled by R/depth when R > depth)",
)
_DEPTH = ParamInfo(dtype=int, default=DEFAULT_DEPTH, desc="ranks read from each run ($maxResultSize)")


class _Sampled(PluginMeasure):
    """Shared checks of the sampled-judgement measures."""

    def _check_combination(self) -> None:
        depth = self.params.get("depth", DEFAULT_DEPTH)
        if isinstance(depth, int) and not 1 <= depth <= 10**7:
            raise MeasureParameterError(
                f"{self.__name__}: parameter 'depth' must be an integer from 1 to 10000000, got {depth!r}"
            )


class _XinfAP(_Sampled):
    """
    xinfAP: average precision inferred from stratified sampled judgements, as NIST's
    sample_eval.pl computes it (its ``infAP`` line).

    .. math::

        xinfAP = \\sum_{c: n_c > 0} \\frac{r_c N_c / n_c}{\\hat R} \\cdot \\frac{1}{r_c}
            \\sum_{\\text{sampled relevant } d \\in c} prec_{k(d)}

    with prec_k = 1/k + (1/k) Σ_c D_c (Q_c + 1e-5) / (S_c + 3e-5) over the ranks above k (see
    the module docstring for the notation). ``variant='trecvid'`` multiplies by R̂ / depth when
    R̂ > depth. Needs the qrels' strata (5-column sampled qrels).

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "xinfAP"
    NAME = __name__
    PRETTY_NAME = "xinfAP"
    SHORT_DESC = "Inferred AP from stratified sampled judgements (sample_eval.pl)."
    SUPPORTED_PARAMS = {"variant": _VARIANT, "depth": _DEPTH}


class _InfNDCG(_Sampled):
    """
    infNDCG: nDCG inferred from stratified sampled judgements, as sample_eval.pl computes it.

    .. math::

        infNDCG = \\frac{D \\sum_{c: S_c > 0} (D_c / D)\\, G_c / S_c}{IDCG}

    G_c the DCG (gain = relevance level, discount log2(k + 1)) of the sampled relevant documents
    of stratum c retrieved; D, D_c, S_c over the top ``depth``. IDCG from the estimated count of
    each grade (``cds``: rounded; ``trecvid``: fractional). Needs the qrels' strata.

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "infNDCG"
    NAME = __name__
    PRETTY_NAME = "infNDCG"
    SHORT_DESC = "Inferred nDCG from stratified sampled judgements (sample_eval.pl)."
    SUPPORTED_PARAMS = {"variant": _VARIANT, "depth": _DEPTH}


class _InfP(_Sampled):
    """
    infP@k: precision at k inferred from stratified sampled judgements (sample_eval.pl's
    ``iP<k>`` lines).

    .. math::

        infP@k = \\frac{1}{k} \\sum_c D_c \\frac{Q_c + 10^{-5}}{S_c + 3 \\cdot 10^{-5}}

    with the counters over the top min(k, list length, depth). Needs the qrels' strata.

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "infP"
    NAME = __name__
    PRETTY_NAME = "infP@k"
    SHORT_DESC = "Inferred precision at k from stratified sampled judgements (sample_eval.pl)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=True, desc="ranking cutoff"),
        "variant": _VARIANT,
        "depth": _DEPTH,
    }


class _InumRel(_Sampled):
    """
    inum_rel: the estimated number of relevant documents of the topic,
    R̂ = Σ_{c: n_c > 0} r_c N_c / n_c (sample_eval.pl's ``inum_rel``; its ``all`` line is the sum
    over the qrels topics, here the mean as for every measure). Needs the qrels' strata.

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "inum_rel"
    NAME = __name__
    PRETTY_NAME = "inum_rel"
    SHORT_DESC = "Estimated number of relevant documents (sample_eval.pl)."
    SUPPORTED_PARAMS = {"variant": _VARIANT, "depth": _DEPTH}


class _InumRelRet(_Sampled):
    """
    inum_rel_ret: the estimated number of relevant documents retrieved,
    Σ_c D_c (Q_c + 1e-5) / (S_c + 3e-5) over the top ``depth`` (sample_eval.pl's
    ``inum_rel_ret``; a stratum with no sampled document adds D_c / 3, so it can exceed
    inum_rel, as in the tool). Needs the qrels' strata.

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "inum_rel_ret"
    NAME = __name__
    PRETTY_NAME = "inum_rel_ret"
    SHORT_DESC = "Estimated number of relevant documents retrieved (sample_eval.pl)."
    SUPPORTED_PARAMS = {"variant": _VARIANT, "depth": _DEPTH}


class _InfIPrec(_Sampled):
    """
    infIPrec@x: sample_eval.pl's interpolated precision at recall level x (its summary lines
    ``iprec@rec0.00`` ... ``iprec@rec1.00``, of which this is the per-topic term; x one of 0,
    0.1, ..., 1).

    The ranks are walked from the last upwards with the running maximum of est(k) / k; the
    recall levels' cut-offs x·R̂, largest first, each take that maximum at the first rank whose
    est(k) is below it, one level per rank; the levels left at the top rank take the maximum over
    the whole list (see the module docstring). As in the tool, level 1.00 is 0 even for a perfect
    run. Needs the qrels' strata.

    Emine Yilmaz, Evangelos Kanoulas and Javed A. Aslam. A Simple and Efficient Sampling Method
    for Estimating AP and NDCG. SIGIR 2008.

    .. cite.dblp:: conf/sigir/YilmazKA08
    """

    __name__ = "infIPrec"
    NAME = __name__
    PRETTY_NAME = "infIPrec@recall"
    SHORT_DESC = "Inferred interpolated precision at a recall level (sample_eval.pl's iprec@rec)."
    AT_PARAM = "recall"
    SUPPORTED_PARAMS = {
        "recall": ParamInfo(dtype=float, required=True, desc="recall level: 0, 0.1, ..., 1"),
        "variant": _VARIANT,
        "depth": _DEPTH,
    }

    def _check_combination(self) -> None:
        super()._check_combination()
        recall = self.params.get("recall")
        if isinstance(recall, float) and recall not in RECALL_LEVELS:
            raise MeasureParameterError(
                "infIPrec: parameter 'recall' must be one of the tool's levels 0.0, 0.1, ..., 1.0, "
                f"got {recall!r}"
            )


xinfAP = _XinfAP()
infIPrec = _InfIPrec()
infNDCG = _InfNDCG()
infP = _InfP()
inum_rel = _InumRel()
inum_rel_ret = _InumRelRet()


# --------------------------------------------------------------------------------------------
# the catalogue's compute functions
# --------------------------------------------------------------------------------------------


def _params(measure: Any) -> Tuple[str, int]:
    return measure["variant"], measure["depth"]


def compute_xinfap(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    variant, depth = _params(measure)
    return inf_ap(walk_of(ranked, depth), strata_of(ranked.qrels), variant, depth)


def compute_infndcg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    variant, depth = _params(measure)
    return inf_ndcg(walk_of(ranked, depth), ideal_dcg(ranked.qrels, variant, depth))


def compute_infp(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    _, depth = _params(measure)
    return inf_precision(walk_of(ranked, depth), measure["cutoff"])


def compute_inum_rel(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return ranked.qrels_stat(strata_of(ranked.qrels).R_hat)


def compute_inum_rel_ret(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    _, depth = _params(measure)
    return inum_rel_ret_of(walk_of(ranked, depth))


def compute_infiprec(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    _, depth = _params(measure)
    level = RECALL_LEVELS.index(measure["recall"])
    return iprec_at_recall(walk_of(ranked, depth), strata_of(ranked.qrels))[:, level]
