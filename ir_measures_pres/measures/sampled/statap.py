"""statAP and its companions: the estimators of ``statAP_MQ_eval_v3.pl`` (TREC Million Query)
from sampled judgements with known inclusion probabilities (a prels file).

Each judged document d of a topic was sampled with inclusion probability π_d (the prels' ``iprob``;
1 for methods 0 and 2, :mod:`ir_measures_pres.data.prels`). With the judged relevant documents
(rel >= 1) weighted by 1/π:

.. math::

    \\hat R = \\sum_{d \\text{ judged relevant}} \\frac{1}{\\pi_d}

    prec(r) = \\frac{1 + \\sum_{\\text{judged relevant above rank } r} 1/\\pi}{r}

    statAP = \\frac{1}{\\hat R} \\sum_{\\text{judged relevant } d \\text{ at rank } r}
             \\frac{prec(r)}{\\pi_d}

    statP@k = \\frac{1}{k} \\sum_{\\text{judged relevant in the top } k} \\frac{1}{\\pi}

    statRprec = statP@\\lfloor \\hat R + 0.5 \\rfloor \\quad\\text{(when the list is that long;
                otherwise } \\frac{1}{\\hat R} \\sum_{\\text{judged relevant in the list}} 1/\\pi)

statAP is a ratio estimator: it can exceed 1. The ranking is the package's one rule (trec_eval's
as pytrec_eval runs it, :mod:`..data.ranking`: score descending, scores compared in single
precision (float32), so that two scores equal in float32 tie; ties by document id descending; the
script's own order of tied scores changes from one invocation to the next), over the whole list
(the script has no depth). A topic is
scored when the prels have it with NEU judgements (methods 1, 2, 4) and R̂ > 0, and the run
answers it: elsewhere the value is undefined (NaN) and left out of the mean, as the script's
``statMAP_on_valid_topics`` leaves it out; a topic the run lacks is left out too (DEFAULT NaN),
as in the script. The sums are added in rank order, as the script adds them, so the values are
the script's to the last bit.

J. A. Aslam, V. Pavlu and E. Yilmaz. A statistical method for system evaluation using incomplete
judgments. SIGIR 2006.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, List, Tuple

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.arrays import (
    offsets_from_counts,
    ranks_within,
    running_sums_in_order,
    segment_ids,
    sum_in_order,
    sums_in_order,
)
from ...data.inputs import InputError
from ...data.perl import perl_number
from ...data.prels import Prels, prels_rows
from ...data.qrels import ABSENT, Qrels
from ...data.ranking import RankedRun, document_labels, rank_run
from ..base import PluginMeasure

_CITE = """
    J. A. Aslam, V. Pavlu and E. Yilmaz. A statistical method for system evaluation using
    incomplete judgments. SIGIR 2006. (statAP_MQ_eval_v3.pl, V. Pavlu, TREC Million Query.)
"""

_PRELS = ParamInfo(
    dtype=str,
    required=True,
    desc="prels file of the sampled judgements (topic docno rel method iprob)",
)

#: statAP_MQ_eval_v3.pl's precision cutoff (its Prec_at_30)
TOOL_CUTOFF = 30


class _Estimated(PluginMeasure):
    """A statAP estimator: undefined (NaN) where the script does not score the topic, which
    the mean leaves out (as ``..._on_valid_topics``)."""

    DEFAULT = float("nan")

    def _example(self, param: str) -> str:
        return f"{self.__name__}(prels='prels.txt')"


class _StatAP(_Estimated):
    __doc__ = (
        """
    statAP: average precision estimated from sampled judgements with known inclusion
    probabilities π (a prels file, ``prels=FILE``),

    .. math::

        statAP = \\frac{1}{\\hat R} \\sum_{\\text{judged relevant } d \\text{ at rank } r}
                 \\frac{1}{\\pi_d} \\cdot \\frac{1 + \\sum_{\\text{judged relevant above } r} 1/\\pi}{r},
        \\qquad \\hat R = \\sum_{\\text{judged relevant}} 1/\\pi

    (``AP=`` of statAP_MQ_eval_v3.pl). Can exceed 1. Undefined (left out of the mean) where
    R̂ = 0, where the prels have no NEU judgement, and for a topic the run lacks.
    """
        + _CITE
    )

    __name__ = "statAP"
    NAME = __name__
    PRETTY_NAME = "statAP"
    SHORT_DESC = "Average precision estimated from sampled judgements (Aslam, Pavlu & Yilmaz)."
    SUPPORTED_PARAMS = {"prels": _PRELS}


class _StatRprec(_Estimated):
    __doc__ = (
        """
    statRprec: R-precision estimated from sampled judgements (``prels=FILE``): the estimated
    relevant in the top round(R̂) over round(R̂), round(x) = floor(x + 0.5),

    .. math::

        statRprec = \\frac{1}{\\lfloor \\hat R + 0.5 \\rfloor}
                    \\sum_{\\text{judged relevant in the top } \\lfloor \\hat R + 0.5 \\rfloor} 1/\\pi

    and, when the list is shorter than round(R̂), the sum over the whole list divided by R̂
    itself (``R-prec=`` of statAP_MQ_eval_v3.pl). Undefined where statAP is.
    """
        + _CITE
    )

    __name__ = "statRprec"
    NAME = __name__
    PRETTY_NAME = "statRprec"
    SHORT_DESC = "R-precision estimated from sampled judgements (Aslam, Pavlu & Yilmaz)."
    SUPPORTED_PARAMS = {"prels": _PRELS}


class _StatP(_Estimated):
    __doc__ = (
        """
    statP@k: precision at k estimated from sampled judgements (``prels=FILE``),

    .. math::

        statP@k = \\frac{1}{k} \\sum_{\\text{judged relevant in the top } k} 1/\\pi

    k defaults to 30 (``Prec_at_30=`` of statAP_MQ_eval_v3.pl); a list shorter than k still
    divides by k. Undefined where statAP is.
    """
        + _CITE
    )

    __name__ = "statP"
    NAME = __name__
    PRETTY_NAME = "statP"
    SHORT_DESC = "Precision at k estimated from sampled judgements (Aslam, Pavlu & Yilmaz)."
    SUPPORTED_PARAMS = {
        "prels": _PRELS,
        "cutoff": ParamInfo(
            dtype=int, required=False, default=TOOL_CUTOFF, desc="rank k (default 30, the script's)"
        ),
    }

    def _example(self, param: str) -> str:
        return "statP(prels='prels.txt')@30"


statAP = _StatAP()
statRprec = _StatRprec()
statP = _StatP()


# --------------------------------------------------------------------------------------------
# the judged documents of each ranked list
# --------------------------------------------------------------------------------------------


@dataclass
class StatLists:
    """Per ranked query: what the prels say of its list.

    The judged relevant documents of ranked query ``i`` are entries ``offsets[i]:offsets[i + 1]``
    of ``rank`` (their ranks, ascending) and ``iprob`` (their π). ``r_hat`` is the topic's R̂,
    ``lengths`` the list lengths, ``sampled_in_list`` the judged documents of the list,
    ``scored`` where the script scores the topic (in the prels, some NEU judgement, R̂ > 0).
    """

    offsets: np.ndarray
    rank: np.ndarray
    iprob: np.ndarray
    r_hat: np.ndarray
    lengths: np.ndarray
    sampled_in_list: np.ndarray
    scored: np.ndarray

    @property
    def relevant_in_list(self) -> np.ndarray:
        return np.diff(self.offsets)


def stat_lists(prels: Prels, topic: np.ndarray, offsets: np.ndarray, rows: np.ndarray) -> StatLists:
    """:class:`StatLists` of ranked lists (CSR ``offsets``) whose positions hold their prels row
    (``rows``, ``ABSENT`` for a document the prels lack); ``topic[i]``: the prels topic of list
    ``i`` (-1 when the prels lack it)."""
    nq = len(offsets) - 1
    known = topic >= 0
    t = np.where(known, topic, 0)
    r_hat = np.where(known, prels.r_hat()[t] if len(prels.topics) else 0.0, 0.0)
    neu = np.where(known, prels.neu[t] if len(prels.topics) else 0, 0)
    qidx = segment_ids(offsets)
    sampled = rows != ABSENT
    pos = np.flatnonzero(sampled)
    sampled_in_list = np.bincount(qidx[pos], minlength=nq)
    pos = pos[prels.rel[rows[pos]] >= 1]
    rank = ranks_within(offsets, qidx)
    return StatLists(
        offsets_from_counts(np.bincount(qidx[pos], minlength=nq)),
        rank[pos],
        prels.iprob[rows[pos]],
        r_hat,
        np.diff(offsets),
        sampled_in_list,
        known & (neu > 0) & (r_hat > 0),
    )


# --------------------------------------------------------------------------------------------
# kernels: per ranked query, its judged relevant documents' ranks and π in, a value out
# --------------------------------------------------------------------------------------------


def estimated_relevant_to(lists: StatLists, k: np.ndarray) -> np.ndarray:
    """Per ranked query, Σ 1/π over the judged relevant documents at ranks <= ``k[i]`` (added in
    rank order, as the script's running ``sum_prec``)."""
    running = running_sums_in_order(1.0 / lists.iprob, lists.offsets)
    nq = len(lists.offsets) - 1
    qidx = segment_ids(lists.offsets)
    within = np.bincount(qidx[lists.rank <= k[qidx]], minlength=nq)
    out = np.zeros(nq)
    has = within > 0
    out[has] = running[lists.offsets[:-1][has] + within[has] - 1]
    return out


def statap_kernel(lists: StatLists) -> np.ndarray:
    """statAP per ranked query (NaN where not scored): Σ prec(r)/π over the judged relevant
    documents, prec(r) = (1 + Σ 1/π above r) / r, divided by R̂."""
    offsets = lists.offsets
    running = running_sums_in_order(1.0 / lists.iprob, offsets)
    above = np.zeros(len(running))  # the running sum before each document (0 at a list's first)
    first = np.zeros(len(running), dtype=bool)
    first[offsets[:-1][np.diff(offsets) > 0]] = True
    above[~first] = running[np.flatnonzero(~first) - 1]
    prec = (1.0 + above) / lists.rank
    up = sums_in_order(prec / lists.iprob, offsets)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(lists.scored, up / lists.r_hat, np.nan)


def statrprec_kernel(lists: StatLists) -> np.ndarray:
    """statRprec per ranked query (NaN where not scored): Σ 1/π in the top round(R̂) over
    round(R̂), round(x) = floor(x + 0.5); a list shorter than that: Σ 1/π over it, over R̂."""
    cut = np.floor(lists.r_hat + 0.5)
    reached = cut <= lists.lengths
    k = np.where(reached, cut, lists.lengths).astype(np.int64)
    found = estimated_relevant_to(lists, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(reached, found / cut, found / lists.r_hat)
    return np.where(lists.scored, value, np.nan)


def statp_kernel(lists: StatLists, cutoff: int) -> np.ndarray:
    """statP@k per ranked query (NaN where not scored): Σ 1/π in the top k, over k."""
    k = np.full(len(lists.offsets) - 1, cutoff, dtype=np.int64)
    return np.where(lists.scored, estimated_relevant_to(lists, k) / cutoff, np.nan)


# --------------------------------------------------------------------------------------------
# from a measure's parameters to its kernel (the catalogue's dispatch table)
# --------------------------------------------------------------------------------------------


def check_prels(measure: PluginMeasure, qrels: Qrels) -> None:
    """Read the prels before any run is scored (an unreadable file fails at once), and warn
    once, naming them, of the qrels topics the estimators leave undefined: not in the prels, no
    NEU judgement, or no relevant document sampled (R̂ = 0). Said once per evaluation."""
    prels, _ = prels_rows(qrels, measure["prels"])
    topic = np.array([prels.index.get(q, -1) for q in qrels.query_ids], dtype=np.int64)
    empty = stat_lists(prels, topic, np.zeros(len(topic) + 1, dtype=np.int64), np.zeros(0, np.int64))
    gone = [q for q, ok in zip(qrels.query_ids, empty.scored.tolist()) if not ok]
    if gone:
        shown = ", ".join(gone[:10]) + (f" and {len(gone) - 10} more" if len(gone) > 10 else "")
        warnings.warn(
            f"{measure.NAME}: {len(gone)} {'topic has' if len(gone) == 1 else 'topics have'} no "
            f"relevant document sampled in {measure['prels']} (or no NEU judgement, or is not "
            f"there): undefined, left out of the mean as statAP_MQ_eval_v3.pl leaves it out: {shown}",
            stacklevel=3,
        )


def _lists(measure: PluginMeasure, ranked: RankedRun) -> StatLists:
    path = measure["prels"]
    prels, aligned = prels_rows(ranked.qrels, path)

    def make() -> Tuple[Qrels, StatLists]:
        docs = ranked.docs
        if docs is None:
            raise ValueError(f"{measure}: this ranked run keeps no document ids, which the prels need")
        rows = document_labels(aligned, ranked.qpos, ranked.offsets, docs)
        topic = np.array(
            [prels.index.get(ranked.qrels.query_ids[i], -1) for i in ranked.qpos.tolist()], dtype=np.int64
        )
        return aligned, stat_lists(prels, topic, ranked.offsets, rows)

    # made once per ranked run and prels version: the entry keeps ``aligned`` alive, so its id
    # stays its own while the entry lives
    return ranked.cached(("prels", path, id(aligned)), make)[1]  # type: ignore[no-any-return]


def _answered_only(values: np.ndarray, ranked: RankedRun) -> np.ndarray:
    """The estimates, undefined (NaN) on an empty list: the script scores only the topics the run
    answers (its valid topics), so a topic the run lacks, an empty ranking, is left out of the
    mean as it leaves it out (:func:`~.summary.lacking_values`)."""
    return np.where(ranked.lengths > 0, values, np.nan)


def compute_statap(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _answered_only(statap_kernel(_lists(measure, ranked)), ranked)


def compute_statrprec(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _answered_only(statrprec_kernel(_lists(measure, ranked)), ranked)


def compute_statp(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    return _answered_only(statp_kernel(_lists(measure, ranked), int(measure["cutoff"])), ranked)


# --------------------------------------------------------------------------------------------
# a whole run as statAP_MQ_eval_v3.pl computes it (printed by ir_measures_pres.printers.statap)
# --------------------------------------------------------------------------------------------


@dataclass
class StatapRun:
    """statAP_MQ_eval_v3.pl's numbers for one run against ``prels``: per ranked query ``i``
    (prels topic ``qpos[i]``) its lists and estimates (NaN where not scored), ``order`` the
    tool's topic order (Perl's numeric order of the ids), ``valid`` the scored queries in that
    order, and ``means`` the means of statAP, statRprec and statP@``cutoff`` over them, added in
    that order as the tool adds."""

    prels: Prels
    qpos: np.ndarray
    lists: StatLists
    ap: np.ndarray
    rprec: np.ndarray
    prec: np.ndarray
    cutoff: int
    order: List[int]
    valid: List[int]
    means: Tuple[float, float, float]


def statap_run(prels: Prels, run: Any, cutoff: int = TOOL_CUTOFF) -> StatapRun:
    """:class:`StatapRun` of a run (as :func:`~ir_measures_pres.data.readers.read_run` reads it):
    its scores compared as doubles, as the tool compares them (``rank_run(..., exact_scores=True)``),
    ties by document id descending. Raises :class:`~ir_measures_pres.data.inputs.InputError` when
    no topic is scored (the tool divides by zero)."""
    # the prels as qrels whose label of a document is its prels row: ranking the run against
    # them labels every position with its row
    rows = Qrels(
        list(prels.topics), prels.offsets.copy(), np.arange(len(prels.docs), dtype=np.int64), prels.lookup
    )
    ranked = rank_run(run, rows, exact_scores=True)
    lists = stat_lists(prels, ranked.qpos, ranked.offsets, ranked.labels)
    ap, rprec, prec = statap_kernel(lists), statrprec_kernel(lists), statp_kernel(lists, cutoff)
    order = sorted(range(ranked.num_queries), key=lambda i: (perl_number(prels.topics[ranked.qpos[i]]), i))
    valid = [i for i in order if lists.scored[i]]
    if not valid:
        raise InputError(
            f"{prels.source}: no topic of the run has a relevant document sampled (with a NEU "
            f"judgement): statAP's means are undefined (statAP_MQ_eval_v3.pl divides by zero)"
        )
    n = len(valid)
    a, r, p = (sum_in_order(values[valid]) / n for values in (ap, rprec, prec))
    return StatapRun(prels, ranked.qpos, lists, ap, rprec, prec, cutoff, order, valid, (a, r, p))
