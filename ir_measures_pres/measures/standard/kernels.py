"""Native kernels of standard ir_measures measures (AP, P, R, nDCG, RR, Rprec, Success, Bpref),
for repeated evaluation only.

**Who uses them.** Only the meta-evaluation (:mod:`ir_measures_pres.meta`): its sweeps score the
same ranked runs against the full qrels and against many reduced copies of them (f-qrels,
bootstrap samples ...), where handing every run to pytrec_eval again each time would cost most
of the experiment. User-facing evaluation (the ir_measures provider, the CLI, PyTerrier) does
**not** use them: it still delegates the standard measures to pytrec_eval through ir_measures,
and this package adds only its own measures there.

**What they compute.** Each kernel equals trec_eval 9 as pytrec_eval runs it, per query: on the
ranked list of :mod:`..data.ranking` (score descending, compared as float32 as pytrec_eval stores
scores, ties by doc id descending), with ``rel`` as pytrec_eval's ``relevance_level`` and
``judged_only`` as its ``judged_docs_only_flag`` (trec_eval ``-J``: unjudged documents removed,
ranks renumbered). ``tests/test_standard_kernels.py`` checks every kernel against pytrec_eval per
query on every real run of ``../shared/data/real`` (TREC 2003 Robust, CLEF 2017 TAR).

**Shape.** As in the other family modules: the pure kernels take the judged documents of the list
a measure sees (:class:`~..data.ranking.JudgedList`: unjudged documents only occupy ranks, so they are
never visited) and per-query qrels counts, and return one value per ranked query; the
``compute_*`` adapters read a measure's parameters; :data:`STANDARD_KERNELS` maps an ir_measures
measure NAME to its adapter and to the parameter values it supports, and :func:`kernel_for` is the
look-up (None: no native kernel for that measure or those parameter values, and the
meta-evaluation asks ir_measures instead). Queries of the qrels that a run lacks are not ranked
queries: their value is the measure's ``DEFAULT``, filled in by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional

import numpy as np

from ...data.arrays import offsets_from_counts, ranks_within, segment_ids
from ...data.qrels import Qrels
from ...data.ranking import JudgedList, RankedRun
from ..bounds_spec import COMPLETIONS, EXTREMES, SKIPS, BoundSpec
from ..recall.bpref import bpref_kernel

__all__ = [
    "STANDARD_KERNELS",
    "StandardKernel",
    "ap_kernel",
    "bpref_trec_kernel",
    "gain_of_label",
    "ideal_dcg",
    "kernel_for",
    "ndcg_kernel",
    "precision_kernel",
    "recall_kernel",
    "relevant_precision_sum",
    "rprec_kernel",
    "standard_bounds",
    "rr_kernel",
    "success_kernel",
]

#: a gain map of nDCG's ``gains`` parameter, {relevance level: gain}
Gains = Optional[Mapping[int, float]]


# --------------------------------------------------------------------------------------------
# kernels: judged documents of the list the measure sees in, one value per ranked query out
# --------------------------------------------------------------------------------------------


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, and 0 where den is 0 (trec_eval's value for a query without relevant docs)."""
    out = np.zeros(len(num), dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _found(judged: JudgedList, rel: int) -> JudgedList:
    """The relevant documents (label >= ``rel``) of the list, with their ranks in it."""
    return judged.subset(judged.label >= rel)


def ap_kernel(judged: JudgedList, n_relevant: np.ndarray, rel: int) -> np.ndarray:
    """Average precision, trec_eval ``map`` (``map_cut_k`` on a list cut at k).

    .. math::

        AP = \\frac{1}{R} \\sum_{\\text{relevant } d \\text{ in the list}} \\frac{count(r_d)}{r_d}

    with r_d the rank of d, count(r) the relevant documents in the top r and R the relevant
    documents of the qrels (label >= rel), not only the retrieved ones. R = 0 scores 0.

    Donna Harman. Evaluation issues in information retrieval. IPM 28(4), 1992.
    """
    return _ratio(relevant_precision_sum(judged, rel), n_relevant.astype(np.float64))


def relevant_precision_sum(judged: JudgedList, rel: int) -> np.ndarray:
    """Per query, the sum of count(r_d) / r_d over the relevant documents d (label >= ``rel``) of
    the list: AP's numerator, and the s of trec_eval's ``yaap`` (:mod:`..trec_eval.judgement_aware`)."""
    found = _found(judged, rel)
    count_so_far = found.cumsum(np.ones(len(found.rank)))
    return found.sum(count_so_far / found.rank)


def precision_kernel(judged: JudgedList, rel: int, cutoff: int) -> np.ndarray:
    """Precision at k, trec_eval ``P_k``: P@k = count(k) / k, the relevant documents in the top k
    over k (k even when the list is shorter). ``judged`` is the list cut at k.

    C. J. van Rijsbergen. Information Retrieval, 2nd ed., 1979.
    """
    return np.diff(_found(judged, rel).offsets) / float(cutoff)


def recall_kernel(judged: JudgedList, n_relevant: np.ndarray, rel: int) -> np.ndarray:
    """Recall at k, trec_eval ``recall_k``: R@k = count(k) / R, the relevant documents in the
    top k over those of the qrels. ``judged`` is the list cut at k. R = 0 scores 0.

    C. J. van Rijsbergen. Information Retrieval, 2nd ed., 1979.
    """
    found = np.diff(_found(judged, rel).offsets).astype(np.float64)
    return _ratio(found, n_relevant.astype(np.float64))


def success_kernel(judged: JudgedList, rel: int) -> np.ndarray:
    """Success at k, trec_eval ``success_k``: 1 when a relevant document is in the top k, else 0.
    ``judged`` is the list cut at k.

    Chris Buckley and Ellen M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and
    Evaluation in Information Retrieval, MIT Press, 2005.
    """
    return (np.diff(_found(judged, rel).offsets) > 0).astype(np.float64)


def rr_kernel(judged: JudgedList, rel: int) -> np.ndarray:
    """Reciprocal rank, trec_eval ``recip_rank``: RR = 1 / r_1, with r_1 the rank of the first
    relevant document of the list (RR@k: of the list cut at k); 0 when there is none.

    Paul B. Kantor and Ellen M. Voorhees. The TREC-5 Confusion Track: Comparing Retrieval Methods
    for Scanned Text. Information Retrieval 2(2/3), 2000.
    """
    found = _found(judged, rel)
    out = np.zeros(found.num_queries, dtype=np.float64)
    has = np.diff(found.offsets) > 0
    out[has] = 1.0 / found.rank[found.offsets[:-1][has]]
    return out


def rprec_kernel(judged: JudgedList, n_relevant: np.ndarray, rel: int) -> np.ndarray:
    """R-precision, trec_eval ``Rprec``: Rprec = count(R) / R, the precision (and the recall) at
    rank R, with R the relevant documents of the qrels. R = 0 scores 0.

    Chris Buckley and Ellen M. Voorhees. Retrieval System Evaluation. In TREC: Experiment and
    Evaluation in Information Retrieval, MIT Press, 2005.
    """
    found = _found(judged, rel)
    r = n_relevant.astype(np.float64)
    within_r = (found.rank <= r[found.qidx]).astype(np.float64)
    return _ratio(found.sum(within_r), r)


def gain_of_label(labels: np.ndarray, gains: Gains) -> np.ndarray:
    """nDCG's gain of each (judged, >= 0) label: the label itself, as trec_eval, or
    ``gains.get(label, label)``, as ir_measures maps the qrels for pytrec_eval."""
    g = labels.astype(np.float64)
    if gains:
        levels = np.array(sorted(gains), dtype=np.int64)
        values = np.array([gains[k] for k in levels.tolist()], dtype=np.float64)
        at = np.minimum(np.searchsorted(levels, labels), len(levels) - 1)
        mapped = levels[at] == labels
        g[mapped] = values[at[mapped]]
    return g


def ideal_dcg(qrels: Qrels, gains: Gains, cutoff: Optional[int]) -> np.ndarray:
    """Per qrels query, the DCG of its ideal list: the positive gains of its judged documents,
    largest first, down to rank ``cutoff`` (all when None). Cached on the qrels."""
    key = ("ideal_dcg", None if not gains else tuple(sorted(gains.items())), cutoff)

    def make() -> np.ndarray:
        g = gain_of_label(qrels.labels, gains)
        positive = (qrels.labels >= 0) & (g > 0)
        qidx, g = qrels.qidx[positive], g[positive]
        order = np.lexsort((-g, qidx))
        offsets = offsets_from_counts(np.bincount(qidx, minlength=len(qrels.query_ids)))
        query = segment_ids(offsets)  # = qidx[order]
        rank = ranks_within(offsets, query)
        g = g[order]
        if cutoff is not None:
            inside = rank <= cutoff
            query, rank, g = query[inside], rank[inside], g[inside]
        return np.bincount(query, weights=g / np.log2(rank + 1.0), minlength=len(qrels.query_ids))

    return qrels.cached(key, make)  # type: ignore[no-any-return]


def ndcg_kernel(judged: JudgedList, ideal: np.ndarray, gains: Gains) -> np.ndarray:
    """Normalised discounted cumulative gain, trec_eval ``ndcg`` (``ndcg_cut_k`` on a list and an
    ideal cut at k).

    .. math::

        nDCG = \\frac{DCG}{DCG_{ideal}}, \\qquad DCG = \\sum_{r} \\frac{g(d_r)}{\\log_2(r + 1)}

    with g the label (or ``gains``, see :func:`gain_of_label`; unjudged documents gain 0) and
    DCG_ideal the DCG of the qrels' positive gains sorted descending (``ideal``, per ranked query,
    from :func:`ideal_dcg`). DCG_ideal = 0 scores 0.

    Kalervo Järvelin and Jaana Kekäläinen. Cumulated gain-based evaluation of IR techniques.
    ACM TOIS 20(4), 2002.
    """
    g = gain_of_label(judged.label, gains)
    return _ratio(judged.sum(g / np.log2(judged.rank + 1.0)), ideal)


def bpref_trec_kernel(
    judged: JudgedList, n_relevant: np.ndarray, n_nonrelevant: np.ndarray, rel: int
) -> np.ndarray:
    """Bpref, trec_eval ``bpref``: the package's Bpref-10 kernel with the offset 0.

    .. math::

        bpref = \\frac{1}{R} \\sum_{\\text{retrieved relevant } r}
            \\left(1 - \\frac{\\min(a(r), R)}{\\min(R, N)}\\right)

    with a(r) the judged non-relevant documents ranked above r (unjudged ones are skipped), R the
    relevant (label >= rel) and N the judged non-relevant (0 <= label < rel) documents of the
    qrels; a(r) = 0 adds 1, R = 0 scores 0.

    Chris Buckley and Ellen M. Voorhees. Retrieval Evaluation with Incomplete Information.
    SIGIR 2004.
    """
    return bpref_kernel(judged, n_relevant, n_nonrelevant, rel, "trec", offset=0)


# --------------------------------------------------------------------------------------------
# adapters: from an ir_measures measure's parameters to its kernel
# --------------------------------------------------------------------------------------------


def _judged(measure: Any, ranked: RankedRun) -> JudgedList:
    """The judged documents of the list the measure sees (condensed first, then cut)."""
    return ranked.judged_list(judged_only=measure["judged_only"], cutoff=measure.params.get("cutoff"))


def _n_relevant(ranked: RankedRun, rel: int) -> np.ndarray:
    return ranked.qrels_stat(ranked.qrels.count(lo=rel))


def compute_ap(measure: Any, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    return ap_kernel(_judged(measure, ranked), _n_relevant(ranked, rel), rel)


def compute_precision(measure: Any, ranked: RankedRun) -> np.ndarray:
    return precision_kernel(_judged(measure, ranked), measure["rel"], measure["cutoff"])


def compute_recall(measure: Any, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    return recall_kernel(_judged(measure, ranked), _n_relevant(ranked, rel), rel)


def compute_success(measure: Any, ranked: RankedRun) -> np.ndarray:
    return success_kernel(_judged(measure, ranked), measure["rel"])


def compute_rr(measure: Any, ranked: RankedRun) -> np.ndarray:
    return rr_kernel(_judged(measure, ranked), measure["rel"])


def compute_rprec(measure: Any, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    return rprec_kernel(_judged(measure, ranked), _n_relevant(ranked, rel), rel)


def compute_ndcg(measure: Any, ranked: RankedRun) -> np.ndarray:
    gains = measure.params.get("gains")
    ideal = ideal_dcg(ranked.qrels, gains, measure.params.get("cutoff"))
    return ndcg_kernel(_judged(measure, ranked), ranked.qrels_stat(ideal), gains)


def compute_bpref(measure: Any, ranked: RankedRun) -> np.ndarray:
    rel = measure["rel"]
    n_nonrelevant = ranked.qrels_stat(ranked.qrels.count(lo=0, hi=rel))
    return bpref_trec_kernel(ranked.judged_list(), _n_relevant(ranked, rel), n_nonrelevant, rel)


# --------------------------------------------------------------------------------------------
# the table: measure NAME -> adapter and the parameter values it supports
# --------------------------------------------------------------------------------------------


def _any(value: Any) -> bool:
    return True


def _positive(value: Any) -> bool:
    """A cutoff or relevance level of 1 or more (``rel=0`` would make judged non-relevant
    documents relevant; pytrec_eval's meaning of it is left to pytrec_eval)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _log2(value: Any) -> bool:
    return value == "log2"


def _integer_gains(value: Any) -> bool:
    """Gains pytrec_eval can take as relabelled qrels (ir_measures' route): levels >= 0 mapped to
    integer gains >= 0 (pytrec_eval rejects a non-integer relevance)."""

    def whole(x: Any, low: int) -> bool:
        return type(x) is int and x >= low

    return isinstance(value, Mapping) and all(whole(k, 0) and whole(g, 0) for k, g in value.items())


@dataclass(frozen=True)
class StandardKernel:
    """A native kernel of an ir_measures measure and the parameter values it supports.

    ``supports`` maps each parameter the kernel handles to a check of its value; a measure with
    a parameter outside it, or a value the check refuses, has no native kernel.
    """

    compute: Callable[[Any, RankedRun], np.ndarray]
    trec_eval: str
    supports: Mapping[str, Callable[[Any], bool]]
    #: how the bounds over unjudged documents treat the measure (:mod:`..engine.bounds`)
    bounds: Optional[BoundSpec] = None

    def applies_to(self, measure: Any) -> bool:
        return all(p in self.supports and self.supports[p](v) for p, v in measure.params.items())


_RANKED = {"cutoff": _positive, "rel": _positive, "judged_only": _any}


def _ndcg_bounds_check(measure: Any) -> Optional[str]:
    """The bounds' refusal of ``gains`` that give a level <= 0 a positive gain (an unjudged
    document judged non-relevant would gain; the package's own measures refuse such gains)."""
    gains = measure.params.get("gains")
    if gains and any(k <= 0 and g > 0 for k, g in gains.items()):
        return "when gains give a non-relevant level a gain"
    return None


def _ndcg_gains(measure: Any, levels: np.ndarray) -> np.ndarray:
    return gain_of_label(levels, measure.params.get("gains"))


#: ir_measures measure NAME -> native kernel (trec_eval measure it equals, supported parameters)
STANDARD_KERNELS: Dict[str, StandardKernel] = {
    "AP": StandardKernel(
        compute_ap,
        "map, map_cut_k",
        _RANKED,
        BoundSpec(COMPLETIONS, "AP", monotone=True, per_relevant=True),
    ),
    "P": StandardKernel(compute_precision, "P_k", _RANKED, BoundSpec(EXTREMES, "P@k")),
    "R": StandardKernel(
        compute_recall,
        "recall_k",
        _RANKED,
        BoundSpec(COMPLETIONS, "R@k", monotone=True, per_relevant=True, concave=True),
    ),
    "Success": StandardKernel(compute_success, "success_k", _RANKED, BoundSpec(EXTREMES, "Success@k")),
    "RR": StandardKernel(
        compute_rr, "recip_rank (RR@k: on the list cut at k)", _RANKED, BoundSpec(EXTREMES, "RR")
    ),
    "Rprec": StandardKernel(
        compute_rprec, "Rprec", {"rel": _positive, "judged_only": _any}, BoundSpec(COMPLETIONS, "Rprec")
    ),
    "nDCG": StandardKernel(
        compute_ndcg,
        "ndcg, ndcg_cut_k",
        {"cutoff": _positive, "dcg": _log2, "gains": _integer_gains, "judged_only": _any},
        BoundSpec(
            COMPLETIONS,
            "nDCG",
            gain=_ndcg_gains,
            relevant_by_gain=True,
            monotone=True,
            check=_ndcg_bounds_check,
        ),
    ),
    "Bpref": StandardKernel(
        compute_bpref, "bpref", {"rel": _positive}, BoundSpec.refused("Bpref", SKIPS.format("bpref"))
    ),
}

#: the bounds of ir_measures measures that have no native kernel but a reason to be refused
STANDARD_REFUSED: Dict[str, BoundSpec] = {
    "infAP": BoundSpec.refused(
        "infAP", "infAP estimates from sampled judgements; its unjudged documents are part of the estimate"
    ),
}


def _registered(measure: Any, table: Mapping[str, Any]) -> Any:
    """``table[measure.NAME]`` when ``measure`` is ir_measures' measure of that name, else None."""
    import ir_measures

    name = getattr(measure, "NAME", None)
    entry = table.get(name) if isinstance(name, str) else None
    if entry is None:
        return None
    registered = ir_measures.measures.registry.get(name)
    if registered is None or not isinstance(measure, type(registered)):
        return None  # another measure that happens to share the name
    return entry


def standard_bounds(measure: Any) -> Optional[BoundSpec]:
    """How the bounds over unjudged documents treat an ir_measures measure (None: not at all)."""
    entry = _registered(measure, STANDARD_KERNELS)
    return entry.bounds if entry is not None else _registered(measure, STANDARD_REFUSED)


def kernel_for(measure: Any) -> Optional[Callable[[Any, RankedRun], np.ndarray]]:
    """The native kernel of an ir_measures measure (``compute(measure, ranked)``, one value per
    ranked query), or None when there is none for it or its parameter values."""
    entry = _registered(measure, STANDARD_KERNELS)
    return entry.compute if entry is not None and entry.applies_to(measure) else None
