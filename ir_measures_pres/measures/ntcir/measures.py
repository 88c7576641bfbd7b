"""The measure families NTCIREVAL 190111's ``ntcir_eval compute`` prints beyond Sakai's
blended-ratio measures (:mod:`.blended_ratio`): NCU, GAP, RBP, ERR, nERR, EBR, iRBU, nDCG
(Järvelin and Kekäläinen's original form), MSnDCG and the condensed-list bpref / rpref family.

Notation, per topic: levels L0 (judged non-relevant, qrels value <= 0), L1 .. Lmax; g(L) the gain
of level L (``gains``; default g(L) = L) and g_max the largest gain (the highest level of
``gains``; by default the highest level of the qrels); R the relevant documents of the qrels
(level >= 1), N its judged non-relevant ones; over the ranked list, g(r) the gain at rank r
(0 for a non-relevant or unjudged document), count(r) the relevant documents in the top r, BR(r)
the blended ratio of :mod:`.blended_ratio`. Unjudged documents count as non-relevant and keep
their rank; ``judged_only=True`` removes them first (NTCIREVAL's condensed list, ``-j``). A list
cut at ``@l`` keeps its top l. Names that ir_measures already uses (``RBP``, ``ERR``, ``nDCG``)
carry the prefix ``NTCIR_``: the NTCIREVAL forms differ from them (docs/ntcir.md).

Reference implementation: NTCIREVAL (T. Sakai, release 190111); docs/ntcir.md has the table of
names, formulas and citations.
"""

from __future__ import annotations

from typing import Any

from ir_measures.measures.base import ParamInfo

from ..base import JUDGED_ONLY_PARAM, MeasureParameterError, PluginMeasure, canonical_gains, check_gains

__all__ = [
    "EBR",
    "GAP",
    "NCU",
    "MSnDCG",
    "NTCIR_ERR",
    "NTCIR_RBP",
    "NTCIR_bpref",
    "NTCIR_nDCG",
    "NTCIR_nERR",
    "NTCIR_rpref",
    "iRBU",
]

_GAINS = ParamInfo(
    dtype=dict, desc="gain of each relevance level {level: gain}; default g(L) = L, g_max the highest level"
)
_CUTOFF = ParamInfo(dtype=int, required=False, desc="evaluate the top l documents only (@l)")
_BETA = ParamInfo(dtype=float, default=1.0, desc="persistence beta of the blended ratio (0: precision)")


class NtcirMeasure(PluginMeasure):
    """Shared checks of the NTCIREVAL families: persistences in (0, 1], log base >= 0, stop
    values like gains."""

    _UNIT = ("p", "gamma")

    def __init__(self, **params: Any) -> None:
        if isinstance(params.get("stops"), dict):
            params["stops"] = canonical_gains(params["stops"])
        super().__init__(**params)

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        super()._check_one(param, value, info)
        name = self.__name__
        if param in self._UNIT and not 0 < value <= 1:
            raise MeasureParameterError(f"{name}: parameter {param!r} must be in (0, 1], got {value!r}")
        if param == "logb" and not (value == 0 or value > 1):
            raise MeasureParameterError(
                f"{name}: parameter 'logb' must be 0 (natural log) or above 1, got {value!r}"
            )
        if param == "stops":
            check_gains(name, value)


_CITE_NTCIREVAL = """
    Tetsuya Sakai. Metrics, Statistics, Tests. PROMISE Winter School 2013, LNCS 8173, 2014
    (NTCIREVAL's measures).
"""


class _NCU(NtcirMeasure):
    __doc__ = (
        """
    Normalised cumulative utility (NTCIREVAL ``NCUgu,P``, ``NCUgu,BR``, ``NCUrb,P``,
    ``NCUrb,BR``): the expected utility BR(r) (``beta=0``: precision count(r)/r) at the rank r
    where a user stops, the stopping rank drawn over the relevant documents.

    .. math::

        NCU = \\sum_{r:\\ g(r) > 0} P_S(r)\\, BR(r)

    ``stopping='gu'`` (graded-uniform): P_S(r) = s(r) / \\sum_L X_L s(L), s the stop value of the
    level (``stops``, default the gains), X_L the qrels' documents of level L.
    ``stopping='rb'`` (rank-biased): P_S(r) = gamma^{count(r)-1} / \\sum_{k=1}^{R} gamma^{k-1}.
    No relevant document in the qrels scores 0.

    Tetsuya Sakai and Stephen Robertson. Modelling A User Population for Designing Information
    Retrieval Metrics. EVIA 2008.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NCU"
    NAME = __name__
    PRETTY_NAME = "NCU"
    SHORT_DESC = "Normalised cumulative utility with a graded-uniform or rank-biased stopping distribution."
    SUPPORTED_PARAMS = {
        "beta": _BETA,
        "gains": _GAINS,
        "gamma": ParamInfo(dtype=float, default=0.95, desc="rank-biased stopping: persistence gamma"),
        "judged_only": JUDGED_ONLY_PARAM,
        "stopping": ParamInfo(
            dtype=str, default="gu", choices=["gu", "rb"], desc="gu: graded-uniform, rb: rank-biased"
        ),
        "stops": ParamInfo(dtype=dict, desc="graded-uniform stop value of each level; default the gains"),
    }


class _GAP(NtcirMeasure):
    __doc__ = (
        """
    Graded average precision (NTCIREVAL ``GAP``, ``GAP@l``, option ``-gap``) with uniform
    thresholds over the levels; it compares relevance *levels*, not gains.

    .. math::

        GAP = \\frac{\\sum_{r} \\frac{1}{r} \\sum_{j \\le r,\\ L(r) > 0} m_{rj}(m_{rj}+1)}
                   {\\sum_{d \\in qrels} L(d)(L(d)+1)}, \\qquad m_{rj} = \\min(L(r), L(j))

    ``@l``: the top l of the list, the denominator over the top min(l, R) of the ideal list.

    Stephen Robertson, Evangelos Kanoulas and Emine Yilmaz. Extending Average Precision to Graded
    Relevance Judgments. SIGIR 2010.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "GAP"
    NAME = __name__
    PRETTY_NAME = "GAP"
    SHORT_DESC = "Graded average precision (Robertson, Kanoulas and Yilmaz)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "judged_only": JUDGED_ONLY_PARAM}


class _RBP(NtcirMeasure):
    __doc__ = (
        """
    Rank-biased precision with graded gains, NTCIREVAL's ``RBP`` / ``RBP@l`` (option ``-rbp``):

    .. math::

        RBP = (1 - p) \\sum_{r} \\frac{g(r)}{g_{max}}\\, p^{r-1}

    With binary relevance it is ir_measures' ``RBP`` (Moffat and Zobel); with grades that one
    uses the level itself (or ``rel``), this one g(r) / g_max.

    Alistair Moffat and Justin Zobel. Rank-biased precision for measurement of retrieval
    effectiveness. ACM TOIS 27(1), 2008.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_RBP"
    NAME = __name__
    PRETTY_NAME = "RBP (NTCIREVAL)"
    SHORT_DESC = "Rank-biased precision with gains normalised by the highest gain (NTCIREVAL)."
    SUPPORTED_PARAMS = {
        "cutoff": _CUTOFF,
        "gains": _GAINS,
        "judged_only": JUDGED_ONLY_PARAM,
        "p": ParamInfo(dtype=float, default=0.95, desc="persistence p in (0, 1]"),
    }


_ERR_DOC = """
    Expected reciprocal rank as NTCIREVAL computes it: the stopping probability of a document is
    its gain over g_max + 1 (not g_max, so that no document stops every user), hence even with
    binary relevance ERR is not RR.

    .. math::

        ERR = \\sum_{r} \\frac{1}{r}\\, \\pi(r) \\prod_{j<r} (1 - \\pi(j)), \\qquad
        \\pi(r) = \\frac{g(r)}{g_{max} + 1}

    Olivier Chapelle, Donald Metzler, Ya Zhang and Pierre Grinspan. Expected reciprocal rank for
    graded relevance. CIKM 2009.
"""


class _ERR(NtcirMeasure):
    __doc__ = (
        _ERR_DOC
        + """
    NTCIREVAL ``ERR`` (whole list) and ``ERR@l``.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_ERR"
    NAME = __name__
    PRETTY_NAME = "ERR (NTCIREVAL)"
    SHORT_DESC = "Expected reciprocal rank with stopping probability g / (g_max + 1) (NTCIREVAL)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


class _NERR(NtcirMeasure):
    __doc__ = (
        _ERR_DOC
        + """
    NTCIREVAL ``nERR@l``: ERR@l over the ERR@l of the ideal list (relevant documents by level
    descending), nERR@l = ERR@l / ERR_ideal@min(l, R).
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_nERR"
    NAME = __name__
    PRETTY_NAME = "nERR (NTCIREVAL)"
    SHORT_DESC = "ERR normalised by the ideal list's ERR (NTCIREVAL)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


class _EBR(NtcirMeasure):
    __doc__ = (
        """
    Expected blended ratio (NTCIREVAL ``EBR``, ``EBR@l``): ERR's user model with the blended
    ratio in place of the reciprocal rank.

    .. math::

        EBR = \\sum_{r} BR(r)\\, \\pi(r) \\prod_{j<r} (1 - \\pi(j)), \\qquad
        \\pi(r) = \\frac{g(r)}{g_{max} + 1}

    Tetsuya Sakai. NTCIREVAL 2018 (expected blended ratio); Chapelle et al., CIKM 2009 (the
    cascade model).
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "EBR"
    NAME = __name__
    PRETTY_NAME = "EBR"
    SHORT_DESC = "Expected blended ratio: ERR's cascade with the blended ratio (NTCIREVAL)."
    SUPPORTED_PARAMS = {
        "beta": _BETA,
        "cutoff": _CUTOFF,
        "gains": _GAINS,
        "judged_only": JUDGED_ONLY_PARAM,
    }


class _IRBU(NtcirMeasure):
    __doc__ = (
        """
    Intentwise rank-biased utility (NTCIREVAL ``iRBU@l``, option ``-rbup p``): ERR's cascade with
    the discount p^r in place of 1/r (RBU of Amigó et al. for one intent, no effort cost).

    .. math::

        iRBU = \\sum_{r} p^{r}\\, \\pi(r) \\prod_{j<r} (1 - \\pi(j)), \\qquad
        \\pi(r) = \\frac{g(r)}{g_{max} + 1}

    Enrique Amigó, Damiano Spina and Jorge Carrillo-de-Albornoz. An Axiomatic Analysis of
    Diversity Evaluation Metrics. SIGIR 2018.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "iRBU"
    NAME = __name__
    PRETTY_NAME = "iRBU"
    SHORT_DESC = "Intentwise rank-biased utility (Amigó et al.; NTCIREVAL)."
    SUPPORTED_PARAMS = {
        "cutoff": _CUTOFF,
        "gains": _GAINS,
        "judged_only": JUDGED_ONLY_PARAM,
        "p": ParamInfo(dtype=float, default=0.95, desc="persistence p in (0, 1] (NTCIREVAL -rbup)"),
    }


class _NDCG(NtcirMeasure):
    __doc__ = (
        """
    nDCG in Järvelin and Kekäläinen's original form (NTCIREVAL ``nDCG@l``, option ``-logb``):
    ranks up to the log base b are not discounted, later ones are divided by log_b(r)
    (``logb=0``: the natural log).

    .. math::

        nDCG@l = \\frac{\\sum_{r \\le l} g(r) / d(r)}{\\sum_{r \\le \\min(l, R)} g^*(r) / d(r)},
        \\qquad d(r) = \\begin{cases} 1 & r = 1 \\text{ or } r \\le b \\\\ \\log_b r & r > b
        \\end{cases}

    g*(r): the gains of the ideal list (relevant documents by level descending). ``logb`` must
    be 0 or above 1; with 0, rank 2 is divided by ln 2 < 1, so it weighs more than rank 1 and a
    value can exceed 1, as in NTCIREVAL. ir_measures'
    ``nDCG`` is the other form (log2(r + 1) at every rank, :data:`MSnDCG` here).

    Kalervo Järvelin and Jaana Kekäläinen. Cumulated gain-based evaluation of IR techniques.
    ACM TOIS 20(4), 2002.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_nDCG"
    NAME = __name__
    PRETTY_NAME = "nDCG (Järvelin and Kekäläinen; NTCIREVAL)"
    SHORT_DESC = "Original nDCG: no discount up to rank b, then 1/log_b(r) (NTCIREVAL)."
    SUPPORTED_PARAMS = {
        "cutoff": _CUTOFF,
        "gains": _GAINS,
        "judged_only": JUDGED_ONLY_PARAM,
        "logb": ParamInfo(dtype=float, default=2.0, desc="log base b (0: natural log)"),
    }


class _MSNDCG(NtcirMeasure):
    __doc__ = (
        """
    nDCG in the "Microsoft" form (NTCIREVAL ``MSnDCG@l``): every rank r divided by log(r + 1).

    .. math::

        MSnDCG@l = \\frac{\\sum_{r \\le l} g(r) / \\log(r+1)}{\\sum_{r \\le \\min(l, R)} g^*(r) / \\log(r+1)}

    Christopher Burges, Tal Shaked, Erin Renshaw, Ari Lazier, Matt Deeds, Nicole Hamilton and
    Greg Hullender. Learning to rank using gradient descent. ICML 2005.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "MSnDCG"
    NAME = __name__
    PRETTY_NAME = "MSnDCG"
    SHORT_DESC = "nDCG with the log2(r + 1) discount at every rank and the gains given (NTCIREVAL)."
    SUPPORTED_PARAMS = {"cutoff": _CUTOFF, "gains": _GAINS, "judged_only": JUDGED_ONLY_PARAM}


_CONDENSED = """
    Computed on the condensed list (unjudged documents removed, NTCIREVAL ``-j``), always. With
    r the rank of a retrieved relevant document in it, n(r) = r - count(r) the judged
    non-relevant documents above it.
"""


class _BPREF(NtcirMeasure):
    __doc__ = (
        """
    The bpref family of NTCIREVAL ``-j`` (``bpref``, ``bpref_R``, ``bpref_N``,
    ``bpref_relative``), sums over the retrieved relevant documents divided by R:
"""
        + _CONDENSED
        + """
    * ``variant='bpref'``: 1 - min(R, n(r)) / min(R, N) (Buckley and Voorhees's bpref);
    * ``variant='R'``: 1 - min(R, n(r)) / R;
    * ``variant='N'``: 1 - n(r) / N;
    * ``variant='relative'``: 1 - n(r) / (r - 1), and 0 at r = 1.

    A topic without a judged non-relevant document scores 0 (NTCIREVAL prints nothing for it).

    Chris Buckley and Ellen M. Voorhees. Retrieval evaluation with incomplete information.
    SIGIR 2004. Jan De Beer and Marie-Francine Moens. Rpref: a generalization of Bpref towards
    graded relevance judgments. SIGIR 2006. Tetsuya Sakai. Alternatives to Bpref. SIGIR 2007.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_bpref"
    NAME = __name__
    PRETTY_NAME = "bpref family (NTCIREVAL -j)"
    SHORT_DESC = "bpref, bpref_R, bpref_N, bpref_relative on the condensed list (NTCIREVAL -j)."
    SUPPORTED_PARAMS = {
        "variant": ParamInfo(
            dtype=str, default="bpref", choices=["bpref", "R", "N", "relative"], desc="which member"
        ),
    }


class _RPREF(NtcirMeasure):
    __doc__ = (
        """
    The graded rpref family of NTCIREVAL ``-j`` (``rpref_N``, ``rpref_relative``,
    ``rpref_relative2``):
"""
        + _CONDENSED
        + """
    .. math::

        rpref = \\frac{1}{CG^*(R)} \\sum_{r:\\ g(r)>0} g(r)\\,\\Big(1 - \\frac{pen(r)}{D(r)}\\Big),
        \\qquad pen(r) = \\sum_{j<r} \\frac{\\max(0, g(r) - g(j))}{g(r)}

    with CG*(R) the total gain of the qrels and D(r) = R + N - CG*(R) / g_max
    (``variant='N'``), r - 1 (``'relative'``, 0 at r = 1) or r (``'relative2'``).

    Jan De Beer and Marie-Francine Moens. Rpref: a generalization of Bpref towards graded
    relevance judgments. SIGIR 2006. Tetsuya Sakai. Alternatives to Bpref. SIGIR 2007.
    """
        + _CITE_NTCIREVAL
    )
    __name__ = "NTCIR_rpref"
    NAME = __name__
    PRETTY_NAME = "rpref family (NTCIREVAL -j)"
    SHORT_DESC = "rpref_N, rpref_relative, rpref_relative2 on the condensed list (NTCIREVAL -j)."
    SUPPORTED_PARAMS = {
        "gains": _GAINS,
        "variant": ParamInfo(
            dtype=str, default="N", choices=["N", "relative", "relative2"], desc="which member"
        ),
    }


NCU = _NCU()
GAP = _GAP()
NTCIR_RBP = _RBP()
NTCIR_ERR = _ERR()
NTCIR_nERR = _NERR()
EBR = _EBR()
iRBU = _IRBU()
NTCIR_nDCG = _NDCG()
MSnDCG = _MSNDCG()
NTCIR_bpref = _BPREF()
NTCIR_rpref = _RPREF()
