"""A whole run as NIST's ``sample_eval.pl`` computes it: every estimate of every topic the run
and the sampled qrels share (:mod:`.estimators`' kernels) and the summary's figures, added in the
tool's order. :mod:`ir_measures_pres.printers.sample_eval` prints them as the tool does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence, Tuple

import numpy as np

from ...data.arrays import sum_in_order
from ...data.inputs import InputError
from ...data.perl import numeric_key
from ...data.qrels import Qrels
from ...data.ranking import rank_run
from . import estimators as sm

__all__ = ["SampleEvalRun", "sample_eval_run"]


@dataclass
class SampleEvalRun:
    """sample_eval.pl's figures for one run. Per topic (``topics``, Perl's numeric order, the
    tool's): ``ap`` (infAP), ``ndcg`` (infNDCG), ``precision`` (one array per rank of ``ranks``),
    ``rel_ret`` (inum_rel_ret), ``num_rel`` (inum_rel) and ``lines`` (num_ret: every line of the
    topic, a document listed twice too). The summary's: the means of infAP, infNDCG, the 11
    ``iprec`` points and the iP's over the run's topics, the sums of inum_rel_ret (the run's
    topics) and inum_rel (every qrels topic), and ``num_ret`` (deduplicated, capped at the depth)."""

    topics: List[str]
    ranks: Tuple[int, ...]
    ap: np.ndarray
    ndcg: np.ndarray
    precision: List[np.ndarray]
    rel_ret: np.ndarray
    num_rel: np.ndarray
    lines: np.ndarray
    mean_ap: float
    mean_ndcg: float
    mean_iprec: List[float]
    mean_precision: List[float]
    sum_rel_ret: float
    sum_rel: float
    num_ret: int


def sample_eval_run(
    qrels: Qrels, cols: Any, variant: str, depth: int, ranks: Sequence[int], source: str = "run"
) -> SampleEvalRun:
    """:class:`SampleEvalRun` of a run read with bytes ids (``cols``) against sampled ``qrels``
    (with strata). The scores are compared as doubles, as Perl compares them. Raises
    :class:`~ir_measures_pres.data.inputs.InputError` when the run has no qrels topic (the tool
    divides by zero), naming ``source``."""
    ranked = rank_run(cols, qrels, exact_scores=True)
    if not ranked.num_queries:
        raise InputError(
            f"{source}: expected some topic of the qrels, found none (sample_eval.pl divides by zero here)"
        )
    st = sm.strata_of(qrels)
    walk = sm.walk_of(ranked, depth)
    ap = sm.inf_ap(walk, st, variant, depth)
    ndcg = sm.inf_ndcg(walk, sm.ideal_dcg(qrels, variant, depth))
    precision = [sm.inf_precision(walk, k) for k in ranks]
    rel_ret = sm.inum_rel_ret_of(walk)
    iprec = sm.iprec_at_recall(walk, st)
    topics = [qrels.query_ids[q] for q in ranked.qpos.tolist()]
    num_ret = ranked.lengths  # deduplicated: the capped sum of the summary line
    lines = num_ret  # every line of the topic, a repeated document too: the per-topic line
    if cols.dropped is not None and cols.query_names is not None:
        repeats = dict(zip(cols.query_names, cols.dropped.tolist()))
        lines = num_ret + np.array([repeats.get(t, 0) for t in topics], dtype=np.int64)
    n = len(topics)
    # the tool adds its topics in the order it prints them, but the iprec points in text order
    # of the ids and inum_rel over every qrels topic in text order
    by_number = sorted(range(n), key=lambda i: numeric_key(topics[i]))
    by_text = sorted(range(n), key=lambda i: topics[i])
    every = sorted(range(len(qrels.query_ids)), key=lambda q: qrels.query_ids[q])
    return SampleEvalRun(
        topics=[topics[i] for i in by_number],
        ranks=tuple(ranks),
        ap=ap[by_number],
        ndcg=ndcg[by_number],
        precision=[values[by_number] for values in precision],
        rel_ret=rel_ret[by_number],
        num_rel=st.R_hat[ranked.qpos[by_number]],
        lines=lines[by_number],
        mean_ap=sum_in_order(ap[by_number]) / n,
        mean_ndcg=sum_in_order(ndcg[by_number]) / n,
        mean_iprec=[sum_in_order(iprec[by_text, j]) / n for j in range(len(sm.RECALL_LEVELS))],
        mean_precision=[sum_in_order(values[by_number]) / n for values in precision],
        sum_rel_ret=sum_in_order(rel_ret[by_number]),
        sum_rel=sum_in_order(st.R_hat[every]),
        num_ret=int(np.minimum(num_ret, depth).sum()),
    )
