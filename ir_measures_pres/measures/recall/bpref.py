"""Bpref-10: bpref with a floor of 10 preference relations, and its numpy kernel.

The kernel takes the offset (10 for Bpref-10); with offset 0 and the ``'trec'`` variant it is
exactly trec_eval 9 / pytrec_eval ``bpref``, which the tests use as a cross-check.
"""

from __future__ import annotations

from typing import Union

import numpy as np
from ir_measures.measures.base import ParamInfo

from ...data.ranking import JudgedList, RankedRun
from ..base import REL_PARAM, PluginMeasure


class _Bpref10(PluginMeasure):
    """
    Bpref-10: bpref with at least 10 + R judged non-relevant documents in its preference
    relations, for topics with very few relevant documents.

    .. math::

        bpref\\text{-}10 = \\frac{1}{R} \\sum_{\\text{retrieved relevant } r}
            \\left(1 - \\frac{\\min(a(r), 10 + R)}{D}\\right)

    where a(r) is the number of judged non-relevant documents ranked above r (unjudged documents
    are skipped), R the relevant documents (qrels label >= rel) and N the judged non-relevant ones
    (0 <= label < rel). A relevant document with a(r) = 0 adds 1. The denominator D depends on
    ``variant``: ``'trec'`` (default) min(N, 10 + R), trec_eval 8.x ``bpref_top10pRnonrel``;
    ``'old'`` min(N_ret, 10 + R) with N_ret the judged non-relevant documents retrieved,
    trec_eval 8.x ``old_bpref_top10pRnonrel`` (the SIGIR 2004 numbers); ``'paper'`` 10 + R, the
    printed formula. R = 0 scores 0.

    Chris Buckley and Ellen M. Voorhees. Retrieval Evaluation with Incomplete Information.
    SIGIR 2004.

    .. cite.dblp:: conf/sigir/BuckleyV04
    """

    __name__ = "Bpref10"
    NAME = __name__
    PRETTY_NAME = "Bpref-10"
    SHORT_DESC = "Bpref with a floor of 10 + R non-relevant documents (Buckley & Voorhees)."
    SUPPORTED_PARAMS = {
        "rel": REL_PARAM,
        "variant": ParamInfo(
            dtype=str,
            choices=["trec", "old", "paper"],
            default="trec",
            desc="denominator: 'trec' min(N, 10+R), 'old' min(N_ret, 10+R), 'paper' 10+R",
        ),
    }


Bpref10 = _Bpref10()


def bpref_kernel(
    judged: Union[JudgedList, RankedRun],
    n_relevant: np.ndarray,
    n_nonrelevant: np.ndarray,
    rel: int,
    variant: str,
    offset: int = 10,
) -> np.ndarray:
    """Bpref with ``offset + R`` non-relevant documents per query (offset 10: Bpref-10).

    ``n_relevant`` and ``n_nonrelevant`` are R and N per ranked query, from the qrels. Unjudged
    documents are skipped, so only the judged list is visited.
    """
    if isinstance(judged, RankedRun):
        judged = judged.judged_list()
    is_rel = judged.label >= rel
    is_nonrel = (~is_rel).astype(np.float64)
    above = judged.cumsum(is_nonrel)  # at a relevant document: judged non-relevant above it
    r = n_relevant.astype(np.float64)
    cap = offset + r
    if variant == "trec":
        denom = np.minimum(n_nonrelevant, cap)
    elif variant == "old":
        denom = np.minimum(judged.sum(is_nonrel), cap)
    elif variant == "paper":
        denom = cap
    else:  # pragma: no cover - validated by the measure
        raise ValueError(f"unknown bpref variant {variant!r}")
    sub = judged.subset(is_rel)
    a = above[is_rel]
    q = sub.qidx
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(a > 0, 1.0 - np.minimum(a, cap[q]) / denom[q], 1.0)
    total = sub.sum(term)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(r > 0, total / r, 0.0)


def compute_bpref10(measure: PluginMeasure, ranked: RankedRun) -> np.ndarray:
    """Bpref-10 with the measure's ``rel`` and ``variant`` (dispatch-table entry)."""
    rel = measure["rel"]
    r = ranked.qrels_stat(ranked.qrels.count(lo=rel))
    n = ranked.qrels_stat(ranked.qrels.count(lo=0, hi=rel))
    return bpref_kernel(ranked, r, n, rel, measure["variant"], offset=10)
