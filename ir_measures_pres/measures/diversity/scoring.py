"""How the registered diversity measures (:mod:`.measures`) are scored: where their
judgements come from, and the dispatch from a ranked run to the kernels of :mod:`.diversity`.

The intent probabilities come from ``probs=``; the per-intent judgements from ``dqrels=`` (an
NTCIREVAL ``.Dqrels`` or TREC diversity qrels file), else from the evaluation's qrels whose
iteration column is the intent (a file read again from :attr:`Qrels.path`, or kept from
ir_measures' ``Qrel`` tuples or a DataFrame as :attr:`Qrels.intents` by the provider). Files are
read once while unchanged (their mtime and size), as statAP reads its ``prels=``.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any, Iterable, Optional, Tuple

import numpy as np

from ...data.arrays import segment_ids
from ...data.diversity import (
    DiversityQrels,
    IntentProbs,
    check_against,
    dqrels_from_records,
    read_dqrels,
    read_intent_probs,
)
from ...data.inputs import InputError, file_stamp, predict_kind
from ...data.qrels import Qrels
from ...data.ranking import RankedRun
from ..base import PluginMeasure
from ..ntcir.kernels import err_kernel, rbp_kernel
from .kernels import (
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
    printed,
    run_lists,
)
from .measures import DiversityMeasure

__all__ = [
    "check_diversity",
    "compute_diversity",
    "qrels_intents",
    "judgements_of",
    "needs_qrels_intents",
    "qrels_intents_of",
]


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
    return any(isinstance(m, DiversityMeasure) and "dqrels" not in m.params for m in measures)


def qrels_intents(measures: Iterable[Any], qrels: Any) -> Tuple[Any, Optional[DiversityQrels]]:
    """(``qrels``, read again if need be, and the per-intent judgements of their iteration
    column) when a diversity measure among ``measures`` takes its intents from in-memory qrels:
    a DataFrame with an ``iteration`` (or ir_datasets' ``subtopic_id``) column, or namedtuples
    with that field (ir_measures' ``Qrel``; an iterator is made a list, read twice). None for
    anything else: no such measure, a dict, the package's columns or qrels (a file's are read
    again from :attr:`Qrels.path`, or were kept)."""
    if not needs_qrels_intents(measures) or isinstance(qrels, Qrels):
        return qrels, None
    kind = predict_kind(qrels, "qrels")
    if kind == "frame":
        field = next((f for f in _INTENT_FIELDS if f in qrels.columns), None)
        if field is None:
            return qrels, None
        topics, intents, docs = (qrels[c].astype(str).tolist() for c in ("query_id", field, "doc_id"))
        return qrels, dqrels_from_records("qrels", topics, intents, docs, qrels["relevance"].tolist())
    if kind != "tuples":
        return qrels, None
    rows = list(qrels)
    field = next((f for f in _INTENT_FIELDS if rows and hasattr(rows[0], f)), None)
    if field is None:
        return rows, None
    return rows, dqrels_from_records(
        "qrels",
        [str(r.query_id) for r in rows],
        [str(getattr(r, field)) for r in rows],
        [str(r.doc_id) for r in rows],
        [r.relevance for r in rows],
    )


def qrels_intents_of(qrels: Qrels) -> Optional[DiversityQrels]:
    """The per-intent judgements the evaluation's qrels hold, what a diversity measure without
    ``dqrels=`` reads (:func:`_intent_qrels`): those kept from objects, else their file read
    again for its iteration column; None for qrels that keep neither."""
    if qrels.intents is not None:
        return qrels.intents  # type: ignore[no-any-return]
    if qrels.path is None:
        return None
    return _dqrels_file(qrels.path, file_stamp(qrels.path))


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
    elif family in _D_FAMILIES:
        values = _d_measure(family, found(judg, lists, cutoff, din=din), judg, cutoff, measure)
    else:
        values = _intent_aware(judg, lists, family, cutoff)
    if sharp:
        values = d_sharp(intent_recall(judg, lists, k), values, float(measure.params.get("gamma", GAMMA)))
    out = np.zeros(len(topic))
    has = topic >= 0
    out[has] = values[topic[has]]
    return out


#: the single-list measures a D- (DIN-) measure computes on the global (DIN) gains
_D_FAMILIES = ("nDCG", "Q", "nERR", "ERR", "EBR", "RBP")


def _d_measure(
    family: str, f: Any, judg: DiversityJudgements, cutoff: int, measure: PluginMeasure
) -> np.ndarray:
    """The D-measure per topic: gcompute's line of that family, on the list cut at ``cutoff``."""
    if family == "nDCG":
        return d_ndcg_kernel(f, judg.ideal, cutoff)  # type: ignore[no-any-return]
    if family == "Q":
        return d_q_kernel(f, judg.ideal, cutoff)  # type: ignore[no-any-return]
    if family == "nERR":
        return d_nerr_kernel(f, judg.ideal, cutoff)  # type: ignore[no-any-return]
    if family == "ERR":
        return err_kernel(f)  # type: ignore[no-any-return]
    if family == "EBR":
        return d_ebr_kernel(f, judg.ideal)  # type: ignore[no-any-return]
    return rbp_kernel(f, float(measure["p"]))  # type: ignore[no-any-return]


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
    # the scripts' order of operations (spec §6): each intent's value as gcompute prints it
    # (4 decimals), weighed and added in awk; so the sum can be printed as the tool prints it
    return intent_aware(judg.probs.prob[segs.row], printed(per), segs.offsets)
