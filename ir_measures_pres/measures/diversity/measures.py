"""The registered diversity measures (docs/diversity.md, "Registered measures"): NTCIREVAL's
D-measures, D#-measures, DIN-measures, I-rec, intent-aware measures (IA-nDCG, IA-Q, IA-ERR,
IA-nERR, IA-EBR, IA-RBP), P+Q and P+Q# as ir_measures measures, computed by the kernels of
:mod:`.diversity` (the ``diversity`` command's), on the package's ranking; their judgements and
the dispatch to the kernels are :mod:`.scoring`.

Each takes ``probs=FILE`` (the ``.Iprob`` or ``.DINprob`` file: ``topic intent P(i|q)
[inf|nav]``, required) and the per-intent judgements: ``dqrels=FILE`` (NTCIREVAL's ``.Dqrels``,
``topic intent docno L0..L9``, or TREC diversity qrels, ``topic intent docno rel``), or without
it the evaluation's qrels whose iteration column is the intent (their file read again, or
ir_measures' ``Qrel`` tuples or a DataFrame with an ``iteration`` column); files are read once
while unchanged (as statAP reads its ``prels=``). ``gains='linear'`` (level n gives n, the
stock scripts) or ``'exp'`` (2^n - 1, the command's ``--gains exp``); ``@l`` (default: the
scripts' run depth, 1000); the D#, DIN# and P+Q# measures ``gamma`` (the weight of I-rec,
default 0.5, the scripts' ``GAMMA``).

The evaluation's qrels decide, as for every measure, which topics are scored (each must have
intent probabilities, else a one-line error). The list of a topic is the run
ranked by the package's one rule (:mod:`..data.ranking`: score descending, then document id
descending), its first 1000 documents; the command keeps the run's file order. On a run written
in that order the values are the command's, unrounded (the command prints 4 decimals and
computes its D# lines from the printed values), but for the intent-aware measures and P+Q, which
add the 4-decimal per-intent values as the scripts do.
"""

from __future__ import annotations

from typing import Any, Tuple

from ir_measures.measures.base import ParamInfo

from ..base import MeasureParameterError, PluginMeasure
from .kernels import GAMMA, RBP_P, RBP_P_EVAL2

__all__ = [
    "D_nDCG",
    "D_Q",
    "Dsharp_nDCG",
    "Dsharp_Q",
    "D_nERR",
    "D_ERR",
    "D_EBR",
    "D_RBP",
    "Dsharp_ERR",
    "Dsharp_EBR",
    "Dsharp_RBP",
    "DIN_nDCG",
    "DIN_Q",
    "DINsharp_nDCG",
    "DINsharp_Q",
    "I_rec",
    "IA_nDCG",
    "IA_Q",
    "IA_ERR",
    "IA_nERR",
    "IA_EBR",
    "IA_RBP",
    "PplusQ",
    "PplusQsharp",
    "MEASURES",
]

_CITE_D = """
    T. Sakai and R. Song. Evaluating diversified search results using per-intent graded
    relevance. SIGIR 2011. (NTCIREVAL 190111, T. Sakai: D-NTCIR-eval.)
"""
_CITE_DIN = """
    T. Sakai. Evaluation with informational and navigational intents. WWW 2012. (NTCIREVAL
    190111, T. Sakai: DIN-NTCIR-eval.)
"""
_CITE_IREC = """
    C. Zhai, W. Cohen and J. Lafferty. Beyond independent relevance: methods and evaluation
    metrics for subtopic retrieval. SIGIR 2003. (I-rec of NTCIREVAL 190111's D-NTCIR-eval, T.
    Sakai and R. Song, SIGIR 2011.)
"""

_PROBS = ParamInfo(
    dtype=str,
    required=True,
    desc="intent probabilities file (.Iprob: topic intent P(i|q); .DINprob: and inf|nav)",
)
_DQRELS = ParamInfo(
    dtype=str,
    required=False,
    desc="per-intent judgements file (NTCIREVAL's .Dqrels: topic intent docno L0..L9, or TREC "
    "diversity qrels: topic intent docno rel); default: the qrels' iteration column is the intent",
)
_DGAINS = ParamInfo(
    dtype=str,
    default="linear",
    choices=["linear", "exp"],
    desc="gain of level n: n ('linear', the scripts') or 2^n - 1 ('exp')",
)
_CUTOFF = ParamInfo(
    dtype=int,
    required=False,
    desc="evaluate the top l documents only (@l; default 1000, the scripts' run depth)",
)
_GAMMA = ParamInfo(
    dtype=float, default=GAMMA, desc="weight of I-rec in D# (0 to 1; default 0.5, the scripts')"
)


class DiversityMeasure(PluginMeasure):
    """A diversity measure: its files, gains and cutoff; the compute dispatch reads ``KIND``."""

    #: (DIN gains?, the D-measure: "nDCG", "Q" or None for I-rec, D# mix with I-rec?)
    KIND: Tuple[bool, Any, bool] = (False, None, False)

    def _check_one(self, param: str, value: Any, info: ParamInfo) -> None:
        if param == "gains":  # a name here, not the {level: gain} dict of the other families
            if value not in ("linear", "exp"):
                raise MeasureParameterError(
                    f"{self.__name__}: parameter 'gains' must be one of ['linear', 'exp'], got {value!r}"
                )
            return
        super()._check_one(param, value, info)
        if param == "p" and not 0 < value < 1:
            raise MeasureParameterError(
                f"{self.__name__}: parameter 'p' must be between 0 and 1, got {value!r}"
            )
        if param == "gamma" and not 0 <= value <= 1:
            raise MeasureParameterError(
                f"{self.__name__}: parameter 'gamma' must be from 0 to 1, got {value!r}"
            )

    def _example(self, param: str) -> str:
        return f"{self.__name__}(probs='x.Iprob',dqrels='x.Dqrels')@10"


def _measure(
    name: str, pretty: str, short: str, doc: str, kind: Tuple[bool, Any, bool], rbp_p: float = RBP_P
) -> DiversityMeasure:
    params = {"probs": _PROBS, "dqrels": _DQRELS, "gains": _DGAINS, "cutoff": _CUTOFF}
    if kind[2]:
        params["gamma"] = _GAMMA
    if kind[1] == "RBP":
        params["p"] = ParamInfo(
            dtype=float,
            default=rbp_p,
            desc=f"RBP's persistence (0 to 1; default {rbp_p}, the line's script's)",
        )
    cls = type(
        f"_{name}",
        (DiversityMeasure,),
        {
            "__doc__": doc,
            "__name__": name,
            "NAME": name,
            "PRETTY_NAME": pretty,
            "SHORT_DESC": short,
            "SUPPORTED_PARAMS": params,
            "KIND": kind,
            "__module__": __name__,
            "__qualname__": f"_{name}",
        },
    )
    globals()[f"_{name}"] = cls  # a module attribute, so that a worker's measures pickle
    return cls()  # type: ignore[no-any-return]


_GG = """
    The global gain of a document is GG(d) = sum_i P(i|q) g_i(d) over the topic's intents
    (probabilities from ``probs=``, per-intent levels from ``dqrels=``, g_i(d) = n or 2^n - 1),
    with the tool's roundings (each P(i|q) g_i(d) and GG(d) with 6 significant digits, a
    retrieved document's gain to 4 decimals); the ideal list is every document with GG > 0 by GG
    descending.
"""

D_nDCG = _measure(
    "D_nDCG",
    "D-nDCG",
    "nDCG over the global gain of per-intent graded relevance (Sakai & Song).",
    """
    D-nDCG@l: NTCIREVAL's MSnDCG@l (gain / log2(r + 1) at every rank) computed with the global
    gain GG of each document (the ``MSnDCG@l`` line of D-NTCIR-eval's ``.Dnev``).
"""
    + _GG
    + _CITE_D,
    (False, "nDCG", False),
)
D_Q = _measure(
    "D_Q",
    "D-Q",
    "Q-measure over the global gain of per-intent graded relevance (Sakai & Song).",
    """
    D-Q@l: the Q-measure at l (beta = 1) computed with the global gain GG of each document,
    (1 / min(l, R)) sum over ranks r <= l with GG(r) > 0 of (CG(r) + c(r)) / (CG*(r) + r)
    (the ``Q@l`` line of D-NTCIR-eval's ``.Dnev``).
"""
    + _GG
    + _CITE_D,
    (False, "Q", False),
)
Dsharp_nDCG = _measure(
    "Dsharp_nDCG",
    "D#-nDCG",
    "gamma I-rec + (1 - gamma) D-nDCG: diversity and relevance (Sakai & Song).",
    """
    D#-nDCG@l = gamma I-rec@l + (1 - gamma) D-nDCG@l (gamma = 0.5 by default, the scripts';
    the ``D#-nDCG@l`` line of D-NTCIR-eval's ``.Dnev``, which the script computes from the
    4-decimal printed values; here from the values themselves).
"""
    + _GG
    + _CITE_D,
    (False, "nDCG", True),
)
Dsharp_Q = _measure(
    "Dsharp_Q",
    "D#-Q",
    "gamma I-rec + (1 - gamma) D-Q: diversity and relevance (Sakai & Song).",
    """
    D#-Q@l = gamma I-rec@l + (1 - gamma) D-Q@l (gamma = 0.5 by default; the ``D#-Q@l`` line
    of D-NTCIR-eval's ``.Dnev``).
"""
    + _GG
    + _CITE_D,
    (False, "Q", True),
)
_ERR = """
    ERR's stopping probability at a document is GG(d) / (H + 1), H the topic's largest global gain
    (NTCIREVAL's ERR, not Chapelle's (2^g - 1) / 2^g_max), so ERR-type values change when every
    P(i|q) is scaled while D-nDCG and D-Q do not.
"""
D_nERR = _measure(
    "D_nERR",
    "D-nERR",
    "Normalised ERR over the global gain of per-intent graded relevance (Sakai & Song).",
    """
    D-nERR@l = ERR@l / ERR*@l, ERR* on the ideal list with the same H (the ``nERR@l`` line of
    D-NTCIR-eval's ``.Dnev``).
"""
    + _ERR
    + _GG
    + _CITE_D,
    (False, "nERR", False),
)
D_ERR = _measure(
    "D_ERR",
    "D-ERR",
    "Expected reciprocal rank over the global gain (Sakai & Song; Chapelle et al.).",
    """
    D-ERR@l = sum_{r <= l} (1 / r) s(r) prod_{k < r} (1 - s(k)), s(r) = GG(r) / (H + 1) (the
    ``ERR@l`` line of D-NTCIR-eval's ``.Dnev``).
"""
    + _ERR
    + _GG
    + _CITE_D,
    (False, "ERR", False),
)
D_EBR = _measure(
    "D_EBR",
    "D-EBR",
    "Expected blended ratio over the global gain (Sakai & Song; Sakai 2018).",
    """
    D-EBR@l = sum_{r <= l} BR(r) s(r) prod_{k < r} (1 - s(k)), BR(r) = (CG(r) + c(r)) /
    (CG*(r) + r) (the ``EBR@l`` line of D-NTCIR-eval's ``.Dnev``).
"""
    + _ERR
    + _GG
    + _CITE_D,
    (False, "EBR", False),
)
D_RBP = _measure(
    "D_RBP",
    "D-RBP",
    "Rank-biased precision over the global gain, graded by H (Sakai & Song; Moffat & Zobel).",
    """
    D-RBP@l = (1 - p) sum_{r <= l} GG(r) p^(r - 1) / H, p = 0.95 by default (the ``RBP@l`` line of
    D-NTCIR-eval's ``.Dnev``; ``p=0.99`` gives D-NTCIR-eval2's).
"""
    + _GG
    + _CITE_D,
    (False, "RBP", False),
)
Dsharp_ERR = _measure(
    "Dsharp_ERR",
    "D#-ERR",
    "gamma I-rec + (1 - gamma) D-ERR (Sakai & Song).",
    """
    D#-ERR@l = gamma I-rec@l + (1 - gamma) D-ERR@l (the ``D#-ERR@l`` line of D-NTCIR-eval2's
    ``.Dnev``).
"""
    + _ERR
    + _GG
    + _CITE_D,
    (False, "ERR", True),
)
Dsharp_EBR = _measure(
    "Dsharp_EBR",
    "D#-EBR",
    "gamma I-rec + (1 - gamma) D-EBR (Sakai & Song).",
    """
    D#-EBR@l = gamma I-rec@l + (1 - gamma) D-EBR@l (the ``D#-EBR@l`` line of D-NTCIR-eval2's
    ``.Dnev``).
"""
    + _ERR
    + _GG
    + _CITE_D,
    (False, "EBR", True),
)
Dsharp_RBP = _measure(
    "Dsharp_RBP",
    "D#-RBP",
    "gamma I-rec + (1 - gamma) D-RBP, p = 0.99 (Sakai & Song).",
    """
    D#-RBP@l = gamma I-rec@l + (1 - gamma) D-RBP@l with p = 0.99 by default (the ``D#-RBP@l``
    line of D-NTCIR-eval2's ``.Dnev``, the only D#-RBP the scripts print; D_RBP's default is
    D-NTCIR-eval's 0.95).
"""
    + _GG
    + _CITE_D,
    (False, "RBP", True),
    rbp_p=RBP_P_EVAL2,
)
_DIN = """
    DIN gains: for a navigational intent (``nav`` in the ``.DINprob``) only its first relevant
    document in the list adds P(i|q) g_i(d); informational intents always add. The ideal list
    stays the D-measures' one.
"""
DIN_nDCG = _measure(
    "DIN_nDCG",
    "DIN-nDCG",
    "D-nDCG where a navigational intent counts its first relevant document only (Sakai).",
    """
    DIN-nDCG@l: D-nDCG@l with DIN gains (the ``MSnDCG@l`` line of DIN-NTCIR-eval's ``.DINnev``).
"""
    + _DIN
    + _GG
    + _CITE_DIN,
    (True, "nDCG", False),
)
DIN_Q = _measure(
    "DIN_Q",
    "DIN-Q",
    "D-Q where a navigational intent counts its first relevant document only (Sakai).",
    """
    DIN-Q@l: D-Q@l with DIN gains (the ``Q@l`` line of DIN-NTCIR-eval's ``.DINnev``).
"""
    + _DIN
    + _GG
    + _CITE_DIN,
    (True, "Q", False),
)
DINsharp_nDCG = _measure(
    "DINsharp_nDCG",
    "DIN#-nDCG",
    "gamma I-rec + (1 - gamma) DIN-nDCG (Sakai).",
    """
    DIN#-nDCG@l = gamma I-rec@l + (1 - gamma) DIN-nDCG@l (the ``DIN#-nDCG@l`` line of
    DIN-NTCIR-eval's ``.DINnev``).
"""
    + _DIN
    + _GG
    + _CITE_DIN,
    (True, "nDCG", True),
)
DINsharp_Q = _measure(
    "DINsharp_Q",
    "DIN#-Q",
    "gamma I-rec + (1 - gamma) DIN-Q (Sakai).",
    """
    DIN#-Q@l = gamma I-rec@l + (1 - gamma) DIN-Q@l (the ``DIN#-Q@l`` line of DIN-NTCIR-eval's
    ``.DINnev``).
"""
    + _DIN
    + _GG
    + _CITE_DIN,
    (True, "Q", True),
)
I_rec = _measure(
    "I_rec",
    "I-rec",
    "Intent recall: the share of the topic's intents with a relevant document in the top l (Zhai et al.).",
    """
    I-rec@l (intent recall, subtopic recall): the topic's intents that have a relevant (L1+)
    document in the top l, over the topic's intents that have a relevant document at all (0
    for a topic without any; the ``I-rec@l`` line of D-NTCIR-eval's ``.Dnev``).
"""
    + _CITE_IREC,
    (False, None, False),
)

_CITE_IA = """
    R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong. Diversifying search results. WSDM 2009.
    (NTCIREVAL 190111, T. Sakai: D-NTCIR-IAeval, D-NTCIR-IAeval2.)
"""
_IA = """
    An intent-aware measure IA-X@l = sum_i P(i|q) X_i@l over the topic's intents with a relevant
    document, X_i@l computed with the intent's own gains g_i (n or 2^n - 1, written with 4
    decimals as the tool's ``glabel`` writes them) against the intent's own ideal list (H: the
    intent's highest gain); nothing is renormalised (the tool's SUMp may be < 1 or > 1). As the
    tool's awk adds them, each X_i@l is taken to its 4 printed decimals before it is weighed, so
    the value prints as the tool's line.
"""
IA_nDCG = _measure(
    "IA_nDCG",
    "IA-MSnDCG",
    "Intent-aware nDCG: per-intent MSnDCG weighted by P(i|q) (Agrawal et al.).",
    """
    IA-nDCG@l: the intents' MSnDCG@l weighted by P(i|q) (the ``IA-MSnDCG@l`` line of
    D-NTCIR-IAeval's ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_nDCG", False),
)
IA_Q = _measure(
    "IA_Q",
    "IA-Q",
    "Intent-aware Q-measure: per-intent Q@l weighted by P(i|q) (Agrawal et al.).",
    """
    IA-Q@l: the intents' Q@l weighted by P(i|q) (the ``IA-Q@l`` line of D-NTCIR-IAeval2's
    ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_Q", False),
)
IA_ERR = _measure(
    "IA_ERR",
    "IA-ERR",
    "Intent-aware ERR: per-intent ERR@l weighted by P(i|q) (Agrawal et al.).",
    """
    IA-ERR@l: the intents' ERR@l (stopping probability g_i / (H_i + 1)) weighted by P(i|q) (the
    ``IA-ERR@l`` line of D-NTCIR-IAeval's ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_ERR", False),
)
IA_nERR = _measure(
    "IA_nERR",
    "IA-nERR",
    "Intent-aware nERR: per-intent nERR@l weighted by P(i|q) (Agrawal et al.).",
    """
    IA-nERR@l: the intents' nERR@l weighted by P(i|q) (the ``IA-nERR@l`` line of
    D-NTCIR-IAeval's ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_nERR", False),
)
IA_EBR = _measure(
    "IA_EBR",
    "IA-EBR",
    "Intent-aware EBR: per-intent expected blended ratio weighted by P(i|q) (Agrawal et al.).",
    """
    IA-EBR@l: the intents' EBR (expected blended ratio, Sakai 2018, of the list cut at l)
    weighted by P(i|q) (the ``IA-EBR@l`` line of D-NTCIR-IAeval2's ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_EBR", False),
)
IA_RBP = _measure(
    "IA_RBP",
    "IA-RBP",
    "Intent-aware RBP: per-intent rank-biased precision weighted by P(i|q) (Agrawal et al.).",
    """
    IA-RBP@l: the intents' graded RBP (persistence 0.95, gains over H_i; Moffat and Zobel 2008)
    of the list cut at l, weighted by P(i|q) (the ``IA-RBP@l`` line of D-NTCIR-IAeval2's
    ``.nevIA``).
"""
    + _IA
    + _CITE_IA,
    (False, "IA_RBP", False),
)
_PQ = """
    P+Q@l = sum over informational intents of P(i|q) Q_i@l + sum over navigational intents
    (``nav`` in the ``.DINprob``) of P(i|q) P+_i@l, each intent against its own gains and ideal
    list (the ``PplusQ@l`` line of DIN-NTCIR-PQeval's ``.nevPQ``; as there, each intent's value
    is taken to its 4 printed decimals before it is weighed).
"""
PplusQ = _measure(
    "PplusQ",
    "P+Q",
    "P+ for navigational and Q for informational intents, weighted by P(i|q) (Sakai).",
    _PQ + _CITE_DIN,
    (False, "PplusQ", False),
)
PplusQsharp = _measure(
    "PplusQsharp",
    "P+Q#",
    "gamma I-rec + (1 - gamma) P+Q (Sakai).",
    """
    P+Q#@l = gamma I-rec@l + (1 - gamma) P+Q@l (gamma = 0.5 by default; the ``PplusQ#@l`` line
    NEVIAPQ2sharpnev writes from a run's ``.Dnev`` and ``.nevPQ``).
"""
    + _PQ
    + _CITE_DIN,
    (False, "PplusQ", True),
)

MEASURES = (
    D_nDCG,
    D_Q,
    Dsharp_nDCG,
    Dsharp_Q,
    D_nERR,
    D_ERR,
    D_EBR,
    D_RBP,
    Dsharp_ERR,
    Dsharp_EBR,
    Dsharp_RBP,
    DIN_nDCG,
    DIN_Q,
    DINsharp_nDCG,
    DINsharp_Q,
    I_rec,
    IA_nDCG,
    IA_Q,
    IA_ERR,
    IA_nERR,
    IA_EBR,
    IA_RBP,
    PplusQ,
    PplusQsharp,
)
