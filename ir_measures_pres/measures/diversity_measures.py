"""The registered diversity measures (docs/diversity.md, "Registered measures"): NTCIREVAL's
D-measures, D#-measures, DIN-measures, I-rec, intent-aware measures (IA-nDCG, IA-Q, IA-ERR,
IA-nERR, IA-EBR, IA-RBP), P+Q and P+Q# as ir_measures measures, computed by the kernels of
:mod:`.diversity` (the ``diversity`` command's), on the package's ranking.

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
computes its D# lines from the printed values).
"""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any, Iterable, Optional, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ..data.arrays import segment_ids
from ..data.diversity import (
    DiversityQrels,
    IntentProbs,
    check_against,
    dqrels_from_records,
    read_dqrels,
    read_intent_probs,
)
from ..data.inputs import Columns, InputError, file_stamp
from ..data.qrels import Qrels
from ..data.ranking import RankedRun
from .base import MeasureParameterError, PluginMeasure
from .diversity import (
    GAMMA,
    RBP_P,
    RUN_DEPTH,
    DiversityJudgements,
    DiversityLists,
    d_ebr_kernel,
    d_ndcg_kernel,
    d_nerr_kernel,
    d_pplus_kernel,
    d_q_kernel,
    d_sharp,
    found,
    intent_aware,
    intent_found,
    intent_recall,
    intent_segments,
    judgements,
    run_lists,
)
from .ntcir.kernels import err_kernel, rbp_kernel

__all__ = [
    "D_nDCG",
    "D_Q",
    "Dsharp_nDCG",
    "Dsharp_Q",
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
    "check_diversity",
    "compute_diversity",
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


class _Diversity(PluginMeasure):
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
        if param == "gamma" and not 0 <= value <= 1:
            raise MeasureParameterError(
                f"{self.__name__}: parameter 'gamma' must be from 0 to 1, got {value!r}"
            )

    def _example(self, param: str) -> str:
        return f"{self.__name__}(probs='x.Iprob',dqrels='x.Dqrels')@10"


def _measure(name: str, pretty: str, short: str, doc: str, kind: Tuple[bool, Any, bool]) -> _Diversity:
    params = {"probs": _PROBS, "dqrels": _DQRELS, "gains": _DGAINS, "cutoff": _CUTOFF}
    if kind[2]:
        params["gamma"] = _GAMMA
    cls = type(
        f"_{name}",
        (_Diversity,),
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
    intent's highest gain); nothing is renormalised (the tool's SUMp may be < 1). The tool adds
    the 4-decimal printed X_i@l; here the values themselves.
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
    list (the ``PplusQ@l`` line of DIN-NTCIR-PQeval's ``.nevPQ``, which adds the 4-decimal
    printed values; here the values themselves).
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


# --------------------------------------------------------------------------------------------
# the judgements: read once per pair of file versions and gains
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _probs_file(probs: str, stamp: Any) -> IntentProbs:
    return read_intent_probs(probs)


@functools.lru_cache(maxsize=8)
def _dqrels_file(dqrels: str, stamp: Any) -> DiversityQrels:
    return read_dqrels(dqrels)


@functools.lru_cache(maxsize=8)
def _judgements_cached(
    probs: str, dqrels: str, gains: str, doc_bytes: bool, stamps: Tuple[Any, ...]
) -> DiversityJudgements:
    return judgements(_probs_file(probs, stamps[0]), _dqrels_file(dqrels, stamps[1]), gains, doc_bytes)


def needs_qrels_intents(measures: Iterable[Any]) -> bool:
    """Whether a diversity measure among ``measures`` takes its intents from the evaluation's
    qrels (no ``dqrels=``)."""
    return any(isinstance(m, _Diversity) and "dqrels" not in m.params for m in measures)


def intents_of_objects(qrels: Any) -> Optional[DiversityQrels]:
    """The per-intent judgements of in-memory qrels whose iteration column is the intent: a
    DataFrame with an ``iteration`` (or ir_datasets' ``subtopic_id``) column, or an iterable of
    namedtuples with that field (ir_measures' ``Qrel``); None for anything else (a dict, the
    package's columns, which keep no iteration). ``qrels`` must be iterable again (a list)."""
    if isinstance(qrels, (dict, Qrels, Columns)):
        return None
    if hasattr(qrels, "itertuples") and hasattr(qrels, "columns"):
        field = next((f for f in _INTENT_FIELDS if f in qrels.columns), None)
        if field is None:
            return None
        topics, intents, docs = (qrels[c].astype(str).tolist() for c in ("query_id", field, "doc_id"))
        return dqrels_from_records("qrels", topics, intents, docs, qrels["relevance"].tolist())
    rows = list(qrels)
    field = next((f for f in _INTENT_FIELDS if rows and hasattr(rows[0], f)), None)
    if field is None:
        return None
    return dqrels_from_records(
        "qrels",
        [str(r.query_id) for r in rows],
        [str(getattr(r, field)) for r in rows],
        [str(r.doc_id) for r in rows],
        [r.relevance for r in rows],
    )


#: the fields that hold a diversity qrels line's intent (ir_measures', ir_datasets')
_INTENT_FIELDS = ("iteration", "subtopic_id")


def _intent_qrels(measure: PluginMeasure, qrels: Qrels) -> Tuple[DiversityQrels, Tuple[str, Any]]:
    """The measure's per-intent judgements and what identifies them: ``dqrels=`` (a file, read
    once while it is unchanged), else the intents of the evaluation's qrels (their file's
    iteration column, read again from :attr:`Qrels.path`; or those kept from objects)."""
    path = measure.params.get("dqrels", qrels.path if qrels.intents is None else None)
    if path is not None:
        stamp = file_stamp(path)
        return _dqrels_file(path, stamp), (path, stamp)
    if qrels.intents is None:
        raise InputError(
            f"{measure}: the qrels hold no intents: give the per-intent judgements as dqrels=FILE, "
            "or the qrels as a TREC diversity qrels file (topic intent docno rel, the intent in "
            "the iteration column) or as Qrel tuples or a DataFrame with an iteration column"
        )
    return qrels.intents, ("qrels", id(qrels.intents))


def judgements_of(measure: PluginMeasure, qrels: Qrels, doc_bytes: bool = True) -> DiversityJudgements:
    """The measure's judgements (``probs=``, the intents of ``dqrels=`` or of the qrels,
    ``gains=``), files read once while they are unchanged (their mtime and size); ``doc_bytes``:
    the document ids as bytes (for runs read as bytes) or ``str`` (runs given as Python objects),
    so that a run's ids are matched without converting them one by one."""
    probs = measure["probs"]
    gains = measure.params.get("gains", "linear")
    dq, (source, stamp) = _intent_qrels(measure, qrels)
    if source != "qrels":
        return _judgements_cached(probs, source, gains, doc_bytes, (file_stamp(probs), stamp))
    key = ("diversity judgements", probs, file_stamp(probs), gains, doc_bytes)
    return qrels.cached(  # type: ignore[no-any-return]
        key, lambda: judgements(_probs_file(probs, key[2]), dq, gains, doc_bytes)
    )


def check_diversity(measure: PluginMeasure, qrels: Qrels) -> None:
    """Read the judgements before any run is scored (an unreadable or bad file fails at once,
    with the readers' one-line errors, as does a topic or intent of the per-intent judgements
    without probabilities; so do qrels without intents when there is no ``dqrels=``), and
    refuse qrels with a topic that has no intent probabilities."""
    probs = _probs_file(measure["probs"], file_stamp(measure["probs"]))
    check_against(probs, _intent_qrels(measure, qrels)[0])
    known = set(probs.topic)
    missing = [q for q in qrels.query_ids if q not in known]
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise InputError(
            f"{measure}: {len(missing)} topic(s) of the qrels have no intent probabilities in "
            f"{measure['probs']}: {shown}"
        )


# --------------------------------------------------------------------------------------------
# from a ranked run to the kernels' inputs, and the dispatch
# --------------------------------------------------------------------------------------------


def _lists(judg: DiversityJudgements, ranked: RankedRun) -> Tuple[np.ndarray, DiversityLists]:
    """Per ranked query its topic in ``judg.topics`` (-1 when it has none), and the lists of
    the ranked run in its order, the first :data:`RUN_DEPTH` of each (the kernels' input)."""
    docs = ranked.docs
    if docs is None:
        raise ValueError("this ranked run keeps no document ids, which the diversity judgements need")
    names = [ranked.qrels.query_ids[i] for i in ranked.qpos.tolist()]
    index = {t: k for k, t in enumerate(judg.topics)}
    topic = np.array([index.get(n, -1) for n in names], dtype=np.int64)
    # the ranked lists, read as the command reads a run's lines: ranked order is file order
    run = SimpleNamespace(
        query_names=names, query_codes=segment_ids(ranked.offsets), query_ids=None, doc_ids=docs
    )
    return topic, run_lists(judg, run, RUN_DEPTH)


def compute_diversity(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    """The measure's value per ranked query (its topic's value in the judgements' order)."""
    docs = ranked.docs
    judg = judgements_of(measure, ranked.qrels, docs is None or docs.dtype.kind == "S")
    key = ("diversity", id(judg))
    topic, lists = ranked.cached(key, lambda: (judg, *_lists(judg, ranked)))[1:]
    din, family, sharp = measure.KIND  # type: ignore[attr-defined]
    cutoff = int(measure.params.get("cutoff", RUN_DEPTH))
    k = np.full(len(judg.topics), cutoff, dtype=np.int64)
    if family is None:
        values = intent_recall(judg, lists, k)
    elif family in ("nDCG", "Q"):
        f = found(judg, lists, cutoff, din=din)
        kernel = d_ndcg_kernel if family == "nDCG" else d_q_kernel
        values = kernel(f, judg.ideal, cutoff)
    else:
        values = _intent_aware(judg, lists, family, cutoff)
    if sharp:
        values = d_sharp(intent_recall(judg, lists, k), values, float(measure.params.get("gamma", GAMMA)))
    out = np.zeros(len(topic))
    has = topic >= 0
    out[has] = values[topic[has]]
    return out


def _intent_aware(judg: DiversityJudgements, lists: DiversityLists, family: str, cutoff: int) -> np.ndarray:
    """IA-X@l (or P+Q@l) per topic: the per-intent kernel on each intent's list, weighted."""
    segs = intent_segments(judg)
    f = intent_found(judg, segs, lists, cutoff)
    ide = segs.ideal
    if family == "IA_nDCG":
        per = d_ndcg_kernel(f, ide, cutoff)
    elif family == "IA_Q":
        per = d_q_kernel(f, ide, cutoff)
    elif family == "IA_ERR":
        per = err_kernel(f)
    elif family == "IA_nERR":
        per = d_nerr_kernel(f, ide, cutoff)
    elif family == "IA_EBR":
        per = d_ebr_kernel(f, ide)
    elif family == "IA_RBP":
        per = rbp_kernel(f, RBP_P)
    else:  # P+Q: P+ for a navigational intent, Q@l for an informational one
        per = np.where(judg.probs.nav[segs.row], d_pplus_kernel(f, ide), d_q_kernel(f, ide, cutoff))
    return intent_aware(judg.probs.prob[segs.row], per, segs.offsets)
