"""trec_eval 10.0's measures that ir_measures lacks, registered as ir_measures measures.

Each class names one trec_eval measure in ir_measures' style, its trec_eval name an alias where
the name is a Python identifier (``gm_map``, ``Rndcg``, ``utility``, ``binG``, ...), and its
``compute_*`` adapter calls the same kernel of :mod:`.kernels` that the ``ir_measures_pres
trec_eval`` command prints (one kernel per measure). The kernels read trec_eval's lists
(:class:`~.lists.ToolLists`); here they are laid out from the run as the package ranks it for
every registered measure (:func:`~.lists.lists_of_ranked`: scores compared in float32, ties by
document id descending; docs/conventions.md, "Score precision"), where the command ranks
doubles as trec_eval 10.0 does. On a run whose scores are distinct in float32 both see the
same lists, and the values are equal.

=========================  ==========================  =====================================
registered                 trec_eval 10.0              summary over topics
=========================  ==========================  =====================================
``GMAP``                   ``gm_map``                  geometric mean of AP (floor 1e-5)
``GMBpref``                ``gm_bpref``                geometric mean of bpref (floor 1e-5)
``BinG``                   ``binG``                    mean
``G``                      ``G``                       mean
``RnDCG``                  ``Rndcg``                   mean
``nDCG_rel``               ``ndcg_rel``                mean
``Utility``                ``utility``                 mean
``IPrec11pt``              ``11pt_avg``                mean
``RprecMult@m``            ``Rprec_mult_m``            mean
``RelP@k``                 ``relative_P_k``            mean
``NumNonRelJudgedRet``     ``num_nonrel_judged_ret``   sum
=========================  ==========================  =====================================

``rel`` is trec_eval's ``-l`` (the least relevant level); ``judged_only=True`` its ``-J`` (the
documents not judged dropped before ranks are counted); ``gains`` its ``level=gain``
parameters of the gain measures (a level not listed keeps its level as its gain).
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.ranking import RankedRun
from ..base import JUDGED_ONLY_PARAM, REL_PARAM, MeasureParameterError, PluginMeasure
from . import kernels as k
from .lists import ToolLists, lists_of_ranked

__all__ = [
    "GMAP",
    "GMBpref",
    "BinG",
    "G",
    "RnDCG",
    "nDCG_rel",
    "Utility",
    "IPrec11pt",
    "RprecMult",
    "RelP",
    "NumNonRelJudgedRet",
    "RELATIVE_P_CUTOFFS",
    "RPREC_MULTIPLES",
]

#: trec_eval's default parameters of ``relative_P`` and ``Rprec_mult``
RELATIVE_P_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RPREC_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
_ELEVEN = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

_BUCKLEY_2005 = """
    Chris Buckley and Ellen M. Voorhees. Retrieval system evaluation. In TREC: Experiment and
    Evaluation in Information Retrieval, MIT Press, 2005, pp. 53-75.
"""
_TREC_EVAL = """
    Chris Buckley. trec_eval, {file} (experimental measure of 10 April 2008), NIST, 2008
    (https://github.com/usnistgov/trec_eval).
"""
_JK = """
    Kalervo Järvelin and Jaana Kekäläinen. Cumulated gain-based evaluation of IR techniques.
    ACM TOIS 20(4), pp. 422-446, 2002.
"""
_GAINS = ParamInfo(
    dtype=dict,
    desc="gain of each relevance level {level: gain} (trec_eval's level=gain); a level not "
    "listed keeps its level as gain",
)


class _Tool(PluginMeasure):
    """A trec_eval 10.0 measure whose per-query value is computed by :mod:`.kernels`."""


class _Geometric(_Tool):
    """A measure whose summary over topics is a geometric mean (its catalogue entry's
    :data:`~..entry.GEOMETRIC`)."""


class _GMAP(_Geometric):
    """
    Geometric mean average precision (trec_eval ``gm_map``): per topic, average precision,

    .. math::

        AP = \\frac{1}{R} \\sum_{\\text{relevant } d \\text{ retrieved}} \\frac{rel(r_d)}{r_d},
        \\qquad GMAP = \\exp\\Big(\\frac{1}{|Q|} \\sum_{q \\in Q} \\log \\max(AP_q, 10^{-5})\\Big)

    with r_d the rank of d, rel(r) the relevant documents (level >= ``rel``) in the top r, R the
    topic's relevant documents. The per-query values are AP; the summary over topics is their
    geometric mean (not a mean of per-query values), which rewards runs that do not fail on
    some topics. trec_eval prints it in its summary only.

    Stephen Robertson. On GMAP: and other transformations. CIKM 2006, pp. 78-83.
    Ellen M. Voorhees. Overview of the TREC 2004 Robust Retrieval Track. TREC 2004.
    """

    __name__ = "GMAP"
    NAME = __name__
    PRETTY_NAME = "Geometric mean average precision"
    SHORT_DESC = "AP per query, averaged geometrically over queries (trec_eval's gm_map, Robertson)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "judged_only": JUDGED_ONLY_PARAM}


class _GMBpref(_Geometric):
    """
    Geometric mean of bpref (trec_eval ``gm_bpref``): per topic, bpref,

    .. math::

        bpref = \\frac{1}{R} \\sum_{\\text{judged relevant } d \\text{ retrieved}}
                \\Big(1 - \\frac{\\min(n_d, R)}{\\min(N, R)}\\Big)

    with n_d the judged nonrelevant documents ranked above d (the term is 1 when there are
    none), N the topic's judged nonrelevant documents; the summary over topics is
    exp(mean(log(max(bpref, 0.00001)))), as :class:`GMAP`'s.

    Chris Buckley and Ellen M. Voorhees. Retrieval evaluation with incomplete information.
    SIGIR 2004, pp. 25-32.
    """

    __name__ = "GMBpref"
    NAME = __name__
    PRETTY_NAME = "Geometric mean bpref"
    SHORT_DESC = "bpref per query, averaged geometrically over queries (trec_eval's gm_bpref, Buckley)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "judged_only": JUDGED_ONLY_PARAM}


class _BinG(_Tool):
    __doc__ = """
    Binary G (trec_eval ``binG``): per relevant document retrieved, one over the log of two
    plus the nonrelevant documents ranked above it, averaged over the relevant documents,

    .. math::

        binG = \\frac{1}{R} \\sum_{\\text{relevant } d \\text{ retrieved}}
               \\frac{1}{\\log_2(2 + r_d - rel(r_d))}

    (r_d - rel(r_d) the documents above d that are not relevant, judged or not): :class:`G`
    with gains 0 or 1.
    """ + _TREC_EVAL.format(file="m_binG.c")

    __name__ = "BinG"
    NAME = __name__
    PRETTY_NAME = "Binary G"
    SHORT_DESC = "1 / log2(2 + nonrelevant above) per relevant retrieved, over R (trec_eval's binG, Buckley)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "judged_only": JUDGED_ONLY_PARAM}


class _G(_Tool):
    __doc__ = """
    Normalised gain G (trec_eval ``G``): each retrieved document's gain over the log of two plus
    what the run lags behind the ideal ranking so far, over the ideal total gain,

    .. math::

        G = \\frac{1}{\\sum_d g(d)} \\sum_{i=1}^{n} \\frac{g(d_i)}
            {\\log_2\\big(2 + \\sum_{j \\le i} \\max(g^*_j, 1) - \\sum_{j \\le i} g(d_j)\\big)}

    with g the gain of a document (its level, or ``gains``; 0 when unjudged), g*_j the gain at
    rank j of the ideal ranking (0 past its end) and the first sum over the qrels' documents.
    On binary qrels it equals :class:`BinG`.
    """ + _TREC_EVAL.format(file="m_G.c")

    __name__ = "G"
    NAME = __name__
    PRETTY_NAME = "Normalised gain G"
    SHORT_DESC = "Gain discounted by how far the run lags the ideal ranking (trec_eval's G, Buckley)."
    SUPPORTED_PARAMS = {"gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


class _RnDCG(_Tool):
    __doc__ = (
        """
    nDCG averaged at the R levels (trec_eval ``Rndcg``): nDCG taken where the ideal ranking's
    gain changes and averaged,

    .. math::

        RnDCG = \\frac{1}{|B|} \\sum_{b \\in B} \\frac{DCG(\\min(b, n))}{IDCG(b)}

    with B the ranks b_1 < b_2 < ... at which the ideal ranking's gain level changes (the
    numbers of documents of each positive gain, cumulated, levels descending), plus the end of
    the list n when n > m + 1 (m the documents of positive gain; DCG(n) / IDCG(m) there), and
    DCG(k) = Σ_{i<=k} g(d_i) / log2(i + 1). 0 for a topic without relevant documents (level >=
    ``rel``). Gains: the levels, or ``gains``.
    """
        + _JK
        + _TREC_EVAL.format(file="m_Rndcg.c")
    )

    __name__ = "RnDCG"
    NAME = __name__
    PRETTY_NAME = "nDCG at R levels"
    SHORT_DESC = "nDCG averaged at the ranks where the ideal gain changes (trec_eval's Rndcg, Järvelin)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


class _NDCGRel(_Tool):
    __doc__ = (
        """
    nDCG averaged over the relevant documents (trec_eval ``ndcg_rel``): nDCG at the rank of each
    retrieved document of positive gain, and nDCG at the end of the list for each one not
    retrieved, averaged over the m documents of positive gain,

    .. math::

        nDCG\\_rel = \\frac{1}{m} \\Big(\\sum_{g(d) > 0,\\ d \\text{ retrieved}}
                    \\frac{DCG(r_d)}{IDCG(\\min(r_d, m))} + (m - m_{ret})
                    \\frac{DCG(n)}{IDCG(m)}\\Big)

    with DCG(k) = Σ_{i<=k} g(d_i) / log2(i + 1), IDCG the ideal ranking's, m_ret the documents
    of positive gain retrieved. Gains: the levels, or ``gains``.
    """
        + _JK
        + _TREC_EVAL.format(file="m_ndcg_rel.c")
    )

    __name__ = "nDCG_rel"
    NAME = __name__
    PRETTY_NAME = "nDCG averaged over relevant documents"
    SHORT_DESC = "nDCG averaged at the relevant documents' ranks (trec_eval's ndcg_rel, Järvelin)."
    SUPPORTED_PARAMS = {"gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


class _Utility(_Tool):
    """
    Set utility (trec_eval ``utility``, default ``utility.1,-1,0,0``): a weighted sum over the
    contingency table of the retrieved set,

    .. math::

        U = a\\,|ret \\cap rel| + b\\,|ret \\setminus rel| + c\\,|rel \\setminus ret|
            + d\\,(N - |ret \\cup rel|)

    with N the collection size (``collection_size``, trec_eval's ``-N``, default 0). Values are
    not bounded; with the default weights, relevant retrieved minus nonrelevant retrieved.

    David A. Hull and Stephen Robertson. The TREC-8 Filtering Track Final Report. TREC 1999.
    """

    __name__ = "Utility"
    NAME = __name__
    PRETTY_NAME = "Set utility"
    SHORT_DESC = "Weighted contingency-table sum a, b, c, d of the retrieved set (trec_eval's utility, Hull)."
    SUPPORTED_PARAMS = {
        "a": ParamInfo(dtype=float, default=1.0, desc="worth of a relevant document retrieved"),
        "b": ParamInfo(dtype=float, default=-1.0, desc="worth of a nonrelevant document retrieved"),
        "c": ParamInfo(dtype=float, default=0.0, desc="worth of a relevant document not retrieved"),
        "d": ParamInfo(dtype=float, default=0.0, desc="worth of a nonrelevant document not retrieved"),
        "collection_size": ParamInfo(
            dtype=int, required=False, desc="documents in the collection, for d (trec_eval's -N; default 0)"
        ),
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
    }


class _IPrec11pt(_Tool):
    __doc__ = (
        """
    Eleven-point interpolated average precision (trec_eval ``11pt_avg``): the mean of the
    interpolated precision at the recall levels 0, 0.1, ..., 1 (``levels='.25,.5,.75'``: at
    those, as trec_eval's ``11pt_avg..25,.5,.75``),

    .. math::

        11pt = \\frac{1}{11} \\sum_{p \\in \\{0, 0.1, \\dots, 1\\}} \\max_{c \\ge c_p}
               \\frac{c}{r_c}, \\qquad c_p = \\mathrm{lround}(p R)

    with r_c the rank of the c-th relevant document retrieved (0 when fewer are retrieved). The
    recall level p is the lround(p R)-th relevant document: trec_eval 10.0's rounding; trec_eval
    9.x (and pytrec_eval) took (long)(p R + 0.9).
    """
        + _BUCKLEY_2005
    )

    __name__ = "IPrec11pt"
    NAME = __name__
    PRETTY_NAME = "11-point interpolated average precision"
    SHORT_DESC = "Mean interpolated precision at recall 0, 0.1, ..., 1 (trec_eval 10's 11pt_avg, Buckley)."
    SUPPORTED_PARAMS = {
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
        "levels": ParamInfo(
            dtype=str,
            required=False,
            desc="the recall levels, comma-separated numbers from 0 to 1, in the given order (trec_eval's "
            "11pt_avg.LEVELS; default 0,0.1,...,1)",
        ),
    }

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        super()._check_one(param, value, info)
        if param == "levels":
            recall_levels(self.__name__, value)


def recall_levels(name: str, text: str) -> Tuple[float, ...]:
    """``levels=``' recall levels: comma-separated numbers from 0 to 1, at least one, kept in the
    given order (as trec_eval keeps ``11pt_avg``'s parameters)."""
    levels = []
    for token in text.split(","):
        try:
            level = float(token)
        except ValueError:
            level = float("nan")
        if not 0.0 <= level <= 1.0:
            raise MeasureParameterError(
                f"{name}: parameter 'levels' must be comma-separated recall levels from 0 to 1 "
                f"(like '.25,.5,.75'), got {text!r}"
            )
        levels.append(level)
    return tuple(levels)


class _RprecMult(_Tool):
    __doc__ = (
        """
    Precision at a multiple of R (trec_eval ``Rprec_mult_m``): precision at rank
    k = (long)(m R + 0.9),

    .. math::

        RprecMult@m = \\frac{rel(k)}{k}, \\qquad k = \\lfloor m R + 0.9 \\rfloor

    (0 when k < 1), R the topic's relevant documents; at m = 1 it is R-precision. trec_eval's
    default multiples are 0.2, 0.4, ..., 2.0.
    """
        + _BUCKLEY_2005
    )

    __name__ = "RprecMult"
    NAME = __name__
    PRETTY_NAME = "Precision at a multiple of R"
    SHORT_DESC = "Precision at rank m R (trec_eval's Rprec_mult, Buckley and Voorhees)."
    AT_PARAM = "multiple"
    SUPPORTED_PARAMS = {
        "multiple": ParamInfo(dtype=float, required=True, desc="the multiple m of R (> 0), e.g. 0.2"),
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
    }

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        super()._check_one(param, value, info)
        if param == "multiple" and not 0 < value <= 1e6:
            raise MeasureParameterError(f"RprecMult: parameter 'multiple' must be in (0, 1e6], got {value!r}")

    def _example(self, param: str) -> str:
        return "RprecMult@0.2"


class _RelP(_Tool):
    __doc__ = (
        """
    Relative precision at k (trec_eval ``relative_P_k``): the relevant documents of the top k
    over the most the top k could hold,

    .. math::

        RelP@k = \\frac{rel(k)}{\\min(k, R)}

    precision up to k = R, recall beyond; 0 for a topic without relevant documents.
    """
        + _BUCKLEY_2005
    )

    __name__ = "RelP"
    NAME = __name__
    PRETTY_NAME = "Relative precision at k"
    SHORT_DESC = "Relevant in the top k over min(k, R) (trec_eval's relative_P, Buckley and Voorhees)."
    SUPPORTED_PARAMS = {
        "cutoff": ParamInfo(dtype=int, required=True, desc="rank k (trec_eval's cutoffs: 5, 10, ..., 1000)"),
        "rel": REL_PARAM,
        "judged_only": JUDGED_ONLY_PARAM,
    }

    def _example(self, param: str) -> str:
        return "RelP@10"


class _NumNonRelJudgedRet(_Tool):
    __doc__ = """
    Judged nonrelevant documents retrieved (trec_eval ``num_nonrel_judged_ret``): the retrieved
    documents the qrels judge with a level from 0 to ``rel`` - 1,

    .. math::

        n = |\\{d \\text{ retrieved} : 0 \\le \\ell(d) < rel\\}|

    A count, not a measure of quality; the summary over topics is the sum, as trec_eval's.
    """ + _TREC_EVAL.format(file="m_num_nonrel_judged_ret.c").replace(
        " (experimental measure of 10 April 2008)", ""
    )

    __name__ = "NumNonRelJudgedRet"
    NAME = __name__
    PRETTY_NAME = "Judged nonrelevant documents retrieved"
    SHORT_DESC = "Count of retrieved documents judged nonrelevant (trec_eval's num_nonrel_judged_ret)."
    SUPPORTED_PARAMS = {"rel": REL_PARAM, "judged_only": JUDGED_ONLY_PARAM}


GMAP = _GMAP()
GMBpref = _GMBpref()
BinG = _BinG()
G = _G()
RnDCG = _RnDCG()
nDCG_rel = _NDCGRel()
Utility = _Utility()
IPrec11pt = _IPrec11pt()
RprecMult = _RprecMult()
RelP = _RelP()
NumNonRelJudgedRet = _NumNonRelJudgedRet()


# --------------------------------------------------------------------------------------------
# adapters (the catalogue's compute functions): the lists of the ranked run, then the kernel
# --------------------------------------------------------------------------------------------


def _lists(measure: PluginMeasure, ranked: RankedRun) -> ToolLists:
    """trec_eval's lists of the run for ``measure``: ``judged_only`` drops the documents that are
    not judged first (trec_eval's ``-J``), ``rel`` is ``-l``."""
    if measure.params.get("judged_only"):
        ranked = ranked.view(judged_only=True)
    return lists_of_ranked(ranked, int(measure.params.get("rel", 1)))


def _gains(measure: PluginMeasure) -> Dict[int, float]:
    return {int(level): float(gain) for level, gain in (measure.params.get("gains") or {}).items()}


def compute_gmap(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.average_precision(_lists(measure, ranked))


def compute_gmbpref(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.bpref(_lists(measure, ranked))


def compute_bing(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.bin_g(_lists(measure, ranked))


def compute_g(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.g_measure(_lists(measure, ranked), _gains(measure))


def compute_rndcg(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.rndcg(_lists(measure, ranked), _gains(measure))


def compute_ndcg_rel(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.ndcg_rel(_lists(measure, ranked), _gains(measure))


def compute_utility(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    weights = [float(measure[p]) for p in "abcd"]
    return k.utility(_lists(measure, ranked), weights, int(measure.params.get("collection_size", 0)))


def compute_iprec11pt(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    text = measure.params.get("levels")
    levels = _ELEVEN if text is None else recall_levels(measure.NAME, text)
    return k.eleven_pt_avg(_lists(measure, ranked), levels)


def compute_rprec_mult(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.rprec_mult(_lists(measure, ranked), [float(measure["multiple"])])[:, 0]


def compute_relp(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.relative_precision(_lists(measure, ranked), [int(measure["cutoff"])])[:, 0]


def compute_num_nonrel_judged_ret(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return k.num_nonrel_judged_ret(_lists(measure, ranked))
